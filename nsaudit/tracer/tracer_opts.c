// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* tracer_opts.c - the tracer's options: filters, ring size, --verbose. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "enrich/runtime_state.h"
#include "nstype.h"
#include "rules/rules.h"
#include "tracer.h"

void tracer_opts_init(struct tracer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->type_mask = 0xffffffff;
	/* freed hooks the kernel's two busiest free paths: asked for by name
	 * (--op ...,freed), its cost in bench/README.md */
	o->op_mask = 0xffffffff & ~(1u << NSAUDIT_OP_FREED);
	o->ring_size = 4 << 20;
	o->poll_ms = 50;
	o->hearing_ns = 60 * NSEC_PER_SEC;
}

/* include/linux/proc_ns.h: the initial pid namespace's fixed inode */
#define PROC_PID_INIT_INO 0xeffffffcu

pid_t tracer_kernel_pid(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) || st.st_ino != PROC_PID_INIT_INO)
		return 0;
	return getpid();
}

/* the tracer's options, in --help order (optab.h) */
const struct optab tracer_optab[] = {
	{ "pid", 'p', "PID", "only events of this process (its threads included)" },
	{ "uid", TRACER_OPT_UID, "UID", "only events of processes of this real user id" },
	{ "comm", 'c', "NAME",
	  "only events of processes with this command name\n"
	  "--pid, --uid and --comm may be repeated (any of\n"
	  "them); they apply to every record, also those user\n"
	  "space makes (a record without the field never\n"
	  "matches); lost records always pass" },
	{ "type", 't', "LIST",
	  "only these namespace types: net,uts,ipc,mnt,pid,user,\n"
	  "cgroup,time" },
	{ "op", 'o', "LIST",
	  "only these operations: setns,unshare,clone,open,mount,\n"
	  "umount,nsfd,ns_free,query (lost records always pass);\n"
	  "freed (when each namespace dies, stock kernels) only\n"
	  "when listed: it hooks every kfree and kmem_cache_free" },
	{ "container", TRACER_OPT_CONTAINER, "C",
	  "only records about container C (id, name, or an id\n"
	  "prefix only one running container has; a prefix\n"
	  "several have is an error naming them): its\n"
	  "namespaces, entered, left, made or pinned. One not\n"
	  "running yet is waited for: the first container to\n"
	  "start with that name, or that id (12+ characters\n"
	  "of it), is the one traced, by its id (both said\n"
	  "on stderr); a later one reusing the name is not" },
	{ "runtime-root", TRACER_OPT_RUNTIME_ROOT, "KIND=DIR",
	  "where a runtime keeps its state: runc, crun,\n"
	  "docker-exec, docker-data, containerd, podman\n"
	  "(docs/attribution.md has the defaults)" },
	{ "rules", TRACER_OPT_RULES, "FILE",
	  "tune the detection rules, add one's own (YAML,\n"
	  "docs/rules.md); alerts are records \"op\":\"alert\"" },
	{ "no-rules", TRACER_OPT_NO_RULES, NULL,
	  "no detections (on by default: container-escape,\n"
	  "cross-container, attempted-escape, persistence,\n"
	  "userns-privilege)" },
	{ "ring-size", TRACER_OPT_RING_SIZE, "N",
	  "kernel ring buffer size in bytes, power of two\n"
	  "(default 4194304; K and M suffixes work)" },
	{ "no-coalesce", TRACER_OPT_NO_COALESCE, NULL,
	  "one record per call, even for identical consecutive\n"
	  "calls of a thread (default: one record with repeat=N)" },
	{ "log-budget", TRACER_OPT_LOG_BUDGET, "N",
	  "records per second each uid may write (a quarter\n"
	  "of it each process, more for quiet processes:\n"
	  "docs/flood.md); the rest is counted in lost records\n"
	  "naming the actor. 0: none (trace's default;\n"
	  "record's is 1024)" },
	{ "verbose", 'v', NULL,
	  "show libbpf's messages, the hooks chosen and where\n"
	  "the start went (\"nsaudit: start-up N ms: ...\")" },
	OPTAB_END,
};

/* --pid: one more process to follow, as the kernel numbers it */
static int set_pid(struct tracer_opts *o, const char *v, char *err, size_t errlen)
{
	long n;

	if (parse_long(v, 1, 0x3fffffff, &n)) {
		snprintf(err, errlen, "--pid '%.32s': not a process id", v);
		return -1;
	}
	/* the kernel's pids are the initial pid namespace's */
	if (!tracer_kernel_pid()) {
		snprintf(err, errlen, "--pid %ld: nsaudit runs in a pid namespace of its "
			 "own, whose pids are not those the kernel reports; run it in "
			 "the host's (docker: --pid=host)", n);
		return -1;
	}
	/* a pid that is not there now can only be another process later */
	if (kill((pid_t)n, 0) && errno == ESRCH) {
		snprintf(err, errlen, "--pid %ld: no such process", n);
		return -1;
	}
	if (o->filter.n_pid >= AUDIT_FILTER_ANY_MAX) {
		snprintf(err, errlen, "--pid: at most %d of them", AUDIT_FILTER_ANY_MAX);
		return -1;
	}
	o->filter.pid[o->filter.n_pid++] = n;
	/* one: filtered in the kernel too; more: in user space only */
	o->pid = o->filter.n_pid == 1 ? (uint32_t)n : 0;
	return 0;
}

