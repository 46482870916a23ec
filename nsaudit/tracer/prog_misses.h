/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * prog_misses.h - runs of our BPF programs the kernel skipped for recursion
 * (bpf_prog_info.recursion_misses, per program), as they grow.
 */
#ifndef NSAUDIT_PROG_MISSES_H
#define NSAUDIT_PROG_MISSES_H

#include <stdint.h>

#define PROG_MISSES_MAX 96

struct prog_misses {
	int n;
	struct {
		int fd; /* not owned: the skeleton's */
		char name[32];
		uint64_t seen;
	} p[PROG_MISSES_MAX];
};

/* Start watching the program fd (name: for the cause); its misses so far
 * count as seen (they predate us only for a reused pinned program). */
void prog_misses_add(struct prog_misses *m, int fd, const char *name);
/* For each program whose misses grew since the last call: fn(ctx, name,
 * how many more). */
void prog_misses_poll(struct prog_misses *m, void (*fn)(void *ctx, const char *name, uint64_t more),
		      void *ctx);

#endif
