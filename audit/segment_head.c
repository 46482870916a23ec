// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * segment_head.c - the times a segment starts and ends, read from its first
 * and last records alone, so that a search bounded in time opens only the
 * segments its range can hold.
 *
 * Every segment begins with the log's own "segment" record, stamped when
 * the recorder opened it. A record is stamped no later than it is written
 * (its event happened before the recorder drained it), so while the clock
 * runs forward every record of segment N is no later than the first record
 * of segment N+1, and the latest record of N is its last one.
 *
 * A clock set back (by hand, or a host that booted with a wrong clock and
 * was corrected) breaks that: a segment written while the clock was ahead
 * holds records later than the segments after it begin. So --since skips a
 * segment only when what can be read without its body agrees with order:
 * its first record, its last complete record and the next segment's first
 * record are in order (within AUDIT_SEG_SKEW_NS) and all before the bound.
 * A step back at or across a segment boundary breaks that chain and the
 * segment is read. What the ends cannot show is a clock that went ahead
 * and came back within one segment, between its first and last records:
 * the records stamped in that excursion can lie after a later --since
 * bound and not be found (verify sees the step when the log's own records
 * lie on both sides of it; docs/log.md says so).
 *
 * A segment whose ends cannot be read (not a regular file, no parsable
 * first or last record, a last line longer than the tail read) is never
 * skipped, nor is the one before it: the search reads it and reports
 * what is damaged.
 *
 * --until has no such shortcut: records are stamped when their event
 * happened, which can be before their segment began (events still in the
 * kernel's ring when the recorder rotated, or drained from the pinned ring
 * after a restart), so no segment's first time bounds its records from
 * below.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "segment.h"

/* The first line is the segment record (a few hundred bytes); a record is
 * ~500 bytes: a read of this much at either end holds a whole one. */
#define SEG_END_READ 4096

/* The "time" of one record line: 0, or -1. */
static int line_time(const char *line, size_t len, int64_t *ns)
{
	struct audit_rec r;
	const char *t;
	char err[128];
	int rc = -1;

	if (audit_rec_parse(line, len, &r, err, sizeof(err)))
		return -1;
	t = audit_rec_str(&r, "time", NULL);
	if (t && !audit_time_parse(t, ns))
		rc = 0;
	audit_rec_free(&r);
	return rc;
}

/* The last complete line of buf[0..n), read at file offset off. */
static int last_line_time(const char *buf, size_t n, off_t off, int64_t *ns)
{
	const char *end, *start;

	/* an unfinished last line (a crash, a live recorder) is not a record */
	end = memrchr(buf, '\n', n);
	if (!end)
		return -1;
	start = end > buf ? memrchr(buf, '\n', (size_t)(end - buf)) : NULL;
	if (start)
		start++;
	else if (off == 0)
		start = buf; /* the segment's first line */
	else
		return -1; /* longer than the read: do not guess */
	return line_time(start, (size_t)(end - start), ns);
}

int audit_seg_times(int dirfd, unsigned int num, int64_t *first, int64_t *last)
{
	char name[AUDIT_SEG_NAME_MAX], buf[SEG_END_READ];
	const char *nl;
	struct stat st;
	ssize_t n;
	off_t off;
	int fd, rc = -1;

	audit_seg_name(num, name);
	/* a segment is a regular file: never block on a FIFO, never follow */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	n = pread(fd, buf, sizeof(buf), 0);
	if (n <= 0 || !(nl = memchr(buf, '\n', (size_t)n)) ||
	    line_time(buf, (size_t)(nl - buf), first))
		goto out;
	rc = 0;
	if (!last)
		goto out;
	off = st.st_size > (off_t)sizeof(buf) ? st.st_size - (off_t)sizeof(buf) : 0;
	if (off) {
		n = pread(fd, buf, sizeof(buf), off);
		if (n <= 0)
			rc = -1;
	}
	if (!rc && last_line_time(buf, (size_t)n, off, last))
		rc = -1;
out:
	close(fd);
	return rc;
}

int audit_seg_first_time(int dirfd, unsigned int num, int64_t *ns)
{
	return audit_seg_times(dirfd, num, ns, NULL);
}

size_t audit_seg_since(int dirfd, unsigned int *nums, size_t n, int64_t since_ns)
{
	int64_t first = 0, last = 0, next_first = 0, next_last = 0;
	bool ok, next_ok;
	size_t i, kept = 0;

	if (!n)
		return 0;
	/* each segment is opened once here, for its two ends */
	ok = !audit_seg_times(dirfd, nums[0], &first, &last);
	for (i = 0; i < n; i++) {
		bool skip = false;

		next_ok =
		    i + 1 < n && !audit_seg_times(dirfd, nums[i + 1], &next_first, &next_last);
		/* the newest segment has no upper bound: always read */
		if (ok && next_ok)
			skip = first < since_ns && last < since_ns && next_first < since_ns &&
			       first <= last + AUDIT_SEG_SKEW_NS &&
			       last <= next_first + AUDIT_SEG_SKEW_NS;
		if (!skip)
			nums[kept++] = nums[i];
		ok = next_ok;
		first = next_first;
		last = next_last;
	}
	return kept;
}
