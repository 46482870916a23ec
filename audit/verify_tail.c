// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_tail.c - what only the whole log shows: missing segments (only
 * the oldest may go, each covered by a drop record), the anchors that
 * left the host (authenticated with their epoch's key), and the state
 * file (verified, naming the last record, of an epoch the log's seals
 * reach).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "verify_impl.h"

/*
 * Rotation drops only the oldest segments, contiguously, each named by a
 * drop record: a missing segment older than the first one left must be
 * covered by one; a missing one between two that are left never is (only
 * a "missing" record, whose segment must then be put back).
 */
static void gaps(struct walk *w, const unsigned int *nums, size_t n)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int j, prev = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (j = prev + 1; j < nums[i]; j++) {
			bool moved = false;

			for (k = 0; k < w->nmoved; k++)
				moved |= w->moved[k] == j;
			if (i == 0 && j <= w->max_dropped)
				continue;
			audit_seg_name(j, name);
			if (moved)
				walk_bad(
				    w, name, 0, 0,
				    "segment moved away: it was renamed or moved out of the "
				    "directory while the recorder wrote it (SIGHUP reopen); its "
				    "records are not in this log (put it back to verify them)");
			else if (i == 0)
				walk_bad(
				    w, name, 0, 0,
				    "missing: older segment deleted (not removed by rotation: no "
				    "record of this log says it was dropped)");
			else
				walk_bad(
				    w, name, 0, 0,
				    "missing: segment deleted between %06u and %06u (rotation only "
				    "ever drops the oldest segments)",
				    prev, nums[i]);
		}
		prev = nums[i];
	}
}

