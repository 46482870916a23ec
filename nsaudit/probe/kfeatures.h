/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * kfeatures.h - what the running kernel lets nsaudit hook, found by trying.
 */
#ifndef NSAUDIT_KFEATURES_H
#define NSAUDIT_KFEATURES_H

#include <stdbool.h>

enum feature {
	FEAT_TRACEPOINT,	/* tracepoint/syscalls/... */
	FEAT_RAW_TP,
	FEAT_TP_BTF,
	FEAT_FENTRY,		/* also fexit */
	FEAT_LSM,
	FEAT_ITER_TASK,
	FEAT_ITER_TASK_FILE,
	FEAT_RINGBUF,
	FEAT_KPROBE,		/* a kprobe PMU or kprobe_events */
	FEAT_BTF,		/* /sys/kernel/btf/vmlinux */
	FEAT_SYS_NSFD,		/* patched kernel: /proc/sys/kernel/nsfd_syscall_nr */
	FEAT_NS_CHANGE,		/* patched kernel: namespace:ns_change in BTF */
	FEAT_NS_TRACEPOINTS,	/* patched kernel: events/namespace/ */
	FEAT_MAX,
};

struct features {
	bool have[FEAT_MAX];
	char why[FEAT_MAX][96];	/* for a missing one: the error seen */
};

const char *feature_name(enum feature f);
/* nsfd()'s number from the kernel-patch series' sysctl, -1 without the series */
long nsfd_syscall_nr(void);
/* Probe everything (or, when quick, only what the tracer needs to choose). */
void features_probe(struct features *ft, bool quick);
/* Whether tracefs has events/CATEGORY/EVENT (EVENT NULL: the category):
 * syscalls differ by kernel and architecture (arm64 has no open). */
bool tracepoint_exists(const char *category, const char *event);
/* Whether the running kernel is MAJOR.MINOR or later (uname's release). */
bool kernel_at_least(unsigned int major, unsigned int minor);
/* Mount tracefs/bpffs if they are missing; 0 or -errno. */
int ensure_pseudo_fs(void);

#endif
