/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log.h - the durable, tamper-evident audit log written by "nsaudit record".
 *
 * Records go to numbered segment files DIR/nsaudit-NNNNNN.log, one record a
 * line, JSON or auditd-style. Every record carries a MAC chained over the
 * previous record's MAC (across segments), so that verify can tell a changed,
 * deleted, inserted or reordered record, a missing segment and a cut tail.
 * The on-disk format is described in audit/README.md.
 */
#ifndef NSAUDIT_AUDIT_LOG_H
#define NSAUDIT_AUDIT_LOG_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "optab.h"

struct json_object;
struct audit_fields;
typedef void (*audit_fields_fn)(struct audit_fields *f, const void *ctx);

enum audit_on_full { AUDIT_FULL_ROTATE, AUDIT_FULL_SUSPEND, AUDIT_FULL_STOP };
enum audit_sync { AUDIT_SYNC_NONE, AUDIT_SYNC_BATCH, AUDIT_SYNC_EVERY };

/* 4 GiB: an hour and a half of one uid flooding at record's log budget
 * (1024 records/s of ~700 bytes, docs/flood.md), more of a busy host */
#define AUDIT_DEFAULT_MAX_SIZE (256ull << 20)
#define AUDIT_DEFAULT_KEEP     16
/* Below this a segment could not even hold its own bookkeeping records. */
#define AUDIT_MIN_MAX_SIZE 1024

struct audit_log_opts {
	const char *dir;	    /* --log-dir, created 0700 if missing */
	const char *key_path;	    /* --key; NULL = DIR/.key, generated if absent */
	enum audit_format format;   /* --format json|audit (default json) */
	uint64_t max_size;	    /* --max-size BYTES[K|M|G]; 0 = 64M */
	unsigned int keep;	    /* --keep N segments (1..1000000, default 10) */
	enum audit_on_full on_full; /* --on-full rotate|suspend|stop */
	enum audit_sync sync;	    /* --sync none|batch|every (default batch) */
	uint64_t seal_interval;	    /* --seal-interval seconds (default 15 min) */
	bool seal_interval_set;	    /* given on the command line */
	unsigned int anchor_interval_ms; /* --anchor-interval: at most one anchor per
					  * this after a group commit (0 = 1000) */
};

/* Defaults for everything; dir must still be set. */
void audit_log_opts_init(struct audit_log_opts *o);

/*
 * The options above as rows of a command's option table (optab.h), and one
 * applied by its long name ("keep"): 1 done, 0 not a log option, -1 a bad
 * value with a one-line message in err.
 */
#define AUDIT_OPT_BASE 0x120
extern const struct optab audit_log_optab[];
int audit_log_set_opt(struct audit_log_opts *o, const char *name, const char *val, char *err,
		      size_t errlen);

/*
 * Parse one record option at argv[0] ("--keep 3" or "--keep=3"). Returns 1
 * when it was one (*used = argv elements consumed, 1 or 2), 0 when argv[0]
 * is not an audit-log option, -1 with a one-line message in err for a bad
 * or missing value.
 */
int audit_log_parse_opt(struct audit_log_opts *o, int argc, char **argv, int *used, char *err,
			size_t errlen);

struct audit_log;

/*
 * Open (or create) the log in o->dir: takes DIR/.lock, loads or generates
 * the key, recovers from an unclean stop (truncates a torn last line, writes
 * a "recover" record, chains on from the last intact record) and writes a
 * "start" record. NULL with one line in err on failure.
 */
struct audit_log *audit_log_open(const struct audit_log_opts *o, char *err, size_t errlen);

/*
 * Append one event: rec's "seq" is set to the log's own gapless sequence
 * number and any "mac" member is replaced by the chained MAC (rec is
 * modified). Rotates and handles a full disk per policy. Returns 0 (also
 * when --on-full suspend dropped and counted the record), -1 when the
 * policy is stop and the disk is full, or on a hard I/O error.
 */
int audit_log_append(struct audit_log *l, struct json_object *rec);

/* The seq the next record appended will get (the last one's plus one). */
uint64_t audit_log_next_seq(const struct audit_log *l);

