// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_escape.c - untrusted bytes (comm, exe, paths, names) made safe for a
 * JSON string, an auditd field and a terminal.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"

size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool audit_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, u;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		u = utf8_len(s + i, n - i);
		if (!u)
			return false;
		i += u;
	}
	return true;
}

void audit_json_escape(struct sbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t u, run;

		/* plain printable ASCII goes in one piece: this is the
		 * recorder's hot path, one call per byte was a tenth of it */
		for (run = i;
		     run < n && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' && s[run] != '\\';
		     run++)
			;
		if (run > i) {
			sb_put(b, s + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '"':
			sb_put(b, "\\\"", 2);
			break;
		case '\\':
			sb_put(b, "\\\\", 2);
			break;
		case '\n':
			sb_put(b, "\\n", 2);
			break;
		case '\r':
			sb_put(b, "\\r", 2);
			break;
		case '\t':
			sb_put(b, "\\t", 2);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				sb_printf(b, "\\u%04x", c);
				break;
			}
			u = c < 0x80 ? 1 : utf8_len(s + i, n - i);
			if (!u) { /* a stray byte: keep it, as \u00XX */
				sb_printf(b, "\\u%04x", c);
				break;
			}
			sb_put(b, s + i, u);
			i += u;
			continue;
		}
		i++;
	}
}

void audit_untrusted(struct sbuf *b, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '"' || s[i] < 0x21 || s[i] > 0x7e)
			break;
	if (i == n) {
		sb_put(b, "\"", 1);
		sb_put(b, s, n);
		sb_put(b, "\"", 1);
		return;
	}
	for (i = 0; i < n; i++) {
		char two[2] = {hex[s[i] >> 4], hex[s[i] & 15]};

		sb_put(b, two, 2);
	}
}

/* The one rule for terminals, per byte: see audit_text_escape(). */
static size_t text_byte(unsigned char c, bool quoted, char out[5])
{
	if (c == '\\' || (quoted && c == '"')) {
		out[0] = '\\';
		out[1] = (char)c;
		out[2] = '\0';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		out[1] = '\0';
		return 1;
	}
	snprintf(out, 5, "\\x%02x", c);
	return 4;
}

void audit_text_escape(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char e[5];
	size_t i = 0, run;

	while (i < n) {
		/* printable runs in one piece: a search prints millions */
		for (run = i; run < n && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '\\'; run++)
			;
		if (run > i) {
			fwrite(s + i, 1, run - i, f);
			i = run;
			continue;
		}
		text_byte(s[i++], false, e);
		fputs(e, f);
	}
}

static void text_escape_sb(struct sbuf *b, const char *str, size_t n, bool quoted)
{
	const unsigned char *s = (const unsigned char *)str;
	char *o;
	size_t i;

	/* room for the worst case (every byte \xNN, and the quotes), then
	 * written in place */
	if (n > SIZE_MAX / 4 - 3 || !sb_reserve(b, 4 * n + 2))
		return;
	o = b->p + b->len;
	if (quoted)
		*o++ = '"';
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\' && !(quoted && c == '"')) {
			*o++ = (char)c;
		} else {
			o += text_byte(c, quoted, o);
		}
	}
	if (quoted)
		*o++ = '"';
	b->len = (size_t)(o - b->p);
	b->p[b->len] = '\0';
}

void audit_text_escape_sb(struct sbuf *b, const char *str, size_t n)
{
	text_escape_sb(b, str, n, false);
}

void audit_text_value_sb(struct sbuf *b, const char *str, size_t n)
{
	text_escape_sb(b, str, n, memchr(str, ' ', n) || memchr(str, '"', n));
}

void audit_text_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char e[5];

	fputc('"', f);
	for (; *s; s++) {
		text_byte(*s, true, e);
		fputs(e, f);
	}
	fputc('"', f);
}

const char *audit_text_escape_buf(const char *str, char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0, k;
	char e[5];

	for (; *s; s++) {
		k = text_byte(*s, false, e);
		if (n + k >= len)
			break; /* never half an escape */
		memcpy(buf + n, e, k);
		n += k;
	}
	if (len)
		buf[n] = '\0';
	return buf;
}
