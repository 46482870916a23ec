/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* codec_impl.h - what the codec's parts (codec*.c) share; not a public API. */
#ifndef NSAUDIT_AUDIT_CODEC_IMPL_H
#define NSAUDIT_AUDIT_CODEC_IMPL_H

#include <stdint.h>

#include "codec.h"

struct json_object;

/* A cursor over one line being parsed; errors go to err. */
struct cur {
	const char *p, *end;
	char *err;
	size_t errlen;
	const char *start;
};

/* codec_json_read.c: a JSON number at c (also the audit format's bare numbers) */
struct json_object *codec_json_number(struct cur *c);

/* codec_json_read.c: the JSON string at c->p (on its opening quote) decoded
 * into b, as the parser decodes it ("\u00XX" is byte XX). 0 or -1. */
int codec_json_string(struct cur *c, struct sbuf *b);

/* codec_json_read.c: the line's closing ,"mac":"HEX"} into r (mac, mac_len,
 * body_len) and its length into *tail. 0, or -1 if it has none. r NULL:
 * only whether it has one (the hex checked, not decoded). */
int codec_json_mac_tail(const char *line, size_t len, struct audit_rec *r, size_t *tail);

/* codec_json_plain.c: 0 and the line's seq when the line is plain (printable
 * ASCII, no backslash) and flat, which the full reader then accepts with
 * that seq; -1 when the full walk must decide. */
int codec_json_plain_check(const char *line, size_t len, uint64_t *seq);

/* codec_json_plain.c, for tests: the quotes and digits of s[0..n) as bits
 * (qm, dm: bit i of word i / 64), by how: 0 a byte at a time, 1 SSE2 (or
 * its portable form), 2 AVX2; 1 when every byte is plain, 0 when not, -1
 * when this CPU or build has no such way. */
int codec_json_plain_bits(const char *s, size_t n, uint64_t *qm, uint64_t *dm, int how);

/* codec_json.c: v as JSON text (depth bounds the recursion) */
void codec_json_value(struct sbuf *b, struct json_object *v, int depth);

/* One format's half of audit_encode(), without its final checks. */
void codec_encode_json(struct json_object *rec, uint64_t seq, struct audit_chain *c,
		       const uint8_t *prev, struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN]);
void codec_encode_audit(struct json_object *rec, uint64_t seq, struct audit_chain *c,
			const uint8_t *prev, struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN]);

/* One format's half of audit_rec_parse(), after its common checks. */
int codec_parse_json(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen);
int codec_parse_audit(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen);

#endif
