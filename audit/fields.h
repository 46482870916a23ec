/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fields.h - one record written straight into its line, without an
 * object tree: the seq prefix, the fields as JSON ("key":value) or
 * auditd style (key=value), the chained MAC suffix. This is the hot path
 * of "nsaudit record" and "nsaudit trace --format json".
 *
 * The bytes are exactly those audit_encode() writes for the same record:
 * untrusted strings go through the one JSON escaper (audit_json_escape:
 * quotes, backslash and control bytes escaped, valid UTF-8 kept, every
 * other byte as \u00XX) or auditd's rule (audit_untrusted); numbers are
 * plain decimal.
 *
 * The same calls can fill a json-c object instead (audit_fields_object),
 * for the consumers that want one (sinks, the text renderer): one
 * definition of a record's fields for every output.
 */
#ifndef NSAUDIT_AUDIT_FIELDS_H
#define NSAUDIT_AUDIT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

struct json_object;

/* Where the fields of one record go. */
struct audit_fields {
	struct sbuf *b;		 /* a line being written in format fmt, or */
	enum audit_format fmt;
	struct json_object *obj; /* non-NULL: members of this object */
};

/* Fields into the line being written in b (after audit_line_begin). */
void audit_fields_line(struct audit_fields *f, struct sbuf *b, enum audit_format fmt);
/* Fields as members of obj (values hold the exact bytes, unescaped). */
void audit_fields_object(struct audit_fields *f, struct json_object *obj);

/*
 * One field each; key is a string literal of [a-z0-9_] (written as is).
 * audit_f_str takes untrusted bytes: at most n, and never past a NUL.
 */
void audit_f_str(struct audit_fields *f, const char *key, const char *s, size_t n);
void audit_f_u64(struct audit_fields *f, const char *key, uint64_t v);
void audit_f_i64(struct audit_fields *f, const char *key, int64_t v);
void audit_f_bool(struct audit_fields *f, const char *key, bool v);

/*
 * Start a record at the end of b: {"seq":N (JSON) or
 * type=NSAUDIT msg=nsaudit(SEC.MSEC:N): (audit; time_ns is the record's
 * time). The fields follow, then audit_line_end or audit_line_close.
 */
void audit_line_begin(struct sbuf *b, enum audit_format fmt, uint64_t seq, int64_t time_ns);

/*
 * Seal the record that starts at offset start of b: the chained MAC over
 * prev || its bytes so far (the definition in chain.h), then the mac field
 * and '\n'. 0, or -1 when out of memory or past AUDIT_MAX_LINE (b is then
 * cut back to start).
 */
int audit_line_end(struct sbuf *b, size_t start, enum audit_format fmt,
		   const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		   uint8_t mac[AUDIT_MAC_LEN]);

/* End a JSON record without a MAC ("nsaudit trace --format json"): "}\n". */
void audit_line_close(struct sbuf *b);

#endif
