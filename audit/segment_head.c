// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * segment_head.c - the time a segment starts, read from its first record
 * alone, so that a search bounded in time opens only the segments its
 * range can hold.
 *
 * Every segment begins with the log's own "segment" record, stamped when
 * the recorder opened it. A record is stamped no later than it is written
 * (its event happened before the recorder drained it), so every record of
 * segment N is no later than the first record of segment N+1: segment N
 * holds nothing at or after T when segment N+1 starts before T.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "segment.h"

/* The first line is the segment record: a few hundred bytes. */
#define SEG_HEAD_MAX 4096

int audit_seg_first_time(int dirfd, unsigned int num, int64_t *ns)
{
	char name[AUDIT_SEG_NAME_MAX], buf[SEG_HEAD_MAX], err[128];
	const char *nl, *t;
	struct audit_rec r;
	struct stat st;
	ssize_t n;
	int fd, rc = -1;

	audit_seg_name(num, name);
	/* a segment is a regular file: never block on a FIFO, never follow */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	n = pread(fd, buf, sizeof(buf), 0);
	if (n <= 0 || !(nl = memchr(buf, '\n', (size_t)n)))
		goto out;
	if (audit_rec_parse(buf, (size_t)(nl - buf), &r, err, sizeof(err)))
		goto out;
	t = audit_rec_str(&r, "time", NULL);
	if (t && !audit_time_parse(t, ns))
		rc = 0;
	audit_rec_free(&r);
out:
	close(fd);
	return rc;
}

size_t audit_seg_since(int dirfd, const unsigned int *nums, size_t n, int64_t since_ns)
{
	size_t i = 0;
	int64_t next;

	/* skip segment i while the one after it starts before since */
	while (i + 1 < n && !audit_seg_first_time(dirfd, nums[i + 1], &next) && next < since_ns)
		i++;
	return i;
}
