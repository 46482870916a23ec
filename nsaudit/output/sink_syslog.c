// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* sink_syslog.c - records as RFC 5424 syslog messages with structured data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anchor.h"
#include "clock.h"
#include "codec.h"
#include "event_json.h"
#include "host_id.h"
#include "record_fmt.h"
#include "sink.h"
#include "sink_impl.h"

/* IANA private enterprise number 32473 is the one reserved for examples
 * and documentation (RFC 5612); an SD-ID with '@' needs one. */
#define SD_ID "nsaudit@32473"
#define FAC_AUTHPRIV 10
#define SEV_WARNING 4
#define SEV_NOTICE 5

void sd_escape(const char *in, size_t n, char *out, size_t outlen)
{
	size_t i, o = 0;

	if (!outlen)
		return;
	for (i = 0; i < n && o + 2 < outlen; i++) {
		if (in[i] == '"' || in[i] == '\\' || in[i] == ']')
			out[o++] = '\\';
		out[o++] = in[i];
	}
	out[o] = '\0';
}

/* Bytes an SD-PARAM cannot carry as they are: control bytes and bytes that
 * are not UTF-8 (RFC 5424 values are UTF-8). */
static bool needs_hex(const char *s)
{
	size_t n = strlen(s), k;

	while (n) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
		k = utf8_len((const unsigned char *)s, n);
		if (!k)
			return true;
		s += k;
		n -= k;
	}
	return false;
}

/* PARAM-NAME: 1*32 printable US-ASCII except '=', SP, ']', '"' */
static bool sd_name_ok(const char *k)
{
	size_t n = strlen(k);

	if (!n || n > 32)
		return false;
	for (; *k; k++)
		if (*k < 33 || *k > 126 || *k == '=' || *k == ']' || *k == '"')
			return false;
	return true;
}

/* 1*255 (hostname) or 1*32 (msgid) printable US-ASCII, else "-" */
static void header_field(const char *in, size_t max, char *out)
{
	size_t i;

	for (i = 0; in && in[i] && i < max; i++)
		out[i] = (in[i] > 32 && in[i] < 127) ? in[i] : '_';
	if (!i)
		out[i++] = '-';
	out[i] = '\0';
}

static void add_param(FILE *f, const char *key, const char *val)
{
	size_t n = strlen(val);
	char *esc = malloc(2 * n + 1);

	if (!esc)
		return;
	sd_escape(val, n, esc, 2 * n + 1);
	fprintf(f, " %s=\"%s\"", key, esc);
	free(esc);
}