static int cmp_anchor(const void *a, const void *b)
{
	const struct audit_anchor *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Does an anchor authenticate with its epoch's key? 1 yes, 0 forged, -1
 * its key is not held (older than a sealing state given with --key). */
static int anchor_auth(struct walk *w, struct audit_anchor *a)
{
	uint8_t key[AUDIT_KEY_LEN], mac[AUDIT_TAG_LEN];
	int ok;

	if (!a->has_amac)
		return 0;
	if (audit_keyring_get(&w->kr, w->kr.kind == AUDIT_KR_STATIC ? 0 : a->epoch, key))
		return w->kr.kind == AUDIT_KR_STATE && a->epoch < w->kr.base_epoch ? -1 : 0;
	/* v2 covers why; an older (v1) anchor's why is not vouched for */
	audit_anchor_mac(a, key, mac);
	ok = !sodium_memcmp(mac, a->amac, sizeof(mac));
	a->why_auth = ok && a->why[0];
	if (!ok && a->why[0]) {
		struct audit_anchor v1 = *a;

		v1.why[0] = '\0';
		audit_anchor_mac(&v1, key, mac);
		ok = !sodium_memcmp(mac, a->amac, sizeof(mac));
	}
	sodium_memzero(key, sizeof(key));
	return ok;
}

/*
 * Authentic anchors of another log under this key: the key witnessed a
 * history this directory does not hold. Unless that log's newest anchor
 * says, authentically, that it ended (why=end), the directory's log
 * replaced it (deleted and begun again with the host's sealing state).
 */
static void other_log(struct walk *w, struct audit_anchor *a)
{
	struct walk_other *o = NULL, *grown;
	bool end;
	size_t i;

	if (anchor_auth(w, a) <= 0)
		return;
	/* per log id: anchors of several logs come interleaved (two sinks,
	 * files given in any order, a line replayed with logger), so the
	 * newest anchor in file order says nothing of the others' */
	for (i = 0; i < w->nothers && !o; i++)
		if (!strcmp(w->others[i].log_id, a->log_id))
			o = &w->others[i];
	if (!o) {
		grown = realloc(w->others, (w->nothers + 1) * sizeof(*w->others));
		if (!grown)
			return;
		w->others = grown;
		o = &w->others[w->nothers++];
		memset(o, 0, sizeof(*o));
		memcpy(o->log_id, a->log_id, sizeof(o->log_id));
	}
	o->count++;
	/* a clean stop is no end (a restart goes on with the same log, and
	 * whoever stops the recorder can make one): only an authentic "end"
	 * as the log's newest anchor (highest number, then seq) retires it;
	 * two newest ones that disagree are no end */
	end = a->why_auth && !strcmp(a->why, "end");
	if (o->count == 1 || a->n > o->n || (a->n == o->n && a->seq > o->seq)) {
		o->n = a->n;
		o->seq = a->seq;
		o->ended = end;
		o->line = a->line;
		o->file = a->file;
	} else if (a->n == o->n && a->seq == o->seq) {
		o->ended = o->ended && end;
	}
}

/* The other logs' verdict: the first that never ended, else the newest. */
static void other_logs(struct walk *w)
{
	struct audit_verify *v = w->v;
	const struct walk_other *pick = NULL;
	size_t i;

	for (i = 0; i < w->nothers && !(pick && !pick->ended); i++)
		if (!pick || !w->others[i].ended)
			pick = &w->others[i];
	v->other_logs = (unsigned int)w->nothers;
	if (!pick)
		return;
	if (pick->ended) /* all ended: the one whose end came last in the files */
		pick = &w->others[w->nothers - 1];
	memcpy(v->other_log_id, pick->log_id, sizeof(v->other_log_id));
	v->other_anchors = pick->count;
	v->other_last_seq = pick->seq;
	v->other_line = pick->line;
	v->other_closed = pick->ended;
	w->other_file = pick->file;
}

/* Anchors of this log (log id from its first header; a v1 log has none)
 * that authenticate; the others are listed (forged) and ignored. */
static void pick_anchors(struct walk *w, struct audit_anchor *all, size_t n)
{
	size_t i, k = 0;
	int auth;

	for (i = 0; i < n; i++) {
		if (strcmp(all[i].key_id, w->key_id))
			continue;
		if (w->log_id[0] && strcmp(all[i].log_id, w->log_id)) {
			other_log(w, &all[i]);
			continue;
		}
		auth = anchor_auth(w, &all[i]);
		if (auth > 0) {
			all[k++] = all[i];
		} else if (auth < 0) {
			w->v->unauth_anchors++;
		} else if (!w->v->forged_anchors++) {
			w->v->forged_anchor_line = all[i].line;
		}
	}
	qsort(all, k, sizeof(*all), cmp_anchor);
	w->anc = all;
	w->nanc = k;
}

int walk_load_anchors(struct walk *w, const struct audit_verify_opts *o, char *err, size_t errlen)
{
	struct audit_anchor *all = NULL, *one;
	size_t n = 0, m, i, k;

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
		for (k = 0; k < m; k++)
			one[k].file = o->anchors[i];
		memcpy(all + n, one, m * sizeof(*one));
		n += m;
		free(one);
	}
	/* messages about the stream as a whole: the file, or how many */
	if (i == 1) {
		w->anc_file = o->anchors[0];
	} else {
		snprintf(w->anc_files, sizeof(w->anc_files), "the %zu --anchor files", i);
		w->anc_file = w->anc_files;
	}
	pick_anchors(w, all, n);
	other_logs(w);
	if (w->v->other_anchors && !w->v->other_closed)
		walk_bad(w, w->other_file, w->v->other_line, 0,
			 "another history under this key: %" PRIu64 " authentic anchor%s of log %s "
			 "(up to seq %" PRIu64
			 ") signed with key %s, which never ended, while this "
			 "directory holds log %s (the log was deleted and begun again with the "
			 "host's sealing state? one sealing state per log)",
			 w->v->other_anchors, w->v->other_anchors == 1 ? "" : "s",
			 w->v->other_log_id, w->v->other_last_seq, w->key_id, w->log_id);
	if (w->nanc) {
		w->v->anchor_first_seq = w->anc[0].seq;
		w->v->anchor_last_seq = w->anc[w->nanc - 1].seq;
	}
	/* the erased log's anchors are the finding, whether or not the log
	 * that replaced it sent any of its own */
	if (!w->nanc && w->v->other_anchors && !w->v->other_closed) {
		free(all);
		w->anc = NULL;
		return 0;
	}
	if (!w->nanc) {
		snprintf(err, errlen,
			 "%.200s: no authentic anchor of this log in it (log id %s, key id %s; "
			 "%u forged, %u not checkable with this key): nothing to check the tail "
			 "against",
			 w->anc_file, w->log_id[0] ? w->log_id : "-", w->key_id,
			 w->v->forged_anchors, w->v->unauth_anchors);
		free(all);
		w->anc = NULL;
		return -1;
	}
	return 0;
}

/* After the walk: the kernel's lost counter in headers and state against
 * what the chain's lost records reported (verify_walk.c lost_total_of). */
