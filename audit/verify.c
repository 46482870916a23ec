// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify.c - the verifier of the log library: walk every segment in order,
 * recompute the MAC chain and name the first thing that is wrong.
 * "nsaudit verify" (loader/cmd_verify.c) prints its verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "segment.h"
#include "verify.h"

struct walk {
	struct audit_verify *v;
	int dirfd;
	uint8_t key[AUDIT_KEY_LEN];
	char key_id[AUDIT_KEY_ID_HEX + 1];
	struct audit_state st;
	bool have_state, state_seen;
	bool have_prev; /* prev/expect are from a verified record */
	uint8_t prev[AUDIT_MAC_LEN];
	uint64_t expect;
	unsigned int max_dropped; /* segments <= this were removed by rotation */
	unsigned int *moved;	  /* segments a "missing" record accounts for */
	size_t nmoved;
	bool bad;
};

static int bad(struct walk *w, const char *seg, uint64_t line, uint64_t seq, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int bad(struct walk *w, const char *seg, uint64_t line, uint64_t seq, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (line)
		snprintf(w->v->where, sizeof(w->v->where), "%s line %" PRIu64, seg, line);
	else
		snprintf(w->v->where, sizeof(w->v->where), "%s", seg);
	w->v->bad_seq = seq;
	va_start(ap, fmt);
	vsnprintf(w->v->what, sizeof(w->v->what), fmt, ap);
	va_end(ap);
	/* Names from the log (key_id, field names) are untrusted: the report
	 * stays one line, without terminal escapes. */
	for (p = w->v->what; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	w->bad = true;
	return -1;
}

static bool is_log(const struct audit_rec *r, const char *action)
{
	const char *op = audit_rec_str(r, "op", NULL), *a = audit_rec_str(r, "action", NULL);

	return op && a && !strcmp(op, "log") && !strcmp(a, action);
}

/* After a seq jump: is the expected record further down (reordered) or
 * gone (deleted)? */
static bool seq_later_in(const struct audit_seg *seg, uint64_t want)
{
	struct audit_seg s = *seg;
	const char *line;
	size_t len;
	bool complete;
	char why[8];

	while (audit_seg_next(&s, &line, &len, &complete)) {
		struct audit_rec r;
		bool hit;

		if (audit_rec_parse(line, len, &r, why, sizeof(why)))
			continue;
		hit = r.seq == want;
		audit_rec_free(&r);
		if (hit)
			return true;
	}
	return false;
}

/* Bookkeeping for one verified record. */
static int account(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL);
	int64_t n;

	if (op && !strcmp(op, "lost") && audit_rec_int(r, "count", &n) && n > 0)
		w->v->lost += (uint64_t)n;
	if (is_log(r, "start"))
		w->v->starts++;
	if (is_log(r, "recover")) {
		w->v->recoveries++;
		if (audit_rec_int(r, "missing", &n) && n > 0)
			return bad(w, name, lineno, r->seq,
				   "on restart the recorder found %" PRId64 " records missing from "
				   "the end of the log (cut while it was stopped)",
				   n);
	}
	if (is_log(r, "drop") && audit_rec_int(r, "dropped", &n) && n > 0 && n <= UINT32_MAX) {
		if ((unsigned int)n > w->max_dropped)
			w->max_dropped = (unsigned int)n;
	}
	if (is_log(r, "missing") && audit_rec_int(r, "missing_segment", &n) && n > 0 &&
	    n <= UINT32_MAX) {
		unsigned int *m = realloc(w->moved, (w->nmoved + 1) * sizeof(*m));

		if (m) {
			w->moved = m;
			w->moved[w->nmoved++] = (unsigned int)n;
		}
		w->v->moved_segments++;
		w->v->last_moved = (unsigned int)n;
	}
	w->v->closed = is_log(r, "close");
	if (w->have_state && r->seq == w->st.seq) {
		if (sodium_memcmp(r->mac, w->st.mac, AUDIT_MAC_LEN))
			return bad(w, name, lineno, r->seq,
				   "the state file remembers another record with seq %" PRIu64
				   " (log rewritten from here on?)",
				   r->seq);
		w->state_seen = true;
	}
	return 0;
}

static int header(struct walk *w, const char *name, unsigned int num, const char *line,
		  const struct audit_rec *r, bool follows)
{
	uint8_t hprev[AUDIT_MAC_LEN], mac[AUDIT_MAC_LEN];
	const char *kid, *prev;
	size_t klen, plen;
	int64_t segno;

	prev = audit_rec_str(r, "prev_mac", &plen);
	kid = audit_rec_str(r, "key_id", &klen);
	if (!is_log(r, "segment") || !prev || audit_unhex(prev, plen, hprev, AUDIT_MAC_LEN))
		return bad(w, name, 1, r->seq,
			   "does not start with a segment header "
			   "(first record removed, or not an nsaudit segment)");
	audit_mac(w->key, hprev, line, r->body_len, mac);
	if (sodium_memcmp(mac, r->mac, AUDIT_MAC_LEN)) {
		if (kid && strcmp(kid, w->key_id))
			return bad(w, name, 1, r->seq,
				   "wrong key: the log was written with key id "
				   "%.16s, this key is %s",
				   kid, w->key_id);
		return bad(w, name, 1, r->seq,
			   "segment header changed or forged (MAC does not "
			   "match)");
	}
	if (!audit_rec_int(r, "segment", &segno) || segno != num)
		return bad(w, name, 1, r->seq,
			   "header says this is segment %" PRId64
			   " (segment renamed or copied over another)",
			   segno);
	if (follows) {
		if (r->seq > w->expect)
			return bad(w, name, 1, r->seq,
				   "records seq %" PRIu64 "..%" PRIu64
				   " missing from the end of the previous segment",
				   w->expect, r->seq - 1);
		if (r->seq < w->expect)
			return bad(w, name, 1, r->seq,
				   "starts at seq %" PRIu64 " but the previous "
				   "segment already reached seq %" PRIu64 " (segment replayed or "
				   "copied)",
				   r->seq, w->expect - 1);
		if (sodium_memcmp(hprev, w->prev, AUDIT_MAC_LEN))
			return bad(
			    w, name, 1, r->seq,
			    "does not continue the chain of the previous "
			    "segment (its last record was changed, or a segment swapped in)");
	}
	return 0;
}

static int walk_segment(struct walk *w, unsigned int num, bool follows)
{
	char name[AUDIT_SEG_NAME_MAX], why[200];
	uint8_t mac[AUDIT_MAC_LEN];
	struct audit_seg seg;
	const char *line;
	size_t len;
	bool complete, last_seg = num == w->v->last_segment;
	int rc = 0;

	audit_seg_name(num, name);
	if (audit_seg_read(w->dirfd, name, &seg, why, sizeof(why)))
		return bad(w, name, 0, 0, "unreadable: %s", why);
	if (!seg.size) {
		audit_seg_free(&seg);
		return bad(w, name, 0, 0, "empty (not even a segment header)");
	}
	while (audit_seg_next(&seg, &line, &len, &complete)) {
		struct audit_rec r;

		if (!complete) {
			rc = bad(w, name, seg.lineno, 0, "%s",
				 last_seg && seg.off == seg.size
				     ? "unfinished last record (the recorder stopped while "
				       "writing it, or the file was cut); 'nsaudit record' "
				       "removes it when it starts"
				     : "record cut short");
			break;
		}
		if (audit_rec_parse(line, len, &r, why, sizeof(why))) {
			rc = bad(w, name, seg.lineno, 0, "not a record: %s", why);
			break;
		}
		if (seg.lineno == 1) {
			rc = header(w, name, num, line, &r, follows);
		} else if (r.seq != w->expect) {
			if (r.seq > w->expect && seq_later_in(&seg, w->expect))
				rc = bad(w, name, seg.lineno, r.seq,
					 "records out of order: seq %" PRIu64
					 " comes before seq %" PRIu64,
					 r.seq, w->expect);
			else if (r.seq > w->expect)
				rc = bad(w, name, seg.lineno, r.seq,
					 "record%s seq %" PRIu64 "..%" PRIu64
					 " missing (deleted) before this one",
					 r.seq - w->expect > 1 ? "s" : "", w->expect, r.seq - 1);
			else
				rc = bad(w, name, seg.lineno, r.seq,
					 "seq %" PRIu64 " where seq %" PRIu64
					 " was expected: record duplicated, reordered or inserted",
					 r.seq, w->expect);
		} else {
			audit_mac(w->key, w->prev, line, r.body_len, mac);
			if (sodium_memcmp(mac, r.mac, AUDIT_MAC_LEN))
				rc = bad(w, name, seg.lineno, r.seq,
					 "record changed or forged (MAC "
					 "does not match)");
		}
		if (!rc) {
			if (!w->v->records)
				w->v->first_seq = r.seq;
			w->v->records++;
			w->v->last_seq = r.seq;
			memcpy(w->prev, r.mac, AUDIT_MAC_LEN);
			w->expect = r.seq + 1;
			w->have_prev = true;
			rc = account(w, name, seg.lineno, &r);
		}
		audit_rec_free(&r);
		if (rc)
			break;
	}
	audit_seg_free(&seg);
	return rc;
}

static bool covered(const struct walk *w, unsigned int num)
{
	size_t i;

	if (num <= w->max_dropped)
		return true;
	for (i = 0; i < w->nmoved; i++)
		if (w->moved[i] == num)
			return true;
	return false;
}

/* The first segment number below nums[upto] that is missing and that no
 * verified record accounts for, or 0. */
static unsigned int unexplained_gap(const struct walk *w, const unsigned int *nums, size_t upto)
{
	unsigned int j, prev = 0;
	size_t i;

	for (i = 0; i <= upto; i++) {
		for (j = prev + 1; j < nums[i]; j++)
			if (!covered(w, j))
				return j;
		prev = nums[i];
	}
	return 0;
}

int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen)
{
	char path[4200], why[300], name[AUDIT_SEG_NAME_MAX];
	struct walk w = {.v = v, .dirfd = -1};
	unsigned int *nums = NULL, gap;
	size_t n, i, stop;
	time_t last_tick = 0;
	int st, rc = -1;

	memset(v, 0, sizeof(*v));
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	w.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0) {
		snprintf(err, errlen, "%.200s: %s", dir, strerror(errno));
		return -1;
	}
	if (!key_path) {
		snprintf(path, sizeof(path), "%s/.key", dir);
		key_path = path;
	}
	if (audit_key_load(key_path, w.key, err, errlen))
		goto out;
	audit_key_id(w.key, w.key_id);
	if (audit_seg_list(w.dirfd, &nums, &n)) {
		snprintf(err, errlen, "%.200s: %s", dir, strerror(errno));
		goto out;
	}
	rc = 1;
	st = audit_state_load(w.dirfd, w.key, &w.st, why, sizeof(why));
	if (st < 0) {
		bad(&w, AUDIT_STATE_FILE, 0, 0, "%s", why + strlen(AUDIT_STATE_FILE ": "));
		goto out;
	}
	w.have_state = st > 0;
	if (!n) {
		bad(&w, "", 0, 0, "no log segments (nsaudit-NNNNNN.log) in the directory");
		goto out;
	}
	v->segments = (unsigned int)n;
	v->first_segment = nums[0];
	v->last_segment = nums[n - 1];
	for (i = 0; i < n; i++) {
		if (progress && time(NULL) != last_tick) {
			last_tick = time(NULL);
			fprintf(stderr,
				"\rnsaudit verify: segment %zu of %zu, %" PRIu64 " records so far",
				i + 1, n, v->records);
		}
		if (walk_segment(&w, nums[i], i > 0 && nums[i - 1] + 1 == nums[i] && w.have_prev))
			break;
	}
	if (progress && last_tick)
		fprintf(stderr, "\r\033[K");
	/* A missing segment before the first bad spot is the first problem. */
	stop = i < n ? i : n - 1;
	gap = unexplained_gap(&w, nums, stop);
	if (gap) {
		audit_seg_name(gap, name);
		bad(&w, name, 0, 0,
		    "missing: %s (not removed by rotation: no record of this log "
		    "says it was dropped)",
		    gap < nums[0] ? "older segment deleted" : "segment deleted");
		goto out;
	}
	if (w.bad)
		goto out;
	if (!w.have_state) {
		bad(&w, AUDIT_STATE_FILE, 0, 0,
		    "missing, so a cut tail cannot be ruled out "
		    "(the recorder writes it; was it deleted?)");
		goto out;
	}
	if (w.st.segment > v->last_segment) {
		audit_seg_name(w.st.segment, name);
		bad(&w, name, 0, 0,
		    "missing: newest segment deleted (the state file says seq %" PRIu64
		    " was written to it)",
		    w.st.seq);
		goto out;
	}
	if (!w.state_seen) {
		audit_seg_name(v->last_segment, name);
		bad(&w, name, 0, v->last_seq,
		    "log cut short: it ends at seq %" PRIu64 " but seq %" PRIu64
		    " was written (records or the closing record removed from the end)",
		    v->last_seq, w.st.seq);
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(w.key, sizeof(w.key));
	free(nums);
	free(w.moved);
	close(w.dirfd);
	return rc;
}
