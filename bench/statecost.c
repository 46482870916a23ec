// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * statecost - the kernel's own timing of a thread state look-up on setns'
 * exit, by each kind of per-thread state (bench/statecost.bpf.c), while a
 * command makes the setns calls:
 *
 *   statecost CMD [ARG...]     e.g. statecost build/bench/driver lat setns 20000
 *
 * Prints one line per program: ns per run and runs (bpf_stats, held on
 * by a BPF_ENABLE_STATS reference of its own while CMD runs). The four
 * run on every setns of the machine, one after the other, so each sees
 * the same calls; the order they are attached in is the order they run
 * in, and the first warms what the others read (run it twice and compare).
 * Errors: "statecost: what: why", exit 2 for bad usage, 1 for a failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "statecost.skel.h"

#define PROGS 4

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static int run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "statecost: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct bpf_prog_info before[PROGS] = {}, after[PROGS] = {};
	struct bpf_program *progs[PROGS];
	struct statecost_bpf *skel;
	int i, stats_fd, rc = 1;
	__u32 len;

	if (argc < 2) {
		fprintf(stderr, "usage: statecost CMD [ARG...]  (as root)\n");
		return 2;
	}
	libbpf_set_print(quiet_libbpf);
	skel = statecost_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "statecost: loading: %s\n", strerror(errno));
		return 1;
	}
	progs[0] = skel->progs.state_none;
	progs[1] = skel->progs.state_task_storage;
	progs[2] = skel->progs.state_hash_tid;
	progs[3] = skel->progs.state_slot_tid;
	if (statecost_bpf__attach(skel)) {
		fprintf(stderr, "statecost: attaching: %s\n", strerror(errno));
		goto out;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "statecost: bpf_stats: %s\n", strerror(-stats_fd));
		goto out;
	}
	for (i = 0; i < PROGS; i++) {
		len = sizeof(before[i]);
		bpf_obj_get_info_by_fd(bpf_program__fd(progs[i]), &before[i], &len);
	}
	if (run(argv + 1)) {
		fprintf(stderr, "statecost: %s failed\n", argv[1]);
		goto out_stats;
	}
	for (i = 0; i < PROGS; i++) {
		__u64 runs;

		len = sizeof(after[i]);
		bpf_obj_get_info_by_fd(bpf_program__fd(progs[i]), &after[i], &len);
		runs = after[i].run_cnt - before[i].run_cnt;
		printf("%-20s %8.1f ns/run %10llu runs\n", bpf_program__name(progs[i]),
		       runs ? (double)(after[i].run_time_ns - before[i].run_time_ns) / runs : 0.0,
		       (unsigned long long)runs);
	}
	rc = 0;
out_stats:
	close(stats_fd);
out:
	statecost_bpf__destroy(skel);
	return rc;
}
