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
/* A segment bigger than this is not ours: refuse rather than read it all. */
#define AUDIT_SEG_READ_MAX (4ull << 30)

void audit_seg_name(unsigned int n, char buf[AUDIT_SEG_NAME_MAX]);
/* n for "nsaudit-000042.log"; false for any other name. */
bool audit_seg_number(const char *name, unsigned int *n);
/* Segment numbers in dirfd, ascending. 0, or -1 with errno. *nums is
 * malloc'ed (NULL when there are none). */
int audit_seg_list(int dirfd, unsigned int **nums, size_t *count);

/* A whole segment in memory, walked line by line. */
struct audit_seg {
	char *data;
	size_t size;
	size_t off;	 /* start of the next line */
	uint64_t lineno; /* of the line last returned, from 1 */
};

/* 0, or -1 with err. */
int audit_seg_read(int dirfd, const char *name, struct audit_seg *s, char *err, size_t errlen);
/* Next line (without '\n') in line and len; complete is false when the file
 * ends without a newline. false at the end. */
bool audit_seg_next(struct audit_seg *s, const char **line, size_t *len, bool *complete);
void audit_seg_free(struct audit_seg *s);

/* The time of segment num's first record. 0, or -1 (unreadable, not a
 * regular file, no parsable first record). */
int audit_seg_first_time(int dirfd, unsigned int num, int64_t *ns);
/* The index in nums[0..n) of the first segment that may hold a record at
 * or after since_ns: those before it hold none (segment_head.c). */
size_t audit_seg_since(int dirfd, const unsigned int *nums, size_t n, int64_t since_ns);

#endif
