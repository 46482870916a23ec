// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* kfeatures.c - learn by trying which BPF attach types this kernel allows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kfeatures.h"
#include "probe.skel.h"
#include "array.h"

#define TRACEFS_MAGIC 0x74726163
#define BPF_FS_MAGIC 0xcafe4a11

static const char *const names[FEAT_MAX] = {
	[FEAT_TRACEPOINT] = "tracepoint",
	[FEAT_RAW_TP] = "raw_tp",
	[FEAT_TP_BTF] = "tp_btf",
	[FEAT_FENTRY] = "fentry/fexit",
	[FEAT_LSM] = "lsm",
	[FEAT_ITER_TASK] = "iter/task",
	[FEAT_ITER_TASK_FILE] = "iter/task_file",
	[FEAT_RINGBUF] = "ringbuf",
	[FEAT_KPROBE] = "kprobe",
	[FEAT_BTF] = "vmlinux BTF",
	[FEAT_SYS_NSFD] = "nsfd() (patched)",
	[FEAT_NS_CHANGE] = "namespace:ns_change (patched)",
	[FEAT_NS_TRACEPOINTS] = "namespace:* tracepoints (patched)",
};

long nsfd_syscall_nr(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/nsfd_syscall_nr", "re");
	long nr = -1;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			nr = strtol(buf, NULL, 10);
		fclose(f);
	}
	return nr > 0 ? nr : -1;
}

const char *feature_name(enum feature f)
{
	return names[f];
}

static bool fs_is(const char *path, unsigned long magic)
{
	struct statfs s;

	return !statfs(path, &s) && (unsigned long)s.f_type == magic;
}

int ensure_pseudo_fs(void)
{
	if (!fs_is("/sys/kernel/tracing", TRACEFS_MAGIC) &&
	    mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return -errno;
	if (!fs_is("/sys/fs/bpf", BPF_FS_MAGIC) && mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
		return -errno;
	return 0;
}

/* Load exactly one program of probe.bpf.c; 0 or -errno. */
static int try_prog(const char *name, char *why, size_t len)
{
	struct probe_bpf *skel = probe_bpf__open();
	struct bpf_program *p;
	int err;

	if (!skel) {
		snprintf(why, len, "open: %s", strerror(errno));
		return -errno;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	err = probe_bpf__load(skel);
	if (err)
		snprintf(why, len, "load: %s", strerror(-err));
	probe_bpf__destroy(skel);
	return err;
}

static int silent(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	return 0;
}

bool kernel_at_least(unsigned int major, unsigned int minor)
{
	unsigned int maj = 0, min = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return false;
	return maj > major || (maj == major && min >= minor);
}

bool tracepoint_exists(const char *category, const char *event)
{
	char path[192];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s%s%s", category,
		 event ? "/" : "", event ? event : "");
	return !access(path, F_OK);
}

void features_probe(struct features *ft, bool quick)
{
	static const struct {
		enum feature f;
		const char *prog;
	} progs[] = {
		{ FEAT_TRACEPOINT, "probe_tracepoint" },
		{ FEAT_RAW_TP, "probe_raw_tp" },
		{ FEAT_TP_BTF, "probe_tp_btf" },
		{ FEAT_FENTRY, "probe_fentry" },
		{ FEAT_LSM, "probe_lsm" },
		{ FEAT_ITER_TASK, "probe_iter_task" },
		{ FEAT_ITER_TASK_FILE, "probe_iter_task_file" },
	};
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct btf *btf;
	size_t i;

	memset(ft, 0, sizeof(*ft));
	ensure_pseudo_fs();
	/*
	 * The kernel-patch series (v3) says that it is there, and nsfd()'s
	 * number, in a read-only sysctl: no debug option needed and nothing
	 * called (the number is not one mainline assigned).
	 */
	ft->have[FEAT_SYS_NSFD] = nsfd_syscall_nr() > 0;
	if (!ft->have[FEAT_SYS_NSFD])
		snprintf(ft->why[FEAT_SYS_NSFD], sizeof(ft->why[0]),
			 "no /proc/sys/kernel/nsfd_syscall_nr");
	ft->have[FEAT_NS_TRACEPOINTS] = tracepoint_exists("namespace", NULL);
	/* parsing vmlinux BTF costs ~100 ms of the tracer's start: when the
	 * patch's tracepoints are absent, this is not the patched kernel */
	if (quick && !ft->have[FEAT_NS_TRACEPOINTS]) {
		libbpf_set_print(old);
		return;
	}
	btf = btf__load_vmlinux_btf();
	ft->have[FEAT_BTF] = btf != NULL;
	if (btf) {
		/* the series' event for every namespace change (tp_btf) */
		ft->have[FEAT_NS_CHANGE] =
			btf__find_by_name_kind(btf, "btf_trace_ns_change", BTF_KIND_TYPEDEF) > 0;
		if (!ft->have[FEAT_NS_CHANGE])
			snprintf(ft->why[FEAT_NS_CHANGE], sizeof(ft->why[0]),
				 "no btf_trace_ns_change in vmlinux BTF");
		btf__free(btf);
	} else {
		snprintf(ft->why[FEAT_BTF], sizeof(ft->why[0]), "/sys/kernel/btf/vmlinux: %s",
			 strerror(errno));
	}
	ft->have[FEAT_KPROBE] = !access("/sys/bus/event_source/devices/kprobe", F_OK) ||
				!access("/sys/kernel/tracing/kprobe_events", F_OK);
	ft->have[FEAT_RINGBUF] = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) == 1;
	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		/* quick: the tracer only has to know whether fentry works, and
		 * only on a kernel that has the patched functions to hook */
		if (quick && !(progs[i].f == FEAT_FENTRY && ft->have[FEAT_SYS_NSFD]))
			continue;
		ft->have[progs[i].f] =
			!try_prog(progs[i].prog, ft->why[progs[i].f], sizeof(ft->why[0]));
	}
	libbpf_set_print(old);
}
