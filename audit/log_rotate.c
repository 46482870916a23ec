// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_rotate.c - segments of the audit log: opening the current one,
 * rotating past --max-size, deleting the oldest beyond --keep, and the
 * full-disk policies (--on-full rotate|suspend|stop) around each record.
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
#include "log_impl.h"
#include "segment.h"
#include "regfile.h"

/* A segment created or deleted is on stable storage only with its
 * directory: 0, or -1 with the error set. */
int alog_sync_dir(struct audit_log *l)
{
	if (l->o.sync == AUDIT_SYNC_NONE || !fsync(l->dirfd))
		return 0;
	alog_seterr(l, "fsync %s/: %s", l->dir, strerror(errno));
	return -1;
}

/* The current segment's records on stable storage before it is closed:
 * 0, or -1 with the error set (the segment stays open). */
int alog_sync_segment(struct audit_log *l)
{
	if (l->fd < 0 || l->o.sync == AUDIT_SYNC_NONE || !fdatasync(l->fd))
		return 0;
	alog_seterr(l, "fsync segment %u: %s", l->segno, strerror(errno));
	return -1;
}

int alog_open_segment(struct audit_log *l, bool create)
{
	char name[AUDIT_SEG_NAME_MAX];
	struct stat st;
	int flags = O_WRONLY | O_APPEND;

	audit_seg_name(l->segno, name);
	if (create)
		flags |= O_CREAT | O_EXCL;
	/* a FIFO put in its place would block the recorder for ever */
	l->fd = audit_open_regular(l->dirfd, name, flags, 0600);
	if (l->fd < 0 || fstat(l->fd, &st)) {
		alog_seterr(l, "%s/%s: %s", l->dir, name, audit_regfile_why(errno));
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
		l->seg_base = 0;
		l->need_header = true;
		if (alog_sync_dir(l))
			return -1;
	}
	return 0;
}

/*
 * Delete the oldest segment (never the one being written). The drop record
 * goes first and is made durable: a crash in between leaves a record for a
 * segment still there (harmless), never a segment gone without one. When
 * even the drop record does not fit, nothing is deleted.
 */
int alog_drop_oldest(struct audit_log *l, const char *why)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int *nums;
	size_t n;
	int rc;

	if (audit_seg_list(l->dirfd, &nums, &n))
		return -1;
	if (n < 2 || nums[0] >= l->segno) {
		free(nums);
		return -1;
	}
	/* Segments go oldest first, so one number says all up to it are gone. */
	l->pending_drop = nums[0];
	l->pending_drop_why = why;
	rc = alog_write_pending(l);
	if ((rc == -ENOSPC || rc == -EDQUOT) && !unlinkat(l->dirfd, AUDIT_RESERVE_FILE, 0))
		rc = alog_write_pending(l); /* the reserve makes room for saying so */
	if (rc || (l->fd >= 0 && fdatasync(l->fd))) {
		l->pending_drop = 0; /* not said, so not done */
		free(nums);
		return -1;
	}
	audit_seg_name(nums[0], name);
	free(nums);
	if (unlinkat(l->dirfd, name, 0)) {
		alog_seterr(l, "%s/%s: %s", l->dir, name, strerror(errno));
		return -1;
	}
	alog_make_reserve(l);
	return alog_sync_dir(l);
}

/*
 * --on-full rotate: a little space kept aside, so that on a full disk the
 * drop record can be written (and made durable) before a segment goes.
 */
void alog_make_reserve(struct audit_log *l)
{
	int fd;

	if (l->o.on_full != AUDIT_FULL_ROTATE)
		return;
	fd = audit_open_regular(l->dirfd, AUDIT_RESERVE_FILE, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		return;
	if (posix_fallocate(fd, 0, AUDIT_RESERVE_BYTES))
		unlinkat(l->dirfd, AUDIT_RESERVE_FILE, 0);
	close(fd);
}

/* Called right after a new segment is created, so the drop record (still
 * owed) lands in it after its header. */
void alog_enforce_keep(struct audit_log *l)
{
	unsigned int *nums;
	size_t n;

	if (audit_seg_list(l->dirfd, &nums, &n))
		return;
	free(nums);
	for (; n > l->o.keep; n--)
		if (alog_drop_oldest(l, "rotation: --keep"))
			break;
}

int alog_rotate(struct audit_log *l)
{
	if (l->fd >= 0) {
		if (alog_sync_segment(l))
			return -1;
		close(l->fd);
		l->fd = -1;
	}
	/* never wrap: segment 0 is no name, and a wrapped number would sort
	 * before the whole log (a junk file nsaudit-4294967295.log) */
	if (l->segno >= AUDIT_SEG_LAST) {
		alog_seterr(l,
			    "segment number %u is the last there is: move the log directory away",
			    l->segno);
		return -1;
	}
	l->segno++;
	if (alog_open_segment(l, true))
		return -1;
	alog_enforce_keep(l);
	l->seg_base = l->seg_records;
	return 0;
}

/*
 * How many calls a record stands for: a lost record its count, a
 * coalesced one its repeat, any other one. A record dropped on a full disk
 * drops that many calls, and the lost record that says so must count them
 * all: else a dropped lost record (thousands of calls) would leave one.
 */
static uint64_t calls_of(struct json_object *rec)
{
	struct json_object *v, *op;

	if (json_object_object_get_ex(rec, "op", &op) &&
	    !strcmp(json_object_get_string(op) ?: "", "lost") &&
	    json_object_object_get_ex(rec, "count", &v))
		return json_object_get_uint64(v) ?: 1;
	if (json_object_object_get_ex(rec, "repeat", &v))
		return json_object_get_uint64(v) ?: 1;
	return 1;
}

/* The full-disk policies, around writing one record. */
int alog_emit(struct audit_log *l, struct json_object *rec)
{
	int rc;

	if (l->stopped) {
		alog_seterr(l, "log stopped: the disk was full (--on-full stop)");
		return -1;
	}
	if (l->fd < 0 && !l->need_header) {
		alog_seterr(l, "no segment open");
		return -1;
	}
	for (;;) {
		rc = alog_write_pending(l);
		if (!rc)
			rc = alog_write_rec(l, rec, true);
		if (rc == ALOG_NEED_ROTATE) {
			if (alog_rotate(l))
				return -1;
			continue;
		}
		if (!rc)
			return 0;
		if (rc != -ENOSPC && rc != -EDQUOT)
			return -1;
		switch (l->o.on_full) {
		case AUDIT_FULL_ROTATE:
			if (!alog_drop_oldest(l, "disk full"))
				continue;
			/* nothing left to delete but the current segment */
			/* fall through */
		case AUDIT_FULL_SUSPEND:
			if (!l->suspended && !l->nheld)
				fprintf(stderr,
					"nsaudit record: %s/: disk full: log suspended, "
					"counting dropped records\n",
					l->dir);
			/* a lost record keeps naming its actor (log_lost.c) */
			if (!alog_hold_lost(l, rec))
				l->suspended += calls_of(rec);
			l->dropped_total++;
			return 0;
		case AUDIT_FULL_STOP:
			l->stopped = true;
			alog_seterr(
			    l, "%s: disk full (--on-full stop): record %" PRIu64 " not written",
			    l->dir, l->seq);
			return -1;
		}
	}
}
