/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log_impl.h - the open log, shared by the writer's parts: log.c (append,
 * flush, reopen, close), log_rotate.c (segments, rotation, full-disk
 * policies), log_recover.c (open and recovery), log_seal.c (epochs and
 * anchors), log_sync.c (the group commit's sync), log_keys.c (directory and
 * keys), log_batch.c (records formatted in place). Not a public API: log.h
 * is. One object, struct audit_log, owns the writer's state; what its parts
 * call of each other are its methods, all named alog_* (the public ones
 * audit_log_*), so that no unprefixed name is shared between files.
 */
#ifndef NSAUDIT_AUDIT_LOG_IMPL_H
#define NSAUDIT_AUDIT_LOG_IMPL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "chain.h"
#include "codec.h"
#include "log.h"
#include "seal.h"
#include "state.h"

struct json_object;

/* Lost records of distinct actors a full disk holds back (log_lost.c);
 * past that many, the disk-full count takes them, nameless. */
#define ALOG_HELD_LOST 256

struct audit_log {
	struct audit_log_opts o;
	char dir[PATH_MAX];
	int dirfd, fd, lockfd;
	uint8_t key[AUDIT_KEY_LEN]; /* the MAC key now: K(epoch), or the static key */
	char key_id[AUDIT_KEY_ID_HEX + 1];
	struct audit_seal seal;	    /* sealing state (seal.sealing false: static key) */
	char key_path[PATH_MAX];    /* where the sealing state lives */
	char log_id[AUDIT_KEY_ID_HEX + 1];
	uint64_t epoch;		    /* of the records being written now */
	int64_t epoch_end;	    /* seconds: seal and evolve then (0: never) */
	int64_t clock_off;	    /* wall minus monotonic clock, ns (0: not read yet) */
	uint64_t lost_total;	    /* the kernel's lost counter last written */
	uint64_t resume_kseq[AUDIT_RESUME_MAX]; /* newest kernel seqs already written */
	size_t nresume;
	audit_anchor_fn anchor_fn;
	void *anchor_ctx;
	int64_t anchor_ns;     /* CLOCK_MONOTONIC of the last anchor sent */
	uint64_t anchored_seq; /* the seq it named */
	uint64_t anchor_n;     /* its number in the log (0: none yet) */
	bool retiring;	       /* audit_log_retire: the close's anchor is the end */
	bool recovered;	       /* started after an unclean stop (a recover record) */
	uint8_t anchor_amac[AUDIT_TAG_LEN]; /* its amac: the next one names it */

	uint64_t seq;		    /* the next record's */
	uint8_t mac[AUDIT_MAC_LEN]; /* the last record's (mac_len bytes) */
	/* the record MAC (chain.h): the log's format version decides which;
	 * chain holds a key derived from key and must follow it (alog_rekey) */
	unsigned int log_version;
	size_t mac_len;
	struct audit_chain chain;
	uint8_t run[AUDIT_RUN_LEN]; /* v3: this run's id */
	bool run_pending;	    /* v3: no record of this run says it yet */
	unsigned int segno;
	uint64_t seg_size, seg_records;
	/* records the segment's opening wrote (its header, and the drop
	 * records of --keep): a record that does not fit after them alone
	 * stays (a segment of its own), or rotation would never end */
	uint64_t seg_base;
	dev_t seg_dev;
	ino_t seg_ino;
	bool need_header; /* current segment has no header yet */
	bool dirty;	  /* written since the last flush's fdatasync */
	int64_t sync_ns;  /* when that started (CLOCK_MONOTONIC) */
	unsigned int sync_segno; /* and where the segment was then */
	uint64_t sync_size;
	struct log_sync *bg; /* a sync in the background (log_sync.c), or NULL */
	bool stopped;	  /* --on-full stop hit */

	uint64_t suspended; /* calls dropped in this full-disk episode (calls_of) */
	/* lost records dropped then, held to be written with their actor
	 * (log_lost.c) */
	struct json_object *held[ALOG_HELD_LOST];
	char *held_id[ALOG_HELD_LOST];
	size_t nheld;
	bool state_full_said; /* the state file could not be replaced: said once */
	uint64_t dropped_total;
	unsigned int pending_drop; /* deleted segments no record mentions yet */
	const char *pending_drop_why;
	unsigned int pending_moved; /* segment moved away under us (reopen) */
	char err[256];

	/* log_batch.c: records formatted, chained, not yet written */
	struct sbuf batch;
	uint64_t batch_n;		   /* records in it */
	uint64_t batch_seq0;		   /* seq and chain value before its first */
	uint8_t batch_mac0[AUDIT_MAC_LEN];
};

