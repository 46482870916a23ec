// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * floor - attach empty BPF programs to the hooks named on the command line
 * and hold them until SIGINT/SIGTERM: the floor of "make bench".
 *
 *   floor HOOK...
 *     HOOK  tp:CATEGORY:NAME   a tracepoint, e.g. tp:syscalls:sys_enter_setns
 *           raw_tp:NAME        a raw tracepoint (also for tp_btf hooks)
 *
 * Prints "floor: ready (N hooks)" on stderr once every hook is attached.
 * Nothing is pinned: the links are this process's fds and go with it,
 * however it ends (bench/run.sh relies on that for its cleanup).
 * Errors: "floor: what: why", exit 2 for bad usage, 1 for a failure.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "floor.skel.h"

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static struct bpf_link *attach(struct floor_bpf *skel, char *hook)
{
	char *colon = strchr(hook, ':'), *name;

	if (!colon)
		return NULL;
	*colon = '\0';
	name = colon + 1;
	if (!strcmp(hook, "tp")) {
		char *sep = strchr(name, ':');

		if (!sep) {
			errno = EINVAL;
			return NULL;
		}
		*sep = '\0';
		return bpf_program__attach_tracepoint(skel->progs.floor_tp, name, sep + 1);
	}
	if (!strcmp(hook, "raw_tp") || !strcmp(hook, "tp_btf"))
		return bpf_program__attach_raw_tracepoint(skel->progs.floor_raw_tp, name);
	errno = EINVAL;
	return NULL;
}

int main(int argc, char **argv)
{
	struct floor_bpf *skel;
	sigset_t set;
	int i, sig;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: floor HOOK...   (HOOK: tp:CATEGORY:NAME or raw_tp:NAME)\n");
		return argc < 2 ? 2 : 0;
	}
	/* block the stop signals before attaching: one arriving meanwhile
	 * is taken by sigwait below instead of killing us half-attached */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);

	libbpf_set_print(quiet_libbpf);
	skel = floor_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "floor: loading the empty programs: %s\n", strerror(errno));
		return 1;
	}
	for (i = 1; i < argc; i++) {
		char hook[256];

		snprintf(hook, sizeof(hook), "%s", argv[i]);
		if (!attach(skel, hook)) {
			int e = errno;

			fprintf(stderr, "floor: attaching %s: %s\n", argv[i], strerror(e));
			floor_bpf__destroy(skel);
			return e == EINVAL ? 2 : 1;
		}
		/* the link stays open until exit: no bpf_link__destroy */
	}
	fprintf(stderr, "floor: ready (%d hooks)\n", argc - 1);
	sigwait(&set, &sig);
	floor_bpf__destroy(skel);
	return 0;
}
