/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders_lib.h - the pieces of "nsaudit holders": the BPF scan of tasks and
 * files (holders_scan.c), the mount tables (holders_mounts.c), and the
 * command that joins them (holders_model.c).
 */
#ifndef NSAUDIT_HOLDERS_LIB_H
#define NSAUDIT_HOLDERS_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "holders.h" /* bpf/holders.h: the records */

/* Everything the two iterators wrote, plus the creds map. */
struct holders_scan {
	struct holders_task *tasks;
	size_t ntasks;
	struct holders_file *files;
	size_t nfiles;
	struct scan_cred {
		uint64_t addr;
		uint32_t user_inum;
	} * creds;
	size_t ncreds;
	struct holders_nsfs_mount *mounts; /* every nsfs mount the walk met */
	size_t nmounts;
	struct holders_mnt_walk *walks; /* every mount namespace it met */
	size_t nwalks;
};

/* Run both iterators. Returns 0, or -1 with a reason in err. */
int holders_scan_run(struct holders_scan *scan, char *err, size_t errlen);
void holders_scan_free(struct holders_scan *scan);

/* One nsfs mount: a bind mount of a namespace file. */
struct holders_mount {
	uint32_t mnt_ns; /* the mount namespace it is in */
	uint32_t mount_id;
	int type;	 /* enum nsaudit_ns_type of the namespace mounted */
	uint32_t inum;	 /* and its inode */
	struct holders_ns k; /* the namespace mounted, as the walk read it */
	uint64_t mnt_id_unique, sm_ns_id; /* for statmount(2); 0: not known */
	pid_t via_pid;	 /* a task in mnt_ns whose mountinfo gave path; 0 if none */
	bool taskless;	 /* no task is in mnt_ns */
	char path[4096]; /* mount point, as seen inside mnt_ns; "" if not read */
};

/* mountinfo lines are parsed by mountinfo.h */

struct holders_mounts {
	struct holders_mount *v;
	size_t n, cap;
	/* Mount namespaces whose table could not be read, and why. */
	struct unread_mntns {
		uint32_t inum;
		char why[128];
	} * unread;
	size_t nunread, capunread;
};

/*
 * The nsfs mounts the scan's walk found (scan->mounts), with their paths:
 * from /proc/PID/mountinfo of one task in each mount namespace (refs: the
 * tasks' mount namespaces, inum and one pid each), or from statmount(2)
 * (6.8+) for a mount namespace no task is in. Nothing is opened, entered
 * or held: a concurrent umount of any of them succeeds. Returns 0 or -1
 * (out of memory).
 */
struct mntns_ref {
	uint32_t inum;
	pid_t pid; /* a task in it */
};
int holders_mounts_read(const struct holders_scan *scan, const struct mntns_ref *refs,
			size_t nrefs, struct holders_mounts *m);
void holders_mounts_free(struct holders_mounts *m);

/*
 * What "nsaudit holders TYPE:INUM" finds, for other commands (lifetime):
 * scans now; type -1 matches any type. Returns 1 when the namespace exists:
 * its holders are printed to stdout in holders' text form, each line
 * prefixed by indent, or, when json is not NULL, *json is set to holders'
 * JSON object for it (the caller puts it); *ns_id is its 6.18 id (0 when
 * not known). 0: no such namespace now. -1: the scan failed (err says why).
 */
struct json_object;
int holders_now(int type, uint32_t inum, const char *indent, struct json_object **json,
		uint64_t *ns_id, char *err, size_t errlen);

#endif
