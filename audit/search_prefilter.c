// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search_prefilter.c - reject a log line that a search filter cannot match
 * before it is parsed.
 *
 * Parsing a record with json-c costs microseconds; most searches match few
 * of the millions of lines a log holds. The writer spells every record one
 * way (codec_json.c: no white space outside strings, integers in plain
 * decimal, strings escaped only where JSON requires it). For a line in that
 * canonical spelling a condition of the filter can only hold when a needle
 * derived from it appears in the line: --pid 42 needs `"pid":42` followed
 * by a non-digit, --op setns needs `"op":"setns"`. A line without the
 * needle is rejected unparsed. Anything else is parsed and matched in full
 * (audit_filter_match), so the prefilter never changes what matches:
 *   - a line with a backslash (an escape: a key or value spelt another
 *     way), or the audit format, of which only the time is looked at (see
 *     audit_fmt_may_match);
 *   - a line the one reader (codec_json_read.c) refuses: the parse
 *     reports it as damaged. So before a line is rejected unparsed, it is
 *     checked to be a record the parser accepts: a line that is not (a
 *     duplicate field, `"pid":0123`, raw bytes that are not UTF-8) is never
 *     skipped silently;
 *   - a condition whose value has no single spelling (a comm with bytes
 *     JSON escapes).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "needle.h"
#include "nstype.h"
#include "search.h"

/* Does needle occur in line with no digit right after it? */
static bool has_number(const char *line, size_t len, const char *needle, size_t nl)
{
	const char *p = line, *end = line + len, *q;
	struct audit_needle nd;

	audit_needle_init(&nd, needle, nl);
	while ((q = audit_needle_find(&nd, p, (size_t)(end - p)))) {
		q += nl;
		if (q == end || *q < '0' || *q > '9')
			return true;
		p = q;
	}
	return false;
}

static bool has_str(const char *line, size_t len, const char *needle, size_t nl)
{
	struct audit_needle nd;

	audit_needle_init(&nd, needle, nl);
	return audit_needle_find(&nd, line, len) != NULL;
}

/* A value whose JSON string spelling is the value itself. */
static bool plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' ||
		    *s == '\\')
			return false;
	return true;
}

/*
 * a, b and c one after another into buf (cap bytes, NUL-terminated): the
 * length, or -1 when they do not fit. The needles are made per line and filter
 * (snprintf took a tenth of a search that matched nothing).
 */
static int cat3(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	if (la + lb + lc >= cap)
		return -1;
	memcpy(buf, a, la);
	memcpy(buf + la, b, lb);
	memcpy(buf + la + lb, c, lc);
	buf[la + lb + lc] = '\0';
	return (int)(la + lb + lc);
}

/* v in decimal, in buf (24 bytes): the string */
static const char *dec(char *buf, uint64_t v, bool neg)
{
	char *p = buf + 23;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	return p;
}

static bool op_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	char needle[64];
	unsigned int o;

	if (f->op_log && has_str(line, len, "\"op\":\"log\"", 10))
		return true;
	if (f->op_alert && has_str(line, len, "\"op\":\"alert\"", 12))
		return true;
	for (o = 1; o < 32; o++) {
		const char *name;
		int n;

		if (!(f->ops & (1u << o)) || !(name = op_name(o)))
			continue;
		n = cat3(needle, sizeof(needle), "\"op\":\"", name, "\"");
		if (n > 0 && has_str(line, len, needle, (size_t)n))
			return true;
	}
	return false;
}

static bool ns_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	char needle[48], num[24];
	size_t i;

	/* ns_inum or old_inum: both end in `_inum":`; ns_id, old_ns_id in
	 * `ns_id":` (as do actor_*ns_id: a line too many is parsed, no harm) */
	for (i = 0; i < f->n_ns; i++) {
		int n;

		if (f->ns[i].inum) {
			n = cat3(needle, sizeof(needle), "_inum\":", dec(num, f->ns[i].inum, false),
				 "");
			if (has_number(line, len, needle, (size_t)n))
				return true;
		}
		if (f->ns[i].id) {
			n = cat3(needle, sizeof(needle), "ns_id\":", dec(num, f->ns[i].id, false), "");
			if (has_number(line, len, needle, (size_t)n))
				return true;
		}
	}
	return false;
}

