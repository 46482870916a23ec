/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * segment.h - segment file names, listing them in order, reading one.
 *
 * Segments are DIR/nsaudit-NNNNNN.log (at least six digits, numbered from
 * 1), so that ls, sort and logrotate-style tools see them in order.
 */
#ifndef NSAUDIT_AUDIT_SEGMENT_H
#define NSAUDIT_AUDIT_SEGMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AUDIT_SEG_NAME_MAX 32
#define AUDIT_SEG_NAME_MAX 32
/* A segment bigger than this is not ours: refuse rather than read it all. */
#define AUDIT_SEG_READ_MAX (4ull << 30)

/* The highest segment number (names have 6..10 digits). */
#define AUDIT_SEG_LAST 0xffffffffu
void audit_seg_name(unsigned int n, char buf[AUDIT_SEG_NAME_MAX]);
/* n for "nsaudit-000042.log"; false for any other name. */
bool audit_seg_number(const char *name, unsigned int *n);
/* Segment numbers in dirfd, ascending. 0, or -1 with errno. *nums is
 * malloc'ed (NULL when there are none). */
int audit_seg_list(int dirfd, unsigned int **nums, size_t *count);

/*
 * A segment read as a stream, line by line, in bounded memory: a buffer of
 * at most AUDIT_SEG_BUF_MAX bytes whatever the file holds (a 3 GiB sparse
 * "segment" costs a read, not 3 GiB). A line longer than a record can be
 * (AUDIT_MAX_LINE) comes back once, cut (overlong set, complete false),
 * and the rest of it is skipped. Only what the file held when it was
 * opened is read: a live recorder may append meanwhile.
 */
#define AUDIT_SEG_BUF_MAX (AUDIT_SEG_LINE_MAX + (256u << 10))
#define AUDIT_SEG_LINE_MAX (1u << 20) /* = AUDIT_MAX_LINE (codec.h) */
struct audit_seg {
	int fd;
	char *buf;
	size_t cap, head, tail; /* unread bytes are buf[head..tail) */
	size_t scan;		/* buf[head..scan) holds no newline */
	size_t size;		/* the file's size when opened */
	size_t got;		/* bytes read from the file so far */
	size_t off;		/* file offset of the start of the next line */
	uint64_t lineno;	/* of the line last returned, from 1 */
	bool overlong;		/* the line last returned was longer than a record */
	bool skip;		/* drop bytes up to the next newline first */
	int err;		/* errno of a failed read (0: none) */
};

/* Open a segment (a regular file only: no FIFO, symlink or device). 0, or
 * -1 with err. */
int audit_seg_read(int dirfd, const char *name, struct audit_seg *s, char *err, size_t errlen);
/* Next line (without '\n') in line and len, valid until the next call;
 * complete is false when the file ends without a newline, or the line is
 * overlong. false at the end (or on a read error: s->err). */
bool audit_seg_next(struct audit_seg *s, const char **line, size_t *len, bool *complete);
void audit_seg_free(struct audit_seg *s);

/* The times of segment num's first record and (last not NULL) of its last
 * complete one. 0, or -1 (unreadable, not a regular file, no parsable
 * record at that end, a last line longer than the tail read). */
int audit_seg_times(int dirfd, unsigned int num, int64_t *first, int64_t *last);
int audit_seg_first_time(int dirfd, unsigned int num, int64_t *ns);
/*
 * --since: drop from nums[0..n) (order kept) the segments that cannot hold
 * a record at or after since_ns, judged from their ends alone; the count
 * left. A segment is dropped only when its first and last records and the
 * next segment's first are in order (within AUDIT_SEG_SKEW_NS) and all
 * before since_ns; one that cannot be read that way, the one before it and
 * the newest are kept (segment_head.c says why).
 */
#define AUDIT_SEG_SKEW_NS (5 * 1000000000LL)
size_t audit_seg_since(int dirfd, unsigned int *nums, size_t n, int64_t since_ns);

#endif
