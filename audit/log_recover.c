// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_recover.c - opening the audit log, in named steps: the directory and
 * its lock, the keys (log_keys.c), the tail state, the
 * scan of the newest segments (parsed with the codec, MAC-checked with
 * every epoch key the recorder still has), recovery after an unclean stop,
 * catching the sealing key up to the current epoch, and the start record.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "log.h"
#include "log_impl.h"
#include "segment.h"
#include "regfile.h"

/* What the newest segment(s) hold, as far as the chain checks out. */
struct scan {
	bool header_ok, key_mismatch;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	char log_id[AUDIT_KEY_ID_HEX + 1];
	enum audit_format fmt;
	unsigned int log_version; /* of the segment's header */
	struct audit_chain chain; /* its record MAC, following key and run */
	uint64_t last_seq, records;
	uint8_t last_mac[AUDIT_MAC_LEN];
	uint64_t epoch; /* of the next record after the last one */
	size_t size, good_end, lines;
	bool clean;  /* the last intact record is a closing one */
	uint64_t ended; /* the seq of an end record (retired), then only close/seals */
	size_t torn; /* an unfinished last line after good_end, and nothing else */
	size_t bad;  /* anything else after good_end */
	uint64_t kseq[AUDIT_RESUME_MAX];
	size_t nkseq;
	bool have_lost_total;
	uint64_t lost_total;
	bool lost_reported;    /* a kernel lost record after the header */
	uint64_t hdr_lost_total; /* what the header said */
};

/* Everything recovery found, for the recover record. */
struct recovery {
	char reason[640];
	uint64_t discarded, missing;
	bool unclean, state_missing, epoch_gap, append;
};

static void why(struct recovery *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(struct recovery *rc, const char *fmt, ...)
{
	size_t n = strlen(rc->reason);
	va_list ap;

	if (n && n + 2 < sizeof(rc->reason))
		n += (size_t)snprintf(rc->reason + n, sizeof(rc->reason) - n, "; ");
	va_start(ap, fmt);
	if (n < sizeof(rc->reason))
		vsnprintf(rc->reason + n, sizeof(rc->reason) - n, fmt, ap);
	va_end(ap);
	rc->unclean = true;
}

static bool is_log_action(const struct audit_rec *r, const char *action)
{
	const char *op = audit_rec_str(r, "op", NULL), *a = audit_rec_str(r, "action", NULL);

	return op && a && !strcmp(op, "log") && !strcmp(a, action);
}

/* What a restarted recorder must not write twice, from records the codec
 * parsed (never from raw bytes: a process name is not a field). */
static void note_resume(struct scan *sc, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL);
	int64_t v;

	if (!op || !strcmp(op, "log"))
		return;
	/* the kernel's running count of lost records (a sink's losses carry a
	 * "cause" and are not part of it) */
	if (!strcmp(op, "lost") && !audit_rec_str(r, "cause", NULL) &&
	    audit_rec_int(r, "lost_total", &v) && v >= 0) {
		sc->lost_total = (uint64_t)v;
		sc->have_lost_total = true;
		sc->lost_reported = true;
	}
	if (audit_rec_int(r, "kseq", &v) && v >= 0)
		sc->kseq[sc->nkseq++ % AUDIT_RESUME_MAX] = (uint64_t)v;
}

static bool header_ok(struct audit_log *l, struct scan *sc, const struct audit_rec *r,
		      unsigned int segno, uint8_t prev[AUDIT_MAC_LEN])
{
	const char *s;
	size_t slen;
	int64_t v;

	s = audit_rec_str(r, "key_id", &slen);
	if (s && slen == AUDIT_KEY_ID_HEX && strspn(s, "0123456789abcdef") == slen &&
	    strcmp(s, l->key_id)) {
		sc->key_mismatch = true;
		memcpy(sc->key_id, s, slen + 1);
	}
	sc->log_version = audit_rec_int(r, "log_version", &v) && v > 1 ? (unsigned int)v : 1;
	s = audit_rec_str(r, "prev_mac", &slen);
	if (!is_log_action(r, "segment") || !audit_rec_int(r, "segment", &v) || v != segno || !s ||
	    sc->log_version > AUDIT_LOG_VERSION ||
	    audit_unhex(s, slen, prev, audit_chain_maclen(audit_mac_kind(sc->log_version))))
		return false;
	sc->epoch = audit_rec_int(r, "epoch", &v) && v >= 0 ? (uint64_t)v : 0;
	if (audit_rec_int(r, "lost_total", &v) && v >= 0) {
		sc->lost_total = (uint64_t)v;
		sc->hdr_lost_total = (uint64_t)v;
		sc->have_lost_total = true;
	}
	s = audit_rec_str(r, "log_id", &slen);
	if (s && slen == AUDIT_KEY_ID_HEX)
		memcpy(sc->log_id, s, slen + 1);
	return true;
}