static bool int_may_match(const char *line, size_t len, const char *key, long v)
{
	char needle[48], head[24], num[24];
	int n = cat3(head, sizeof(head), "\"", key, "\":");

	if (n >= 0)
		n = cat3(needle, sizeof(needle), head, "",
			 dec(num, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0));
	return n < 0 || has_number(line, len, needle, (size_t)n);
}

static bool int_any_may_match(const char *line, size_t len, const char *key, const long *v,
			      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (int_may_match(line, len, key, v[i]))
			return true;
	return false;
}

/*
 * The needle "key":"value" of a string condition, made once and kept (per
 * thread) while the same key and value come again, as they do for every
 * line of a search: making it took a tenth of a search that matched
 * nothing. Kept by the value's pointer and checked against a copy of its
 * bytes, so a value changed in place, or another at the same address,
 * makes a new one. len -1: the value has no single spelling (JSON escapes
 * it) or no needle fits.
 */
struct str_needle {
	const char *key, *want;
	char copy[512];
	char needle[600];
	int len;
	struct audit_needle nd; /* of needle, when len >= 0 */
};

static const struct str_needle *str_needle_of(const char *key, const char *want, size_t slot)
{
	static __thread struct str_needle kept[2 * AUDIT_FILTER_ANY_MAX];
	struct str_needle *sn = &kept[slot % (2 * AUDIT_FILTER_ANY_MAX)];
	size_t wl;
	char head[24];
	int k;

	/* one pass over the value (a copy too long to keep has want NULL) */
	if (sn->key == key && sn->want == want && !strcmp(sn->copy, want))
		return sn;
	wl = strlen(want);
	sn->key = key;
	sn->want = want;
	sn->copy[0] = '\0';
	sn->len = -1;
	if (wl >= sizeof(sn->copy))
		sn->want = NULL; /* not kept: made again next time */
	else
		memcpy(sn->copy, want, wl + 1);
	if (!plain(want))
		return sn;
	k = cat3(head, sizeof(head), "\"", key, "\":\"");
	if (k >= 0)
		k = cat3(sn->needle, sizeof(sn->needle), head, want, "\"");
	sn->len = k;
	if (k > 0)
		audit_needle_init(&sn->nd, sn->needle, (size_t)k);
	return sn;
}

/* "key":"value" for one of want[0..n); a value JSON escapes: parse in full.
 * slot0: where this key's needles are kept (str_needle_of). */
static bool str_any_may_match(const char *line, size_t len, const char *key,
			      const char *const *want, size_t n, size_t slot0)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct str_needle *sn = str_needle_of(key, want[i], slot0 + i);

		if (sn->len <= 0 || audit_needle_find(&sn->nd, line, len))
			return true;
	}
	return false;
}

/*
 * The record's "time", when the filter has a range: outside it, no match.
 * needle (nl bytes) opens the value, which ends at the next '"'; it is
 * looked for in the first window bytes, where the writer puts it.
 */
static bool time_may_match(const struct audit_filter *f, const char *line, size_t len,
			   const char *needle, size_t nl, size_t window)
{
	const char *t = memmem(line, len < window ? len : window, needle, nl), *q;
	char buf[48];
	int64_t ns;

	if (!t)
		return true; /* not where the writer puts it: parse in full */
	t += nl;
	q = memchr(t, '"', (size_t)(line + len - t));
	if (!q || (size_t)(q - t) >= sizeof(buf))
		return true;
	memcpy(buf, t, (size_t)(q - t));
	buf[q - t] = '\0';
	if (audit_time_parse(buf, &ns))
		return true; /* no time: audit_filter_match rejects it itself */
	return !(f->has_since && ns < f->since_ns) && !(f->has_until && ns > f->until_ns);
}

