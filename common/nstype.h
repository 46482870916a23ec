/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * nstype.h - names of namespace types and operations, and the parsers for
 * the user-facing spellings of namespaces ("net", "net:4026531833",
 * "net:[4026531833]", "1234:net", "/run/netns/blue").
 */
#ifndef NSAUDIT_NSTYPE_H
#define NSAUDIT_NSTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nsaudit.h"

/* "net", "uts", ... ; NULL for out-of-range. */
const char *nstype_name(unsigned int type);
/*
 * Lost in user space, after the kernel handed the record over: a sink
 * (syslog, audit) dropped it; the record's "cause" says which and why.
 * Kept apart from enum nsaudit_lost_reason (the kernel's) so that enum
 * stays append-only for the BPF side.
 */
#define NSAUDIT_LOST_SINK 100
/*
 * Runs of a BPF program the kernel skipped because another program was
 * already running on that CPU (bpf_prog_info.recursion_misses): the calls
 * it would have recorded were not seen at all. The cause names the program.
 */
#define NSAUDIT_LOST_RECURSION 101
/* enum nsaudit_lost_reason: "ring_full", "reserve_ring_full", "task_storage",
 * "actor_budget"; NSAUDIT_LOST_SINK: "sink"; NSAUDIT_LOST_RECURSION: "recursion".
 * NSAUDIT_LOST_LOG_BUDGET (the kernel's enum, counted by user space):
 * "log_budget". */
const char *lost_reason_name(unsigned int reason);
/* enum nsaudit_ns_type for a name, or -1. */
int nstype_from_name(const char *name);
/* CLONE_NEW* flag of a type, and back (-1 unless exactly one known bit). */
unsigned long nstype_clone_flag(unsigned int type);
int nstype_from_clone_flag(unsigned long flag);
/* Name used under /proc/PID/ns/ to read the namespace a task would give
 * its children: pid and time use "pid_for_children"/"time_for_children". */
const char *nstype_proc_name(unsigned int type, bool for_children);

/* A namespace as lsns and readlink(/proc/PID/ns/TYPE) show it:
 * "net:[4026531840]"; "ns:[4026531840]" when the type is not known (-1). */
void nstype_label(char *buf, size_t len, int type, uint32_t inum);

/* "setns", "unshare", ...; NULL for out-of-range. */
const char *op_name(unsigned int op);
int op_from_name(const char *name);
const char *probe_name(unsigned int probe);
const char *via_name(unsigned int via);

/*
 * Parse a comma-separated list of names ("net,uts") into a bitmask of
 * 1 << type (or 1 << op with parse_op_list). Returns 0, or -1 with a
 * message naming the bad element in err.
 */
int parse_nstype_list(const char *list, uint32_t *mask, char *err, size_t errlen);
int parse_op_list(const char *list, uint32_t *mask, char *err, size_t errlen);

/* A namespace named by the user. */
struct nsspec {
	int type;		/* enum nsaudit_ns_type, or -1 if not known */
	uint32_t inum;		/* inode number, as readlink/lsns print it */
	uint64_t dev;		/* st_dev of the nsfs file, 0 if not known */
	uint64_t id;		/* ns_id (NS_GET_ID, Linux 6.18), 0 if not known */
	int pid;		/* for "PID:TYPE", else 0 */
	char path[4096];	/* for a path spec, else "" */
};

/*
 * Parse TYPE:INODE, TYPE:[INODE], PID:TYPE or a path to an nsfs file
 * (/proc/PID/ns/TYPE, /run/netns/NAME, a bind mount, an ip netns NAME when
 * allow_netns_name). Paths and PID:TYPE are resolved now (stat + NS_GET_NSTYPE).
 * Returns 0, or -1 with one line in err saying what and why.
 */
int nsspec_parse(const char *spec, bool allow_netns_name, struct nsspec *out, char *err,
		 size_t errlen);

/*
 * After nsspec_parse() failed: true when spec named a path or an ip netns
 * name that does not exist (any more), with the path to look up in a log
 * (/run/netns/NAME for a name); false for every other error.
 */
bool nsspec_gone_path(const char *spec, char *path, size_t len);

/* A byte count: "4096", "64K", "64M", "1G" (binary units); 0 or -1. */
int parse_size(const char *s, uint64_t *out);

/* Strict decimal parse of a whole string into [min, max]; 0 or -1. */
int parse_long(const char *s, long min, long max, long *out);

#endif