int tracer_set_opt(struct tracer_opts *o, const char *name, const char *v, char *err,
		   size_t errlen)
{
	long n;

	if (!strcmp(name, "verbose")) {
		o->verbose = true;
	} else if (!strcmp(name, "no-coalesce")) {
		o->no_coalesce = true;
	} else if (!strcmp(name, "no-rules")) {
		o->no_rules = true;
	} else if (!strcmp(name, "rules")) {
		o->rules_file = v;
	} else if (!strcmp(name, "pid")) {
		if (set_pid(o, v, err, errlen))
			return -1;
	} else if (!strcmp(name, "uid")) {
		if (parse_long(v, 0, UINT32_MAX - 1, &n)) {
			snprintf(err, errlen, "--uid '%.32s': not a user id", v);
			return -1;
		}
		if (o->filter.n_uid >= AUDIT_FILTER_ANY_MAX) {
			snprintf(err, errlen, "--uid: at most %d of them", AUDIT_FILTER_ANY_MAX);
			return -1;
		}
		o->filter.uid[o->filter.n_uid++] = n;
	} else if (!strcmp(name, "comm")) {
		if (!*v || strlen(v) >= NSAUDIT_COMM_LEN) {
			snprintf(err, errlen, "--comm: a command name is 1 to %d bytes",
				 NSAUDIT_COMM_LEN - 1);
			return -1;
		}
		if (o->filter.n_comm >= AUDIT_FILTER_ANY_MAX) {
			snprintf(err, errlen, "--comm: at most %d of them", AUDIT_FILTER_ANY_MAX);
			return -1;
		}
		o->filter.comm[o->filter.n_comm++] = v;
	} else if (!strcmp(name, "type")) {
		if (parse_nstype_list(v, &o->type_mask, err, errlen))
			return -1;
	} else if (!strcmp(name, "op")) {
		if (parse_op_list(v, &o->op_mask, err, errlen))
			return -1;
	} else if (!strcmp(name, "ring-size")) {
		uint64_t size;

		if (parse_size(v, &size) || size < 4096 || size > (1u << 30) ||
		    (size & (size - 1))) {
			snprintf(err, errlen, "--ring-size '%.32s': need a power of two "
				 "from 4096 to 1G", v);
			return -1;
		}
		o->ring_size = size;
	} else if (!strcmp(name, "container")) {
		const char *s;

		for (s = v; *s && (unsigned char)*s > ' ' && *s != 0x7f; s++)
			;
		if (!*v || *s || strlen(v) >= sizeof(o->container)) {
			snprintf(err, errlen, "--container: a container id or name is 1 to %zu "
				 "printable bytes without spaces", sizeof(o->container) - 1);
			return -1;
		}
		strcpy(o->container, v);
	} else if (!strcmp(name, "log-budget")) {
		if (parse_long(v, 0, 1000000, &n) || (n && n < 16)) {
			snprintf(err, errlen, "--log-budget '%.32s': records per second, 16 to "
				 "1000000, or 0 for none", v);
			return -1;
		}
		o->log_budget = (uint32_t)n;
	} else if (!strcmp(name, "hearing-interval")) {
		if (parse_long(v, 0, 86400, &n)) {
			snprintf(err, errlen, "--hearing-interval '%.32s': seconds, 0 to 86400", v);
			return -1;
		}
		o->hearing_ns = n * NSEC_PER_SEC;
	} else if (!strcmp(name, "runtime-root")) {
		if (runtime_root_set(v, err, errlen))
			return -1;
	} else {
		return 0;
	}
	return 1;
}

int tracer_rules_open(struct tracer_opts *o, char *err, size_t errlen)
{
	if (o->no_rules && o->rules_file) {
		snprintf(err, errlen, "--rules and --no-rules together: which one?");
		return -1;
	}
	if (o->no_rules)
		return 0;
	o->rules = rules_new();
	if (!o->rules) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->rules_file && rules_load_file(o->rules, o->rules_file, err, errlen)) {
		rules_free(o->rules);
		o->rules = NULL;
		return -1;
	}
	return 0;
}

int tracer_parse_opt(struct tracer_opts *o, int argc, char **argv, int *used, char *err,
		     size_t errlen)
{
	const struct optab *opt;
	const char *a = argv[0];

	for (opt = tracer_optab; opt->name; opt++)
		if ((a[0] == '-' && a[1] == opt->val && !a[2]) ||
		    (!strncmp(a, "--", 2) && !strcmp(a + 2, opt->name)))
			break;
	if (!opt->name)
		return 0;
	*used = opt->arg ? 2 : 1;
	if (opt->arg && argc < 2) {
		snprintf(err, errlen, "%s needs a value", a);
		return -1;
	}
	return tracer_set_opt(o, opt->name, opt->arg ? argv[1] : NULL, err, errlen);
}