/*
 * A line of the audit format (codec_audit.c): only the time range is
 * looked at. Its time is a quoted string there (every byte printable, no
 * space, no quote), and any value with a space or a quote is written in
 * hex, so ` time="` cannot occur inside another field's value; the codec
 * refuses a line that has the field twice.
 */
static bool audit_fmt_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	static const char head[] = "type=NSAUDIT msg=nsaudit(";
	struct audit_rec r;
	char err[8];

	if (!f->has_since && !f->has_until)
		return true;
	if (len < sizeof(head) - 1 || memcmp(line, head, sizeof(head) - 1))
		return true;
	if (time_may_match(f, line, len, " time=\"", 7, 128))
		return true;
	/* rejected unparsed only if the parser reads it: else it is reported
	 * as damaged (this format is the rare one; the parse is affordable) */
	if (audit_rec_parse(line, len, &r, err, sizeof(err)))
		return true;
	audit_rec_free(&r);
	return false;
}

/* No condition at all (search printing everything): no line to reject.
 * A condition missed here only costs time: the full match decides. */
static bool no_condition(const struct audit_filter *f)
{
	return !f->ops && !f->op_log && !f->op_alert && !f->types && !f->rule && !f->severity &&
	       !f->n_ns && !f->n_pid && !f->n_uid && !f->n_comm && !f->n_exe && !f->result &&
	       !f->container && !f->has_since && !f->has_until;
}

/* {"seq":N,"time":"...": the top level's time, never a nested one */
static bool json_time_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	static const char head[] = "{\"seq\":";
	size_t i = sizeof(head) - 1;

	if (len < i || memcmp(line, head, i))
		return true;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	if (len - i < 9 || memcmp(line + i, ",\"time\":\"", 9))
		return true;
	return time_may_match(f, line + i, len - i, ",\"time\":\"", 9, 9);
}

static bool json_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	char needle[600];
	int n;

	if ((f->ops || f->op_log || f->op_alert) && !op_may_match(f, line, len))
		return false;
	/* --rule, --severity: alerts only, of that rule */
	if ((f->rule || f->severity) && !has_str(line, len, "\"op\":\"alert\"", 12))
		return false;
	if (f->rule && plain(f->rule)) {
		n = cat3(needle, sizeof(needle), "\"rule\":\"", f->rule, "\"");
		if (n > 0 && !has_str(line, len, needle, (size_t)n))
			return false;
	}
	if (f->n_ns && !ns_may_match(f, line, len))
		return false;
	if (f->n_pid && !int_any_may_match(line, len, "pid", f->pid, f->n_pid))
		return false;
	if (f->n_uid && !int_any_may_match(line, len, "uid", f->uid, f->n_uid))
		return false;
	if (f->n_comm && !str_any_may_match(line, len, "comm", f->comm, f->n_comm, 0))
		return false;
	if (f->n_exe && !str_any_may_match(line, len, "exe", f->exe, f->n_exe,
						  AUDIT_FILTER_ANY_MAX))
		return false;
	/* every field --container looks at holds the value as written */
	if (f->container && plain(f->container) &&
	    !has_str(line, len, f->container, strlen(f->container)))
		return false;
	if ((f->has_since || f->has_until) && !json_time_may_match(f, line, len))
		return false;
	return true;
}

bool audit_filter_is_empty(const struct audit_filter *f)
{
	static const struct audit_filter none;

	return !memcmp(f, &none, sizeof(none));
}

bool audit_filter_may_match(const struct audit_filter *f, const char *line, size_t len)
{
	char err[8];
	uint64_t seq;

	if (no_condition(f))
		return true;
	if (!len || line[0] != '{')
		return audit_fmt_may_match(f, line, len);
	/* the needles are sound on a line without escapes that the parser
	 * reads; only such a line is rejected unparsed. The usual one, plain
	 * (no backslash at all) and flat, is told by the one reader's short
	 * way, after the needles (the cheaper test); any other line as before */
	if (json_may_match(f, line, len))
		return true;
	if (!audit_json_plain_check(line, len, &seq))
		return false;
	return memchr(line, '\\', len) || audit_json_check(line, len, NULL, err, sizeof(err));
}
