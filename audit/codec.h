/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * codec.h - one record <-> one line, in both log formats.
 *
 * JSON lines: {"seq":N,...,"mac":"HEX"}
 * audit:      type=NSAUDIT msg=nsaudit(SEC.MSEC:SEQ): key=value ... mac=HEX
 *
 * The MAC covers the line's bytes before ',"mac":"' (JSON) or ' mac='
 * (audit), so verify checks exactly what is on disk and never depends on
 * re-serialising a record the same way twice.
 */
#ifndef NSAUDIT_AUDIT_CODEC_H
#define NSAUDIT_AUDIT_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chain.h"

struct json_object;

/* A growable byte buffer; oom sticks so callers check once at the end. */
struct sbuf {
	char *p;
	size_t len, cap;
	bool oom;
};
/*
 * Room for need more bytes and a NUL after len (geometric growth, from
 * 256). false if out of memory: the buffer stays as it was and oom sticks.
 */
bool sb_reserve(struct sbuf *b, size_t need);
void sb_put(struct sbuf *b, const void *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct sbuf *b);

/* How a log writes its records: JSON lines, or auditd's key=value lines. */
enum audit_format { AUDIT_FMT_JSON, AUDIT_FMT_AUDIT };

/* The longest line a reader accepts; a writer never produces more. */
#define AUDIT_MAX_LINE (1u << 20)

/*
 * JSON string body for n bytes: ", \, control bytes and DEL escaped; valid
 * UTF-8 kept; every byte that is not part of valid UTF-8 written as \u00XX
 * (0x80..0xff), which our reader turns back into that byte.
 */
void audit_json_escape(struct sbuf *b, const char *s, size_t n);
/* Whether s[0..n) is valid UTF-8 (no stray byte, no overlong or surrogate
 * form): where it is not, JSON writers add a KEY_b64 twin field. */
bool audit_utf8_valid(const char *s, size_t n);
/* auditd's untrusted-string rule: "quoted" when every byte is 0x21..0x7e
 * and not '"', else uppercase hex, unquoted. Empty is "". */
void audit_untrusted(struct sbuf *b, const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (overlongs, surrogates and values
 * past U+10FFFF are invalid), or 0. */
size_t utf8_len(const unsigned char *s, size_t n);

/*
 * For terminals (trace, search and lifetime lines, holders): printable
 * ASCII as is, a backslash doubled, every other byte \xNN -- control bytes,
 * DEL and anything non-ASCII, so that no escape sequence and no look-alike
 * character reaches the terminal from a name.
 */
void audit_text_escape(FILE *f, const char *s, size_t n);
/* The same, NUL-terminated s in double quotes, '"' written \" */
void audit_text_quote(FILE *f, const char *s);
/* The same appended to b (a search prints millions: no stdio per field) */
void audit_text_escape_sb(struct sbuf *b, const char *s, size_t n);
/*
 * A value of a key=value text line (search): the same, in double quotes
 * ('"' written \") when it holds a space or a quote, so that no name can
 * pass for more fields of the line (a path "/x actor_container=host").
 */
void audit_text_value_sb(struct sbuf *b, const char *s, size_t n);
/* The same into buf (truncated at a whole escape); returns buf. */
const char *audit_text_escape_buf(const char *s, char *buf, size_t len);

/* Any JSON value with the escaping above (no newline). */
void audit_json_object(struct sbuf *b, struct json_object *o);

/* Serialise rec with seq and the chained MAC over prev into one line
 * (ending in '\n'). 0, or -1 when out of memory / over AUDIT_MAX_LINE. */
int audit_encode(enum audit_format fmt, struct json_object *rec, uint64_t seq,
		 const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		 struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN]);
/* The same with any record MAC (chain.h): audit_encode is the BLAKE2b one
 * (format versions 1 and 2). */
int audit_encode_chain(enum audit_format fmt, struct json_object *rec, uint64_t seq,
		       struct audit_chain *c, const uint8_t *prev, struct sbuf *out,
		       uint8_t mac[AUDIT_MAC_LEN]);

struct audit_flat;

