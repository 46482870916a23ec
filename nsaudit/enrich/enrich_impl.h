/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * enrich_impl.h - the enrichment cache, shared by its parts: enrich.c
 * (processes: executables, cgroups), enrich_mntns.c (mount namespaces:
 * alive or dead) and enrich_pins.c (completing mount, umount and
 * refused-open records). Not an API: enrich.h is.
 */
#ifndef NSAUDIT_ENRICH_IMPL_H
#define NSAUDIT_ENRICH_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "enrich.h"
#include "mounttab.h"

#define PROC_SLOTS 4096		/* direct-mapped by pid; a miss costs a readlink */

#define MAX_MNTNS 1024

#define MS_REMOUNT 32

#define MNTNS_CHECK_NS 1000000000LL	/* mount namespaces with pins: alive? */

#define UNRESOLVED_LEN 512

struct proc_info {
	uint32_t pid;
	char comm[NSAUDIT_COMM_LEN];
	char *exe;
	uint64_t exe_key;	/* the exec exe names (0: unchecked) */
	uint64_t exe_ino;
	uint32_t exe_mntns;	/* the mount namespace exe is relative to */
	uint64_t exe_mntns_id;
	char *cgroup;
	uint64_t cgroup_id;	/* the id cgroup was found for */
	bool exe_done, cgroup_done;
	bool exe_cut;		/* exe is the first bytes of a longer path */
};

/* A mount namespace and a task that was in it (to read its mountinfo). */
struct mntns_task {
	uint32_t inum;
	uint32_t pid, tid;
};

/* An nsfs pin that went with its mount namespace, to be reported. */
struct dead_pin {
	uint32_t mntns;
	char *path;
	int type;
	uint32_t inum;
};

struct cgroup_name {
	uint64_t id;
	char *path;
};

/* A task's namespaces as the kernel has them (iter/task). */
struct task_ns {
	uint32_t pid;
	uint32_t inum[NSAUDIT_NS_MAX];
};

#define CTR_KEY_SLOTS 1024	/* power of two */

struct enrich {
	int64_t boot_to_real_ns;
	struct cgroup_name *cgroups;	/* cgroup id (= inode) -> path, hashed */
	size_t ncgroups;
	int64_t cgroups_scanned_ns;
	/* cgroup id -> the runtime's container in it (enrich_container_key) */
	struct { uint64_t cgroup_id, key; } ctr_keys[CTR_KEY_SLOTS];
	int cgroup2_fd;			/* the cgroup2 hierarchy's root, -1: none */
	char *cgroup2_root;		/* where it is mounted (our mount ns) */
	struct proc_info procs[PROC_SLOTS];
	struct mounttab pins;		/* nsfs bind mounts by (mount ns, path) */
	uint32_t self_mntns;
	struct mntns_task mntns[MAX_MNTNS];
	int nmntns;
	int64_t mntns_checked_ns;
	struct dead_pin *dead;		/* pins of mount namespaces that died */
	size_t ndead, capdead;
	char unresolved[UNRESOLVED_LEN]; /* of the last completed record, "" if none */
	int exe_map_fd;		/* the BPF side's exe_paths, -1 if none */
	int task_iter_fd;	/* the iter/task link of the snapshot, -1 if none */
	struct task_ns *tasks;	/* its last run (enrich_denied.c) */
	size_t ntasks, captasks;
	int64_t tasks_at_ns;
	bool own_exe_map;
};

/* enrich_denied.c: a refused open of PID/ns/TYPE through any procfs; false
 * if the path names no namespace file (not ours: no record). */
bool enrich_complete_denied(struct enrich *en, struct nsaudit_event *e);

/* enrich_cgroup.c */

/* The proc cache's slot for pid (cleared when it names another process). */
struct proc_info *proc_slot(struct enrich *en, uint32_t pid, const char *comm);
void enrich_cgroups_free(struct enrich *en);

/* enrich_mntns.c */

/* The mount namespace of a task (0, 0: ourselves); 0 if it is gone. */
uint32_t task_mntns(uint32_t pid, uint32_t tid);

/* Remember a task in mount namespace inum (the newest one wins). */
void note_mntns(struct enrich *en, uint32_t inum, uint32_t pid, uint32_t tid);

/* The mountinfo of mount namespace mntns, through a task known to be in it. */
bool mntns_mountinfo(struct enrich *en, uint32_t mntns, char *file, size_t len);

/* A new mount namespace starts with a copy of its parent's pins. */
void new_mntns(struct enrich *en, const struct nsaudit_event *e);

/* Any process in mount namespace inum (one is remembered for it then)? */
bool mntns_alive(struct enrich *en, uint32_t inum);

#endif
