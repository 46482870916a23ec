// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_seal.c - what the writer does at an epoch's end and at the tail:
 * the seal record, the next epoch's key derived one way and the old one
 * erased, and the tail anchors sent through the sinks (start, every
 * epoch, stop). log.c appends; log_impl.h is what they share.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "clock.h"
#include "log_impl.h"
#include "codec.h"
#include "anchor.h"
#include "segment.h"
#include "log_test.h"

/*
 * The chain head leaves the host, authenticated with the key of its epoch
 * (anchor.h): a line anyone can log is not an anchor. Each anchor is
 * numbered and names the one before it (its amac), and says the oldest
 * record retained, so that verify can tell an anchor deleted from the
 * stream, and a record the anchors saw that the directory lost. Made after
 * the record it names is durable; the state saved after it carries its
 * number, so that a restart chains on.
 */
static struct json_object *make_anchor_at(struct audit_log *l, const char *why, uint64_t seq,
					  const uint8_t *mac, unsigned int segno)
{
	struct json_object *a;
	struct audit_anchor an = {0};
	uint8_t amac[AUDIT_TAG_LEN];
	char hex[AUDIT_MAC_HEX + 1], now[40];

	if (!l->anchor_fn || !seq)
		return NULL;
	a = json_object_new_object();
	if (!a)
		return NULL;
	l->anchor_ns = now_ns();
	l->anchored_seq = seq;
	memcpy(an.log_id, l->log_id, sizeof(an.log_id));
	memcpy(an.key_id, l->key_id, sizeof(an.key_id));
	an.seq = seq;
	an.segment = segno;
	an.epoch = l->epoch;
	an.first_segment = alog_first_segment(l);
	an.first_seq = alog_first_seq(l, an.first_segment);
	an.n = l->anchor_n + 1;
	memcpy(an.prev, l->anchor_amac, sizeof(an.prev)); /* zeros for the first */
	an.chained = true;
	memcpy(an.mac, mac, l->mac_len);
	an.mac_len = l->mac_len;
	snprintf(an.why, sizeof(an.why), "%s", why); /* v2: why is authenticated */
	audit_anchor_mac(&an, l->key, amac);
	l->anchor_n = an.n;
	memcpy(l->anchor_amac, amac, sizeof(amac));
	audit_time_now(now);
	json_object_object_add(a, "time", json_object_new_string(now));
	json_object_object_add(a, "op", json_object_new_string("log"));
	json_object_object_add(a, "action", json_object_new_string("anchor"));
	json_object_object_add(a, "log_id", json_object_new_string(l->log_id));
	json_object_object_add(a, "key_id", json_object_new_string(l->key_id));
	json_object_object_add(a, "seq", json_object_new_uint64(an.seq));
	json_object_object_add(a, "segment", json_object_new_uint64(segno));
	json_object_object_add(a, "epoch", json_object_new_uint64(l->epoch));
	json_object_object_add(a, "first_segment", json_object_new_uint64(an.first_segment));
	/* in the order anchor.h's text has them (the audit sink keeps it) */
	json_object_object_add(a, "first_seq", json_object_new_uint64(an.first_seq));
	json_object_object_add(a, "n", json_object_new_uint64(an.n));
	audit_hex(mac, l->mac_len, hex);
	json_object_object_add(a, "mac", json_object_new_string(hex));
	json_object_object_add(a, "why", json_object_new_string(why));
	audit_hex(an.prev, sizeof(an.prev), hex);
	json_object_object_add(a, "prev", json_object_new_string(hex));
	audit_hex(amac, sizeof(amac), hex);
	json_object_object_add(a, "amac", json_object_new_string(hex));
	return a;
}

/* The head now (l->seq - 1), durable. */
static struct json_object *make_anchor(struct audit_log *l, const char *why)
{
	return l->seq < 2 ? NULL : make_anchor_at(l, why, l->seq - 1, l->mac, l->segno);
}

static void emit_anchor(struct audit_log *l, struct json_object *a)
{
	if (a) {
		l->anchor_fn(l->anchor_ctx, a);
		json_object_put(a);
	}
}

void alog_send_anchor(struct audit_log *l, const char *why)
{
	emit_anchor(l, make_anchor(l, why));
}

/* After a group commit made records durable: an anchor, at most one per
 * --anchor-interval (default a second), so that the window in which root
 * holding the current key can rewrite the tail unseen is that long. */
void alog_anchor_commit(struct audit_log *l)
{
	int64_t now, gap = (int64_t)(l->o.anchor_interval_ms ? l->o.anchor_interval_ms : 1000) *
			   1000000ll;

	if (!l->anchor_fn || l->seq - 1 == l->anchored_seq)
		return;
	now = now_ns();
	if (now - l->anchor_ns >= gap)
		alog_send_anchor(l, "commit");
}

void alog_anchor_durable(struct audit_log *l, uint64_t seq, const uint8_t *mac,
			 unsigned int segno)
{
	int64_t gap = (int64_t)(l->o.anchor_interval_ms ? l->o.anchor_interval_ms : 1000) *
		      1000000ll;

	if (!l->anchor_fn || seq <= l->anchored_seq || now_ns() - l->anchor_ns < gap)
		return;
	emit_anchor(l, make_anchor_at(l, "commit", seq, mac, segno));
}

