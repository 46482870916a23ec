// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_load.c - the programs verified on two CPUs at once.
 *
 * The verifier is ~90 % of a start, and it runs on the CPU of the thread
 * that asks for the load; libbpf 1.1's bpf_object__load() loads an
 * object's programs one after another. So, with two CPUs or more, the
 * skeleton's object makes the maps only (.rodata filled and frozen as
 * always), and two more copies of the same object, given those maps' fds,
 * load half of the chosen programs each, one per thread. The skeleton is
 * then pointed at the loaded programs: attach, pins and everything after
 * see one object. A copy re-does libbpf's CO-RE relocation (~35 ms of
 * CPU here), which the halves pay in parallel: so only while a CPU is
 * idle (cpu_idle()). NSAUDIT_SERIAL_LOAD=1 or NSAUDIT_PARALLEL_LOAD=1
 * decide instead (the bench, tests).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "tracer_impl.h"

/*
 * What verifying a program costs, in ms on this kind of machine (6.18,
 * the kernel's own statistics, medians of 5 loads, 2026-12-07:
 * NSAUDIT_VERIFIER_STATS=1 prints them), only to split the programs
 * evenly: a wrong figure costs balance, never a program.
 */
static const struct {
	const char *name;
	unsigned int ms;
} verify_ms[] = {
	{ "sweep_pins", 30 },		{ "tp_exit_umount", 28 },
	{ "tp_exit_setns", 24 },	{ "tp_exec", 14 },
	{ "tp_exit_unshare", 11 },	{ "snapshot_tasks", 11 },
	{ "tp_fork", 9 },		{ "tp_exit_openat", 6 },
	{ "tp_exit_openat_fops", 6 },	{ "tp_exit_move_mount", 6 },
	{ "tp_enter_mount_vpid", 6 },	{ "tp_exit_mount", 5 },
	{ "tp_exit_mount_vpid", 5 },	{ "tp_exit_open_by_handle_at", 4 },
	{ "tp_enter_mount", 4 },
	{ "tp_exit_ioctl", 3 },		{ "tp_exit_pidfd_getfd", 3 },
};

static unsigned int weight_of(const struct bpf_program *p)
{
	const char *name = bpf_program__name(p);
	size_t i;

	for (i = 0; i < sizeof(verify_ms) / sizeof(verify_ms[0]); i++)
		if (!strcmp(verify_ms[i].name, name))
			return verify_ms[i].ms;
	return 2;	/* the entry hooks, clone exits, flush: a few ms */
}

/* programs in the skeleton, at most, for a split (more: one load) */
#define SPLIT_MAX 128

struct half {
	struct nsaudit_bpf *skel;
	pthread_t thread;
	int err;
};

static void *half_load(void *arg)
{
	struct half *h = arg;
	int rc = bpf_object__load(h->skel->obj);

	h->err = rc < 0 ? rc : 0;
	return NULL;
}

/* The skeleton's program slot i (its table's order is the object's). */
static struct bpf_program **prog_slot(struct nsaudit_bpf *s, int i)
{
	return s->skeleton->progs[i].prog;
}

/*
 * A copy of the object that loads the programs marked in mine[] (by
 * skeleton index), on the maps of the loaded object a. 0 or -errno.
 */