/*
 * One segment, as far as it is intact. Records of epochs whose keys the
 * recorder no longer has (erased, as intended) are taken on their sequence
 * numbers; verify checks their MACs with the verification key.
 */
static int scan_segment(struct audit_log *l, struct audit_keyring *kr, unsigned int segno,
			struct scan *sc)
{
	char name[AUDIT_SEG_NAME_MAX], err[160];
	uint8_t prev[AUDIT_MAC_LEN], mac[AUDIT_MAC_LEN], key[AUDIT_KEY_LEN];
	struct audit_seg seg;
	const char *line;
	size_t len;
	bool complete, torn = false;

	memset(sc, 0, sizeof(*sc));
	audit_seg_name(segno, name);
	if (audit_seg_read(l->dirfd, name, &seg, err, sizeof(err))) {
		alog_seterr(l, "%s/%s", l->dir, err);
		return -1;
	}
	sc->size = seg.size;
	while (audit_seg_next(&seg, &line, &len, &complete)) {
		struct audit_rec r;
		uint8_t run[AUDIT_RUN_LEN];
		int64_t e, next;
		bool ok = true;

		if (complete)
			sc->lines++;
		/* an unfinished last line (no newline before the end) is torn */
		torn = !complete && !seg.overlong;
		if (!complete || audit_rec_parse(line, len, &r, err, sizeof(err)))
			break;
		if (!sc->header_ok)
			ok = header_ok(l, sc, &r, segno, prev);
		else if (r.seq != sc->last_seq + 1)
			ok = false;
		/* v3: the run a record says (also where its epoch's key is
		 * gone: the later records of the run need it) */
		if (ok && sc->log_version >= 3 && audit_rec_run(&r, run))
			audit_chain_set_run(&sc->chain, run);
		if (ok && !audit_keyring_get(kr, sc->epoch, key)) {
			unsigned int kind = audit_mac_kind(sc->log_version);

			audit_chain_use(&sc->chain, kind, key);
			audit_chain_mac(&sc->chain, r.seq, prev, line, r.body_len, mac);
			ok = r.mac_len == audit_chain_maclen(kind) &&
			     !sodium_memcmp(mac, r.mac, r.mac_len);
		} else {
			memcpy(mac, r.mac, sizeof(mac));
		}
		if (ok && is_log_action(&r, "seal")) {
			ok = audit_rec_int(&r, "epoch", &e) && (uint64_t)e == sc->epoch &&
			     audit_rec_int(&r, "next_epoch", &next) && next > e;
			if (ok)
				sc->epoch = (uint64_t)next;
		}
		if (!ok) {
			audit_rec_free(&r);
			break;
		}
		if (!sc->header_ok)
			sc->fmt = r.fmt;
		sc->header_ok = true;
		sc->last_seq = r.seq;
		sc->records++;
		memcpy(sc->last_mac, mac, sizeof(mac));
		memcpy(prev, mac, sizeof(mac));
		/* a clean stop: the close, then (sealed) the seal of its epoch */
		sc->clean = is_log_action(&r, "close") ||
			    (sc->clean && is_log_action(&r, "seal"));
		if (is_log_action(&r, "end"))
			sc->ended = r.seq;
		else if (!is_log_action(&r, "close") && !is_log_action(&r, "seal"))
			sc->ended = 0;
		sc->good_end = seg.off;
		note_resume(sc, &r);
		audit_rec_free(&r);
	}
	sodium_memzero(key, sizeof(key));
	audit_chain_wipe(&sc->chain);
	if (sc->size > sc->good_end) {
		if (torn)
			sc->torn = sc->size - sc->good_end;
		else
			sc->bad = sc->size - sc->good_end;
	}
	audit_seg_free(&seg);
	return 0;
}

