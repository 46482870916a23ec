// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log.c - the writer behind "nsaudit record": chained records appended to
 * the current segment, the log's own records, flush, reopen and close.
 * Rotation and the full-disk policies are in log_rotate.c (the lost
 * records a full disk held back in log_lost.c), opening and
 * recovery after an unclean stop in log_recover.c, sealing an epoch and
 * the tail anchors in log_seal.c; log_impl.h is what they share.
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

#include "clock.h"
#include "codec.h"
#include "log.h"
#include "anchor.h"
#include "log_impl.h"
#include "segment.h"
#include "regfile.h"
#include "log_test.h"

ssize_t (*audit_log_write_fn)(int fd, const void *buf, size_t n);

void alog_seterr(struct audit_log *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
}

const char *audit_log_error(const struct audit_log *l)
{
	return l->err;
}

uint64_t audit_log_next_seq(const struct audit_log *l)
{
	return l->seq;
}

unsigned int audit_log_segment(const struct audit_log *l)
{
	return l->segno;
}

uint64_t audit_log_suspended(const struct audit_log *l)
{
	return l->dropped_total;
}

const char *alog_format_name(enum audit_format f)
{
	return f == AUDIT_FMT_AUDIT ? "audit" : "json";
}

/* One of the log's own records: {"time":..,"op":"log","action":ACTION}. */
struct json_object *alog_own_record(const char *action)
{
	struct json_object *o = json_object_new_object();
	char now[40];

	if (!o)
		return NULL;
	audit_time_now(now);
	json_object_object_add(o, "seq", json_object_new_int64(0));
	json_object_object_add(o, "time", json_object_new_string(now));
	json_object_object_add(o, "op", json_object_new_string("log"));
	json_object_object_add(o, "action", json_object_new_string(action));
	return o;
}

/* --- the record MAC ---------------------------------------------------------------- */

void alog_rekey(struct audit_log *l)
{
	unsigned int kind = audit_mac_kind(l->log_version);

	l->mac_len = audit_chain_maclen(kind);
	audit_chain_init(&l->chain, kind, l->key, l->run);
}

void alog_new_run(struct audit_log *l)
{
	if (l->log_version < 3)
		return;
	randombytes_buf(l->run, sizeof(l->run));
	audit_chain_set_run(&l->chain, l->run);
	l->run_pending = true;
}

/* --- writing one line ----------------------------------------------------------- */

int alog_write_line(struct audit_log *l, const char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = audit_log_write_fn ? audit_log_write_fn(l->fd, p + done, n - done)
					       : write(l->fd, p + done, n - done);
		int e = errno;

		if (w < 0 && e == EINTR)
			continue;
		if (w < 0 || (w == 0 && (e = ENOSPC))) {
			/* Never leave half a record: cut back to the last whole one. */
			if (done && ftruncate(l->fd, (off_t)l->seg_size))
				alog_seterr(l, "cannot remove a partly written record: %s",
					    strerror(errno));
			/* what reached the file was MAC'd with one-time keys
			 * of this run: what goes there instead uses new ones */
			alog_new_run(l);
			return -e;
		}
		done += (size_t)w;
	}
	return 0;
}

/*
 * Encode and write rec as the next record. ALOG_NEED_ROTATE (nothing written)
 * when it would take a segment holding more than its header past
 * --max-size; a segment with only its header takes any record, so that an
 * oversized record cannot make rotation loop.
 */
