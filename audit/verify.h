/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* verify.h - check a log directory's chain, seals, segments and tail. */
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
	/* sealing (format version 2) */
	bool sealed_log;	  /* the log is sealed (v2, or v3 with a schedule) */
	unsigned int log_version; /* 1, 2 or 3 (audit/README.md) */
	uint64_t seals;		 /* seal records */
	uint64_t first_epoch, last_epoch;
	uint64_t unsealed;	 /* records after the last seal (epoch still open) */
	uint64_t unchecked;	 /* records whose epoch key the given key cannot derive */
	uint64_t unchecked_below; /* ... they are the epochs before this one */
	uint64_t late;		 /* events drained late after a restart */
	unsigned int anchors;	 /* anchors of this log found and matched */
	uint64_t anchored_seq;	 /* the newest of them */
	bool default_key;	 /* checked with DIR/.key (no key given) */
	/* the first problem, when not intact */
	char where[160];  /* "nsaudit-000003.log line 17" or a file name */
	uint64_t bad_seq; /* seq of the bad record if known, else 0 */
	char what[400];
};

struct audit_verify_opts {
	const char *dir;
	const char *key_path;	     /* --key: sealing state or static key */
	const char *vk;		     /* --verification-key: as printed, or a file */
	const char *const *anchors;  /* --anchor FILE..., NULL-terminated */
	bool progress;
};

/*
 * Verify a log directory. Returns 0 when intact, 1 when not (v->where and
 * v->what say why), -1 when it could not be checked at all (no key,
 * unreadable directory; err says why).
 */
int audit_verify(const struct audit_verify_opts *o, struct audit_verify *v, char *err,
		 size_t errlen);
/* The same with a key file only (NULL: DIR/.key). */
int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen);

#endif
