// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_sync.c - the group commit's sync on a thread of its own.
 *
 * Under a flood, --sync batch syncs tens of megabytes at a time, and the
 * recorder waited for the disk instead of formatting the next records. A
 * sync of at least AUDIT_SYNC_ASYNC_BYTES runs on a short-lived thread: it
 * fdatasyncs a dup of the segment's fd, then writes the state file line
 * the recorder formatted (and MAC'd: no key leaves the recorder's thread)
 * when the sync started, so the state still only names records on stable
 * storage. One at a time; whatever else writes the state file (a seal, a
 * stop) waits for it first, so an older line never replaces a newer one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_impl.h"

struct log_sync {
	pthread_t thread;
	int fd, dirfd;
	unsigned int segno;
	char line[AUDIT_STATE_LINE_MAX];
	size_t len;
	int err;	 /* errno of what failed, or 0 */
	bool state_err;	 /* ... writing the state file (else the sync) */
	/* the head it makes durable: what an anchor may name once it has */
	uint64_t seq;
	uint8_t mac[AUDIT_MAC_LEN];
};

uint64_t alog_sync_pending_bytes(const struct audit_log *l)
{
	return l->segno == l->sync_segno ? l->seg_size - l->sync_size : l->seg_size;
}

void alog_sync_done(struct audit_log *l)
{
	l->dirty = false;
	l->sync_segno = l->segno;
	l->sync_size = l->seg_size;
}

static void *sync_thread(void *arg)
{
	struct log_sync *j = arg;

	if (fdatasync(j->fd))
		j->err = errno;
	else if (audit_state_write(j->dirfd, j->line, j->len, true))
		j->err = errno, j->state_err = true;
	return NULL;
}

int alog_sync_start(struct audit_log *l)
{
	struct log_sync *j = calloc(1, sizeof(*j));

	if (!j)
		return -1;
	j->fd = dup(l->fd); /* rotation may close l->fd meanwhile */
	j->dirfd = l->dirfd;
	j->segno = l->segno;
	j->seq = l->seq - 1;
	memcpy(j->mac, l->mac, sizeof(j->mac));
	j->len = (size_t)alog_state_line(l, false, j->line);
	if (j->fd < 0 || pthread_create(&j->thread, NULL, sync_thread, j)) {
		if (j->fd >= 0)
			close(j->fd);
		free(j);
		return -1;
	}
	l->bg = j;
	alog_sync_done(l);
	return 0;
}

int alog_sync_reap(struct audit_log *l, bool wait)
{
	struct log_sync *j = l->bg;
	int rc = 0;

	if (!j)
		return 0;
	if (wait ? pthread_join(j->thread, NULL) : pthread_tryjoin_np(j->thread, NULL))
		return 1; /* EBUSY: still at it */
	l->bg = NULL;
	close(j->fd);
	if (j->err && j->state_err && alog_state_full(l, j->err)) {
		j->err = 0;
	}
	if (j->err) {
		if (j->state_err)
			alog_seterr(l, "%s/%s: %s", l->dir, AUDIT_STATE_FILE, strerror(j->err));
		else
			alog_seterr(l, "fsync segment %u: %s", j->segno, strerror(j->err));
		l->dirty = true; /* not known to be on stable storage */
		rc = -1;
	} else {
		/* durable up to its head: under a flood the syncs follow each
		 * other and the log is never idle, so this is where anchors go */
		alog_anchor_durable(l, j->seq, j->mac, j->segno);
	}
	free(j);
	return rc;
}