struct audit_rec {
	struct json_object *obj; /* every field incl. "seq", without "mac" */
	const struct audit_flat *flat; /* or a line read flat (audit_rec_flat) */
	const char *raw; /* or a line taken whole, fields unread (audit_rec_plain) */
	uint64_t seq;
	uint8_t mac[AUDIT_MAC_LEN]; /* as stored in the line */
	size_t mac_len;		    /* its bytes: 32 (BLAKE2b) or 16 (Poly1305) */
	size_t body_len;	    /* bytes of the line the MAC covers */
	enum audit_format fmt;
	/* a light record (obj NULL: verify's fast path, verify_light.c) has
	 * these two fields only; audit_rec_str() answers from them */
	char light_time[40];
	char light_op[24];
};

/* Parse one line (without its '\n'). 0, or -1 with why in err. Never
 * trusts the input: any byte sequence gives a record or an error. */
int audit_rec_parse(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen);
void audit_rec_free(struct audit_rec *r);

/* The JSON line (without its '\n') as audit_rec_parse() reads it, checked
 * without building it (codec_json_read.c: the one reader): 0 and its seq
 * when audit_rec_parse() would accept it, else -1 with why in err. */
int audit_json_check(const char *line, size_t len, uint64_t *seq, char *err, size_t errlen);

/* Its short way alone (codec_json_plain.c): 0 when the line is plain
 * (printable ASCII, no backslash: every key and value spelt as itself) and
 * flat, which audit_json_check() accepts with the same seq; -1 says
 * nothing either way (the full walk decides). */
int audit_json_plain_check(const char *line, size_t len, uint64_t *seq);

/*
 * A JSON line spelled exactly as the writer spells it, taken as a record
 * without json-c (codec_flat.c): its fields where they lie, strings decoded
 * into a copy. The line's own bytes before ,"mac" and a '}' are then its
 * JSON output. 0 with r a flat record (obj NULL, flat fl; valid while line
 * and fl are), or -1: parse the line with audit_rec_parse instead (which
 * accepts every line this does, with the same fields and values).
 */
enum audit_flat_type { AUDIT_FLAT_STR, AUDIT_FLAT_INT, AUDIT_FLAT_LIT };
#define AUDIT_FLAT_FIELDS 64
struct audit_flat_field {
	const char *key; /* NUL-terminated, klen bytes */
	const char *val; /* string: decoded; else as spelled ("42", "true", "null");
			  * NUL-terminated after vlen bytes */
	uint32_t klen, vlen;
	enum audit_flat_type type;
};
struct audit_flat {
	const char *line;
	char *buf; /* the line's copy, strings decoded in place */
	size_t cap, n;
	bool plain; /* every byte printable ASCII, no backslash */
	struct sbuf dec, esc;
	struct audit_flat_field f[AUDIT_FLAT_FIELDS];
};
int audit_rec_flat(const char *line, size_t len, struct audit_flat *fl, struct audit_rec *r);
/*
 * A line the one reader takes by its structure alone (codec_json_plain.c),
 * taken whole: r->raw is the line, with seq, mac, body_len and fmt; no
 * field is read (audit_rec_str and audit_rec_int answer none). Flat, it
 * would be taken too, its JSON the same bytes before ,"mac" (a search
 * that prints every record needs nothing else). 0, or -1: read it the
 * other ways.
 */
int audit_rec_plain(const char *line, size_t len, struct audit_rec *r);
/* An AUDIT_FLAT_INT field's value. */
int64_t audit_flat_int(const struct audit_flat_field *f);
/* The field named key, or NULL. */
const struct audit_flat_field *audit_flat_get(const struct audit_flat *fl, const char *key);
void audit_flat_free(struct audit_flat *fl);

/* Field helpers on a parsed record: string (NULL if absent or not a
 * string), integer (false if absent or not an integer). */
const char *audit_rec_str(const struct audit_rec *r, const char *key, size_t *len);
bool audit_rec_int(const struct audit_rec *r, const char *key, int64_t *v);

/* The run id a record declares (format version 3: "run", 16 lowercase hex
 * digits): true and run filled, or false. */
bool audit_rec_run(const struct audit_rec *r, uint8_t run[AUDIT_RUN_LEN]);

/* RFC 3339 with optional fraction and Z or +hh:mm; nanoseconds since the
 * epoch. 0 or -1. */
int audit_time_parse(const char *s, int64_t *ns);
/* "2026-12-03T08:40:00.123456789Z" for now. */
void audit_time_now(char buf[40]);

#endif
