/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * anchor.h - tail anchors: the chain head (log, seq, segment, mac) sent off
 * the host through the sinks, and read back from what a syslog daemon or
 * auditd wrote, so that verify can prove nothing up to it was cut.
 *
 * In syslog the anchor is the message text itself, so that it survives any
 * file template (structured data often does not):
 *   nsaudit-anchor log_id=HEX16 key_id=HEX16 seq=N segment=N epoch=N
 *                  first_segment=N first_seq=N n=N mac=HEX why=WORD
 *                  prev=HEX32 amac=HEX32
 * (first_segment and amac since anchors authenticate, first_seq, n and
 * prev since they are chained (v3); older lines lack them)
 * In the audit trail it is an AUDIT_USER message whose text starts
 *   op="log" action="anchor" log_id="HEX16" key_id="HEX16" seq=N segment=N mac="HEX64" ...
 * A file sink writes it as a JSON document, read back by its structure
 * (anchor_json.c).
 * Every field is hex or decimal: no process name can hold a well-formed
 * anchor line (the parser wants exactly these fields, in this order, and
 * nothing but known ones after them).
 */
#ifndef NSAUDIT_AUDIT_ANCHOR_H
#define NSAUDIT_AUDIT_ANCHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain.h"

struct json_object;

struct audit_anchor {
	char log_id[AUDIT_KEY_ID_HEX + 1];
	char key_id[AUDIT_KEY_ID_HEX + 1];
	uint64_t seq, epoch;
	unsigned int segment;
	uint8_t mac[AUDIT_MAC_LEN];
	size_t mac_len; /* 32 or 16 (format version 3) */
	uint64_t line; /* in the file it was read from */
	const char *file; /* that file, as given to verify (verify sets it) */
	unsigned int first_segment; /* the oldest segment retained then (0: not said) */
	uint8_t amac[AUDIT_TAG_LEN]; /* the anchor's own MAC, with its epoch's key */
	bool has_amac;
	char why[16];  /* start, seal, close, commit, end ("" if not said) */
	bool why_auth; /* amac covers why (v2); verify sets it */
	/* v3, the chain: the anchor's number in its log (from 1, across
	 * restarts), the amac of anchor n-1 (zeros for n=1) and the oldest
	 * record retained when it was sent (with first_segment) */
	uint64_t n, first_seq;
	uint8_t prev[AUDIT_TAG_LEN];
	bool chained;
};

/*
 * An anchor authenticates itself: amac is BLAKE2b-128 keyed with K(epoch)
 * (the key of the epoch it names; a static key in a log without sealing)
 * over its canonical text, so that a line anyone can log ("logger
 * nsaudit-anchor ...") is told apart from one the recorder sent. v2 (why
 * set) also covers why, so that "this log was closed" is authentic; v1
 * (why empty, older anchors) does not. v3 (chained) also covers n, prev
 * and first_seq: each anchor names the one before it, so that an anchor
 * deleted from the middle of the stream is seen.
 */
#define AUDIT_ANCHOR_CANON_MAX 256
int audit_anchor_canon(const struct audit_anchor *a, char out[AUDIT_ANCHOR_CANON_MAX]);
void audit_anchor_mac(const struct audit_anchor *a, const uint8_t key[AUDIT_KEY_LEN],
		      uint8_t out[AUDIT_TAG_LEN]);

/* The syslog message text of an anchor record (the log's "anchor" json);
 * 0, or -1 when rec is not a well-formed anchor. */
int audit_anchor_text(struct json_object *rec, char *out, size_t outlen);

/*
 * A line that is one JSON document holding one of the log's anchors: a
 * file sink's (flat, OCSF or ECS) or journalctl -o json's. 0 with the
 * anchor's syslog text in out, or -1 (not such a document).
 */
int audit_anchor_json_text(const char *line, size_t len, char *out, size_t outlen);

/* Every anchor in a syslog, auditd or JSON lines file, in file order (malloc'd).
 * 0, or -1 with err (unreadable file). */
int audit_anchor_read(const char *path, struct audit_anchor **out, size_t *n, char *err,
		      size_t errlen);

/* One line; 0 when it holds an anchor (exposed for the unit tests). */
int audit_anchor_parse_line(const char *line, size_t len, struct audit_anchor *a);

#endif
