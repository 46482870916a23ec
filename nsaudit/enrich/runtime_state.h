/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * runtime_state.h - where container runtimes keep their state (roots that
 * can be changed: --runtime-root KIND=DIR), and json-c parsers of the
 * files read there (docs/attribution.md):
 *
 *   runc       ROOT/ID/state.json                  /run/runc
 *   crun       ROOT/ID/status                      /run/crun
 *   docker     EXEC/runtime-runc/NS/ID/state.json  /run/docker (exec root)
 *              DATA/containers/ID/config.v2.json   /var/lib/docker (data root)
 *   containerd ROOT/runc/NS/ID/state.json          /run/containerd
 *              ROOT/io.containerd.runtime.v2.task/NS/ID (a task's bundle)
 *   podman     ROOT/overlay-containers/containers.json  /var/lib/containers/storage
 *
 * runc's state names its bundle (label "bundle=DIR"); the bundle's OCI
 * config.json carries the annotations that give a Kubernetes pod's name
 * and namespace (CRI) and nerdctl's or CRI's container name.
 */
#ifndef NSAUDIT_RUNTIME_STATE_H
#define NSAUDIT_RUNTIME_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum runtime_root_kind {
	RT_ROOT_RUNC,
	RT_ROOT_CRUN,
	RT_ROOT_DOCKER_EXEC,
	RT_ROOT_DOCKER_DATA,
	RT_ROOT_CONTAINERD,
	RT_ROOT_PODMAN,
	RT_ROOT_MAX,
};

/* "KIND=DIR" (KIND: runc, crun, docker-exec, docker-data, containerd,
 * podman; DIR absolute): 0, or -1 with a one-line reason in err. */
int runtime_root_set(const char *spec, char *err, size_t errlen);
/* The directory of a kind: as set, else its default under prefix ("" for
 * "/"). *set: it was given (not prefixed). */
void runtime_root(enum runtime_root_kind k, const char *prefix, char *out, size_t len);
/* The --help text of --runtime-root. */
extern const char runtime_root_help[];

/* What a container's OCI config and its runtime's own state tell of it. */
struct oci_meta {
	char name[128];	  /* nerdctl's or CRI's container name, "" if none */
	char pod[128];	  /* io.kubernetes.pod.name, "" if none */
	char pod_ns[64];  /* io.kubernetes.pod.namespace */
};

/* runc's state.json: init pid (0 if absent) and bundle directory ("" if
 * not labelled). false if not JSON. */
bool runc_state_parse(const char *json, uint32_t *pid, char *bundle, size_t len);
/* An OCI config.json's annotations into m (fields not there stay ""). */
bool oci_config_meta(const char *json, struct oci_meta *m);
/* Docker's containers/ID/config.v2.json: "Name" without its leading '/'. */
bool docker_config_name(const char *json, char *name, size_t len);
/* containerd's task whose own cgroup (/NAMESPACE/ID, cgroupfs) is cgpath
 * and whose bundle ROOT/io.containerd.runtime.v2.task/NAMESPACE/ID exists
 * (root: containerd's state dir): its ID into id. */
bool containerd_task_of_cgroup(const char *root, const char *cgpath, char *id, size_t len);

#endif
