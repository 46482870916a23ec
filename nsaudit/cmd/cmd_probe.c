// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_probe.c - "nsaudit probe": what this kernel lets nsaudit hook. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <cap-ng.h>

#include "commands.h"
#include "probe/kfeatures.h"

static const struct optab probe_optab[] = {
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

int cmd_probe(int argc, char **argv)
{
	struct cmd_opts opts;
	const char *name;
	struct features ft;
	struct utsname u;
	bool patched;
	int c, i;

	cmd_opts_set(&opts, probe_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		if (c == 'h') {
			printf("Usage: nsaudit probe\n\n"
			       "Try each BPF attach type nsaudit can use on this kernel and print\n"
			       "a table: feature, yes/no, and why not. Then the hook set that\n"
			       "'nsaudit trace' will use. Needs root.\n\n");
			cmd_help(stdout, &opts);
			return 0;
		}
		return cmd_error("probe", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 cmd_bad_option(argv));
	}
	if (optind < argc)
		return cmd_error("probe", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 argv[optind]);
	/* Unprivileged, every load fails with EPERM: a table of "no" would
	 * describe the caller, not the kernel. */
	if (capng_get_caps_process() == 0 &&
	    !capng_have_capability(CAPNG_EFFECTIVE, CAP_SYS_ADMIN) &&
	    !capng_have_capability(CAPNG_EFFECTIVE, CAP_BPF))
		return cmd_error("probe", 1,
				 "cannot load BPF programs without privileges (run as root, or "
				 "with CAP_BPF and CAP_PERFMON)");
	features_probe(&ft, false);
	uname(&u);
	printf("kernel %s\n", u.release);
	printf("%-36s %s\n", "FEATURE", "AVAILABLE");
	for (i = 0; i < FEAT_MAX; i++)
		printf("%-36s %-4s %s\n", feature_name(i), ft.have[i] ? "yes" : "no",
		       ft.have[i] ? "" : ft.why[i]);
	patched = ft.have[FEAT_NS_CHANGE] && ft.have[FEAT_SYS_NSFD];
	printf("\nhook set: %s\n",
	       patched && ft.have[FEAT_FENTRY]
		       ? "patched kernel: fentry/fexit on __x64_sys_nsfd, __x64_sys_setns; "
			 "namespace:* tracepoints (ns_change for setns, unshare, clone)"
		       : "stock: tracepoint/syscalls (setns at its exit alone) "
			 "raw_tp/sched_process_fork iter/task");
	return 0;
}