int alog_write_rec(struct audit_log *l, struct json_object *rec, bool may_rotate)
{
	uint8_t mac[AUDIT_MAC_LEN];
	char machex[AUDIT_MAC_HEX + 1], run[AUDIT_RUN_HEX + 1];
	struct sbuf line = {0};
	struct json_object *t;
	char now[40];
	int rc;

	/* Our own records are stamped when written, so that the times in a
	 * segment never go backwards (a start record waits for the header). */
	if (!json_object_object_get_ex(rec, "time", &t) ||
	    !json_object_is_type(t, json_type_string) ||
	    (json_object_object_get_ex(rec, "op", &t) && json_object_is_type(t, json_type_string) &&
	     !strcmp(json_object_get_string(t), "log"))) {
		audit_time_now(now);
		json_object_object_add(rec, "time", json_object_new_string(now));
	}
	json_object_object_add(rec, "seq", json_object_new_uint64(l->seq));
	json_object_object_del(rec, "mac");
	/* an earlier attempt at this record may have said another run */
	json_object_object_del(rec, "run");
	if (l->run_pending) {
		/* the first record of a run says which (v3: its one-time keys) */
		audit_hex(l->run, sizeof(l->run), run);
		json_object_object_add(rec, "run", json_object_new_string(run));
	}
	if (audit_encode_chain(l->o.format, rec, l->seq, &l->chain, l->mac, &line, mac)) {
		alog_seterr(l, "record %" PRIu64 ": %s", l->seq,
			    line.oom ? "out of memory" : "longer than the 1 MiB line limit");
		sb_free(&line);
		return -EMSGSIZE;
	}
	if (may_rotate && l->seg_records > (l->seg_base ? l->seg_base : 1) &&
	    l->seg_size + line.len > l->o.max_size) {
		sb_free(&line);
		return ALOG_NEED_ROTATE;
	}
	rc = alog_write_line(l, line.p, line.len);
	if (rc) {
		if (rc != -ENOSPC && rc != -EDQUOT)
			alog_seterr(l, "writing segment %u: %s", l->segno, strerror(-rc));
		sb_free(&line);
		return rc;
	}
	/* It is in the file now: the chain moves on whatever fsync says. */
	l->seq++;
	memcpy(l->mac, mac, sizeof(mac));
	l->seg_size += line.len;
	l->seg_records++;
	l->dirty = true;
	l->run_pending = false;
	audit_hex(mac, l->mac_len, machex);
	json_object_object_add(rec, "mac", json_object_new_string(machex));
	sb_free(&line);
	if (l->o.sync == AUDIT_SYNC_EVERY && fdatasync(l->fd)) {
		alog_seterr(l, "fsync segment %u: %s", l->segno, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* Write one of our own records now; the caller owns rec. */
int alog_write_own(struct audit_log *l, struct json_object *rec)
{
	int rc;

	if (!rec) {
		alog_seterr(l, "out of memory");
		return -ENOMEM;
	}
	rc = alog_write_rec(l, rec, false);
	json_object_put(rec);
	return rc;
}

static int write_header(struct audit_log *l)
{
	struct json_object *h = alog_own_record("segment");
	char prev[AUDIT_MAC_HEX + 1];

	if (!h)
		return -ENOMEM;
	audit_hex(l->mac, l->mac_len, prev);
	json_object_object_add(h, "segment", json_object_new_int64(l->segno));
	json_object_object_add(h, "prev_mac", json_object_new_string(prev));
	json_object_object_add(h, "key_id", json_object_new_string(l->key_id));
	json_object_object_add(h, "format", json_object_new_string(alog_format_name(l->o.format)));
	json_object_object_add(h, "version", json_object_new_string(NSAUDIT_VERSION));
	/* the kernel's lost counter so far: a restart finds it in the newest
	 * segment even when its last lost record is in an older one */
	json_object_object_add(h, "lost_total", json_object_new_uint64(l->lost_total));
	if (l->log_version >= 3) {
		/* format version 3: the Poly1305 chain (audit/README.md), sealed
		 * or with a static key; every header says the run it continues
		 * (alog_write_rec adds it, last) */
		json_object_object_add(h, "log_version", json_object_new_int(3));
		json_object_object_add(h, "log_id", json_object_new_string(l->log_id));
		l->run_pending = true;
	}
	if (l->seal.sealing) {
		/* format version 2 (or 3): forward-secure sealing (audit/README.md) */
		if (l->log_version < 3) {
			json_object_object_add(h, "log_version", json_object_new_int(2));
			json_object_object_add(h, "log_id", json_object_new_string(l->log_id));
		}
		json_object_object_add(h, "epoch", json_object_new_uint64(l->epoch));
		json_object_object_add(h, "seal_t0", json_object_new_int64(l->seal.t0));
		json_object_object_add(h, "seal_interval",
				       json_object_new_uint64(l->seal.interval));
	}
	return alog_write_own(l, h);
}

/*
 * Records owed before the next one: the new segment's header, that older
 * segments were deleted, that one was moved away, how many records a full
 * disk made us drop. Each stays owed until it is on disk.
 */
int alog_write_pending(struct audit_log *l)
{
	struct json_object *r;
	int rc;

	if (l->need_header) {
		rc = write_header(l);
		if (rc)
			return rc;
		l->need_header = false;
	}
	if (l->pending_drop) {
		r = alog_own_record("drop");
		if (r) {
			json_object_object_add(r, "dropped",
					       json_object_new_int64(l->pending_drop));
			json_object_object_add(r, "reason",
					       json_object_new_string(l->pending_drop_why));
		}
		rc = alog_write_own(l, r);
		if (rc)
			return rc;
		l->pending_drop = 0;
	}
	if (l->pending_moved) {
		r = alog_own_record("missing");
		if (r) {
			json_object_object_add(r, "missing_segment",
					       json_object_new_int64(l->pending_moved));
			json_object_object_add(
			    r, "reason", json_object_new_string("moved away while open (reopen)"));
		}
		rc = alog_write_own(l, r);
		if (rc)
			return rc;
		l->pending_moved = 0;
	}
	/* before the disk-full count: they are older, and name their actors */
	rc = alog_write_held_lost(l);
	if (rc)
		return rc;
	if (l->suspended) {
		r = json_object_new_object();
		if (r) {
			json_object_object_add(r, "op", json_object_new_string("lost"));
			json_object_object_add(r, "count", json_object_new_uint64(l->suspended));
			json_object_object_add(
			    r, "why",
			    json_object_new_string("disk full: log suspended, records dropped"));
		}
		rc = alog_write_own(l, r);
		if (rc)
			return rc;
		fprintf(stderr,
			"nsaudit record: disk space is back: log resumed after dropping "
			"%" PRIu64 " records (a \"lost\" record says so)\n",
			l->suspended);
		l->suspended = 0;
	}
	return 0;
}

int audit_log_append(struct audit_log *l, struct json_object *rec)
{
	/* after what audit_log_append_fields() has buffered */
	if (audit_log_commit(l))
		return -1;
	return alog_emit(l, rec);
}

/* The state file's line for the last record written, MAC'd. */
int alog_state_line(const struct audit_log *l, bool clean, char buf[AUDIT_STATE_LINE_MAX])
{
	struct audit_state st = {
	    .seq = l->seq - 1, .segment = l->segno, .clean = clean, .mac_len = l->mac_len};

	memcpy(st.mac, l->mac, sizeof(st.mac));
	if (l->seal.sealing) {
		st.version = 2;
		st.epoch = l->epoch;
		st.lost_total = l->lost_total;
		memcpy(st.log_id, l->log_id, sizeof(st.log_id));
		st.anchor_n = l->anchor_n;
		memcpy(st.anchor_amac, l->anchor_amac, sizeof(st.anchor_amac));
	} else {
		st.version = 1;
	}
	return audit_state_format(l->key, &st, buf);
}

/*
 * A full disk (tmpfs too) can keep the new state file out while records
 * still fit. The old one stays: it names an earlier record that is on
 * stable storage, which verify accepts (the state may lag, never lead).
 * Under --on-full stop it is the stop.
 */
bool alog_state_full(struct audit_log *l, int err)
{
	if ((err != ENOSPC && err != EDQUOT) || l->o.on_full == AUDIT_FULL_STOP)
		return false;
	if (!l->state_full_said)
		fprintf(stderr,
			"nsaudit record: %s/%s: disk full: kept the previous state file "
			"(it names an earlier record)\n",
			l->dir, AUDIT_STATE_FILE);
	l->state_full_said = true;
	return true;
}

int alog_save_state(struct audit_log *l, bool clean)
{
	char line[AUDIT_STATE_LINE_MAX];
	int len;

	/* a background sync writes an older line: it goes first */
	if (alog_sync_reap(l, true) < 0)
		return -1;
	len = alog_state_line(l, clean, line);
	if (audit_state_write(l->dirfd, line, (size_t)len, true)) {
		if (alog_state_full(l, errno))
			return 0;
		alog_seterr(l, "%s/%s: %s", l->dir, AUDIT_STATE_FILE, strerror(errno));
		return -1;
	}
	return 0;
}

/* The oldest segment still in the directory (what an anchor says was
 * retained), or the current one. */
unsigned int alog_first_segment(const struct audit_log *l)
{
	unsigned int *nums, first = l->segno;
	size_t n;

	if (!audit_seg_list(l->dirfd, &nums, &n) && n)
		first = nums[0];
	free(nums);
	return first;
}

uint64_t alog_first_seq(const struct audit_log *l, unsigned int segno)
{
	char name[AUDIT_SEG_NAME_MAX], buf[4096], err[64], *nl;
	struct audit_rec r;
	uint64_t seq = 0;
	ssize_t n;
	int fd;

	audit_seg_name(segno, name);
	fd = audit_open_regular(l->dirfd, name, O_RDONLY, 0);
	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	/* the header, read with the codec */
	nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
	if (nl && !audit_rec_parse(buf, (size_t)(nl - buf), &r, err, sizeof(err))) {
		seq = r.seq;
		audit_rec_free(&r);
	}
	return seq;
}

size_t audit_log_resume(const struct audit_log *l, uint64_t *kseqs, size_t max,
			uint64_t *lost_total)
{
	size_t n = l->nresume < max ? l->nresume : max;

	memcpy(kseqs, l->resume_kseq, n * sizeof(*kseqs));
	*lost_total = l->lost_total;
	return n;
}

void audit_log_note_lost_total(struct audit_log *l, uint64_t lost_total)
{
	l->lost_total = lost_total;
}

int audit_log_restart_lost_total(struct audit_log *l)
{
	if (!l->lost_total)
		return 0;
	l->lost_total = 0;
	if (audit_log_commit(l) || alog_rotate(l))
		return -1;
	/* the header now, not with the next record: a recorder killed before
	 * it writes one leaves a newest segment that says 0 */
	if (alog_write_pending(l))
		return -1;
	return audit_log_commit(l);
}

int audit_log_flush(struct audit_log *l)
{
	int64_t now;
	int rc;

	if (audit_log_commit(l))
		return -1;
	if (l->o.sync == AUDIT_SYNC_NONE || l->fd < 0)
		return 0;
	/* a sync in the background: the next flush syncs what came since */
	rc = alog_sync_reap(l, false);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (!l->dirty) {
		/* all durable: the head may still be owed an anchor (the last
		 * commit came within --anchor-interval of the one before) */
		alog_anchor_commit(l);
		return 0;
	}
	/*
	 * Group commit: one fdatasync per drain of a flooded reader (several
	 * hundred a second) made the disk's per-request cost most of the
	 * recorder's kernel time. Until the interval is over the records are
	 * written (a killed recorder loses nothing) but not yet on stable
	 * storage; the reader's next tick flushes them.
	 */
	now = now_ns();
	if (l->o.sync == AUDIT_SYNC_BATCH && now - l->sync_ns < AUDIT_SYNC_GROUP_NS)
		return 0;
	l->sync_ns = now;
	/* a large one goes to the background, so that formatting goes on
	 * while the disk writes (log_sync.c) */
	if (l->o.sync == AUDIT_SYNC_BATCH && alog_sync_pending_bytes(l) >= AUDIT_SYNC_ASYNC_BYTES &&
	    !alog_sync_start(l))
		return 0;
	/*
	 * The state file only ever names a record that is already on stable
	 * storage; then a log shorter than the state says was cut, not torn.
	 */
	if (fdatasync(l->fd)) {
		alog_seterr(l, "fsync segment %u: %s", l->segno, strerror(errno));
		return -1;
	}
	alog_sync_done(l);
	if (alog_save_state(l, false))
		return -1;
	alog_anchor_commit(l);
	return 0;
}

int audit_log_reopen(struct audit_log *l)
{
	char name[AUDIT_SEG_NAME_MAX];
	struct stat st;

	if (audit_log_commit(l))
		return -1;
	if (l->fd < 0)
		return 0;
	audit_seg_name(l->segno, name);
	if (alog_sync_segment(l))
		return -1;
	close(l->fd);
	l->fd = -1;
	if (!fstatat(l->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && st.st_dev == l->seg_dev &&
	    st.st_ino == l->seg_ino) {
		if (alog_open_segment(l, false))
			return -1;
		return 0;
	}
	/* Moved away (or replaced): continue the chain in a new segment and
	 * say which one left, so verify can account for the gap. */
	l->pending_moved = l->segno;
	return alog_rotate(l);
}

void alog_free(struct audit_log *l)
{
	alog_sync_reap(l, true);
	if (l->fd >= 0)
		close(l->fd);
	if (l->lockfd >= 0)
		close(l->lockfd);
	if (l->dirfd >= 0)
		close(l->dirfd);
	sodium_memzero(l->key, sizeof(l->key));
	audit_chain_wipe(&l->chain);
	sb_free(&l->batch);
	alog_free_held_lost(l);
	audit_seal_wipe(&l->seal);
	free(l);
}

int audit_log_close(struct audit_log *l)
{
	struct json_object *r;
	int rc = 0;

	if (!l)
		return 0;
	if (audit_log_commit(l))
		rc = -1;
	r = alog_own_record("close");
	if (!r || alog_emit(l, r) || l->suspended || l->nheld)
		rc = -1;
	/* records dropped on a full disk that no lost record could count yet:
	 * never silently (the log itself cannot say it, the disk is full) */
	if (l->suspended)
		fprintf(stderr,
			"nsaudit record: %s/: closing on a full disk: %" PRIu64 " record%s "
			"dropped that the log cannot count\n",
			l->dir, l->suspended, l->suspended == 1 ? "" : "s");
	if (l->nheld)
		fprintf(stderr,
			"nsaudit record: %s/: closing on a full disk: %zu lost record%s "
			"(%" PRIu64 " calls of named actors) the log cannot hold\n",
			l->dir, l->nheld, l->nheld == 1 ? "" : "s", alog_held_calls(l));
	json_object_put(r);
	if (l->fd >= 0 && fsync(l->fd))
		rc = -1;
	/* sealed: closing ends the key. The epoch is sealed now (its key
	 * erased, the state and sealing state moved to the next), so that
	 * nothing appended after the close verifies with the key left on the
	 * host; alog_seal_epoch saves the state and sends the closing anchor */
	if (l->seal.sealing && !rc &&
	    l->epoch <= audit_seal_epoch_at(&l->seal, realtime_ns() / NSEC_PER_SEC) +
			    AUDIT_KR_AHEAD) {
		if (alog_seal_epoch(l, l->epoch + 1, "close"))
			rc = -1;
	} else if (alog_save_state(l, rc == 0)) {
		rc = -1;
	} else {
		alog_send_anchor(l, l->retiring ? "end" : "close");
	}
	alog_free(l);
	return rc;
}

int audit_log_retire(struct audit_log *l, char *err, size_t errlen)
{
	struct json_object *r = alog_own_record("end");
	int rc = 0;

	/* the end is durable before the close says so */
	if (!r || audit_log_commit(l) || alog_emit(l, r)) {
		snprintf(err, errlen, "%s/: writing the end record: %s", l->dir,
			 l->err[0] ? l->err : "out of memory");
		rc = -1;
	}
	json_object_put(r);
	l->retiring = !rc;
	if (audit_log_close(l) && !rc) {
		snprintf(err, errlen, "%s/: closing after the end record failed", l->dir);
		rc = -1;
	}
	return rc;
}
