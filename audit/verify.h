/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* verify.h - check a log directory's chain, seals, segments and tail. */
#ifndef NSAUDIT_AUDIT_VERIFY_H
#define NSAUDIT_AUDIT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Findings kept in full (more are counted). */
#define AUDIT_VERIFY_FINDINGS 64

/*
 * The verdict (audit_verify's return, and "nsaudit verify"'s exit status):
 * intact only when every record was checked with its own epoch's key.
 */
enum {
	AUDIT_VERIFY_INTACT = 0,
	AUDIT_VERIFY_TAMPERED = 1, /* NOT INTACT: findings name what */
	AUDIT_VERIFY_CRASH = 3,	   /* intact but for a crash tail (torn last line,
				    * empty newest segment after an unclean stop) */
	AUDIT_VERIFY_PARTIAL = 4,  /* nothing wrong in what the key could check,
				    * but older epochs were checked for order only */
	AUDIT_VERIFY_DEAF = 5,	   /* intact, but a recorder said it heard nothing
				    * from the kernel for a while ("deaf" records):
				    * what happened then is neither in the log nor
				    * counted lost */
};

struct audit_verify {
	/* what was found */
	unsigned int segments, first_segment, last_segment;
	uint64_t records, first_seq, last_seq;
	uint64_t lost; /* sum of "count" in lost records, but a sink's */
	uint64_t lost_sink; /* ... in a sink's (records the log holds or
			     * counts, that the sink did not send) */
	uint64_t starts, recoveries, dropped_segments;
	unsigned int moved_segments; /* moved away while open ("missing" records) */
	unsigned int last_moved;     /* the newest of them */
	bool closed;		     /* the last record is a closing record */
	uint64_t ended_seq;	     /* the log was retired: its end record (0: not) */
	/* sealing (format version 2) */
	bool sealed_log;	  /* the log is sealed (v2, or v3 with a schedule) */
	unsigned int log_version; /* 1, 2 or 3 (audit/README.md) */
	uint64_t seals;		 /* seal records */
	uint64_t first_epoch, last_epoch;
	uint64_t unsealed;	 /* records after the last seal (epoch still open) */
	uint64_t unchecked;	 /* records whose epoch key the given key cannot derive */
	uint64_t unchecked_below; /* ... they are the epochs before this one */
	uint64_t late;		 /* events drained late after a restart */
	uint64_t clock_steps;	 /* "clock" records: the recorder's wall clock stepped */
	uint64_t deaf, deaf_seq; /* "deaf" records: how many, the last one's seq */
	char deaf_time[40];	 /* and its time, the last time it heard (heard_until:
				  * "" if it never did), its reason, as written */
	char deaf_since[40];
	char deaf_reason[240];
	/* authentic anchors of another log under this key (--anchor) */
	char other_log_id[17]; /* the newest such log (16 hex digits) */
	uint64_t other_anchors, other_last_seq, other_line;
	unsigned int other_logs;
	bool other_closed; /* its newest anchor says, authentically, it ended */
	uint64_t anchor_first_seq, anchor_last_seq; /* this log's authentic anchors */
	uint64_t anchor_chain_first, anchor_chain_last; /* their numbers (v3; 0: none) */
	uint64_t anchors_lost_crash; /* not in the chain: queued when a recorder was killed */
	uint64_t anchors_lost_sink;  /* not in the chain: a sink lost them, the log says */
	char log_id[17], key_id[17]; /* which log, under which key, was checked */
	int64_t clock_back_ns;	 /* the largest step back among them */
	unsigned int anchors;	 /* anchors of this log found and matched */
	uint64_t anchored_seq;	 /* the newest of them */
	bool default_key;	 /* checked with DIR/.key (no key given) */
	uint64_t after_anchor;	 /* records after the newest anchor matched */
	uint64_t garbage_lines;	 /* non-records right after one already reported */
	unsigned int forged_anchors;   /* anchor lines that do not authenticate */
	unsigned int unauth_anchors;   /* anchors whose epoch key is not held */
	uint64_t forged_anchor_line;   /* the first forged one's line */
	int64_t sealed_until_ns;       /* end of the newest sealed epoch (0: none) */
	uint64_t checked_from_epoch;   /* epochs checked with their own key: this.. */
	/* findings, in the order found; where/what/bad_seq repeat the first
	 * problem (tampering first, else the crash tail) */
	unsigned int nfindings;	       /* all of them (only the first ones are kept) */
	unsigned int ntamper;	       /* those that are not a crash tail */
	struct audit_finding {
		char where[96];
		uint64_t seq;
		bool crash; /* a torn last line or an empty newest segment */
		char what[360];
	} findings[AUDIT_VERIFY_FINDINGS];
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
 * Verify a log directory. Returns an AUDIT_VERIFY_* verdict (v->findings
 * say what, when not intact), -1 when it could not be checked at all (no
 * key, unreadable directory; err says why).
 */
int audit_verify(const struct audit_verify_opts *o, struct audit_verify *v, char *err,
		 size_t errlen);
/* The same with a key file only (NULL: DIR/.key). */
int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen);

#endif
