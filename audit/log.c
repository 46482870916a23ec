// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log.c - the writer behind "nsaudit record": chained records in rotating
 * segments, recovery after an unclean stop, full-disk policies.
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
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "log.h"
#include "log_test.h"
#include "segment.h"

ssize_t (*audit_log_write_fn)(int fd, const void *buf, size_t n);

struct audit_log {
	struct audit_log_opts o;
	char dir[PATH_MAX];
	int dirfd, fd, lockfd;
	uint8_t key[AUDIT_KEY_LEN];
	char key_id[AUDIT_KEY_ID_HEX + 1];

	uint64_t seq;		    /* the next record's */
	uint8_t mac[AUDIT_MAC_LEN]; /* the last record's */
	unsigned int segno;
	uint64_t seg_size, seg_records;
	dev_t seg_dev;
	ino_t seg_ino;
	bool need_header; /* current segment has no header yet */
	bool dirty;	  /* written since the last flush */
	bool stopped;	  /* --on-full stop hit */

	uint64_t suspended; /* dropped in this full-disk episode */
	uint64_t dropped_total;
	unsigned int pending_drop; /* deleted segments no record mentions yet */
	const char *pending_drop_why;
	unsigned int pending_moved; /* segment moved away under us (reopen) */
	char err[256];
};

static void seterr(struct audit_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void seterr(struct audit_log *l, const char *fmt, ...)
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

static const char *format_name(enum audit_format f)
{
	return f == AUDIT_FMT_AUDIT ? "audit" : "json";
}

/* One of the log's own records: {"time":..,"op":"log","action":ACTION}. */
static struct json_object *logrec(const char *action)
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

/* --- writing one line ----------------------------------------------------------- */

static int write_line(struct audit_log *l, const char *p, size_t n)
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
				seterr(l, "cannot remove a partly written record: %s",
				       strerror(errno));
			return -e;
		}
		done += (size_t)w;
	}
	return 0;
}

#define NEED_ROTATE 1

/*
 * Encode and write rec as the next record. NEED_ROTATE (nothing written)
 * when it would take a segment holding more than its header past
 * --max-size; a segment with only its header takes any record, so that an
 * oversized record cannot make rotation loop.
 */
