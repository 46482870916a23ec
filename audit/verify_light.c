// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_light.c - verify's fast path: an ordinary record checked without
 * parsing it.
 *
 * Nearly every record of a log is a kernel event, and a MAC that matches
 * proves that the line is what the recorder wrote: canonical JSON with
 * seq, time and op as its first members and the MAC last. Of such a record
 * the walk needs only those. So the line is scanned for them and its MAC
 * checked with the chain as it stands; only if it matches is the record
 * taken as a light one. The log's own records (headers, starts, seals: the
 * only ones that carry an epoch or a run) and lost records go the full way
 * (the walk reads their other fields), and so does every line the scan or
 * the MAC refuses (malformed, changed, out of order, or MAC'd with another
 * epoch's key): its findings are those of the full walk. A light record is
 * one the holder of the current key wrote, who could have written any; so
 * the MAC is not enough: the line must also be one the full parser reads,
 * the same way (audit_json_check, the one reader: a duplicate "op", raw
 * bytes that are not UTF-8, `"pid":0123` go the full way and are findings
 * there, never intact here and damaged to search).
 */
#include <string.h>

#include <sodium.h>

#include "verify_impl.h"

/* ,"KEY":"VALUE" at *p, VALUE plain (no escapes, no controls) and short. */
static bool scan_str(const char **p, const char *end, const char *key, char *out, size_t max)
{
	size_t n = strlen(key), i = 0;

	if ((size_t)(end - *p) < n || memcmp(*p, key, n))
		return false;
	for (*p += n; *p < end && **p != '"'; (*p)++) {
		if (i + 1 >= max || **p == '\\' || (unsigned char)**p < 0x20)
			return false;
		out[i++] = **p;
	}
	if (*p >= end)
		return false;
	out[i] = '\0';
	(*p)++;
	return true;
}

/* {"seq":N at the start, N without leading zeros and without overflow. */
static bool scan_seq(const char **p, const char *end, uint64_t *seq)
{
	static const char head[] = "{\"seq\":";

	if ((size_t)(end - *p) < sizeof(head) || memcmp(*p, head, sizeof(head) - 1))
		return false;
	*p += sizeof(head) - 1;
	if (**p < '1' || **p > '9')
		return false;
	for (*seq = 0; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
		if (*seq > (UINT64_MAX - 9) / 10)
			return false;
		*seq = *seq * 10 + (uint64_t)(**p - '0');
	}
	return true;
}

bool walk_light_record(struct walk *w, uint64_t lineno, const char *line, size_t len,
		       struct audit_rec *r)
{
	static const char pre[] = ",\"mac\":\"";
	size_t ml = w->mac_len, tail = sizeof(pre) - 1 + 2 * ml + 2;
	uint8_t key[AUDIT_KEY_LEN], mac[AUDIT_MAC_LEN];
	char hex[AUDIT_MAC_HEX + 1], err[8];
	const char *p = line, *body_end;
	uint64_t seq, parsed;

	/* a header, or a record after a finding: the full way */
	if (lineno == 1 || w->resync || !w->have_prev || !ml || len < tail + 16)
		return false;
	memset(r, 0, sizeof(*r));
	body_end = line + len - tail;
	if (!scan_seq(&p, body_end, &seq) || seq != w->expect ||
	    !scan_str(&p, body_end, ",\"time\":\"", r->light_time, sizeof(r->light_time)) ||
	    !scan_str(&p, body_end, ",\"op\":\"", r->light_op, sizeof(r->light_op)) ||
	    !strcmp(r->light_op, "log") || !strcmp(r->light_op, "lost"))
		return false;
	if (memcmp(body_end, pre, sizeof(pre) - 1) || memcmp(line + len - 2, "\"}", 2))
		return false;
	/* the key as check_mac() takes it; out of reach: the full way */
	if (audit_keyring_get(&w->kr, w->sealed ? w->epoch : 0, key))
		return false;
	audit_chain_use(&w->chain, audit_mac_kind(w->log_version), key);
	sodium_memzero(key, sizeof(key));
	r->body_len = (size_t)(body_end - line);
	audit_chain_mac(&w->chain, seq, w->prev, line, r->body_len, mac);
	/* compared as the recorder writes it (lowercase hex): no decoding */
	audit_hex(mac, ml, hex);
	if (sodium_memcmp(hex, body_end + sizeof(pre) - 1, 2 * ml))
		return false;
	if (audit_json_check(line, len, &parsed, err, sizeof(err)) || parsed != seq)
		return false;
	r->seq = seq;
	memcpy(r->mac, mac, ml);
	r->mac_len = ml;
	r->fmt = AUDIT_FMT_JSON;
	return true;
}