/*
 * The recorder's fast path: append a record whose fields (everything after
 * "seq") fn writes with ctx (audit/fields.h), straight into a batch buffer,
 * sequenced and chained like audit_log_append() would (the bytes are the
 * same). time_ns is its time (the audit format's header). The batch is
 * written by audit_log_commit() (one write), and before anything else
 * touches the segment (audit_log_append, flush, reopen, close). Returns 0,
 * or -1 as audit_log_append() does.
 */
int audit_log_append_fields(struct audit_log *l, int64_t time_ns, audit_fields_fn fn,
			    const void *ctx);
/*
 * Write the batch: one write(2), nothing fsync'ed. A failed write is cut
 * off again and its records go the per-record way (--on-full per record).
 * 0, or -1 when the policy is stop and the disk is full, or on a hard error.
 */
int audit_log_commit(struct audit_log *l);

/* End of a drained batch: fsync (--sync batch) and update the state file. */
int audit_log_flush(struct audit_log *l);

/* SIGHUP: reopen the current segment; if it was moved away, start a new one. */
int audit_log_reopen(struct audit_log *l);

/* Clean stop: "close" record, fsync, state file; frees l. 0 or -1. */
int audit_log_close(struct audit_log *l);

/*
 * Retire the log for good ("nsaudit retire"): an "end" record, then the
 * clean stop, its anchor saying why=end, so that a new log under the same
 * key is no "another history" for verify. A retired directory takes no
 * more records (audit_log_open refuses it). Frees l; 0 or -1 (err).
 */
int audit_log_retire(struct audit_log *l, char *err, size_t errlen);

/*
 * Timer: call often (the recorder does after every drained batch, every
 * 50 ms, records or not). At the end of a sealing epoch writes the seal
 * record, evolves the key and erases the old one. 0 or -1.
 */
int audit_log_tick(struct audit_log *l);

/* What a restarted recorder must not write again: the kernel sequence
 * numbers of the newest records on disk and the kernel's lost counter last
 * written (from MAC-checked records and state, parsed with the codec). */
#define AUDIT_RESUME_MAX 256
size_t audit_log_resume(const struct audit_log *l, uint64_t *kseqs, size_t max,
			uint64_t *lost_total);
/* The caller wrote a lost record carrying the kernel's running counter. */
void audit_log_note_lost_total(struct audit_log *l, uint64_t lost_total);
/*
 * The caller's kernel counter starts again from 0 (new programs, not the
 * pinned ones the log's lost_total counted): the next record begins a new
 * segment whose header says so, so that a restart never resumes from the
 * old count. Nothing is done when the log's count is 0 already.
 */
int audit_log_restart_lost_total(struct audit_log *l);

/*
 * Tail anchors: the chain head leaves the host through the caller's sinks.
 * fn is called with a record {"op":"log","action":"anchor","log_id",
 * "key_id","seq","segment","mac","epoch","why"} each time the head is on
 * stable storage at a seal, at start and at close.
 */
typedef void (*audit_anchor_fn)(void *ctx, struct json_object *anchor);
void audit_log_set_anchor(struct audit_log *l, audit_anchor_fn fn, void *ctx);
/*
 * A sink lost count of the anchors numbered first..last (its anchor lane
 * overflowed while its receiver was down, a send failed for good): an
 * {"op":"log","action":"anchors_lost"} record, chained and sealed like any
 * other, so that verify calls that gap in the anchor chain a loss the log
 * admitted when it happened, not a deletion. 0 or -errno.
 */
int audit_log_anchors_lost(struct audit_log *l, const char *sink, uint64_t first, uint64_t last,
			   uint64_t count);

/* Last error of a failing call on l, one line (for the caller's message). */
const char *audit_log_error(const struct audit_log *l);

/* retention.c: the bytes written to the log in dir so far, deleted
 * segments counted at max_size (0 or -1); a size as --max-size takes it
 * ("256M"); a span of seconds as people read it ("45 min", "1.5 h"). */
int audit_log_written(const char *dir, uint64_t max_size, uint64_t *bytes);
/* What the log in dir keeps now: the bytes of its segments, and the time
 * (CLOCK_REALTIME ns) of the oldest record kept. 0, or -1 (no log yet). */
int audit_log_kept(const char *dir, uint64_t *bytes, int64_t *first_ns);
void audit_size_str(char *buf, size_t len, uint64_t bytes);
void audit_span_str(char *buf, size_t len, double secs);

#endif