/* An alert's "severity" (syslog level names, nsaudit/rules/) as RFC 5424's. */
static int syslog_severity(const char *s)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };
	int i;

	for (i = 0; s && i < 8; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/*
 * A string value that is not clean UTF-8 (control bytes, invalid
 * sequences): lines stay whole and UTF-8, with U+FFFD in the value and the
 * exact bytes in KEY_hex (unless the record has a field of that name).
 */
static void add_hex_param(FILE *f, struct json_object *rec, const char *key, const char *s)
{
	size_t n = strlen(s), i, o = 0;
	char *clean = malloc(3 * n + 1), *hex = malloc(2 * n + 1);
	char hexkey[64];

	if (!clean || !hex) {
		free(clean);
		free(hex);
		return;
	}
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)s[i]);
	for (i = 0; i < n;) {
		size_t k = (unsigned char)s[i] < 0x20 || s[i] == 0x7f
				   ? 0 : utf8_len((const unsigned char *)s + i, n - i);

		if (!k) {	/* a control byte, or not UTF-8 */
			memcpy(clean + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else {
			memcpy(clean + o, s + i, k);
			o += k;
			i += k;
		}
	}
	clean[o] = '\0';
	add_param(f, key, clean);
	snprintf(hexkey, sizeof(hexkey), "%s_hex", key);
	if (!json_object_object_get_ex(rec, hexkey, NULL) && sd_name_ok(hexkey))
		add_param(f, hexkey, hex);
	free(clean);
	free(hex);
}

/* The sink's own messages and the log's anchors are not tracer records:
 * they get the host's identity here, so a collector can file every line. */
static void host_params(FILE *f, struct json_object *rec)
{
	const struct host_id *h = record_host();

	if (!h || json_object_object_get_ex(rec, "machine_id", NULL))
		return;
	if (h->name[0] && !json_object_object_get_ex(rec, "host", NULL) && !needs_hex(h->name))
		add_param(f, "host", h->name);
	if (h->machine_id[0])
		add_param(f, "machine_id", h->machine_id);
	if (h->boot_id[0] && !json_object_object_get_ex(rec, "boot_id", NULL))
		add_param(f, "boot_id", h->boot_id);
}

char *syslog_format(struct json_object *rec, const char *hostname, int pid,
		    const struct sink_msg_key *mkey, const char *doc, size_t *len)
{
	struct json_object *v;
	const char *time_s = NULL, *op = NULL, *text;
	char ts[40], host[256], msgid[33], *buf = NULL, *line = NULL, anchor[256];
	size_t blen = 0, llen = 0;
	bool warn = false;
	int sev = -1;
	FILE *f, *tf;
	int64_t result = 0;

	if (json_object_object_get_ex(rec, "time", &v))
		time_s = json_object_get_string(v);
	if (json_object_object_get_ex(rec, "op", &v))
		op = json_object_get_string(v);
	if (json_object_object_get_ex(rec, "result", &v))
		result = json_object_get_int64(v);
	warn = result < 0 || (op && !strcmp(op, "lost"));
	/* an alert: the RFC 5424 severity of its rule (the same scale) */
	if (op && !strcmp(op, "alert") && json_object_object_get_ex(rec, "severity", &v))
		sev = syslog_severity(json_object_get_string(v));
	/* TIME-SECFRAC allows at most 6 digits: 2026-12-03T08:42:42.564957Z */
	if (time_s && strlen(time_s) >= 20 && time_s[19] == '.') {
		snprintf(ts, sizeof(ts), "%.26sZ", time_s);
	} else {
		char full[64];

		format_rfc3339(clock_ns(CLOCK_REALTIME), full, sizeof(full));
		snprintf(ts, sizeof(ts), "%.26sZ", full);
	}
	header_field(hostname, 255, host);
	header_field(op, 32, msgid);

	f = open_memstream(&buf, &blen);
	if (!f)
		return NULL;
	if (sev < 0)
		sev = warn ? SEV_WARNING : SEV_NOTICE;
	fprintf(f, "<%d>1 %s %s nsaudit %d %s [" SD_ID, FAC_AUTHPRIV * 8 + sev,
		ts, host, pid, msgid);
	json_object_object_foreach(rec, key, val)
	{
		const char *s;

		if (!sd_name_ok(key))
			continue;
		/* a document in MSG: here only what a collector files it by */
		if (doc && strcmp(key, "op") && strcmp(key, "host") && strcmp(key, "machine_id") &&
		    strcmp(key, "boot_id"))
			continue;
		s = json_object_get_string(val);
		if (!s)
			continue;
		if (json_object_is_type(val, json_type_string) && needs_hex(s)) {
			add_hex_param(f, rec, key, s);
			continue;
		}
		add_param(f, key, s);
	}
	host_params(f, rec);
	/* last, side by side: a collector finds them without parsing values */
	if (mkey)
		fprintf(f, " sink_run=\"%s\" sink_seq=\"%llu\"", mkey->run,
			(unsigned long long)mkey->seq);
	fputc(']', f);
	/* MSG: the readable line, without its time (the header has it); a
	 * tail anchor is its own line, so that any file template keeps it */
	if (doc) {
		fprintf(f, " %s", doc);
		tf = NULL;
	} else if (!audit_anchor_text(rec, anchor, sizeof(anchor))) {
		fprintf(f, " %s", anchor);
		tf = NULL;
	} else {
		tf = open_memstream(&line, &llen);
	}
	if (tf) {
		record_print_text(tf, rec, false);
		fclose(tf);
		text = line ? strchr(line, ' ') : NULL;
		if (text) {
			text++;
			fprintf(f, " %.*s", (int)strcspn(text, "\n"), text);
		}
		free(line);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = blen;
	return buf;
}