/* log_lost.c: lost records a full disk held back (--on-full suspend) */
/* rec (not written: the disk is full) is a lost record, now held to be
 * written later with its actor: true; false: count it in the disk-full
 * count (not a lost record, or no room to hold it) */
bool alog_hold_lost(struct audit_log *l, struct json_object *rec);
/* Write the held ones (each stays held until written): 0 or -errno. */
int alog_write_held_lost(struct audit_log *l);
/* The calls the held ones count (a close on a full disk says so). */
uint64_t alog_held_calls(const struct audit_log *l);
void alog_free_held_lost(struct audit_log *l);

/* --sync batch: a flush syncs the segment at most this often (log.c) */
#define AUDIT_SYNC_GROUP_NS 40000000LL

/* ... in the background when at least this much is to be synced */
#define AUDIT_SYNC_ASYNC_BYTES (1024 * 1024)

/* log.c */
int alog_state_line(const struct audit_log *l, bool clean, char buf[AUDIT_STATE_LINE_MAX]);
void alog_seterr(struct audit_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *alog_format_name(enum audit_format f);
/* One of the log's own records: {"time":..,"op":"log","action":ACTION}. */
struct json_object *alog_own_record(const char *action);
/* alog_write_rec() did not write: the record belongs in a new segment */
#define ALOG_NEED_ROTATE 1
int alog_write_rec(struct audit_log *l, struct json_object *rec, bool may_rotate);
/* n bytes at the end of the segment, all or nothing (cut back on failure); 0 or -errno */
int alog_write_line(struct audit_log *l, const char *p, size_t n);
int alog_write_own(struct audit_log *l, struct json_object *rec);
int alog_write_pending(struct audit_log *l);
int alog_save_state(struct audit_log *l, bool clean);
/* The state file could not be written for err: true when that is a full
 * disk to live with (--on-full suspend/rotate). */
bool alog_state_full(struct audit_log *l, int err);
/* Seal the current epoch (a seal record under its key), evolve to epoch
 * next, erase the old key from memory and the state file. at: "timer"
 * (the epoch ended) or "start" (a recorder starting in a later epoch). */
int alog_seal_epoch(struct audit_log *l, uint64_t next, const char *at);
void alog_send_anchor(struct audit_log *l, const char *why);
/* l->key changed (or the log's version became known): the record MAC follows. */
void alog_rekey(struct audit_log *l);
/* v3: a new run id, said by the next record written (after a write that
 * failed: the records it held are MAC'd again under the new one). */
void alog_new_run(struct audit_log *l);
void alog_free(struct audit_log *l);

/* log_sync.c: the group commit's fdatasync and state file, on a thread */
/* bytes written to the segment since the last sync started */
uint64_t alog_sync_pending_bytes(const struct audit_log *l);
/* a sync (synchronous) is done: what it covered is no longer pending */
void alog_sync_done(struct audit_log *l);
/* start one in the background: 0, or -1 (do it here instead) */
int alog_sync_start(struct audit_log *l);
/* the background sync, if any: 0 done (or none), 1 still running (only
 * when !wait), -1 it failed (the error set) */
int alog_sync_reap(struct audit_log *l, bool wait);

/* log_keys.c: the directory and its lock; the keys. 0, or -1 with l->err */
int alog_open_dir(struct audit_log *l);
int alog_load_keys(struct audit_log *l, const struct audit_log_opts *o);

/* log_rotate.c */
int alog_sync_dir(struct audit_log *l);
int alog_sync_segment(struct audit_log *l);
int alog_open_segment(struct audit_log *l, bool create);
int alog_drop_oldest(struct audit_log *l, const char *why);
#define AUDIT_RESERVE_FILE  ".nsaudit-reserve"
#define AUDIT_RESERVE_BYTES 8192
void alog_make_reserve(struct audit_log *l);
void alog_enforce_keep(struct audit_log *l);
int alog_rotate(struct audit_log *l);
/* Write rec (after whatever is owed) under the full-disk policy. */
int alog_emit(struct audit_log *l, struct json_object *rec);

/* log_seal.c */

/* After a group commit made records durable: an anchor, at most one per
 * --anchor-interval (default a second), so that the window in which root
 * holding the current key can rewrite the tail unseen is that long. */
void alog_anchor_commit(struct audit_log *l);
/* The same for a head a background sync made durable (seq, its mac, its
 * segment), the log having gone on since. */
void alog_anchor_durable(struct audit_log *l, uint64_t seq, const uint8_t *mac,
			 unsigned int segno);

/* log.c */

/* The oldest segment still in the directory (what an anchor says was
 * retained), or the current one. */
unsigned int alog_first_segment(const struct audit_log *l);
/* The oldest record still in the directory (0: cannot tell). */
uint64_t alog_first_seq(const struct audit_log *l, unsigned int segno);

#endif