static void check_lost_total(struct walk *w)
{
	char name[AUDIT_SEG_NAME_MAX];
	uint64_t chain;

	if (w->disk_lost)
		return; /* a kernel report may have been dropped with the disk full */
	if (w->lost_bad_seg) {
		audit_seg_name(w->lost_bad_seg, name);
		walk_bad(w, name, 1, w->lost_bad_seq,
			 "lost counter changed: the segment header says the kernel lost %" PRIu64
			 " calls in all, the log's lost records %" PRIu64
			 " (a raised counter hides "
			 "the calls lost while the recorder was down)",
			 w->lost_bad_hdr, w->lost_bad_chain);
	}
	/* the state names an earlier record than the log's last after a
	 * crash: compared with the chain at that record */
	chain = w->state_seen ? w->lost_at_state : w->lost_total;
	if (w->have_state && w->state_rc == 1 && w->lost_total_seen && w->st.lost_total &&
	    w->st.lost_total != chain)
		walk_bad(w, AUDIT_STATE_FILE, 0, 0,
			 "lost counter changed: the state file says the kernel lost %" PRIu64
			 " calls in all, the log %" PRIu64 " (a raised counter hides the calls "
			 "lost while the recorder was down)",
			 w->st.lost_total, chain);
}

/* After the walk: the state file's record and epoch. */
static void check_state(struct walk *w)
{
	struct audit_verify *v = w->v;
	char name[AUDIT_SEG_NAME_MAX];

	if (!w->have_state) {
		walk_bad(w, AUDIT_STATE_FILE, 0, 0,
			 "state missing, so a cut tail cannot be ruled out "
			 "(the recorder writes it; was it deleted?)");
		return;
	}
	/* nothing unverified is evidence: a state no held key can check */
	if (w->state_rc != 1) {
		walk_bad(w, AUDIT_STATE_FILE, 0, 0,
			 "unverifiable state: it claims epoch %" PRIu64 ", whose key this "
			 "verification cannot derive (older than the key given, or an epoch not "
			 "reached yet): forged or rolled back",
			 w->st.epoch);
		return;
	}
	if (w->st.segment > v->last_segment) {
		audit_seg_name(w->st.segment, name);
		walk_bad(w, name, 0, 0,
			 "missing: newest segment deleted (the state file says seq %" PRIu64
			 " was written to it)",
			 w->st.seq);
	} else if (!w->state_seen && w->st.seq != v->last_seq) {
		audit_seg_name(v->last_segment, name);
		if (w->torn_line)
			walk_bad(w, name, w->torn_line, v->last_seq,
				 "unfinished last record, and no crash: the log was cut after seq "
				 "%" PRIu64 " but the state file names seq %" PRIu64
				 " as durable (tail cut)",
				 v->last_seq, w->st.seq);
		else
			walk_bad(w, name, 0, v->last_seq,
				 "tail cut: log cut short: it ends at seq %" PRIu64
				 " but the state file "
				 "names seq %" PRIu64
				 " as written (records or the closing record removed "
				 "from the end, or a state forged)",
				 v->last_seq, w->st.seq);
	}
	/* a state of epoch E means every epoch before E was sealed in the log */
	if (w->sealed && w->st.version >= 2 && w->st.epoch > w->epoch)
		walk_bad(w, AUDIT_STATE_FILE, 0, 0,
			 "cut into sealed epochs: the state is of epoch %" PRIu64 " but the log's "
			 "seals end with epoch %" PRIu64 " (seals of epochs %" PRIu64 "..%" PRIu64
			 " missing)",
			 w->st.epoch, w->epoch, w->epoch, w->st.epoch - 1);
}

/* After the walk: the tail against the newest authentic anchor. */
static void check_anchors(struct walk *w)
{
	struct audit_verify *v = w->v;
	const struct audit_anchor *a;
	char name[AUDIT_SEG_NAME_MAX];

	if (!w->nanc)
		return;
	a = &w->anc[w->nanc - 1];
	if (a->seq > v->last_seq) {
		audit_seg_name(v->last_segment, name);
		walk_bad(w, name, 0, v->last_seq,
			 "tail cut: the log ends at seq %" PRIu64 " but the anchor at %.100s line "
			 "%" PRIu64 " says seq %" PRIu64 " (segment %06u) was written",
			 v->last_seq, a->file, a->line, a->seq, a->segment);
	}
	/* segments the newest anchor saw retained cannot be gone unless a
	 * later anchor saw them dropped */
	if (a->first_segment && a->first_segment < v->first_segment) {
		audit_seg_name(a->first_segment, name);
		walk_bad(w, name, 0, 0,
			 "forged rotation: the newest anchor (%.100s line %" PRIu64
			 ") says segments "
			 "from %06u on were retained, but the log starts at %06u: dropped with no "
			 "anchor to witness it",
			 a->file, a->line, a->first_segment, v->first_segment);
	}
}

/* After the walk: what only the whole log shows. */
void walk_check_tail(struct walk *w, const unsigned int *nums, size_t n)
{
	gaps(w, nums, n);
	check_anchors(w);
	walk_check_anchor_chain(w);
	check_state(w);
	check_lost_total(w);
	w->v->after_anchor = w->after_anchor;
}
