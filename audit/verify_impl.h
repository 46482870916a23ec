/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * verify_impl.h - the verifier's walk, shared by its parts:
 *   verify.c         keys, anchors, the walk over segments, the verdict
 *   verify_walk.c    one segment: headers, seq, MAC chain, counters
 *   verify_epoch.c   each record's epoch, seals, clock steps, times
 *   verify_light.c   its fast path: ordinary records without a parse
 *   verify_tail.c    what only the whole log shows: gaps, drops, the
 *                    state file, anchors, seals up to the state's epoch
 *   verify_report.c  findings (each with segment, line, seq)
 * One object, struct walk, holds the verifier's state; what the parts call
 * of each other are its methods, all named walk_* (the public ones are
 * audit_verify*), so that no unprefixed name is shared between files.
 * Every check is an invariant over what was verified; a finding never
 * stops the walk (it resynchronises on the next record), so that one
 * finding cannot hide another.
 */
#ifndef NSAUDIT_AUDIT_VERIFY_IMPL_H
#define NSAUDIT_AUDIT_VERIFY_IMPL_H

#include "anchor.h"
#include "codec.h"
#include "seal.h"
#include "state.h"
#include "segment.h"
#include "verify.h"

/* Kernel events may be written a little after their epoch began (the ring
 * is drained every 50 ms); the log's own records are stamped when written.
 * The same skew bounds a record's time past its epoch's end. */
#define WALK_SLACK_MAX_NS (5ll * 1000000000)
/* How many epochs a log's key may be ahead of its records' times in the
 * first run kept (closing seals early: one per clean stop in an epoch). */
#define WALK_AHEAD_RUN_EPOCHS 8
/* How far back a recorded clock step may move the floor of times. */
#define WALK_CLOCK_STEP_MAX_NS (3600ll * 1000000000)
/* How far the recorder's clock may be ahead of the verifier's. */
#define WALK_FUTURE_SKEW_NS (300ll * 1000000000)

struct walk {
	struct audit_verify *v;
	int dirfd;
	struct audit_keyring kr;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	char log_id[AUDIT_KEY_ID_HEX + 1];
	struct audit_state st;
	int state_rc; /* audit_state_load(): 1 verified, 2 not verifiable here */
	bool have_state, state_seen;
	bool have_prev; /* prev/expect are from a record that was read */
	bool resync;	/* the last record was bad: take the next one's chain */
	uint8_t prev[AUDIT_MAC_LEN];
	/* the record MAC: the first header's format version says which */
	unsigned int log_version;
	size_t mac_len;
	struct audit_chain chain;
	uint64_t expect;
	unsigned int max_dropped; /* segments <= this were removed by rotation */
	unsigned int cur_seg;	  /* the segment being walked */
	unsigned int *moved;	  /* segments a "missing" record accounts for */
	size_t nmoved, capmoved;
	bool bad;
	/* sealing */
	bool sealed, have_epoch;
	uint64_t epoch;	      /* of the record being checked */
	int64_t t0, interval; /* schedule, seconds */
	int64_t floor_ns;     /* events of this epoch must not be older */
	/* the log's own records, after a seal at close or a recorded clock
	 * step back: from then on (a restart within the epoch writes with
	 * the next key; a stepped clock stamps earlier times), else 0 */
	int64_t close_floor_ns;
	int64_t last_time_ns;
	int64_t last_log_ns;	   /* of the log's own records */
	int64_t now_ns;		   /* the verifier's clock */
	int64_t sealed_epochs_end; /* end of the newest sealed epoch */
	uint64_t misuse_epoch;
	uint64_t lost_total; /* the kernel's counter, as last seen (0: none yet) */
	bool lost_total_seen;
	bool disk_lost;	      /* a "disk full" lost record: a kernel report may be gone */
	uint64_t lost_at_state; /* the chain's counter at the state's record */
	/* the first header whose lost_total is not the chain's (0: none) */
	unsigned int lost_bad_seg;
	uint64_t lost_bad_seq, lost_bad_hdr, lost_bad_chain;
	/* anchors of this log that authenticate, by seq */
	struct audit_anchor *anc;
	size_t nanc, next_anc;
	const char *anc_file;	  /* the --anchor file, or "the N --anchor files" */
	char anc_files[40];
	const char *other_file;	  /* where another log's newest anchor is */
	/* other logs under this key, each by its own newest authentic anchor
	 * (verify_tail.c other_log): one that never ended is a finding */
	struct walk_other {
		char log_id[AUDIT_KEY_ID_HEX + 1];
		uint64_t n, seq, line, count;
		const char *file;
		bool ended;
	} *others;
	size_t nothers;
	uint64_t after_anchor;	  /* records after the newest anchor matched */
	/* what the log says of the anchors: the seal naming most anchors
	 * sent (0: none says), and the newest drop record's seq */
	uint64_t seal_anchors, seal_anchors_epoch, seal_anchors_seq, seal_anchors_line;
	unsigned int seal_anchors_seg;
	bool seal_anchors_crashed; /* a recover record came after that seal */
	uint64_t last_drop_seq;
	/* anchors a sink lost, as the log's anchors_lost records say (first
	 * and last n of each; at most WALK_ANCHOR_LOSSES kept) */
	struct { uint64_t first, last; } *alost;
	size_t nalost;
	unsigned int garbage_seg; /* the last line that was not a record */
	uint64_t garbage_line;
	uint64_t torn_line; /* the newest segment's unfinished last line (0: none) */
};

/* A finding: a problem (tampering, or a crash tail when crash is set) at
 * seg (a file name, or ""), line (0: the file as a whole) and seq (0: not
 * known). Always returns -1. */
int walk_find(struct walk *w, bool crash, const char *seg, uint64_t line, uint64_t seq,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define walk_bad(w, ...) walk_find(w, false, __VA_ARGS__)

bool walk_is_log(const struct audit_rec *r, const char *action);
int64_t walk_slack_ns(const struct walk *w);
int64_t walk_epoch_start_ns(const struct walk *w, uint64_t e);
void walk_fmt_time(int64_t ns, char *out, size_t len);

/* verify_walk.c */
int walk_segment(struct walk *w, unsigned int num, bool follows, bool first);
/* verify_epoch.c: epoch bookkeeping before a record's MAC is checked (a
 * segment's first header sets it, else only a seal moves it); a seal
 * record; a record's time against its epoch. 0, or -1 after a finding */
int walk_epoch_of(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r,
		  bool first_seg_header);
int walk_seal(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r);
int walk_check_time(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r);
/* verify_light.c: true when line is an ordinary record whose MAC matches
 * the chain, taken into r as a light record (time and op only) */
bool walk_light_record(struct walk *w, uint64_t lineno, const char *line, size_t len,
		       struct audit_rec *r);
/* verify_tail.c */
void walk_check_tail(struct walk *w, const unsigned int *nums, size_t n);
int walk_load_anchors(struct walk *w, const struct audit_verify_opts *o, char *err, size_t errlen);
/* verify_chain.c: the anchors' chain, the newest ones, attested records;
 * during the walk, what the log says of its anchors and of its end */
void walk_check_anchor_chain(struct walk *w);
void walk_note_witness(struct walk *w, const char *name, uint64_t lineno,
		       const struct audit_rec *r);

#endif
