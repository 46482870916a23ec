/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * containers.h - which container a namespace or an actor belongs to, from
 * the container runtimes' own state, not from guesses about cgroup paths:
 *
 *   /run/runc/ID/state.json   runc (also podman's and containerd's runc):
 *                             "id", "init_process_pid"
 *   /run/crun/ID/status       crun (podman's default runtime): "pid"
 *   /var/lib/containers/storage/overlay-containers/containers.json
 *                             podman's (containers/storage) id -> names
 *
 * A runtime's directory for ID exists before its namespaces do (runc
 * makes it first, writes state.json once the container is created), so a
 * namespace that is being made (unshare, clone) or entered (setns) by a
 * runtime is named from the actor: a runtime process (runc, crun, conmon,
 * podman, runc's init stages) whose command line, or whose parent's,
 * names a known container id or podman name. Once the container runs, its
 * init process's namespaces name it.
 *
 * Everything is cached and re-read at most every 250 ms, only when asked
 * about something unknown; with no runtime state on the machine a lookup
 * costs nothing.
 */
#ifndef NSAUDIT_CONTAINERS_H
#define NSAUDIT_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nsaudit.h"

#define CONTAINER_ID_LEN   80
#define CONTAINER_NAME_LEN 128

struct container_info {
	char id[CONTAINER_ID_LEN];     /* the runtime's container id */
	char name[CONTAINER_NAME_LEN]; /* podman's, docker's, nerdctl's or CRI's name, "" if none */
	char runtime[16];	       /* "runc", "crun", "docker", "containerd" */
	char pod[128];		       /* kubernetes pod name, namespace ("" if none) */
	char pod_ns[64];
	uint32_t pid;		       /* init process, 0 while being created */
	/*
	 * Its namespaces, as its init process had them when first seen (the
	 * container's own: an init that later joins another container's or
	 * the host's namespaces does not make those its container's). inum:
	 * 0 unknown; id: ns_id (6.18+), 0 where the kernel has none.
	 */
	uint32_t inum[NSAUDIT_NS_MAX];
	uint64_t nsid[NSAUDIT_NS_MAX];
};

struct containers;

/* root: prefix for the runtimes' default roots (tests); NULL for "/".
 * Roots given with --runtime-root (runtime_state.h) are used as they are. */
struct containers *containers_new(const char *root);
void containers_free(struct containers *c);

/* Re-read the runtimes' state (at most every 250 ms unless force). */
void containers_refresh(struct containers *c, bool force);

/*
 * The container whose namespace (type, inum, id) is: by ns_id where both
 * sides have one, else by inode (checked against its init process: inodes
 * are reused). NULL if none.
 */
const struct container_info *containers_by_ns(struct containers *c, int type, uint32_t inum,
					      uint64_t id);

/* The identity of /proc/PID/ns/TYPE (pid 0: ourselves): inode and ns_id
 * (0 without one). false if it cannot be read. */
bool ns_ident_of(uint32_t pid, int type, uint32_t *inum, uint64_t *id);

/*
 * The container a runtime process is creating or entering: pid (with its
 * command name comm) or its parent ppid is a runtime whose command line
 * names a known container. NULL otherwise.
 */
const struct container_info *containers_by_actor(struct containers *c, uint32_t pid,
						 const char *comm, uint32_t ppid);

/* A container by id, unique id prefix (12+ characters) or podman name. */
const struct container_info *containers_find(struct containers *c, const char *what);

/* Docker's name of container id from its data root (there before runc's
 * state is: a container being made). */
bool containers_docker_name(struct containers *c, const char *id, char *name, size_t len);

/* A containerd task whose cgroup is cgpath (/NAMESPACE/ID, containerd's
 * own, cgroupfs) and whose bundle exists: its id into id. */
bool containers_containerd_task(struct containers *c, const char *cgpath, char *id, size_t len);

/* Number of containers known (after the last refresh). */
int containers_count(const struct containers *c);
/* The i-th container known (0 .. containers_count() - 1), or NULL. */
const struct container_info *containers_at(const struct containers *c, int i);

/* --- parsers, for unit tests ------------------------------------------- */

/* runc's state.json or crun's status: the init pid (0 if absent). */
bool oci_state_pid(const char *json, uint32_t *pid);
/*
 * containers/storage's containers.json: calls fn(ctx, id, name) for every
 * container's first name. Returns the number of entries, -1 if not JSON.
 */
int podman_names_parse(const char *json, void (*fn)(void *ctx, const char *id, const char *name),
		       void *ctx);
/* Whether a command name is a container runtime's (runc, runc:[1:CHILD], crun, conmon, podman). */
bool runtime_comm(const char *comm);

#endif