static int half_open(struct half *h, struct nsaudit_bpf *a, const bool *mine)
{
	struct bpf_map *m, *am;
	int i, rc;

	h->skel = nsaudit_bpf__open();
	if (!h->skel)
		return -errno;
	for (i = 0; i < a->skeleton->prog_cnt; i++)
		bpf_program__set_autoload(*prog_slot(h->skel, i), mine[i]);
	bpf_object__for_each_map(m, h->skel->obj) {
		am = bpf_object__find_map_by_name(a->obj, bpf_map__name(m));
		if (!am)
			return -ENOENT;
		rc = bpf_map__reuse_fd(m, bpf_map__fd(am));
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Split the chosen programs in two by weight: heaviest first, each to the
 * lighter half so far. in_first[i]: program i goes to the first half.
 */
static void split(struct nsaudit_bpf *a, const bool *chosen, bool *in_first)
{
	int order[SPLIT_MAX], n = 0, i, j;
	unsigned int load[2] = { 0, 0 }, w;

	for (i = 0; i < a->skeleton->prog_cnt; i++) {
		if (!chosen[i])
			continue;
		w = weight_of(*prog_slot(a, i));
		for (j = n++; j > 0 && weight_of(*prog_slot(a, order[j - 1])) < w; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (j = 0; j < n; j++) {
		i = order[j];
		in_first[i] = load[0] <= load[1];
		load[in_first[i] ? 0 : 1] += weight_of(*prog_slot(a, i));
	}
}

/* the verifier's statistics of each program (NSAUDIT_VERIFIER_STATS) */
#define STATS_LOG_LEN (256 << 10)
static char (*stats_log)[STATS_LOG_LEN];

/* Ask for each chosen program's statistics (log level 4). Room to spare:
 * the verifier also writes, and takes back, lines of its own (sweep_pins
 * needed more than 16 KiB for a 154-byte log), and a log cut short fails
 * the load with ENOSPC. */
static void verifier_stats_ask(struct nsaudit_bpf *const *s, int nskel, int n)
{
	int i, k;

	if (!getenv("NSAUDIT_VERIFIER_STATS"))
		return;
	stats_log = calloc((size_t)n, sizeof(*stats_log));
	for (i = 0; stats_log && i < n; i++) {
		for (k = 0; k < nskel; k++) {	/* one of them loads it */
			bpf_program__set_log_buf(*prog_slot(s[k], i), stats_log[i],
						 STATS_LOG_LEN);
			bpf_program__set_log_level(*prog_slot(s[k], i), 4);
		}
	}
}

/* Print them, one line a program loaded, and their sum: what the
 * verifier cost, whichever CPU it ran on. */
static void verifier_stats_print(struct nsaudit_bpf *s, int n, bool halves)
{
	long us, insns, states, sum = 0;
	const char *q;
	int i;

	for (i = 0; stats_log && i < n; i++) {
		if (!bpf_program__autoload(*prog_slot(s, i)))
			continue;
		q = strstr(stats_log[i], "verification time ");
		us = q ? atol(q + 18) : 0;
		q = strstr(stats_log[i], "processed ");
		insns = q ? atol(q + 10) : 0;
		q = strstr(stats_log[i], "total_states ");
		states = q ? atol(q + 13) : 0;
		sum += us;
		fprintf(stderr, "nsaudit: verifier: %s %ld.%ld ms, %ld instructions, %ld states\n",
			bpf_program__name(*prog_slot(s, i)), us / 1000, us / 100 % 10, insns, states);
	}
	if (stats_log)
		fprintf(stderr, "nsaudit: verifier: all %ld.%ld ms, %s\n", sum / 1000, sum / 100 % 10,
			halves ? "two halves at once" : "one load");
	free(stats_log);
	stats_log = NULL;
}

/*
 * Is a CPU idle right now, besides ours? /proc/stat's procs_running counts
 * the runnable tasks this instant (this one too). A copy's relocation
 * costs ~35 ms of CPU; where every CPU is busy, the halves only share
 * them with the rest and finish no sooner (on this 2-CPU VM at load 12:
 * the same wall time, 100 ms more CPU), so the load stays one.
 */
static bool cpu_idle(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), running = -1;
	char line[256];
	FILE *f;

	if (ncpu < 2)
		return false;
	f = fopen("/proc/stat", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "procs_running %ld", &running) == 1)
			break;
	fclose(f);
	return running >= 1 && running - 1 < ncpu - 1;
}

/*
 * Load t->bpf.skel's chosen programs (their autoload flags), in two halves at
 * once where there are two CPUs, and point the skeleton at them. 0, or a
 * negative errno (the verifier's log kept for bpf_log_show()).
 */
int tbpf_load_programs(struct tracer_bpf *b)
{
	struct nsaudit_bpf *a = b->skel;
	struct half h[2] = { { NULL } };
	bool chosen[SPLIT_MAX], in_first[SPLIT_MAX], mine[SPLIT_MAX];
	int n = a->skeleton->prog_cnt, i, k, rc;

	if (n > SPLIT_MAX || getenv("NSAUDIT_SERIAL_LOAD") ||
	    (!cpu_idle() && !getenv("NSAUDIT_PARALLEL_LOAD"))) {
		verifier_stats_ask(&a, 1, n);
		rc = nsaudit_bpf__load(a);
		verifier_stats_print(a, n, false);
		return rc;
	}
	for (i = 0; i < n; i++) {
		chosen[i] = bpf_program__autoload(*prog_slot(a, i));
		bpf_program__set_autoload(*prog_slot(a, i), false);
	}
	split(a, chosen, in_first);
	rc = nsaudit_bpf__load(a);	/* the maps, .rodata frozen */
	for (k = 0; k < 2 && !rc; k++) {
		for (i = 0; i < n; i++)
			mine[i] = chosen[i] && in_first[i] == (k == 0);
		rc = half_open(&h[k], a, mine);
	}
	if (!rc) {
		struct nsaudit_bpf *both[2] = { h[0].skel, h[1].skel };

		verifier_stats_ask(both, 2, n);
	}
	if (rc)
		goto out;
	if (pthread_create(&h[1].thread, NULL, half_load, &h[1])) {
		half_load(&h[0]);	/* no thread: one after the other */
		half_load(&h[1]);
	} else {
		half_load(&h[0]);
		pthread_join(h[1].thread, NULL);
	}
	rc = h[0].err ? h[0].err : h[1].err;
	if (rc)
		goto out;
	for (i = 0; i < n; i++) {
		struct bpf_program **slot = prog_slot(a, i);
		struct bpf_program *loaded = *prog_slot(h[in_first[i] ? 0 : 1].skel, i);

		if (!chosen[i])
			continue;
		if (b->open_prog == *slot)
			b->open_prog = loaded;
		*slot = loaded;
	}
	verifier_stats_print(a, n, true);
	b->halves[0] = h[0].skel;
	b->halves[1] = h[1].skel;
	return 0;
out:
	free(stats_log);
	stats_log = NULL;
	nsaudit_bpf__destroy(h[0].skel);
	nsaudit_bpf__destroy(h[1].skel);
	return rc;
}
