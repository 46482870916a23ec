// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Issue 43: the log's anchors read back from JSON lines (audit/anchor_json.c):
 * a file sink's flat record, OCSF and ECS documents, and journalctl -o
 * json's entries. The same anchor in every form reads as the same anchor;
 * anything that is not exactly an anchor document, whatever its strings
 * spell, is none.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "anchor.h"

#define H16 "0123456789abcdef"
#define K16 "fedcba9876543210"
#define H32 "00112233445566778899aabbccddeeff"
#define FIELDS                                                                      \
	"\"log_id\":\"" H16 "\",\"key_id\":\"" K16 "\",\"segment\":2,\"epoch\":3,"  \
	"\"first_segment\":1,\"first_seq\":1,\"n\":4,\"mac\":\"" H32 "\","          \
	"\"why\":\"commit\",\"prev\":\"" H32 "\",\"amac\":\"" H32 "\""
#define TEXT                                                                         \
	"nsaudit-anchor log_id=" H16 " key_id=" K16 " seq=17 segment=2 epoch=3 "    \
	"first_segment=1 first_seq=1 n=4 mac=" H32 " why=commit prev=" H32 " amac=" H32

static const char flat[] = "{\"time\":\"2026-12-07T12:46:25Z\",\"op\":\"log\","
			   "\"action\":\"anchor\",\"seq\":17," FIELDS
			   ",\"host\":\"h\",\"machine_id\":\"" H32 "\"}";
static const char ocsf[] = "{\"time\":1,\"class_uid\":0,\"activity_id\":99,"
			   "\"activity_name\":\"log\",\"metadata\":{\"sequence\":17},"
			   "\"device\":{\"hostname\":\"h\"},\"unmapped\":{\"action\":\"anchor\","
			   FIELDS "}}";
static const char ecs[] = "{\"@timestamp\":\"2026-12-07T12:46:25Z\",\"event\":{\"action\":"
			  "\"log\",\"sequence\":17},\"ecs\":{\"version\":\"8.17.0\"},"
			  "\"nsaudit\":{\"action\":\"anchor\"," FIELDS "}}";
static const char journal[] = "{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"" TEXT
			      "\",\"NSAUDIT_ACTION\":\"anchor\",\"PRIORITY\":\"5\"}";

static void expect_anchor(const char *line)
{
	struct audit_anchor a;

	cr_assert_eq(audit_anchor_parse_line(line, strlen(line), &a), 0, "%s", line);
	cr_expect_str_eq(a.log_id, H16);
	cr_expect_str_eq(a.key_id, K16);
	cr_expect_eq(a.seq, 17);
	cr_expect_eq(a.segment, 2);
	cr_expect_eq(a.epoch, 3);
	cr_expect_eq(a.n, 4);
	cr_expect(a.chained && a.has_amac);
	cr_expect_str_eq(a.why, "commit");
}

static void expect_none(const char *line, const char *why)
{
	struct audit_anchor a;

	cr_expect_eq(audit_anchor_parse_line(line, strlen(line), &a), -1, "%s: %s", why, line);
}

Test(anchor_json, every_form_reads_as_the_same_anchor)
{
	char nl[sizeof(flat) + 2];

	expect_anchor(flat);
	expect_anchor(ocsf);
	expect_anchor(ecs);
	expect_anchor(journal);
	snprintf(nl, sizeof(nl), "%s\r\n", flat);
	expect_anchor(nl);
}

Test(anchor_json, what_is_not_exactly_an_anchor_document_is_none)
{
	/* a record: its strings may spell anything */
	expect_none("{\"op\":\"setns\",\"comm\":\"" TEXT "\"}", "a record whose comm is the text");
	expect_none("{\"op\":\"setns\",\"exe\":\"{\\\"op\\\":\\\"log\\\",\\\"action\\\":"
		    "\\\"anchor\\\",\\\"seq\\\":17," "\\\"log_id\\\":\\\"" H16 "\\\"}\"}",
		    "a record whose exe is a document");
	expect_none("{\"op\":\"setns\",\"x\":{\"op\":\"log\",\"action\":\"anchor\",\"seq\":17,"
		    FIELDS "}}", "an anchor nested where no form keeps it");
	/* the forms, each broken in one place */
	expect_none("{\"op\":\"alert\",\"action\":\"anchor\",\"seq\":17," FIELDS "}", "op not log");
	expect_none("{\"op\":\"log\",\"action\":\"seal\",\"seq\":17," FIELDS "}", "not an anchor");
	expect_none("{\"op\":\"log\",\"action\":\"anchor\"," FIELDS "}", "no seq");
	expect_none("{\"op\":\"log\",\"action\":\"anchor\",\"seq\":\"17\"," FIELDS "}",
		    "seq a string");
	expect_none("{\"class_uid\":0,\"activity_name\":\"alert\",\"metadata\":{\"sequence\":17},"
		    "\"unmapped\":{\"action\":\"anchor\"," FIELDS "}}", "OCSF: activity not log");
	expect_none("{\"event\":{\"action\":\"log\"},\"ecs\":{},\"nsaudit\":{\"action\":\"anchor\","
		    FIELDS "}}", "ECS: no event.sequence");
	expect_none("{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"" TEXT " extra\"}",
		    "journal: text after the anchor");
	expect_none("{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"x: " TEXT "\"}",
		    "journal: the text not at the start");
	/* one document a line, whole */
	expect_none("{\"op\":\"log\",\"action\":\"anchor\",\"seq\":17," FIELDS "} {}",
		    "something after the document");
	expect_none("{\"op\":\"log\",\"action\":\"anchor\",\"seq\":17," FIELDS, "cut short");
	expect_none("[{\"op\":\"log\",\"action\":\"anchor\",\"seq\":17," FIELDS "}]", "an array");
}
