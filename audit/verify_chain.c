// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_chain.c - the anchor stream as a witness of the whole history.
 * Anchors of format v3 are numbered and each names the one before it
 * (anchor.h), so that:
 *   - an anchor deleted from the middle of the stream is a gap in n;
 *   - the newest anchors deleted are seen from the log: every seal record
 *     says how many anchors had been sent (sealed with a key the host no
 *     longer holds), the state file how many the recorder sent last;
 *   - every record an authentic anchor saw retained (first_seq..seq) is in
 *     the directory or was dropped by a drop record written after it.
 * Called after the walk (check_tail), with this log's authentic anchors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "verify_impl.h"

static int cmp_n(const void *a, const void *b)
{
	const struct audit_anchor *x = *(const struct audit_anchor *const *)a,
				  *y = *(const struct audit_anchor *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Whether the log says a sink lost every anchor numbered lo..hi (its
 * anchors_lost records, authenticated with the log): then a gap there is
 * a loss the recorder admitted when it happened, not a deletion.
 */
static bool sink_lost(const struct walk *w, uint64_t lo, uint64_t hi)
{
	uint64_t reach;
	size_t i;

	while (lo <= hi) {
		reach = 0;
		for (i = 0; i < w->nalost; i++)
			if (w->alost[i].first <= lo && w->alost[i].last >= lo &&
			    w->alost[i].last > reach)
				reach = w->alost[i].last;
		if (!reach)
			return false;
		lo = reach + 1;
	}
	return true;
}

static bool same(const struct audit_anchor *x, const struct audit_anchor *y)
{
	return !sodium_memcmp(x->amac, y->amac, sizeof(x->amac));
}

/*
 * Two different anchors with one number: a recorder that crashed after
 * sending an anchor its state did not name yet numbers its start anchor
 * as that one again (after the older one, at a later seq). Anything else
 * is an anchor replaced.
 */
static bool restart(const struct audit_anchor *a)
{
	return !strcmp(a->why, "start") || !strcmp(a->why, "recover");
}

static void fork_at(struct walk *w, const struct audit_anchor *x, const struct audit_anchor *y)
{
	if (y->seq > x->seq && restart(y))
		return;
	walk_bad(w, y->file, y->line, y->seq,
	    "anchor chain forked: anchors at %.100s line %" PRIu64 " and %.100s line %" PRIu64
	    " both say they are anchor %" PRIu64 " of log %s (an anchor replaced?)",
	    x->file, x->line, y->file, y->line, y->n, w->log_id);
}

/* y's predecessor: an anchor numbered y->n - 1 (v[ps..pe), the group
 * before y's, when it holds that number) whose amac y names. */
static void link_to(struct walk *w, struct audit_anchor **v, size_t ps, size_t pe,
		    const struct audit_anchor *y)
{
	size_t j;

	if (pe > ps && v[ps]->n + 1 == y->n) {
		for (j = ps; j < pe; j++)
			if (!sodium_memcmp(v[j]->amac, y->prev, sizeof(y->prev)))
				return;
		walk_bad(w, y->file, y->line, y->seq,
		    "anchor chain broken: the anchor at line %" PRIu64 " (anchor %" PRIu64
		    ") names a previous anchor that %.100s does not hold (an anchor "
		    "replaced?)",
		    y->line, y->n, w->anc_file);
		return;
	}
	/* a sink lost them, and the log said so when it happened */
	if (pe > ps && sink_lost(w, v[ps]->n + 1, y->n - 1)) {
		w->v->anchors_lost_sink += y->n - 1 - v[ps]->n;
		return;
	}
	/* the first anchor after an unclean stop: the killed recorder's last
	 * anchors may never have left its queue */
	if (!strcmp(y->why, "recover") && y->why_auth) {
		w->v->anchors_lost_crash += y->n - 1 - (pe > ps ? v[ps]->n : 0);
		return;
	}
	walk_bad(w, y->file, y->line, y->seq,
	    "anchors deleted: anchor %" PRIu64 " of log %s is missing from %.100s, before "
	    "the one at line %" PRIu64 " (deleted from the sink, or never delivered: the "
	    "anchor chain has a gap)",
	    y->n - 1, w->log_id, w->anc_file, y->line);
}

/* The chained anchors in order of n: gaps, forks and broken links. Each
 * number's group is compared with the group before it only: linear. */
static uint64_t check_links(struct walk *w)
{
	static const uint8_t zero[AUDIT_TAG_LEN];
	struct audit_anchor **v = calloc(w->nanc ? w->nanc : 1, sizeof(*v));
	size_t i, k = 0, gs = 0, ps = 0, pe = 0;

	if (!v)
		return 0;
	for (i = 0; i < w->nanc; i++)
		if (w->anc[i].chained)
			v[k++] = &w->anc[i];
	qsort(v, k, sizeof(*v), cmp_n);
	for (i = 0; i < k; i++) {
		if (i && v[i]->n == v[i - 1]->n) {
			if (!same(v[i], v[i - 1]))
				fork_at(w, v[i - 1], v[i]);
			else
				continue; /* the same anchor twice: two sinks, a resend */
		} else if (i) {
			ps = gs;
			pe = i;
			gs = i;
		}
		/* the first one kept need not be anchor 1 (an older syslog file
		 * holds the rest); anchor 1 names no previous one */
		if (v[i]->n == 1 && sodium_memcmp(v[i]->prev, zero, sizeof(zero)))
			walk_bad(w, v[i]->file, v[i]->line, v[i]->seq,
			    "anchor chain broken: the anchor at line %" PRIu64
			    " says it is the first of log %s but names a previous one",
			    v[i]->line, w->log_id);
		else if (v[i]->n > v[0]->n)
			link_to(w, v, ps, pe, v[i]);
	}
	w->v->anchor_chain_first = k ? v[0]->n : 0;
	w->v->anchor_chain_last = k ? v[k - 1]->n : 0;
	i = k ? v[k - 1]->n : 0;
	free(v);
	return i;
}

/*
 * The newest anchors missing from the sink: the log says how many were
 * sent. A copy that is behind (a collector still down, a queue not yet
 * flushed) looks the same as one an attacker cut, so the finding names both.
 */
static void check_newest(struct walk *w, uint64_t newest)
{
	char name[AUDIT_SEG_NAME_MAX];

	/* a seal whose anchors may have been in flight at a crash after it
	 * (a recover record follows it) is no evidence */
	if (w->seal_anchors > newest && sink_lost(w, newest + 1, w->seal_anchors)) {
		w->v->anchors_lost_sink += w->seal_anchors - newest;
	} else if (w->seal_anchors > newest && !w->seal_anchors_crashed) {
		audit_seg_name(w->seal_anchors_seg, name);
		walk_bad(w, name, w->seal_anchors_line, w->seal_anchors_seq,
		    "anchors deleted: the seal of epoch %" PRIu64 " says %" PRIu64 " anchors "
		    "of this log had been sent, but the newest in %.100s is anchor %" PRIu64
		    " (the newest anchor lines were deleted from the sink, or never delivered"
		    " to it)",
		    w->seal_anchors_epoch, w->seal_anchors, w->anc_file, newest);
	} else if (w->have_state && w->state_rc == 1 && w->st.anchor_n > newest &&
		   !strcmp(w->st.log_id, w->log_id)) {
		walk_bad(w, AUDIT_STATE_FILE, 0, 0,
		    "anchors deleted: the state file says anchor %" PRIu64 " was sent, but the "
		    "newest in %.100s is anchor %" PRIu64 " (the newest anchor lines were "
		    "deleted from the sink, or never delivered to it)",
		    w->st.anchor_n, w->anc_file, newest);
	}
}

/*
 * Every record an authentic anchor saw retained (its first_seq up to its
 * seq; a v2 anchor: its seq) is in the directory, or a drop record written
 * after the anchor dropped it. A log replaced by one that starts later
 * (whatever its segment numbers say) has no such drop.
 */
static void check_attested(struct walk *w)
{
	struct audit_verify *v = w->v;
	const struct audit_anchor *a;
	uint64_t lo;
	size_t i;

	for (i = 0; i < w->nanc; i++) {
		a = &w->anc[i];
		lo = a->chained && a->first_seq ? a->first_seq : a->seq;
		if (!v->records || lo >= v->first_seq || w->last_drop_seq > a->seq)
			continue;
		walk_bad(w, a->file, a->line, lo,
		    "attested records gone: the anchor at %.100s line %" PRIu64 " saw seq %" PRIu64
		    "..%" PRIu64 " retained, but the log starts at seq %" PRIu64 " and no drop "
		    "record written after that anchor removed them",
		    a->file, a->line, lo, a->seq, v->first_seq);
		return; /* one finding says it; the newer anchors repeat it */
	}
}

#define WALK_ANCHOR_LOSSES 4096

/* An anchors_lost record: the anchors first_n..last_n a sink lost. */
static void note_sink_loss(struct walk *w, const struct audit_rec *r)
{
	int64_t first, last;
	void *p;

	if (!audit_rec_int(r, "first_n", &first) || !audit_rec_int(r, "last_n", &last) ||
	    first <= 0 || last < first || w->nalost == WALK_ANCHOR_LOSSES)
		return;
	p = realloc(w->alost, (w->nalost + 1) * sizeof(*w->alost));
	if (!p)
		return;
	w->alost = p;
	w->alost[w->nalost].first = (uint64_t)first;
	w->alost[w->nalost].last = (uint64_t)last;
	w->nalost++;
}

/* During the walk: what the log says of its anchors (seal records: how
 * many had been sent), the newest drop record, and a retired log's end
 * (after it, only its close and seals). */
void walk_note_witness(struct walk *w, const char *name, uint64_t lineno,
		       const struct audit_rec *r)
{
	int64_t n;

	if (w->v->ended_seq && !walk_is_log(r, "close") && !walk_is_log(r, "seal"))
		walk_bad(w, name, lineno, r->seq,
		    "written after the log was retired: the end record at seq %" PRIu64
		    " ended this log for good (a retired log takes no records)",
		    w->v->ended_seq);
	if (walk_is_log(r, "end"))
		w->v->ended_seq = r->seq;
	if (walk_is_log(r, "recover"))
		w->seal_anchors_crashed = true;

	if (walk_is_log(r, "drop") && audit_rec_int(r, "dropped", &n) && n > 0 && n < w->cur_seg)
		w->last_drop_seq = r->seq;
	if (walk_is_log(r, "anchors_lost"))
		note_sink_loss(w, r);
	if (!walk_is_log(r, "seal") || !audit_rec_int(r, "anchors", &n) || n <= 0 ||
	    (uint64_t)n <= w->seal_anchors)
		return;
	w->seal_anchors = (uint64_t)n;
	w->seal_anchors_crashed = false;
	w->seal_anchors_epoch = audit_rec_int(r, "epoch", &n) && n >= 0 ? (uint64_t)n : 0;
	w->seal_anchors_seq = r->seq;
	w->seal_anchors_seg = w->cur_seg;
	w->seal_anchors_line = lineno;
}

void walk_check_anchor_chain(struct walk *w)
{
	if (!w->nanc)
		return;
	check_newest(w, check_links(w));
	check_attested(w);
}