static int write_rec(struct audit_log *l, struct json_object *rec, bool may_rotate)
{
	uint8_t mac[AUDIT_MAC_LEN];
	char machex[AUDIT_MAC_HEX + 1];
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
	if (audit_encode(l->o.format, rec, l->seq, l->key, l->mac, &line, mac)) {
		seterr(l, "record %" PRIu64 ": %s", l->seq,
		       line.oom ? "out of memory" : "longer than the 1 MiB line limit");
		sb_free(&line);
		return -EMSGSIZE;
	}
	if (may_rotate && l->seg_records >= 2 && l->seg_size + line.len > l->o.max_size) {
		sb_free(&line);
		return NEED_ROTATE;
	}
	rc = write_line(l, line.p, line.len);
	if (rc) {
		if (rc != -ENOSPC && rc != -EDQUOT)
			seterr(l, "writing segment %u: %s", l->segno, strerror(-rc));
		sb_free(&line);
		return rc;
	}
	/* It is in the file now: the chain moves on whatever fsync says. */
	l->seq++;
	memcpy(l->mac, mac, sizeof(mac));
	l->seg_size += line.len;
	l->seg_records++;
	l->dirty = true;
	audit_hex(mac, AUDIT_MAC_LEN, machex);
	json_object_object_add(rec, "mac", json_object_new_string(machex));
	sb_free(&line);
	if (l->o.sync == AUDIT_SYNC_EVERY && fdatasync(l->fd)) {
		seterr(l, "fsync segment %u: %s", l->segno, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* Write one of our own records now; the caller owns rec. */
static int write_own(struct audit_log *l, struct json_object *rec)
{
	int rc;

	if (!rec) {
		seterr(l, "out of memory");
		return -ENOMEM;
	}
	rc = write_rec(l, rec, false);
	json_object_put(rec);
	return rc;
}

static int write_header(struct audit_log *l)
{
	struct json_object *h = logrec("segment");
	char prev[AUDIT_MAC_HEX + 1];

	if (!h)
		return -ENOMEM;
	audit_hex(l->mac, AUDIT_MAC_LEN, prev);
	json_object_object_add(h, "segment", json_object_new_int64(l->segno));
	json_object_object_add(h, "prev_mac", json_object_new_string(prev));
	json_object_object_add(h, "key_id", json_object_new_string(l->key_id));
	json_object_object_add(h, "format", json_object_new_string(format_name(l->o.format)));
	json_object_object_add(h, "version", json_object_new_string(NSAUDIT_VERSION));
	return write_own(l, h);
}

/*
 * Records owed before the next one: the new segment's header, that older
 * segments were deleted, that one was moved away, how many records a full
 * disk made us drop. Each stays owed until it is on disk.
 */
static int write_pending(struct audit_log *l)
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
		r = logrec("drop");
		if (r) {
			json_object_object_add(r, "dropped",
					       json_object_new_int64(l->pending_drop));
			json_object_object_add(r, "reason",
					       json_object_new_string(l->pending_drop_why));
		}
		rc = write_own(l, r);
		if (rc)
			return rc;
		l->pending_drop = 0;
	}
	if (l->pending_moved) {
		r = logrec("missing");
		if (r) {
			json_object_object_add(r, "missing_segment",
					       json_object_new_int64(l->pending_moved));
			json_object_object_add(
			    r, "reason", json_object_new_string("moved away while open (reopen)"));
		}
		rc = write_own(l, r);
		if (rc)
			return rc;
		l->pending_moved = 0;
	}
	if (l->suspended) {
		r = json_object_new_object();
		if (r) {
			json_object_object_add(r, "op", json_object_new_string("lost"));
			json_object_object_add(r, "count", json_object_new_uint64(l->suspended));
			json_object_object_add(
			    r, "why",
			    json_object_new_string("disk full: log suspended, records dropped"));
		}
		rc = write_own(l, r);
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

/* --- segments --------------------------------------------------------------------- */

static int sync_dir(struct audit_log *l)
{
	return l->o.sync == AUDIT_SYNC_NONE ? 0 : fsync(l->dirfd);
}

static int open_segment(struct audit_log *l, bool create)
{
	char name[AUDIT_SEG_NAME_MAX];
	struct stat st;
	int flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW;

	audit_seg_name(l->segno, name);
	if (create)
		flags |= O_CREAT | O_EXCL;
	l->fd = openat(l->dirfd, name, flags, 0600);
	if (l->fd < 0 || fstat(l->fd, &st)) {
		seterr(l, "%s/%s: %s", l->dir, name, strerror(errno));
		if (l->fd >= 0)
			close(l->fd);
		l->fd = -1;
		return -1;
	}
	l->seg_dev = st.st_dev;
	l->seg_ino = st.st_ino;
	l->seg_size = (uint64_t)st.st_size;
	if (create) {
		l->seg_records = 0;
		l->need_header = true;
		sync_dir(l);
	}
	return 0;
}

/* Delete the oldest segment (never the one being written). */
static int drop_oldest(struct audit_log *l, const char *why)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int *nums;
	size_t n;

	if (audit_seg_list(l->dirfd, &nums, &n))
		return -1;
	if (n < 2 || nums[0] >= l->segno) {
		free(nums);
		return -1;
	}
	audit_seg_name(nums[0], name);
	if (unlinkat(l->dirfd, name, 0)) {
		seterr(l, "%s/%s: %s", l->dir, name, strerror(errno));
		free(nums);
		return -1;
	}
	/* Segments go oldest first, so one number says all up to it are gone. */
	l->pending_drop = nums[0];
	l->pending_drop_why = why;
	free(nums);
	sync_dir(l);
	return 0;
}

/* Called right after a new segment is created, so the drop record (still
 * owed) lands in it after its header. */
static void enforce_keep(struct audit_log *l)
{
	unsigned int *nums;
	size_t n;

	if (audit_seg_list(l->dirfd, &nums, &n))
		return;
	free(nums);
	for (; n > l->o.keep; n--)
		if (drop_oldest(l, "rotation: --keep"))
			break;
}

static int rotate(struct audit_log *l)
{
	if (l->fd >= 0) {
		if (l->o.sync != AUDIT_SYNC_NONE)
			fdatasync(l->fd);
		close(l->fd);
		l->fd = -1;
	}
	l->segno++;
	if (open_segment(l, true))
		return -1;
	enforce_keep(l);
	return 0;
}

/* The full-disk policies, around writing one record. */
static int emit(struct audit_log *l, struct json_object *rec)
{
	int rc;

	if (l->stopped) {
		seterr(l, "log stopped: the disk was full (--on-full stop)");
		return -1;
	}
	if (l->fd < 0 && !l->need_header) {
		seterr(l, "no segment open");
		return -1;
	}
	for (;;) {
		rc = write_pending(l);
		if (!rc)
			rc = write_rec(l, rec, true);
		if (rc == NEED_ROTATE) {
			if (rotate(l))
				return -1;
			continue;
		}
		if (!rc)
			return 0;
		if (rc != -ENOSPC && rc != -EDQUOT)
			return -1;
		switch (l->o.on_full) {
		case AUDIT_FULL_ROTATE:
			if (!drop_oldest(l, "disk full"))
				continue;
			/* nothing left to delete but the current segment */
			/* fall through */
		case AUDIT_FULL_SUSPEND:
			if (!l->suspended)
				fprintf(stderr,
					"nsaudit record: %s/: disk full: log suspended, "
					"counting dropped records\n",
					l->dir);
			l->suspended++;
			l->dropped_total++;
			return 0;
		case AUDIT_FULL_STOP:
			l->stopped = true;
			seterr(l, "%s: disk full (--on-full stop): record %" PRIu64 " not written",
			       l->dir, l->seq);
			return -1;
		}
	}
}

int audit_log_append(struct audit_log *l, struct json_object *rec)
{
	return emit(l, rec);
}

int audit_log_lost(struct audit_log *l, uint64_t count, const char *why)
{
	struct json_object *r = json_object_new_object();
	int rc;

	if (!r)
		return -1;
	json_object_object_add(r, "op", json_object_new_string("lost"));
	json_object_object_add(r, "count", json_object_new_uint64(count));
	if (why)
		json_object_object_add(r, "why", json_object_new_string(why));
	rc = emit(l, r);
	json_object_put(r);
	return rc;
}

static int save_state(struct audit_log *l, bool clean)
{
	struct audit_state st = {.seq = l->seq - 1, .segment = l->segno, .clean = clean};

	memcpy(st.mac, l->mac, sizeof(st.mac));
	if (audit_state_save(l->dirfd, l->key, &st, true)) {
		seterr(l, "%s/%s: %s", l->dir, AUDIT_STATE_FILE, strerror(errno));
		return -1;
	}
	return 0;
}

int audit_log_flush(struct audit_log *l)
{
	if (!l->dirty || l->o.sync == AUDIT_SYNC_NONE || l->fd < 0)
		return 0;
	/*
	 * The state file only ever names a record that is already on stable
	 * storage; then a log shorter than the state says was cut, not torn.
	 */
	if (fdatasync(l->fd)) {
		seterr(l, "fsync segment %u: %s", l->segno, strerror(errno));
		return -1;
	}
	l->dirty = false;
	return save_state(l, false);
}

int audit_log_reopen(struct audit_log *l)
{
	char name[AUDIT_SEG_NAME_MAX];
	struct stat st;

	if (l->fd < 0)
		return 0;
	audit_seg_name(l->segno, name);
	if (l->o.sync != AUDIT_SYNC_NONE)
		fdatasync(l->fd);
	close(l->fd);
	l->fd = -1;
	if (!fstatat(l->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && st.st_dev == l->seg_dev &&
	    st.st_ino == l->seg_ino) {
		if (open_segment(l, false))
			return -1;
		return 0;
	}
	/* Moved away (or replaced): continue the chain in a new segment and
	 * say which one left, so verify can account for the gap. */
	l->pending_moved = l->segno;
	return rotate(l);
}

static void free_log(struct audit_log *l)
{
	if (l->fd >= 0)
		close(l->fd);
	if (l->lockfd >= 0)
		close(l->lockfd);
	if (l->dirfd >= 0)
		close(l->dirfd);
	sodium_memzero(l->key, sizeof(l->key));
	free(l);
}

int audit_log_close(struct audit_log *l)
{
	struct json_object *r;
	int rc = 0;

	if (!l)
		return 0;
	r = logrec("close");
	if (!r || emit(l, r) || l->suspended)
		rc = -1;
	json_object_put(r);
	if (l->fd >= 0 && fsync(l->fd))
		rc = -1;
	if (save_state(l, rc == 0))
		rc = -1;
	free_log(l);
	return rc;
}

/* --- opening and recovery ------------------------------------------------------- */

/* What the newest segment(s) hold, as far as the chain verifies. */
struct scan {
	bool header_ok, key_mismatch;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	enum audit_format fmt;
	uint64_t last_seq, records;
	uint8_t last_mac[AUDIT_MAC_LEN];
	size_t size, good_end;
	bool clean;  /* the last intact record is a closing one */
	size_t torn; /* an unfinished last line after good_end, and nothing else */
	size_t bad;  /* anything else after good_end */
};

static bool is_log_action(const struct audit_rec *r, const char *action)
{
	const char *op = audit_rec_str(r, "op", NULL), *a = audit_rec_str(r, "action", NULL);

	return op && a && !strcmp(op, "log") && !strcmp(a, action);
}

static int scan_segment(struct audit_log *l, unsigned int segno, struct scan *sc)
{
	char name[AUDIT_SEG_NAME_MAX], why[160];
	uint8_t prev[AUDIT_MAC_LEN], mac[AUDIT_MAC_LEN];
	struct audit_seg seg;
	const char *line;
	size_t len;
	bool complete;

	memset(sc, 0, sizeof(*sc));
	audit_seg_name(segno, name);
	if (audit_seg_read(l->dirfd, name, &seg, why, sizeof(why))) {
		seterr(l, "%s/%s", l->dir, why);
		return -1;
	}
	sc->size = seg.size;
	while (audit_seg_next(&seg, &line, &len, &complete)) {
		struct audit_rec r;
		const char *s;
		size_t slen;
		int64_t v;

		if (!complete || audit_rec_parse(line, len, &r, why, sizeof(why)))
			break;
		if (!sc->header_ok) {
			s = audit_rec_str(&r, "key_id", &slen);
			if (s && slen == AUDIT_KEY_ID_HEX &&
			    strspn(s, "0123456789abcdef") == slen && strcmp(s, l->key_id)) {
				sc->key_mismatch = true;
				memcpy(sc->key_id, s, slen + 1);
			}
			s = audit_rec_str(&r, "prev_mac", &slen);
			if (!is_log_action(&r, "segment") || !audit_rec_int(&r, "segment", &v) ||
			    v != segno || !s || audit_unhex(s, slen, prev, AUDIT_MAC_LEN)) {
				audit_rec_free(&r);
				break;
			}
		} else if (r.seq != sc->last_seq + 1) {
			audit_rec_free(&r);
			break;
		}
		audit_mac(l->key, prev, line, r.body_len, mac);
		if (sodium_memcmp(mac, r.mac, AUDIT_MAC_LEN)) {
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
		sc->clean = is_log_action(&r, "close");
		sc->good_end = seg.off;
		audit_rec_free(&r);
	}
	if (sc->size > sc->good_end) {
		if (!memchr(seg.data + sc->good_end, '\n', sc->size - sc->good_end))
			sc->torn = sc->size - sc->good_end;
		else
			sc->bad = sc->size - sc->good_end;
	}
	audit_seg_free(&seg);
	return 0;
}

static int truncate_at(struct audit_log *l, const char *name, size_t size);

static int recover(struct audit_log *l, const struct audit_state *st, bool have_state)
{
	char reason[512] = "", name[AUDIT_SEG_NAME_MAX];
	uint64_t discarded = 0, missing = 0;
	bool unclean = false, append = false, have_tail = false;
	unsigned int *nums, newest = 0;
	struct scan sc = {0};
	size_t n, rlen;
	long i;

#define REASON(...)                                                                                \
	do {                                                                                       \
		rlen = strlen(reason);                                                             \
		snprintf(reason + rlen, sizeof(reason) - rlen, "%s", rlen ? "; " : "");            \
		rlen = strlen(reason);                                                             \
		snprintf(reason + rlen, sizeof(reason) - rlen, __VA_ARGS__);                       \
	} while (0)

	if (audit_seg_list(l->dirfd, &nums, &n)) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		return -1;
	}
	if (n)
		newest = nums[n - 1];
	for (i = (long)n - 1; i >= 0; i--) {
		if (scan_segment(l, nums[i], &sc))
			goto fail;
		audit_seg_name(nums[i], name);
		if (sc.key_mismatch) {
			seterr(l,
			       "%s/%s: written with another key (key id %s, this key is %s): "
			       "wrong --key?",
			       l->dir, name, sc.key_id, l->key_id);
			goto fail;
		}
		if (sc.header_ok) {
			have_tail = true;
			break;
		}
		if (!sc.size && nums[i] == newest) {
			/* created just before a crash: nothing in it to keep */
			unlinkat(l->dirfd, name, 0);
			newest = i ? nums[i - 1] : 0;
			continue;
		}
		REASON("%s does not start with an intact segment header (left in place)", name);
		unclean = true;
	}
	if (have_tail) {
		l->seq = sc.last_seq + 1;
		memcpy(l->mac, sc.last_mac, sizeof(l->mac));
		if (!sc.clean) {
			unclean = true;
			REASON("no closing record after seq %" PRIu64
			       " (recorder killed or crashed)",
			       sc.last_seq);
		}
		if (nums[i] == newest && sc.torn && !sc.bad) {
			audit_seg_name(nums[i], name);
			if (truncate_at(l, name, sc.good_end))
				goto fail;
			discarded = sc.torn;
			REASON("removed an unfinished last record (%zu bytes) from %s", sc.torn,
			       name);
		}
		if (sc.bad) {
			unclean = true;
			REASON("%s: %zu bytes after seq %" PRIu64 " do not verify (left in place)",
			       name, sc.bad, sc.last_seq);
		}
		append = nums[i] == newest && !sc.bad && sc.fmt == l->o.format &&
			 sc.good_end < l->o.max_size;
		l->segno = append ? newest : newest + 1;
		l->seg_records = sc.records;
	} else if (have_state) {
		l->seq = st->seq + 1;
		memcpy(l->mac, st->mac, sizeof(l->mac));
		l->segno = (newest > st->segment ? newest : st->segment) + 1;
		unclean = true;
		REASON("no intact segment: chaining on from the state file (seq %" PRIu64 ")",
		       st->seq);
	} else if (unclean) {
		seterr(l,
		       "%s: no intact segment and no state file, so the chain cannot go on "
		       "(move the damaged segments away): %.200s",
		       l->dir, reason);
		goto fail;
	} else {
		l->seq = 1; /* a new log; MAC(0) is all zeros */
		l->segno = 1;
	}
	if (have_state && st->seq >= l->seq) {
		missing = st->seq - (l->seq - 1);
		unclean = true;
		REASON("log ends at seq %" PRIu64 " but seq %" PRIu64 " was on stable storage: "
		       "%" PRIu64 " records missing",
		       l->seq - 1, st->seq, missing);
	}
	free(nums);
	nums = NULL;
	if (open_segment(l, !append))
		return -1;
	if (append)
		l->seg_size = sc.good_end;
	else
		enforce_keep(l);
	if (unclean && l->seq > 1) {
		struct json_object *r = logrec("recover");
		int rc;

		if (!r) {
			seterr(l, "out of memory");
			return -1;
		}
		json_object_object_add(r, "reason", json_object_new_string(reason));
		json_object_object_add(r, "last_seq", json_object_new_uint64(l->seq - 1));
		json_object_object_add(r, "discarded_bytes", json_object_new_uint64(discarded));
		json_object_object_add(r, "missing", json_object_new_uint64(missing));
		rc = emit(l, r);
		json_object_put(r);
		if (rc)
			return -1;
		fprintf(stderr, "nsaudit record: %s/: recovered after an unclean stop: %s\n",
			l->dir, reason);
	}
	return 0;
fail:
	free(nums);
	return -1;
#undef REASON
}

static int truncate_at(struct audit_log *l, const char *name, size_t size)
{
	int fd = openat(l->dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0 || ftruncate(fd, (off_t)size) || fsync(fd)) {
		seterr(l, "%s/%s: cannot cut the unfinished record: %s", l->dir, name,
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

static int load_key(struct audit_log *l, const char *key_path)
{
	char path[PATH_MAX + 8], why[300];

	if (key_path)
		return audit_key_load(key_path, l->key, l->err, sizeof(l->err));
	snprintf(path, sizeof(path), "%s/.key", l->dir);
	if (access(path, F_OK) && errno == ENOENT) {
		if (audit_key_generate(path, false, why, sizeof(why))) {
			seterr(l, "%s", why);
			return -1;
		}
		fprintf(stderr,
			"nsaudit record: generated a new key %s (verify needs it; keep a copy "
			"where whoever can write %s cannot)\n",
			path, l->dir);
	}
	return audit_key_load(path, l->key, l->err, sizeof(l->err));
}

struct audit_log *audit_log_open(const struct audit_log_opts *o, char *err, size_t errlen)
{
	struct audit_state st;
	struct audit_log *l;
	struct json_object *r;
	int have_state;

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
	if (mkdir(l->dir, 0700) && errno != EEXIST) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		goto fail;
	}
	l->dirfd = open(l->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->dirfd < 0) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		goto fail;
	}
	/* Two writers would fork the chain: one recorder per directory. */
	l->lockfd = openat(l->dirfd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (l->lockfd < 0) {
		seterr(l, "%s/.lock: %s", l->dir, strerror(errno));
		goto fail;
	}
	if (flock(l->lockfd, LOCK_EX | LOCK_NB)) {
		seterr(l, "%s: %s", l->dir,
		       errno == EWOULDBLOCK ? "another nsaudit record is writing this directory"
					    : strerror(errno));
		goto fail;
	}
	if (load_key(l, o->key_path))
		goto fail;
	audit_key_id(l->key, l->key_id);
	have_state = audit_state_load(l->dirfd, l->key, &st, l->err, sizeof(l->err));
	if (have_state < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", l->err);
		seterr(l, "%s/%s", l->dir, why);
		goto fail;
	}
	if (recover(l, &st, have_state > 0))
		goto fail;
	r = logrec("start");
	if (!r) {
		seterr(l, "out of memory");
		goto fail;
	}
	json_object_object_add(r, "pid", json_object_new_int64(getpid()));
	json_object_object_add(r, "version", json_object_new_string(NSAUDIT_VERSION));
	json_object_object_add(r, "format", json_object_new_string(format_name(l->o.format)));
	if (emit(l, r)) {
		json_object_put(r);
		goto fail;
	}
	json_object_put(r);
	/* The start is durable (and in the state file) whatever --sync says. */
	if (fsync(l->fd) || save_state(l, false))
		goto fail;
	l->dirty = false;
	return l;
fail:
	snprintf(err, errlen, "%s", l->err);
	free_log(l);
	return NULL;
}
