/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * enrich.h - what user space adds to kernel records: wall-clock time,
 * executable, cgroup path, the namespace behind a bind mount, the pid an
 * open of /proc/PID/ns/TYPE was about. Everything is cached: the consumer
 * of the ring buffer is a hot path.
 */
#ifndef NSAUDIT_ENRICH_H
#define NSAUDIT_ENRICH_H

#include <stdbool.h>
#include <stdint.h>

#include "nsaudit.h"
#include "pins.h"

struct enrich;

struct enrich *enrich_new(void);
void enrich_free(struct enrich *en);

/* Re-read the offset between CLOCK_BOOTTIME and CLOCK_REALTIME. */
void enrich_sync_clock(struct enrich *en);
int64_t enrich_realtime(const struct enrich *en, uint64_t boot_ns);

/* Remember a process seen by the startup snapshot (or an event). */
void enrich_note_task(struct enrich *en, const struct nsaudit_task_snap *s);
/* Read every mount namespace's nsfs mounts (one task per mount ns). */
void enrich_scan_mounts(struct enrich *en);

/*
 * The BPF side's exe_paths map (executables by identity, learned at exec);
 * owned: close it with the rest.
 */
void enrich_set_exe_map(struct enrich *en, int fd, bool owned);
/*
 * The startup snapshot's iter/task link (not owned): a refused open's
 * target whose /proc we may not read is looked up in the kernel's view.
 */
void enrich_set_task_iter(struct enrich *en, int link_fd);

/*
 * The executable of a record's actor, from its exec (exe_key): the path
 * that exec ran (exe_paths), else /proc/PID/exe if it is still that file
 * (exe_ino). NULL if unknown. *mntns, *mntns_id: the mount namespace the
 * path is relative to (0: unknown). *cut: the path was longer than the
 * kernel side's record of the exec holds and the process no longer runs
 * that file: what is returned is its first bytes only.
 */
const char *enrich_exe(struct enrich *en, const struct nsaudit_event *e, uint32_t *mntns,
		       uint64_t *mntns_id, bool *cut);
/* The cgroup path of a live process; NULL if unknown. */
const char *enrich_cgroup(struct enrich *en, uint32_t pid, const char *comm, uint64_t id);
/*
 * The runtime's container a cgroup (by the kernel's id, at the call) is
 * in, as a key: a hash of the container id its path names (docker,
 * containerd, podman, crio ...), 0 if none or unknown. Cached per cgroup
 * id: the log budget asks it for every record.
 */
uint64_t enrich_container_key(struct enrich *en, uint64_t cgroup_id);

/*
 * Complete a record in place. Returns false when the record is not about a
 * namespace after all and is no record (a bind mount of an ordinary file,
 * a remount of a bind mount, the umount of something that was not an nsfs
 * pin). A record that is kept but could not be completed (the actor and
 * its mount namespace gone, a mount no longer there) has a reason in
 * enrich_unresolved() until the next call: it is written with what is
 * known, never dropped.
 */
bool enrich_complete(struct enrich *en, struct nsaudit_event *e);
/*
 * Why the record enrich_complete() last completed is incomplete, with what
 * exe and cgroup found for it (an actor gone before it could be asked), or
 * NULL when nothing is missing.
 */
const char *enrich_unresolved(struct enrich *en, const struct nsaudit_event *e, const char *exe,
			      const char *cgroup);

/*
 * Mount namespaces that hold pins: any that died (no task in it, no bind
 * mount of it) takes its pins along. Checked at most once a second.
 */
void enrich_check_mntns(struct enrich *en);
/*
 * The next pin that went with its mount namespace, as an umount record
 * made by user space (probe user) and that namespace in *mntns; false
 * when there is none.
 */
bool enrich_dead_pin(struct enrich *en, struct nsaudit_event *e, uint32_t *mntns);
/*
 * A pin the kernel side saw leave its mount namespace with no umount call
 * of its own (bpf/nsaudit/pins.bpf.h sweep_pins): its umount record (probe user,
 * NSAUDIT_F_PIN_VANISHED), and whether that mount namespace died (*ns_died):
 * the kernel side's word (ns_state, NSAUDIT_PIN_NS_*) where it looked, else
 * whether a process or a pin is left in it. Also when user space's table
 * lacks it (its mount record was lost): then without a path, unresolved
 * saying why (enrich_unresolved). Returns true.
 */
bool enrich_pin_left(struct enrich *en, const struct nsaudit_pin *pin, uint32_t ns_state,
		     struct nsaudit_event *e, bool *ns_died);

/* "/proc/123/ns/net", "/proc/self/task/5/ns/uts", ... -> 123 (self: pid). */
int proc_ns_path_pid(const char *path, uint32_t self_pid);

/* "/proc/1/ns/pid_for_children" -> pid, *for_children; -1 if not such a path. */
int proc_ns_path_type(const char *path, bool *for_children);
/*
 * Where "ns/" starts in a path that names a namespace file through any
 * procfs mount (.../PID/ns/TYPE, .../PID/task/TID/ns/TYPE, .../self/...,
 * or "ns/TYPE" itself), its type, and the pid before it (0: none in the
 * path, -1: self or thread-self). NULL if the path names no namespace file.
 */
const char *ns_path_part(const char *path, int *type, bool *children, long *pid);

#endif
