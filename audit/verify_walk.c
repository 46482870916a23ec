// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_walk.c - one segment, record by record: its header, the seq and
 * MAC chain and counters; the epoch of each record's key, seals and times
 * are verify_epoch.c's. A finding never stops the walk: the next record
 * is taken as the chain goes on from there (verify_impl.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

#include "array.h"
#include "verify_impl.h"

/*
 * A sink's loss: records it did not send, each of which the log holds or
 * counts in another lost record (the recorder hands a sink what it
 * appended). In the sum they would be counted twice.
 */
static bool sink_lost_record(const struct audit_rec *r)
{
	const char *reason = audit_rec_str(r, "reason", NULL);

	return reason && !strcmp(reason, "sink");
}

/*
 * Counters never go down: a lost record's count is positive, the sum
 * cannot wrap (a wrapped total would read as "0 lost"). The sum is of
 * the calls the log lacks; a sink's losses are counted apart.
 */
static void lost(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	int64_t n;

	if (!audit_rec_int(r, "count", &n) || n <= 0)
		walk_bad(w, name, lineno, r->seq, "lost record without a positive count (forged?)");
	else if (w->v->lost + w->v->lost_sink + (uint64_t)n < w->v->lost + w->v->lost_sink)
		walk_bad(w, name, lineno, r->seq,
			 "lost counts overflow: the total would wrap around (forged count)");
	else if (sink_lost_record(r))
		w->v->lost_sink += (uint64_t)n;
	else
		w->v->lost += (uint64_t)n;
}

/* Bookkeeping for one verified record. */
/*
 * The kernel's lost counter as the chain reports it: each kernel lost
 * record says the running total (lost_total); a segment header repeats the
 * last one, or 0 when the recorder loaded new programs. A header that says
 * anything else made the next recorder resume from a number no lost record
 * reported: raised, the calls lost while it was down are never reported.
 * Judged at the end (walk_check_tail), where a disk-full loss, which may have
 * taken a kernel report with it, is known.
 */
static void lost_total_of(struct walk *w, uint64_t lineno, const struct audit_rec *r,
			  const char *op)
{
	int64_t v;

	/* the disk-full count, or a kernel report it held back (log_lost.c):
	 * either way a full disk may have kept a report out of the chain */
	if (op && !strcmp(op, "lost") && audit_rec_str(r, "why", NULL))
		w->disk_lost = true;
	if (!audit_rec_int(r, "lost_total", &v) || v < 0)
		return;
	if (lineno == 1 && w->lost_total_seen && v && (uint64_t)v != w->lost_total &&
	    !w->lost_bad_seg) {
		w->lost_bad_seg = w->cur_seg;
		w->lost_bad_seq = r->seq;
		w->lost_bad_hdr = (uint64_t)v;
		w->lost_bad_chain = w->lost_total;
	}
	if (lineno == 1 || (op && !strcmp(op, "lost") && !audit_rec_str(r, "cause", NULL))) {
		w->lost_total = (uint64_t)v;
		w->lost_total_seen = true;
	}
}

/* A recorder that found the kernel's records no longer came (cmd_record.c). */
static void deaf(struct audit_verify *v, const struct audit_rec *r)
{
	const char *s;

	v->deaf++;
	v->deaf_seq = r->seq;
	s = audit_rec_str(r, "time", NULL);
	snprintf(v->deaf_time, sizeof(v->deaf_time), "%s", s ? s : "?");
	s = audit_rec_str(r, "heard_until", NULL);
	snprintf(v->deaf_since, sizeof(v->deaf_since), "%s", s ? s : "");
	s = audit_rec_str(r, "reason", NULL);
	snprintf(v->deaf_reason, sizeof(v->deaf_reason), "%s", s ? s : "no reason given");
}

static int account(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL), *state;
	int64_t n;

	if (op && !strcmp(op, "lost"))
		lost(w, name, lineno, r);
	lost_total_of(w, lineno, r, op);
	if (walk_is_log(r, "start"))
		w->v->starts++;
	if (walk_is_log(r, "deaf"))
		deaf(w->v, r);
	if (walk_is_log(r, "recover")) {
		w->v->recoveries++;
		state = audit_rec_str(r, "state", NULL);
		if (state && !strcmp(state, "missing"))
			walk_bad(w, name, lineno, r->seq,
				 "state missing: the recorder restarted without its state file, "
				 "so the end of the log before this point cannot be vouched for "
				 "(state file deleted, tail cut?)");
		if (state && !strcmp(state, "epoch_gap"))
			walk_bad(w, name, lineno, r->seq,
				 "epoch key misuse: on restart the sealing key was ahead of the "
				 "log's last epoch (tail cut after the host was taken, or the key "
				 "sealed another log)");
		if (audit_rec_int(r, "missing", &n) && n > 0)
			walk_bad(w, name, lineno, r->seq,
				 "tail cut: on restart the recorder found %" PRId64 " records "
				 "missing from the end of the log (cut while it was stopped)",
				 n);
	}
	w->after_anchor++;
	if (walk_is_log(r, "drop") && audit_rec_int(r, "dropped", &n)) {
		/* rotation drops older segments than the one it writes in */
		if (n <= 0 || n >= w->cur_seg)
			walk_bad(
			    w, name, lineno, r->seq,
			    "forged rotation: a drop record in segment %06u says segments up to "
			    "%" PRId64 " are gone (a drop can only cover older segments)",
			    w->cur_seg, n);
		else if ((unsigned int)n > w->max_dropped)
			w->max_dropped = (unsigned int)n;
	}
	walk_note_witness(w, name, lineno, r);
	if (walk_is_log(r, "missing") && audit_rec_int(r, "missing_segment", &n) && n > 0 &&
	    n <= UINT32_MAX) {
		if (!ARRAY_RESERVE(&w->moved, &w->capmoved, w->nmoved + 1))
			w->moved[w->nmoved++] = (unsigned int)n;
		w->v->moved_segments++;
		w->v->last_moved = (unsigned int)n;
	}
	/* closed: the last record is the close, or the seal that follows it */
	w->v->closed = walk_is_log(r, "close") || (w->v->closed && walk_is_log(r, "seal"));
	if (!walk_is_log(r, "seal"))
		w->v->unsealed++;
	if (w->have_state && r->seq == w->st.seq) {
		if (w->st.mac_len != w->mac_len || sodium_memcmp(r->mac, w->st.mac, w->mac_len))
			walk_bad(w, name, lineno, r->seq,
				 "the state file remembers another record with seq %" PRIu64
				 " (log rewritten from here on?)",
				 r->seq);
		/* the state is MAC'd with the key of the epoch after its record:
		 * a later key cannot name an older record as the end */
		if (w->sealed && w->st.version >= 2 && w->st.epoch != w->epoch)
			walk_bad(w, name, lineno, r->seq,
				 "epoch key misuse: the state file names this record but is "
				 "sealed with the key of epoch %" PRIu64 ", not %" PRIu64
				 " (written after the host was taken)",
				 w->st.epoch, w->epoch);
		w->state_seen = true;
		w->lost_at_state = w->lost_total; /* what the state must say */
	}
	/* anchors that name this seq */
	while (w->next_anc < w->nanc && w->anc[w->next_anc].seq <= r->seq) {
		const struct audit_anchor *a = &w->anc[w->next_anc++];
		char where[64];

		if (a->seq < r->seq)
			continue; /* older than this directory (dropped) */
		snprintf(where, sizeof(where), "line %" PRIu64, a->line);
		if (a->mac_len != w->mac_len || sodium_memcmp(a->mac, r->mac, w->mac_len))
			walk_bad(w, name, lineno, r->seq,
				 "rewritten: the anchor at %.100s %s says seq %" PRIu64
				 " had another MAC",
				 a->file, where, r->seq);
		w->v->anchors++;
		w->v->anchored_seq = r->seq;
		w->after_anchor = 0;
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
	if (!walk_is_log(r, "segment") || !prev || audit_unhex(prev, plen, hprev, w->mac_len))
		return walk_bad(w, name, 1, r->seq,
				"does not start with a segment header "
				"(first record removed, or not an nsaudit segment)");
	if (version > AUDIT_LOG_VERSION)
		return walk_bad(w, name, 1, r->seq,
				"log format version %u: newer than this nsaudit (it reads 1 to %d)",
				version, AUDIT_LOG_VERSION);
	if (version != w->log_version)
		return walk_bad(w, name, 1, r->seq,
				"header says format version %u but the log is of version %u "
				"(segment copied from another log, or forged)",
				version, w->log_version);
	if (kid && strcmp(kid, w->key_id))
		return walk_bad(w, name, 1, r->seq,
				"wrong key: the log was written with key id %.16s, this key is %s",
				kid, w->key_id);
	if (first) {
		/* v2 is sealed; v3 is when its header has a sealing schedule */
		w->sealed = version == 2 || (version >= 3 && audit_rec_int(r, "seal_t0", &t0));
		w->v->sealed_log = w->sealed;
		if (w->sealed && (w->kr.kind == AUDIT_KR_STATIC))
			return walk_bad(w, name, 1, r->seq,
					"the log is sealed (format version %u): verify it with "
					"--verification-key (or its sealing state, --key)",
					version);
		if (!w->sealed && w->kr.kind != AUDIT_KR_STATIC)
			return walk_bad(
			    w, name, 1, r->seq,
			    "wrong key: a log with a static key (format version %u), this "
			    "is a sealing key",
			    version);
		if (w->sealed) {
			if (!audit_rec_int(r, "seal_t0", &t0) ||
			    !audit_rec_int(r, "seal_interval", &iv) || t0 <= 0 || iv <= 0)
				return walk_bad(w, name, 1, r->seq,
						"sealed log without a sealing schedule");
			w->t0 = t0;
			w->interval = iv;
			audit_keyring_schedule(&w->kr, t0, (uint64_t)iv);
			if (w->kr.kind == AUDIT_KR_STATE &&
			    (w->kr.t0 != t0 || w->kr.interval != (uint64_t)iv))
				return walk_bad(
				    w, name, 1, r->seq,
				    "wrong key: the sealing state has another schedule than "
				    "the log");
			lid = audit_rec_str(r, "log_id", &llen);
			if (lid && llen == AUDIT_KEY_ID_HEX)
				memcpy(w->log_id, lid, llen + 1);
		}
	}
	if (!audit_rec_int(r, "segment", &segno) || segno != num)
		return walk_bad(w, name, 1, r->seq,
				"header says this is segment %" PRId64
				" (segment renamed or copied over another)",
				segno);
	if (follows && !w->resync) {
		if (r->seq > w->expect)
			return walk_bad(w, name, 1, r->seq,
					"records seq %" PRIu64 "..%" PRIu64
					" missing from the end of the previous segment",
					w->expect, r->seq - 1);
		if (r->seq < w->expect)
			return walk_bad(w, name, 1, r->seq,
					"starts at seq %" PRIu64 " but the previous "
					"segment already reached seq %" PRIu64
					" (segment replayed or "
					"copied)",
					r->seq, w->expect - 1);
		if (sodium_memcmp(hprev, w->prev, w->mac_len))
			return walk_bad(
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

	if (!r->obj)	/* a light record: its MAC matched (verify_light.c) */
		return walk_check_time(w, name, lineno, r);

	/* v3: a record that starts a run says which (its MAC, and the next
	 * ones', prove it); taken also where the epoch key is out of reach */
	if (w->log_version >= 3 && audit_rec_run(r, run))
		audit_chain_set_run(&w->chain, run);
	if (audit_keyring_get(&w->kr, w->sealed ? w->epoch : 0, key)) {
		/* only epochs older than a sealing state are legitimately out
		 * of reach; anything else (a claimed epoch the schedule cannot
		 * have reached) must not pass on its order alone */
		if (w->kr.kind != AUDIT_KR_STATE || w->epoch >= w->kr.base_epoch)
			return walk_bad(w, name, lineno, r->seq,
					"epoch key misuse: sealing epoch %" PRIu64
					" cannot be derived "
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
		return walk_check_time(w, name, lineno, r);
	if (w->sealed && later_key(w, line, r, prev))
		return walk_bad(
		    w, name, lineno, r->seq,
		    "epoch key misuse: epoch %" PRIu64 " ends without its seal and this record "
		    "is sealed with the key of epoch %" PRIu64 " (the log was cut and went on "
		    "with a later key: tail cut after the host was taken)",
		    w->epoch, w->misuse_epoch);
	if (hdr)
		return walk_bad(w, name, 1, r->seq,
				"segment header changed or forged (MAC does not match)");
	if (w->sealed)
		return walk_bad(
		    w, name, lineno, r->seq,
		    "record changed or forged (MAC does not match the key of epoch %" PRIu64 ")",
		    w->epoch);
	return walk_bad(w, name, lineno, r->seq, "record changed or forged (MAC does not match)");
}

/* A line that is not a record where one should be. */
static void not_record(struct walk *w, const char *name, const struct audit_seg *seg, bool complete,
		       const char *why)
{
	bool last = w->cur_seg == w->v->last_segment;

	if (seg->overlong)
		walk_bad(w, name, seg->lineno, 0, "not a record: longer than any record can be");
	else if (!complete && last && (w->torn_line = seg->lineno))
		/* a crash tail, unless something else is wrong (the verdict) */
		walk_find(w, true, name, seg->lineno, 0,
			  "unfinished last record (the recorder stopped while writing it, or the "
			  "file was cut); 'nsaudit record' removes it when it starts");
	else if (!complete)
		walk_bad(w, name, seg->lineno, 0, "record cut short (not the newest segment)");
	else if (w->garbage_seg != w->cur_seg || w->garbage_line + 1 != seg->lineno)
		walk_bad(w, name, seg->lineno, 0, "not a record: %s", why);
	else
		w->v->garbage_lines++; /* a run of them is one finding */
	w->garbage_seg = w->cur_seg;
	w->garbage_line = seg->lineno;
	w->resync = true;
}

/* A record whose seq is not the next one. */
static void seq_jump(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	if (r->seq > w->expect)
		walk_bad(w, name, lineno, r->seq,
			 "record%s seq %" PRIu64 "..%" PRIu64 " missing (deleted) before this one, "
			 "or out of order",
			 r->seq - w->expect > 1 ? "s" : "", w->expect, r->seq - 1);
	else
		walk_bad(w, name, lineno, r->seq,
			 "seq %" PRIu64 " where seq %" PRIu64
			 " was expected: record duplicated, reordered or inserted",
			 r->seq, w->expect);
}

/* One parsed record: every check, then the chain goes on from it. */
static void one_record(struct walk *w, const char *name, uint64_t lineno, const char *line,
		       const struct audit_rec *r, bool first, bool follows)
{
	uint8_t hprev[AUDIT_MAC_LEN];
	int rc = 0;

	if (lineno == 1) {
		rc = header(w, name, w->cur_seg, r, hprev, follows, first);
		if (!rc)
			rc = walk_epoch_of(w, name, 1, r, first);
		if (!rc && !w->resync)
			rc = check_mac(w, name, 1, line, r, hprev, true);
	} else {
		if (!w->resync && r->seq != w->expect)
			seq_jump(w, name, lineno, r);
		rc = walk_epoch_of(w, name, lineno, r, false);
		if (!rc && !w->resync && r->seq == w->expect)
			rc = check_mac(w, name, lineno, line, r, w->prev, false);
		/* a closed log takes nothing until a recorder starts again (a
		 * start or recover first, or the seals of a start) */
		if (!rc && w->v->closed && !walk_is_log(r, "start") && !walk_is_log(r, "recover") &&
		    !walk_is_log(r, "seal"))
			walk_bad(
			    w, name, lineno, r->seq,
			    "written after the log was closed: a record with no recorder start "
			    "after the close (appended with a key left on the host?)");
	}
	if (w->sealed && walk_is_log(r, "seal"))
		walk_seal(w, name, lineno, r);
	if (!w->v->records)
		w->v->first_seq = r->seq;
	w->v->records++;
	w->v->last_seq = r->seq;
	memcpy(w->prev, r->mac, AUDIT_MAC_LEN);
	w->expect = r->seq + 1;
	w->have_prev = true;
	w->resync = false;
	account(w, name, lineno, r);
}

int walk_segment(struct walk *w, unsigned int num, bool follows, bool first)
{
	char name[AUDIT_SEG_NAME_MAX], why[200];
	struct audit_seg seg;
	const char *line;
	size_t len;
	bool complete;

	audit_seg_name(num, name);
	w->cur_seg = num;
	if (audit_seg_read(w->dirfd, name, &seg, why, sizeof(why))) {
		w->resync = true;
		return walk_bad(w, name, 0, 0, "unreadable: %s", why);
	}
	if (!seg.size) {
		audit_seg_free(&seg);
		w->resync = true;
		/* the recorder creates a segment, then writes its header: a crash
		 * in between leaves the newest one empty */
		if (num == w->v->last_segment && !w->v->closed &&
		    !(w->have_state && w->st.segment >= num && w->st.seq))
			return walk_find(w, true, name, 0, 0,
					 "empty newest segment (the recorder stopped right after "
					 "creating it)");
		return walk_bad(w, name, 0, 0, "empty (not even a segment header)");
	}
	while (audit_seg_next(&seg, &line, &len, &complete)) {
		struct audit_rec r;

		if (complete && walk_light_record(w, seg.lineno, line, len, &r)) {
			one_record(w, name, seg.lineno, line, &r, first, follows);
			continue;
		}
		if (!complete || audit_rec_parse(line, len, &r, why, sizeof(why))) {
			not_record(w, name, &seg, complete, why);
			continue;
		}
		one_record(w, name, seg.lineno, line, &r, first, follows);
		audit_rec_free(&r);
	}
	if (seg.err)
		walk_bad(w, name, 0, 0, "read error: %s", strerror(seg.err));
	audit_seg_free(&seg);
	return 0;
}