static int truncate_at(struct audit_log *l, const char *name, size_t size)
{
	int fd = audit_open_regular(l->dirfd, name, O_WRONLY, 0);

	if (fd < 0 || ftruncate(fd, (off_t)size) || fsync(fd)) {
		alog_seterr(l, "%s/%s: cannot cut the unfinished record: %s", l->dir, name,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * The segment before the tail: a tail segment with fewer than
 * AUDIT_RESUME_MAX kernel records began just before the crash, and the
 * recorder's last batch (written, its ring space not yet given back) may
 * have begun in the segment before: its newest kseqs complete the set a
 * restarted recorder skips. And a tail header's lost_total that no lost
 * record after it repeats is checked against the chain: the last report
 * of the segment before (its lost records, else its own header). A header
 * that says more is not what the chain reported (raised by whoever holds
 * the key: the calls lost while the recorder was down would go
 * unreported), so the loss resumes from the chain's report.
 */
static void resume_from_previous(struct audit_log *l, struct audit_keyring *kr, unsigned int segno,
				 unsigned int tail, struct scan *sc, struct recovery *rc)
{
	struct scan *prev = malloc(sizeof(*prev));
	size_t j, n;

	if (!prev)
		return;
	if (!scan_segment(l, kr, segno, prev) && !prev->key_mismatch) {
		n = prev->nkseq < AUDIT_RESUME_MAX ? prev->nkseq : AUDIT_RESUME_MAX;
		for (j = 0; j < n && sc->nkseq < AUDIT_RESUME_MAX; j++)
			sc->kseq[sc->nkseq++] =
			    prev->kseq[(prev->nkseq - 1 - j) % AUDIT_RESUME_MAX];
		if (!sc->lost_reported && sc->hdr_lost_total && prev->have_lost_total &&
		    prev->header_ok && prev->lost_total != sc->hdr_lost_total) {
			why(rc,
			    "lost counter changed: segment %06u's header says the kernel lost "
			    "%" PRIu64 " calls in all, the chain's last report %" PRIu64
			    ": resuming from the chain's",
			    tail, sc->hdr_lost_total, prev->lost_total);
			sc->lost_total = prev->lost_total;
		}
	}
	free(prev);
}

/*
 * Find the newest segment that starts with an intact header and how far it
 * is intact. A newest segment holding nothing but an unfinished first line
 * (a crash while it was being created) is removed; anything else damaged
 * is left in place and said so.
 */
static int find_tail(struct audit_log *l, struct audit_keyring *kr, struct scan *sc,
		     struct recovery *rc, unsigned int *newest_out, bool *have_tail, bool *any)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int *nums, newest = 0;
	size_t n;
	long i;

	*have_tail = false;
	if (audit_seg_list(l->dirfd, &nums, &n)) {
		alog_seterr(l, "%s: %s", l->dir, strerror(errno));
		return -1;
	}
	*any = n > 0;
	if (n)
		newest = nums[n - 1];
	for (i = (long)n - 1; i >= 0; i--) {
		if (scan_segment(l, kr, nums[i], sc))
			goto fail;
		audit_seg_name(nums[i], name);
		if (sc->key_mismatch) {
			alog_seterr(l,
				    "%s/%s: written with another key (key id %s, this key is %s): "
				    "wrong --key?",
				    l->dir, name, sc->key_id, l->key_id);
			goto fail;
		}
		if (sc->header_ok)
			break;
		if (nums[i] == newest && !sc->lines) {
			/* created just before a crash: empty, or a torn header */
			if (unlinkat(l->dirfd, name, 0)) {
				alog_seterr(l, "%s/%s: %s", l->dir, name, strerror(errno));
				goto fail;
			}
			if (sc->size) {
				rc->discarded += sc->size;
				why(rc,
				    "removed %s: it held only an unfinished first line (%zu "
				    "bytes; crash while it was created)",
				    name, sc->size);
			}
			newest = i ? nums[i - 1] : 0;
			continue;
		}
		/* not a segment of this log above its tail: a file someone put
		 * there. Writing on after it would leave it inside the log (or
		 * wrap the numbering past it): refuse before anything changes */
		alog_seterr(l,
			    "%s/%s: not a segment of this log (no intact segment header; it is "
			    "newer than the log's last intact segment): move it away; nothing "
			    "was written",
			    l->dir, name);
		goto fail;
	}
	*have_tail = i >= 0;
	if (*have_tail && nums[i] == newest && sc->torn && !sc->bad) {
		if (truncate_at(l, name, sc->good_end))
			goto fail;
		rc->discarded += sc->torn;
		why(rc, "removed an unfinished last record (%zu bytes) from %s", sc->torn, name);
	}
	if (*have_tail && sc->bad)
		why(rc, "%s: %zu bytes after seq %" PRIu64 " do not verify (left in place)", name,
		    sc->bad, sc->last_seq);
	rc->append = *have_tail && nums[i] == newest && !sc->bad && sc->fmt == l->o.format &&
		     sc->good_end < l->o.max_size;
	if (*have_tail && i > 0 &&
	    (sc->nkseq < AUDIT_RESUME_MAX || (!sc->lost_reported && sc->hdr_lost_total)))
		resume_from_previous(l, kr, nums[i - 1], nums[i], sc, rc);
	*newest_out = newest;
	free(nums);
	return 0;
fail:
	free(nums);
	return -1;
}

/* Where the chain goes on, and what the tail state says about the end. */
static int plan(struct audit_log *l, const struct scan *sc, bool have_tail, bool any,
		unsigned int newest, const struct audit_state *st, int have_state,
		struct recovery *rc)
{
	/* the log keeps the format version it was begun in (verify reads it
	 * from the first segment): a new log is written in the newest */
	if (have_tail)
		l->log_version = sc->log_version;
	else if (have_state > 0 && st->mac_len)
		l->log_version = st->mac_len == AUDIT_TAG_LEN ? 3 : l->seal.sealing ? 2 : 1;
	else
		l->log_version = AUDIT_LOG_VERSION;
	l->mac_len = audit_chain_maclen(audit_mac_kind(l->log_version));
	if (!rc->append && newest >= AUDIT_SEG_LAST) {
		alog_seterr(l,
			    "%s: the newest segment is number %u, the last there is (a file named "
			    "so by someone else?): move it away; nothing was written",
			    l->dir, newest);
		return -1;
	}
	if (have_tail && sc->ended) {
		alog_seterr(l,
		       "%s: log %s was retired (the end record at seq %" PRIu64 "): it takes no "
		       "more records; begin a new log in an empty directory (the same key may "
		       "go on there)",
		       l->dir, sc->log_id[0] ? sc->log_id : "-", sc->ended);
		return -1;
	}
	if (have_tail) {
		l->seq = sc->last_seq + 1;
		memcpy(l->mac, sc->last_mac, sizeof(l->mac));
		l->segno = rc->append ? newest : newest + 1;
		l->seg_records = sc->records;
		l->epoch = sc->epoch;
		if (sc->log_id[0])
			memcpy(l->log_id, sc->log_id, sizeof(l->log_id));
		if (!sc->clean)
			why(rc,
			    "no closing record after seq %" PRIu64 " (recorder killed or crashed)",
			    sc->last_seq);
	} else if (have_state > 0) {
		l->seq = st->seq + 1;
		memcpy(l->mac, st->mac, sizeof(l->mac));
		l->segno = (newest > st->segment ? newest : st->segment) + 1;
		l->epoch = st->epoch;
		why(rc, "no intact segment: chaining on from the state file (seq %" PRIu64 ")",
		    st->seq);
	} else if (rc->unclean) {
		alog_seterr(l,
			    "%s: no intact segment and no state file, so the chain cannot go on "
			    "(move the damaged segments away): %.200s",
			    l->dir, rc->reason);
		return -1;
	} else {
		l->seq = 1; /* a new log; MAC(0) is all zeros */
		l->segno = 1;
		l->epoch = l->seal.epoch;
	}
	if (any && !have_state) {
		/* the state file is written before the first segment exists, so
		 * segments without one means it was deleted */
		rc->state_missing = true;
		why(rc, "state file %s missing: the end of the log cannot be checked (deleted?)",
		    AUDIT_STATE_FILE);
	}
	if (have_state > 0) {
		if (st->seq >= l->seq) {
			rc->missing = st->seq - (l->seq - 1);
			why(rc,
			    "log ends at seq %" PRIu64 " but seq %" PRIu64 " was on stable "
			    "storage: %" PRIu64 " records missing",
			    l->seq - 1, st->seq, rc->missing);
		}
		if (!sc->have_lost_total)
			l->lost_total = st->lost_total;
		if (st->log_id[0] && l->log_id[0] && strcmp(st->log_id, l->log_id))
			why(rc, "state file belongs to another log (log id %s, this log is %s)",
			    st->log_id, l->log_id);
		if (!l->log_id[0] && st->log_id[0] && strcmp(st->log_id, "0000000000000000"))
			memcpy(l->log_id, st->log_id, sizeof(l->log_id));
		/* the anchors go on from the newest one the state names */
		if (!strcmp(st->log_id, l->log_id)) {
			l->anchor_n = st->anchor_n;
			memcpy(l->anchor_amac, st->anchor_amac, sizeof(l->anchor_amac));
		}
	}
	if (have_state == 2)
		why(rc,
		    "state file is from epoch %" PRIu64 ", older than the sealing key "
		    "(epoch %" PRIu64 "): checked by verify only",
		    st->epoch, l->seal.epoch);
	if (sc->have_lost_total)
		l->lost_total = sc->lost_total;
	l->nresume = sc->nkseq < AUDIT_RESUME_MAX ? sc->nkseq : AUDIT_RESUME_MAX;
	memcpy(l->resume_kseq, sc->kseq, l->nresume * sizeof(l->resume_kseq[0]));
	return 0;
}

/*
 * The key must be at the log's epoch: behind it (a crash between the seal
 * and the key file) it is evolved; ahead of it, the log ends in an epoch
 * whose key is gone: records were cut (or the key sealed another log).
 */
static void align_epoch(struct audit_log *l, bool fresh, struct recovery *rc)
{
	if (!l->seal.sealing)
		return;
	if (fresh || l->epoch > l->seal.epoch)
		audit_seal_evolve_to(&l->seal, l->epoch > l->seal.epoch ? l->epoch : l->seal.epoch);
	if (l->epoch < l->seal.epoch) {
		rc->epoch_gap = true;
		why(rc,
		    "the log ends in sealing epoch %" PRIu64 " but the sealing key is at epoch "
		    "%" PRIu64 ": the end of the log was cut (or the key sealed another log)",
		    l->epoch, l->seal.epoch);
	}
	l->epoch = l->seal.epoch;
	memcpy(l->key, l->seal.key, sizeof(l->key));
}

static int write_recover(struct audit_log *l, const struct recovery *rc)
{
	struct json_object *r = alog_own_record("recover");
	int err;

	if (!r) {
		alog_seterr(l, "out of memory");
		return -1;
	}
	json_object_object_add(r, "reason", json_object_new_string(rc->reason));
	json_object_object_add(r, "last_seq", json_object_new_uint64(l->seq - 1));
	json_object_object_add(r, "discarded_bytes", json_object_new_uint64(rc->discarded));
	json_object_object_add(r, "missing", json_object_new_uint64(rc->missing));
	if (rc->state_missing)
		json_object_object_add(r, "state", json_object_new_string("missing"));
	if (rc->epoch_gap)
		json_object_object_add(r, "state", json_object_new_string("epoch_gap"));
	if (l->seal.sealing)
		json_object_object_add(r, "epoch", json_object_new_uint64(l->epoch));
	err = alog_emit(l, r);
	json_object_put(r);
	if (err)
		return -1;
	fprintf(stderr, "nsaudit record: %s/: recovered after an unclean stop: %s\n", l->dir,
		rc->reason);
	return 0;
}

static int write_start(struct audit_log *l)
{
	struct json_object *r = alog_own_record("start");
	int rc;

	if (!r) {
		alog_seterr(l, "out of memory");
		return -1;
	}
	json_object_object_add(r, "pid", json_object_new_int64(getpid()));
	json_object_object_add(r, "version", json_object_new_string(NSAUDIT_VERSION));
	json_object_object_add(r, "format", json_object_new_string(alog_format_name(l->o.format)));
	if (l->seal.sealing)
		json_object_object_add(r, "epoch", json_object_new_uint64(l->epoch));
	rc = alog_emit(l, r);
	json_object_put(r);
	return rc;
}

static int recover_and_start(struct audit_log *l)
{
	struct audit_keyring kr;
	struct audit_state st;
	struct recovery rc = {0};
	struct scan *sc = calloc(1, sizeof(*sc));
	unsigned int newest = 0;
	bool have_tail, any;
	int have_state, ret = -1;
	uint64_t now_epoch;
	char err[300];

	if (!sc) {
		alog_seterr(l, "out of memory");
		return -1;
	}
	audit_keyring_from_seal(&kr, &l->seal);
	have_state = audit_state_load(l->dirfd, &kr, &st, err, sizeof(err));
	if (have_state < 0) {
		alog_seterr(l, "%s/%s", l->dir, err);
		goto out;
	}
	if (find_tail(l, &kr, sc, &rc, &newest, &have_tail, &any) ||
	    plan(l, sc, have_tail, any, newest, &st, have_state, &rc))
		goto out;
	align_epoch(l, !have_tail && !have_state, &rc);
	/* a run id of its own: whatever an earlier run MAC'd and a crash lost
	 * used other one-time keys than what this one writes at those seqs */
	alog_new_run(l);
	alog_rekey(l);
	if (!l->log_id[0]) {
		uint8_t id[AUDIT_KEY_ID_HEX / 2];

		randombytes_buf(id, sizeof(id));
		audit_hex(id, sizeof(id), l->log_id);
	}
	if (!any && !have_state && alog_save_state(l, false))
		goto out;
	alog_make_reserve(l);
	if (alog_open_segment(l, !rc.append))
		goto out;
	if (rc.append)
		l->seg_size = sc->good_end;
	else
		alog_enforce_keep(l);
	/* a start in a later epoch: seal the log's last one on the way */
	now_epoch = audit_seal_epoch_at(&l->seal, time(NULL));
	if (l->seal.sealing && now_epoch > l->epoch) {
		if (l->seq == 1) { /* nothing written yet: nothing to seal */
			audit_seal_evolve_to(&l->seal, now_epoch);
			memcpy(l->key, l->seal.key, sizeof(l->key));
			alog_rekey(l);
			l->epoch = now_epoch;
		} else if (alog_seal_epoch(l, now_epoch, "start")) {
			goto out;
		}
	}
	if (rc.unclean && l->seq > 1 && write_recover(l, &rc))
		goto out;
	/* the first anchor says so: anchors in flight at the crash are gone */
	l->recovered = rc.unclean && l->seq > 1;
	if (write_start(l))
		goto out;
	/* The start is durable (and in the state file) whatever --sync says. */
	if (fsync(l->fd) || alog_save_state(l, false))
		goto out;
	if (l->seal.sealing) {
		if (audit_seal_save(l->key_path, &l->seal, true, err, sizeof(err))) {
			alog_seterr(l, "%s", err);
			goto out;
		}
		l->epoch_end = l->seal.t0 + (int64_t)((l->epoch + 1) * l->seal.interval);
	}
	l->dirty = false;
	ret = 0;
out:
	audit_keyring_wipe(&kr);
	sodium_memzero(sc, sizeof(*sc));
	free(sc);
	return ret;
}

struct audit_log *audit_log_open(const struct audit_log_opts *o, char *err, size_t errlen)
{
	struct audit_log *l;

	if (!o->dir || !*o->dir) {
		snprintf(err, errlen, "no log directory (--log-dir DIR)");
		return NULL;
	}
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->fd = l->dirfd = l->lockfd = -1;
	l->o = *o;
	if (!l->o.max_size)
		l->o.max_size = AUDIT_DEFAULT_MAX_SIZE;
	if (!l->o.keep)
		l->o.keep = AUDIT_DEFAULT_KEEP;
	snprintf(l->dir, sizeof(l->dir), "%s", o->dir);
	if (alog_open_dir(l) || alog_load_keys(l, o) || recover_and_start(l)) {
		snprintf(err, errlen, "%s", l->err);
		alog_free(l);
		return NULL;
	}
	return l;
}
