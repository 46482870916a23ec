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

#include "anchor.h"
#include "codec.h"
#include "seal.h"
#include "segment.h"
#include "verify.h"

/* Kernel events may be written a little after their epoch began (the ring
 * is drained every 50 ms); the log's own records are stamped when written. */
#define SLACK_MAX_NS (5ll * 1000000000)

struct walk {
	struct audit_verify *v;
	int dirfd;
	struct audit_keyring kr;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	char log_id[AUDIT_KEY_ID_HEX + 1];
	struct audit_state st;
	int state_rc; /* audit_state_load(): 1 verified, 2 not verifiable here */
	bool have_state, state_seen;
	bool have_prev; /* prev/expect are from a verified record */
	uint8_t prev[AUDIT_MAC_LEN];
	/* the record MAC: the first header's format version says which */
	unsigned int log_version;
	size_t mac_len;
	struct audit_chain chain;
	uint64_t expect;
	unsigned int max_dropped; /* segments <= this were removed by rotation */
	unsigned int *moved;	  /* segments a "missing" record accounts for */
	size_t nmoved;
	bool bad;
	/* sealing */
	bool sealed, have_epoch;
	uint64_t epoch;	      /* of the record being checked */
	int64_t t0, interval; /* schedule, seconds */
	int64_t floor_ns;     /* events of this epoch must not be older */
	int64_t last_time_ns;
	uint64_t misuse_epoch;
	/* anchors of this log, by seq */
	struct audit_anchor *anc;
	size_t nanc, next_anc;
	const char *anc_file;
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

static int64_t slack_ns(const struct walk *w)
{
	int64_t half = w->interval * 1000000000ll / 2;

	return half < SLACK_MAX_NS ? half : SLACK_MAX_NS;
}

static int64_t epoch_start_ns(const struct walk *w, uint64_t e)
{
	return (w->t0 + (int64_t)e * w->interval) * 1000000000ll;
}

static void fmt_time(int64_t ns, char *out, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * The epoch key may only vouch for what happened in its epoch: a record
 * MAC'd with K(e) whose time lies before epoch e began is one a later key
 * wrote about the past (journald's CVE-2023-31439 accepted exactly that).
 * The log's own records are stamped when written; kernel events may come
 * a little late, or after a restart from the pinned ring (no older than
 * the last record before that restart).
 */
static int check_time(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *ts = audit_rec_str(r, "time", NULL), *op = audit_rec_str(r, "op", NULL);
	int64_t t, start, lim;
	char a[40], b[40];

	if (!w->sealed || !w->interval || !ts || audit_time_parse(ts, &t))
		return 0;
	start = epoch_start_ns(w, w->epoch);
	lim = (op && !strcmp(op, "log")) ? start - slack_ns(w) : w->floor_ns;
	if (t < lim) {
		fmt_time(t, a, sizeof(a));
		fmt_time(start, b, sizeof(b));
		return bad(w, name, lineno, r->seq,
			   "epoch key misuse: record of %s sealed with the key of epoch %" PRIu64
			   ", which began %s (a later key cannot vouch for earlier records: "
			   "rewritten after the host was taken?)",
			   a, w->epoch, b);
	}
	if (t < start - slack_ns(w))
		w->v->late++;
	/* a recorder restarting within the epoch drains what the kernel kept
	 * while it was down: as old as the last record before it, no older */
	if (is_log(r, "start") && w->last_time_ns && w->last_time_ns - slack_ns(w) < w->floor_ns)
		w->floor_ns = w->last_time_ns - slack_ns(w);
	if (t > w->last_time_ns)
		w->last_time_ns = t;
	return 0;
}

/* Epoch bookkeeping before a record's MAC is checked: headers say which
 * epoch their segment starts in; nothing else may move it but a seal. */
static int epoch_of(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r,
		    bool first_seg_header)
{
	int64_t e;

	if (!w->sealed || !audit_rec_int(r, "epoch", &e) || e < 0 || is_log(r, "seal"))
		return 0;
	if (first_seg_header || !w->have_epoch) {
		w->epoch = (uint64_t)e;
		w->have_epoch = true;
		w->v->first_epoch = w->epoch;
		w->floor_ns = w->interval ? epoch_start_ns(w, w->epoch) - slack_ns(w) : 0;
		return 0;
	}
	if ((uint64_t)e == w->epoch)
		return 0;
	if ((uint64_t)e < w->epoch)
		return bad(w, name, lineno, r->seq,
			   "says sealing epoch %" PRId64
			   " but the log already reached epoch %" PRIu64
			   " (records replayed or copied from an older log)",
			   e, w->epoch);
	return bad(w, name, lineno, r->seq,
		   "epoch key misuse: epoch %" PRIu64 " ends without a seal and the log goes on "
		   "with the key of epoch %" PRId64 " (records cut after the host was taken, or "
		   "the sealing key also sealed another log)",
		   w->epoch, e);
}

static int seal(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *at = audit_rec_str(r, "at", NULL);
	int64_t e, next;

	if (!audit_rec_int(r, "epoch", &e) || !audit_rec_int(r, "next_epoch", &next) ||
	    (uint64_t)e != w->epoch || next <= e)
		return bad(w, name, lineno, r->seq,
			   "epoch key misuse: a seal of epoch %" PRId64 " where epoch %" PRIu64
			   " ends without its seal (the log was cut and went on with a later key, "
			   "or the seal was forged)",
			   e, w->epoch);
	w->v->seals++;
	w->epoch = (uint64_t)next;
	w->floor_ns = epoch_start_ns(w, w->epoch) - slack_ns(w);
	/* a recorder (re)starting in a later epoch drains what the kernel
	 * kept meanwhile: those events may be as old as its predecessor's end */
	if (at && !strcmp(at, "start") && w->last_time_ns - slack_ns(w) < w->floor_ns)
		w->floor_ns = w->last_time_ns - slack_ns(w);
	w->v->unsealed = 0;
	return 0;
}

/* Bookkeeping for one verified record. */
static int account(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL), *state;
	int64_t n;

	if (op && !strcmp(op, "lost") && audit_rec_int(r, "count", &n) && n > 0)
		w->v->lost += (uint64_t)n;
	if (is_log(r, "start"))
		w->v->starts++;
	if (is_log(r, "recover")) {
		w->v->recoveries++;
		state = audit_rec_str(r, "state", NULL);
		if (state && !strcmp(state, "missing"))
			return bad(w, name, lineno, r->seq,
				   "state missing: the recorder restarted without its state file, "
				   "so the end of the log before this point cannot be vouched for "
				   "(state file deleted, tail cut?)");
		if (state && !strcmp(state, "epoch_gap"))
			return bad(
			    w, name, lineno, r->seq,
			    "epoch key misuse: on restart the sealing key was ahead of the "
			    "log's last epoch (tail cut after the host was taken, or the key "
			    "sealed another log)");
		if (audit_rec_int(r, "missing", &n) && n > 0)
			return bad(w, name, lineno, r->seq,
				   "tail cut: on restart the recorder found %" PRId64 " records "
				   "missing from the end of the log (cut while it was stopped)",
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
	if (!is_log(r, "seal"))
		w->v->unsealed++;
	if (w->have_state && r->seq == w->st.seq) {
		if (w->st.mac_len != w->mac_len || sodium_memcmp(r->mac, w->st.mac, w->mac_len))
			return bad(w, name, lineno, r->seq,
				   "the state file remembers another record with seq %" PRIu64
				   " (log rewritten from here on?)",
				   r->seq);
		/* the state is MAC'd with the key of the epoch after its record:
		 * a later key cannot name an older record as the end */
		if (w->sealed && w->st.version >= 2 && w->st.epoch != w->epoch)
			return bad(w, name, lineno, r->seq,
				   "epoch key misuse: the state file names this record but is "
				   "sealed with the key of epoch %" PRIu64 ", not %" PRIu64
				   " (written after the host was taken)",
				   w->st.epoch, w->epoch);
		w->state_seen = true;
	}
	/* anchors that name this seq */
	while (w->next_anc < w->nanc && w->anc[w->next_anc].seq <= r->seq) {
		const struct audit_anchor *a = &w->anc[w->next_anc++];
		char where[64];

		if (a->seq < r->seq)
			continue; /* older than this directory (dropped) */
		snprintf(where, sizeof(where), "line %" PRIu64, a->line);
		if (a->mac_len != w->mac_len || sodium_memcmp(a->mac, r->mac, w->mac_len))
			return bad(w, name, lineno, r->seq,
				   "rewritten: the anchor at %.100s %s says seq %" PRIu64
				   " had another MAC",
				   w->anc_file, where, r->seq);
		w->v->anchors++;
		w->v->anchored_seq = r->seq;
	}
	return 0;
}

static int header(struct walk *w, const char *name, unsigned int num, const struct audit_rec *r,
		  uint8_t hprev[AUDIT_MAC_LEN], bool follows, bool first)
{
	const char *kid, *prev, *lid;
	size_t klen, plen, llen;
	int64_t segno, lv, t0, iv;
	unsigned int version;

	/* no log_version: format version 1 */
	version =
	    audit_rec_int(r, "log_version", &lv) && lv > 1 ? (lv > 99 ? 99 : (unsigned)lv) : 1;
	if (first) {
		w->log_version = version;
		w->mac_len = audit_chain_maclen(audit_mac_kind(version));
		w->v->log_version = version;
	}
	prev = audit_rec_str(r, "prev_mac", &plen);
	kid = audit_rec_str(r, "key_id", &klen);
	if (!is_log(r, "segment") || !prev || audit_unhex(prev, plen, hprev, w->mac_len))
		return bad(w, name, 1, r->seq,
			   "does not start with a segment header "
			   "(first record removed, or not an nsaudit segment)");
	if (version > AUDIT_LOG_VERSION)
		return bad(w, name, 1, r->seq,
			   "log format version %u: newer than this nsaudit (it reads 1 to %d)",
			   version, AUDIT_LOG_VERSION);
	if (version != w->log_version)
		return bad(w, name, 1, r->seq,
			   "header says format version %u but the log is of version %u "
			   "(segment copied from another log, or forged)",
			   version, w->log_version);
	if (kid && strcmp(kid, w->key_id))
		return bad(w, name, 1, r->seq,
			   "wrong key: the log was written with key id %.16s, this key is %s", kid,
			   w->key_id);
	if (first) {
		/* v2 is sealed; v3 is when its header has a sealing schedule */
		w->sealed = version == 2 || (version >= 3 && audit_rec_int(r, "seal_t0", &t0));
		w->v->sealed_log = w->sealed;
		if (w->sealed && (w->kr.kind == AUDIT_KR_STATIC))
			return bad(w, name, 1, r->seq,
				   "the log is sealed (format version %u): verify it with "
				   "--verification-key (or its sealing state, --key)",
				   version);
		if (!w->sealed && w->kr.kind != AUDIT_KR_STATIC)
			return bad(w, name, 1, r->seq,
				   "wrong key: a log with a static key (format version %u), this "
				   "is a sealing key",
				   version);
		if (w->sealed) {
			if (!audit_rec_int(r, "seal_t0", &t0) ||
			    !audit_rec_int(r, "seal_interval", &iv) || t0 <= 0 || iv <= 0)
				return bad(w, name, 1, r->seq,
					   "sealed log without a sealing schedule");
			w->t0 = t0;
			w->interval = iv;
			audit_keyring_schedule(&w->kr, t0, (uint64_t)iv);
			if (w->kr.kind == AUDIT_KR_STATE &&
			    (w->kr.t0 != t0 || w->kr.interval != (uint64_t)iv))
				return bad(w, name, 1, r->seq,
					   "wrong key: the sealing state has another schedule than "
					   "the log");
			lid = audit_rec_str(r, "log_id", &llen);
			if (lid && llen == AUDIT_KEY_ID_HEX)
				memcpy(w->log_id, lid, llen + 1);
		}
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
		if (sodium_memcmp(hprev, w->prev, w->mac_len))
			return bad(
			    w, name, 1, r->seq,
			    "does not continue the chain of the previous "
			    "segment (its last record was changed, or a segment swapped in)");
	}
	return 0;
}

/* Does a record that failed its epoch's key verify with the later epoch it
 * names? Only to say what happened: it is never accepted. */
static bool later_key(struct walk *w, const char *line, const struct audit_rec *r,
		      const uint8_t prev[AUDIT_MAC_LEN])
{
	uint8_t key[AUDIT_KEY_LEN], mac[AUDIT_MAC_LEN];
	struct audit_chain c;
	int64_t e;
	bool hit;

	if (!audit_rec_int(r, "epoch", &e) || e < 0 || (uint64_t)e <= w->epoch ||
	    audit_keyring_get(&w->kr, (uint64_t)e, key))
		return false;
	audit_chain_init(&c, w->chain.kind, key, w->chain.run);
	audit_chain_mac(&c, r->seq, prev, line, r->body_len, mac);
	audit_chain_wipe(&c);
	sodium_memzero(key, sizeof(key));
	hit = !sodium_memcmp(mac, r->mac, w->mac_len);
	if (hit)
		w->misuse_epoch = (uint64_t)e;
	return hit;
}

/* MAC of one record with the key of the current epoch, when the given key
 * can still derive it; otherwise the record is taken on its order only. */
static int check_mac(struct walk *w, const char *name, uint64_t lineno, const char *line,
		     const struct audit_rec *r, const uint8_t prev[AUDIT_MAC_LEN], bool hdr)
{
	uint8_t key[AUDIT_KEY_LEN], mac[AUDIT_MAC_LEN], run[AUDIT_RUN_LEN];

	/* v3: a record that starts a run says which (its MAC, and the next
	 * ones', prove it); taken also where the epoch key is out of reach */
	if (w->log_version >= 3 && audit_rec_run(r, run))
		audit_chain_set_run(&w->chain, run);
	if (audit_keyring_get(&w->kr, w->sealed ? w->epoch : 0, key)) {
		/* only epochs older than a sealing state are legitimately out
		 * of reach; anything else (a claimed epoch the schedule cannot
		 * have reached) must not pass on its order alone */
		if (w->kr.kind != AUDIT_KR_STATE || w->epoch >= w->kr.base_epoch)
			return bad(w, name, lineno, r->seq,
				   "epoch key misuse: sealing epoch %" PRIu64 " cannot be derived "
				   "(an epoch no recorder can have reached)",
				   w->epoch);
		if (!w->v->unchecked)
			w->v->unchecked_below = w->kr.base_epoch;
		w->v->unchecked++;
		return 0;
	}
	audit_chain_use(&w->chain, audit_mac_kind(w->log_version), key);
	sodium_memzero(key, sizeof(key));
	audit_chain_mac(&w->chain, r->seq, prev, line, r->body_len, mac);
	if (r->mac_len == w->mac_len && !sodium_memcmp(mac, r->mac, w->mac_len))
		return check_time(w, name, lineno, r);
	if (w->sealed && later_key(w, line, r, prev))
		return bad(
		    w, name, lineno, r->seq,
		    "epoch key misuse: epoch %" PRIu64 " ends without its seal and this record "
		    "is sealed with the key of epoch %" PRIu64 " (the log was cut and went on "
		    "with a later key: tail cut after the host was taken)",
		    w->epoch, w->misuse_epoch);
	if (hdr)
		return bad(w, name, 1, r->seq,
			   "segment header changed or forged (MAC does not match)");
	if (w->sealed)
		return bad(w, name, lineno, r->seq,
			   "record changed or forged (MAC does not match the key of epoch %" PRIu64
			   ")",
			   w->epoch);
	return bad(w, name, lineno, r->seq, "record changed or forged (MAC does not match)");
}

static int walk_segment(struct walk *w, unsigned int num, bool follows, bool first)
{
	char name[AUDIT_SEG_NAME_MAX], why[200];
	uint8_t hprev[AUDIT_MAC_LEN];
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
			rc = header(w, name, num, &r, hprev, follows, first);
			if (!rc)
				rc = epoch_of(w, name, 1, &r, first);
			if (!rc)
				rc = check_mac(w, name, 1, line, &r, hprev, true);
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
			rc = epoch_of(w, name, seg.lineno, &r, false);
			if (!rc)
				rc = check_mac(w, name, seg.lineno, line, &r, w->prev, false);
		}
		if (!rc && w->sealed && is_log(&r, "seal"))
			rc = seal(w, name, seg.lineno, &r);
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

/* The key to verify with: the verification key (every epoch), or a key
 * file (sealing state: its epoch on; static key), by default DIR/.key. */
static int load_ring(struct walk *w, const struct audit_verify_opts *o, char *err, size_t errlen)
{
	char path[4200];
	struct audit_seal s;
	uint8_t seed[AUDIT_KEY_LEN];

	if (o->vk) {
		if (audit_vk_parse(o->vk, seed, err, errlen))
			return -1;
		audit_keyring_from_seed(&w->kr, seed);
		sodium_memzero(seed, sizeof(seed));
	} else {
		const char *kp = o->key_path;

		if (!kp) {
			snprintf(path, sizeof(path), "%s/.key", o->dir);
			kp = path;
			w->v->default_key = true;
			if (access(path, F_OK) && errno == ENOENT) {
				snprintf(err, errlen,
					 "no key: give --verification-key KEY (as printed by "
					 "'nsaudit keygen') or --key FILE (%.200s/.key does not exist)",
					 o->dir);
				return -1;
			}
		}
		if (audit_seal_load(kp, &s, err, errlen))
			return -1;
		audit_keyring_from_seal(&w->kr, &s);
		audit_seal_wipe(&s);
	}
	memcpy(w->key_id, w->kr.key_id, sizeof(w->key_id));
	return 0;
}

static int cmp_anchor(const void *a, const void *b)
{
	const struct audit_anchor *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Anchors of this log (log id from its first header; a v1 log has none). */
static void pick_anchors(struct walk *w, struct audit_anchor *all, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(all[i].key_id, w->key_id) &&
		    (!w->log_id[0] || !strcmp(all[i].log_id, w->log_id)))
			all[k++] = all[i];
	qsort(all, k, sizeof(*all), cmp_anchor);
	w->anc = all;
	w->nanc = k;
}

/* The first segment's header says which log this is and its sealing
 * schedule: read before the walk, so that anchors can be matched as records
 * go by and the state file checked (a wrong schedule is harmless: it is
 * bound into K(0), and every MAC would fail). */
static void peek_first_header(struct walk *w, unsigned int first)
{
	int64_t t0, iv;

	char name[AUDIT_SEG_NAME_MAX], why[64];
	struct audit_seg seg;
	struct audit_rec r;
	const char *line, *lid;
	size_t len, llen;
	bool complete;

	audit_seg_name(first, name);
	if (audit_seg_read(w->dirfd, name, &seg, why, sizeof(why)))
		return;
	if (audit_seg_next(&seg, &line, &len, &complete) && complete &&
	    !audit_rec_parse(line, len, &r, why, sizeof(why))) {
		lid = audit_rec_str(&r, "log_id", &llen);
		if (lid && llen == AUDIT_KEY_ID_HEX)
			memcpy(w->log_id, lid, llen + 1);
		if (audit_rec_int(&r, "seal_t0", &t0) && audit_rec_int(&r, "seal_interval", &iv) &&
		    t0 > 0 && iv > 0)
			audit_keyring_schedule(&w->kr, t0, (uint64_t)iv);
		audit_rec_free(&r);
	}
	audit_seg_free(&seg);
}

static int load_anchors(struct walk *w, const struct audit_verify_opts *o, char *err, size_t errlen)
{
	struct audit_anchor *all = NULL, *one;
	size_t n = 0, m, i;

	if (!o->anchors || !o->anchors[0])
		return 0;
	for (i = 0; o->anchors[i]; i++) {
		struct audit_anchor *grown;

		if (audit_anchor_read(o->anchors[i], &one, &m, err, errlen)) {
			free(all);
			return -1;
		}
		grown = realloc(all, (n + m + 1) * sizeof(*all));
		if (!grown) {
			free(one);
			free(all);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		all = grown;
		memcpy(all + n, one, m * sizeof(*one));
		n += m;
		free(one);
		w->anc_file = o->anchors[i];
	}
	pick_anchors(w, all, n);
	if (!w->nanc) {
		snprintf(err, errlen,
			 "%.200s: no anchor of this log in it (log id %s, key id %s): nothing to "
			 "check the tail against",
			 w->anc_file, w->log_id[0] ? w->log_id : "-", w->key_id);
		free(all);
		w->anc = NULL;
		return -1;
	}
	return 0;
}

/* After the walk: the tail against the state file and the anchors. */
static void check_tail(struct walk *w, const unsigned int *nums, size_t n, size_t stop)
{
	struct audit_verify *v = w->v;
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int gap;
	size_t i;

	/* A missing segment before the first bad spot is the first problem. */
	gap = unexplained_gap(w, nums, stop);
	if (gap) {
		audit_seg_name(gap, name);
		bad(w, name, 0, 0,
		    "missing: %s (not removed by rotation: no record of this log "
		    "says it was dropped)",
		    gap < nums[0] ? "older segment deleted" : "segment deleted");
		return;
	}
	if (w->bad)
		return;
	/* a segment moved away while open is gone from the log, whatever
	 * record says so, until it is put back */
	for (i = 0; i < w->nmoved; i++) {
		size_t k;
		bool here = false;

		for (k = 0; k < n; k++)
			here |= nums[k] == w->moved[i];
		if (!here && w->moved[i] > w->max_dropped) {
			audit_seg_name(w->moved[i], name);
			bad(w, name, 0, 0,
			    "segment moved away: it was renamed or moved out of the directory "
			    "while the recorder wrote it (SIGHUP reopen); its records are not "
			    "in this log (put it back to verify them)");
			return;
		}
	}
	if (w->nanc && w->anc[w->nanc - 1].seq > v->last_seq) {
		const struct audit_anchor *a = &w->anc[w->nanc - 1];

		audit_seg_name(v->last_segment, name);
		bad(w, name, 0, v->last_seq,
		    "tail cut: the log ends at seq %" PRIu64 " but the anchor at %.100s line "
		    "%" PRIu64 " says seq %" PRIu64 " (segment %06u) was written",
		    v->last_seq, w->anc_file, a->line, a->seq, a->segment);
		return;
	}
	if (!w->have_state) {
		bad(w, AUDIT_STATE_FILE, 0, 0,
		    "state missing, so a cut tail cannot be ruled out "
		    "(the recorder writes it; was it deleted?)");
		return;
	}
	if (w->st.segment > v->last_segment) {
		audit_seg_name(w->st.segment, name);
		bad(w, name, 0, 0,
		    "missing: newest segment deleted (the state file says seq %" PRIu64
		    " was written to it)",
		    w->st.seq);
		return;
	}
	if (!w->state_seen && w->st.seq) {
		audit_seg_name(v->last_segment, name);
		bad(w, name, 0, v->last_seq,
		    "tail cut: log cut short: it ends at seq %" PRIu64 " but seq %" PRIu64
		    " was written (records or the closing record removed from the end)",
		    v->last_seq, w->st.seq);
		return;
	}
}

int audit_verify(const struct audit_verify_opts *o, struct audit_verify *v, char *err,
		 size_t errlen)
{
	char why[300];
	struct walk w = {.v = v, .dirfd = -1};
	unsigned int *nums = NULL;
	size_t n = 0, i;
	time_t last_tick = 0;
	int st, rc = -1;

	memset(v, 0, sizeof(*v));
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	w.dirfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0) {
		snprintf(err, errlen, "%.200s: %s", o->dir, strerror(errno));
		return -1;
	}
	if (load_ring(&w, o, err, errlen))
		goto out;
	if (audit_seg_list(w.dirfd, &nums, &n)) {
		snprintf(err, errlen, "%.200s: %s", o->dir, strerror(errno));
		goto out;
	}
	if (n)
		peek_first_header(&w, nums[0]);
	if (n && load_anchors(&w, o, err, errlen))
		goto out;
	rc = 1;
	st = audit_state_load(w.dirfd, &w.kr, &w.st, why, sizeof(why));
	if (st < 0) {
		bad(&w, AUDIT_STATE_FILE, 0, 0, "%s", why + strlen(AUDIT_STATE_FILE ": "));
		goto out;
	}
	w.have_state = st > 0;
	w.state_rc = st;
	if (!n) {
		bad(&w, "", 0, 0, "no log segments (nsaudit-NNNNNN.log) in the directory");
		goto out;
	}
	v->segments = (unsigned int)n;
	v->first_segment = nums[0];
	v->last_segment = nums[n - 1];
	for (i = 0; i < n; i++) {
		if (o->progress && time(NULL) != last_tick) {
			last_tick = time(NULL);
			fprintf(stderr,
				"\rnsaudit verify: segment %zu of %zu, %" PRIu64 " records so far",
				i + 1, n, v->records);
		}
		if (walk_segment(&w, nums[i], i && nums[i - 1] + 1 == nums[i] && w.have_prev,
				 i == 0))
			break;
	}
	if (o->progress && last_tick)
		fprintf(stderr, "\r\033[K");
	v->last_epoch = w.epoch;
	check_tail(&w, nums, n, i < n ? i : n - 1);
	if (!w.bad)
		rc = 0;
out:
	audit_keyring_wipe(&w.kr);
	audit_chain_wipe(&w.chain);
	free(nums);
	free(w.moved);
	free(w.anc);
	close(w.dirfd);
	return rc;
}

int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen)
{
	struct audit_verify_opts o = {.dir = dir, .key_path = key_path, .progress = progress};

	return audit_verify(&o, v, err, errlen);
}
