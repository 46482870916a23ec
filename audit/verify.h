/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* verify.h - check a log directory's chain, segments and tail. */
#ifndef NSAUDIT_AUDIT_VERIFY_H
#define NSAUDIT_AUDIT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct audit_verify {
	/* what was found */
	unsigned int segments, first_segment, last_segment;
	uint64_t records, first_seq, last_seq;
	uint64_t lost; /* sum of "count" in lost records */
	uint64_t starts, recoveries, dropped_segments;
	unsigned int moved_segments; /* moved away while open ("missing" records) */
	unsigned int last_moved;     /* the newest of them */
	bool closed;		     /* the last record is a closing record */
	/* the first problem, when not intact */
	char where[96];	  /* "nsaudit-000003.log line 17" or a file name */
	uint64_t bad_seq; /* seq of the bad record if known, else 0 */
	char what[320];
};

/*
 * Verify DIR with the key in key_path (NULL: DIR/.key). Returns 0 when
 * intact, 1 when not (v->where and v->what say why), -1 when it could not
 * be checked at all (no key, unreadable directory; err says why).
 */
int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen);

#endif