int audit_log_anchors_lost(struct audit_log *l, const char *sink, uint64_t first, uint64_t last,
			   uint64_t count)
{
	struct json_object *r = alog_own_record("anchors_lost");
	char why[320];
	int rc;

	if (!r)
		return -ENOMEM;
	snprintf(why, sizeof(why), "sink %.256s: anchor lane full while its receiver was down, "
		 "or a send failed", sink);
	json_object_object_add(r, "count", json_object_new_uint64(count));
	json_object_object_add(r, "first_n", json_object_new_uint64(first));
	json_object_object_add(r, "last_n", json_object_new_uint64(last));
	json_object_object_add(r, "reason", json_object_new_string(why));
	rc = alog_emit(l, r);
	json_object_put(r);
	return rc;
}

void audit_log_set_anchor(struct audit_log *l, audit_anchor_fn fn, void *ctx)
{
	l->anchor_fn = fn;
	l->anchor_ctx = ctx;
	/* the start record is already durable. After an unclean stop the
	 * anchors the killed recorder had queued may never have left: the
	 * first anchor says "recover", and verify takes a gap before it as
	 * anchors lost in the crash */
	alog_send_anchor(l, l->recovered ? "recover" : "start");
}

int alog_seal_epoch(struct audit_log *l, uint64_t next, const char *at)
{
	struct json_object *r, *a;
	uint64_t e = l->epoch;
	char err[300];

	if (!l->seal.sealing || next <= e)
		return 0;
	/* the batch's records are this epoch's: they go first */
	if (audit_log_commit(l))
		fprintf(stderr, "nsaudit record: %s/: %s\n", l->dir, l->err);
	/* one seal per epoch, consecutively, each under its own key (empty
	 * epochs too: a recorder that was down seals them at start), so that
	 * no seal can stand for epochs whose records were cut */
	for (; e < next; e++) {
		r = alog_own_record("seal");
		if (r) {
			json_object_object_add(r, "epoch", json_object_new_uint64(e));
			json_object_object_add(r, "next_epoch", json_object_new_uint64(e + 1));
			json_object_object_add(r, "at", json_object_new_string(at));
			/* the anchors sent so far, sealed: deleting the newest
			 * anchor lines from the sink is seen from the log */
			if (l->anchor_n)
				json_object_object_add(r, "anchors",
						       json_object_new_uint64(l->anchor_n));
		}
		/* the key must go whatever the disk says (a seal a full disk
		 * kept out shows as an epoch without a seal) */
		if (!r || alog_emit(l, r) || (l->fd >= 0 && e + 1 == next && fdatasync(l->fd)))
			fprintf(stderr, "nsaudit record: %s/: sealing epoch %" PRIu64 ": %s\n",
				l->dir, e, l->err[0] ? l->err : strerror(errno));
		json_object_put(r);
		/* Forward: K(e) is gone from memory, then from the state file */
		audit_seal_evolve_to(&l->seal, e + 1);
		memcpy(l->key, l->seal.key, sizeof(l->key));
		alog_rekey(l); /* R, and the keystream of K(e), are gone with it */
		l->epoch = e + 1;
	}
	l->dirty = false;
	/* The tail state (naming the last seal, MAC'd with the next key)
	 * goes first: a crash in between leaves a key file one step behind,
	 * which the next start evolves. */
	l->epoch_end = l->seal.t0 + (int64_t)((next + 1) * l->seal.interval);
	/* the anchor first, so that the state names it (a clean restart
	 * chains on from it); sent once both are saved */
	a = make_anchor(l, strcmp(at, "close") ? "seal" : l->retiring ? "end" : "close");
	if (alog_save_state(l, !strcmp(at, "close"))) {
		json_object_put(a);
		return -1;
	}
	if (audit_seal_save(l->key_path, &l->seal, true, err, sizeof(err))) {
		alog_seterr(l, "%s", err);
		json_object_put(a);
		return -1;
	}
	emit_anchor(l, a);
	return 0;
}

/*
 * The wall clock against the monotonic one: a step (NTP, date -s) of more
 * than a second is a record, so that verify can tell an honest step back
 * from re-dated records instead of calling it tampering.
 */
static void clock_step(struct audit_log *l)
{
	int64_t off = realtime_ns() - now_ns(), step;
	struct json_object *r;

	if (!l->clock_off) {
		l->clock_off = off;
		return;
	}
	step = off - l->clock_off;
	if (step > -NSEC_PER_SEC && step < NSEC_PER_SEC)
		return;
	l->clock_off = off;
	r = alog_own_record("clock");
	if (!r)
		return;
	json_object_object_add(r, "step_ns", json_object_new_int64(step));
	/* after the batch, whose records took their seqs already */
	if (audit_log_commit(l) || alog_emit(l, r))
		fprintf(stderr, "nsaudit record: %s/: recording a clock step: %s\n", l->dir,
			l->err);
	json_object_put(r);
	fprintf(stderr, "nsaudit record: %s/: the wall clock stepped %s by %.3f s (recorded)\n",
		l->dir, step < 0 ? "back" : "forward", (double)(step < 0 ? -step : step) / 1e9);
}

int audit_log_tick(struct audit_log *l)
{
	int64_t now;

	clock_step(l);
	if (!l->seal.sealing || !l->epoch_end)
		return 0;
	now = realtime_ns() / NSEC_PER_SEC;
	if (now < l->epoch_end)
		return 0;
	return alog_seal_epoch(l, audit_seal_epoch_at(&l->seal, now), "timer");
}
