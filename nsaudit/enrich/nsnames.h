/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * nsnames.h - the names people use for namespaces, resolved in user space.
 *
 * For (type, inode) the name is, in this order:
 *   1. NAME      for a network namespace bind-mounted at /run/netns/NAME
 *                (what "ip netns" shows);
 *   2. PATH      the mount point of any other nsfs bind mount of it, in any
 *                mount namespace (/proc/self/mountinfo and one task's
 *                mountinfo per mount namespace);
 *   3. host      for the initial namespaces (the inode of /proc/1/ns/TYPE);
 *   4. container:ID for a namespace of a container: from the runtimes' own
 *                state (runc, crun, podman: containers.h), else from the
 *                cgroup path of a process in it (docker, containerd, CRI-O,
 *                podman, kubernetes, LXC).
 * (host comes before container: a container run with --net=host shares
 * the host's namespace, it does not own it.)
 *
 * Mount names are kept in an in-memory table updated from mount and umount
 * records, from inotify on /run/netns and by re-reading mountinfo when it
 * may have changed; a removed name ("ip netns del") disappears at once.
 * Container names are cached by inode, revalidated, and on a miss found by
 * a scan of /proc that runs at most every 250 ms (with back-off per unnamed
 * namespace), so the record path stays cheap.
 */
#ifndef NSAUDIT_NSNAMES_H
#define NSAUDIT_NSNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "containers.h"
#include "nsaudit.h"

struct nsnames;

struct nsnames *nsnames_new(void);
void nsnames_free(struct nsnames *n);

/*
 * The names for one (completed, see enrich_complete) record: *name for
 * ns_inum, *old for old_inum; NULL where there is none. The strings stay
 * valid until the next call. Mount and umount records also update the
 * mount table (a umount record still carries the name it removes).
 * cgroup: the actor's cgroup path at the call (enrich_cgroup), or NULL: a
 * namespace the actor made by unshare is its container's.
 */
void nsnames_for_event(struct nsnames *n, const struct nsaudit_event *e, const char *cgroup,
		       const char **name, const char **old);

/* The name of (type, inum), or NULL. hint_pid: a process probably in it
 * (0 if none), checked first. The string stays valid until the next call. */
const char *nsnames_lookup(struct nsnames *n, int type, uint32_t inum, uint32_t hint_pid);

/*
 * The container the last nsnames_for_event() record is about: the one its
 * namespace belongs to (from the runtimes' state, see containers.h), else
 * the one whose namespace it left, else the one a runtime process making
 * it was creating or entering. NULL for none. Valid until the next call.
 */
const struct container_info *nsnames_container(struct nsnames *n);
/* The runtimes' state it reads (NULL if none could be set up). */
struct containers *nsnames_containers(struct nsnames *n);
/* (type, inum) is one of the host's namespaces (the initial ones, or the
 * ones of this process, which runs on the host). */
bool nsnames_is_host(struct nsnames *n, int type, uint32_t inum);
/*
 * The container the name cache holds for (type, inum) of ns_id nsid: the
 * one whose cgroup its maker was in at the unshare, or whose process was
 * found in it. A name of another kind (a bind mount's path) can name the
 * same namespace first; this still says whose it is. NULL if none, or if
 * the entry is of another namespace that had the inode (nsid differs, or
 * was never checked where the kernel has ids). Valid until the next call.
 */
const char *nsnames_cached_container(struct nsnames *n, int type, uint32_t inum, uint64_t nsid);
/* A container known now by id, 12+ character id prefix or podman name. */
const struct container_info *nsnames_find_container(struct nsnames *n, const char *what);

/* The container that owns (type, inum; id: ns_id, 0 if none) by the
 * runtimes' state (its init runs in it); NULL for the host's and for none.
 * For the rules' facts. */
const struct container_info *nsnames_owner(struct nsnames *n, int type, uint32_t inum,
					   uint64_t id);

/* Re-read the runtimes' state now (a container that just started). */
void nsnames_refresh_containers(struct nsnames *n);

/* --- the parts, exposed for unit tests ---------------------------------- */

/*
 * The container id in a cgroup path: the innermost component that is
 * docker-ID.scope, libpod-ID.scope, cri-containerd-ID.scope, crio-ID.scope
 * (conmon scopes are not containers), a bare 64-hex id (/docker/ID,
 * /kubepods/.../podUID/ID, /libpod_parent/libpod-ID) or lxc.payload.NAME.
 * Returns true and copies the id.
 */
bool cgroup_container_id(const char *cgpath, char *id, size_t len);
/*
 * The line of a /proc/PID/cgroup file that says most: v2's ("0::/path")
 * when it names a container, else the first v1 controller's that does,
 * else v2's. Its path into path (len bytes); false when there is none.
 */
bool cgroup_file_best_path(FILE *f, char *path, size_t len);
/* The container id of that line (v2 line first, then v1). */
bool cgroup_file_container_id(FILE *f, char *id, size_t len);

/* "/run/netns/blue" -> "blue"; NULL for anything else. */
const char *netns_name_from_path(const char *path);

/* "net:[4026531840]" (readlink of /proc/PID/ns/net) -> type and inode. */
bool ns_link_parse(const char *link, int *type, uint32_t *inum);

/* Add the nsfs mounts of one mountinfo text to the table; the number added. */
int nsnames_add_mountinfo(struct nsnames *n, FILE *f);
/* Add or remove one mount in the table. */
void nsnames_add_mount(struct nsnames *n, const char *path, int type, uint32_t inum);
void nsnames_remove_mount(struct nsnames *n, const char *path);
/* The name the mount table alone gives (steps 1 and 2), or NULL. */
const char *nsnames_mount_name(struct nsnames *n, int type, uint32_t inum);

#endif
