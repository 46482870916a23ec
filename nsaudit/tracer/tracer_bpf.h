/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer_bpf.h - the tracer's BPF owner: the loaded object (the skeleton,
 * or fds of the programs and maps a previous recorder left pinned), the
 * hooks chosen for this kernel, and the pins (pin, reuse, hold, release).
 * Its methods are tbpf_*; the other two objects of the tracer (the record
 * stream, tracer_stream.h; the loss ledger, tracer_ledger.h) read the fds
 * it owns and never open or close one.
 */
#ifndef NSAUDIT_TRACER_BPF_H
#define NSAUDIT_TRACER_BPF_H

#include <stdbool.h>
#include <stddef.h>

#include "nsaudit.skel.h"

struct tracer;

#define BPF_FS_MAGIC 0xcafe4a11

/* The opens tp_exit_openat is attached to besides openat (tracer_hooks.c). */
#define OPEN_SIBLINGS 2
struct open_sibling {
	const char *name;  /* in the ready line and the link's pin name */
	const char *event; /* its exit tracepoint in syscalls/ */
};
extern const struct open_sibling open_siblings[OPEN_SIBLINGS];

/*
 * The hook set's name: the syscall tracepoints' list ("tracepoint/syscalls:
 * setns,unshare,...") and every other program's section, each bounded.
 */
#define TRACER_HOOKS_CALLS_LEN 256
#define TRACER_HOOKS_OTHER_LEN 512
#define TRACER_HOOKS_LEN       (TRACER_HOOKS_CALLS_LEN + TRACER_HOOKS_OTHER_LEN)

/* links a reusing recorder holds: every program's, the open siblings' */
#define HELD_LINKS_MAX 64

struct tracer_bpf {
	struct nsaudit_bpf *skel; /* NULL when reusing pinned programs */
	/* the copies that loaded skel's programs on two CPUs (tracer_load.c);
	 * NULL: skel loaded them itself */
	struct nsaudit_bpf *halves[2];
	/* the open program loaded: tp_exit_openat, or tp_exit_openat_fops
	 * before 6.4 (tbpf_choose_hooks()) */
	struct bpf_program *open_prog;
	/* its other attachments: sys_exit_open, sys_exit_openat2 */
	struct bpf_link *open_links[OPEN_SIBLINGS];
	bool open_sibling[OPEN_SIBLINGS]; /* whose tracepoint exists here */
	int ring_fd;
	int rare_fd;	/* the reserve ring: rare records */
	int bss_fd;	/* .bss: lost_events, next_kseq */
	void *bss_mmap; /* the pinned counters, mapped (reuse) */
	size_t bss_mmap_len;
	int actor_lost_fd; /* per-actor lost calls (actor_lost.h) */
	int lost_epoch_fd; /* and the epoch they are counted under */
	int flush_link_fd; /* iter/task flush_held: coalesced records out */
	int sweep_link_fd; /* iter/task sweep_pins: pins that left */
	int pins_fd;	   /* pin_mounts: the kernel side's pins */
	bool reused;
	int pin_lock_fd;		/* the pin dir, flock()ed: one recorder each */
	int held_links[HELD_LINKS_MAX]; /* reused pins: their links, held open */
	int nheld;
	/* reused pins that lack links their first recorder pinned: why this
	 * one is deaf from the start (tracer_hearing_tick() says it) */
	char links_gone[320];
	char hooks[TRACER_HOOKS_LEN]; /* "nsaudit: ready (hooks: ...)" */
};

/* tracer_pins.c */

int tbpf_pin_path(char *buf, size_t len, const char *dir, const char *name);
/* A link pin's name, hashed: pinned_links_sum adds them up (FNV-1a). */
uint64_t tbpf_link_name_hash(const char *name);

/*
 * Pin the ring, the counters and every link, so that the programs keep
 * running and the ring keeps filling while no recorder is alive.
 */
int tbpf_pin_all(struct tracer *t, char *err, size_t errlen);

/*
 * Reuse programs a previous recorder left pinned: no reload, no gap. Only
 * if they were loaded with the same filters: a recorder asked for other
 * records must not silently get the old ones.
 */
int tbpf_reuse_pins(struct tracer *t, char *err, size_t errlen);
/* What tbpf_reuse_pins() opened (fds of -1 skipped), closed. */
void tbpf_close_reused(struct tracer_bpf *b);

/* pin_owner.c: the pin dir's lock (one recorder each), a reusing
 * recorder's hold on the pinned links; tbpf_release_pins() drops both */
int tbpf_pin_dir_claim(struct tracer *t, char *err, size_t errlen);
int tbpf_hold_pinned_links(struct tracer *t, char *err, size_t errlen);
void tbpf_release_pins(struct tracer_bpf *b);

/* The kernel's counters (.bss), mapped (tracer_pins.c); NULL if they cannot be. */
struct nsaudit_bpf__bss *tbpf_counters(struct tracer_bpf *b);

/* tracer_hooks.c */

void tbpf_choose_hooks(struct tracer *t);
int tbpf_open_siblings_attach(struct tracer_bpf *b);

/* tracer_load.c */

/* Load skel's chosen programs, on two CPUs at once where there are two,
 * the skeleton then pointing at them. 0, or a negative errno. */
int tbpf_load_programs(struct tracer_bpf *b);

#endif
