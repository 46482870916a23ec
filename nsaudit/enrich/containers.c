// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* containers.c - container ids and podman names from the runtimes' state. */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "array.h"
#include "clock.h"
#include "containers.h"
#include "nstype.h"
#include "runtime_state.h"

#define REFRESH_NS   250000000LL  /* state re-read at most this often, */
#define REFRESH_BUSY_NS 20000000LL /* or this often while one is being made */
#define ACTOR_TTL_NS 1000000000LL /* an actor's answer is kept this long */
#define ACTOR_SLOTS  256
#define STATE_MAX    (1 << 20) /* runc's state.json holds the config */
#define PODMAN_JSON  "/overlay-containers/containers.json"
#define FILEID_NSFS  0xf1 /* Linux 6.18: nsfs file handles */

struct podman_name {
	char id[CONTAINER_ID_LEN];
	char name[CONTAINER_NAME_LEN];
};

struct actor_ent {
	uint32_t pid;
	char comm[NSAUDIT_COMM_LEN];
	int idx; /* into v, -1: none */
	int64_t at;
	uint64_t gen; /* the refresh it refers to */
};

struct containers {
	char root[PATH_MAX]; /* "" for the real "/" */
	struct container_info *v;
	int n;
	size_t cap;
	struct container_info *prev; /* the last refresh's: first-seen namespaces */
	int nprev;
	size_t capprev;
	uint64_t gen; /* bumped per refresh: actor cache */
	bool creating; /* a runtime's container has no init pid yet */
	int64_t refreshed_ns;
	struct podman_name *names;
	int nnames;
	size_t capnames;
	struct timespec names_mtime;
	struct actor_ent actors[ACTOR_SLOTS];
};

bool runtime_comm(const char *comm)
{
	/* runc's init stages are runc:[0:PARENT], runc:[1:CHILD], runc:[2:INIT] */
	return !strncmp(comm, "runc", 4) || !strcmp(comm, "crun") || !strcmp(comm, "conmon") ||
	       !strcmp(comm, "podman") || !strncmp(comm, "containerd-shim", 15);
}

/*
 * A whole small file (up to max bytes), NUL-terminated; NULL if unreadable.
 * The buffer is the file's size, grown if it grows while read, never max
 * up front: freeing a block of max (16 MiB for podman's containers.json)
 * raised glibc's mmap threshold, and the recorder's heap kept 11 MiB.
 */
static char *read_file(const char *path, size_t max, size_t *len)
{
	struct stat st;
	char *buf, *nb;
	size_t cap, got = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	cap = !fstat(fd, &st) && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	if (cap > max)
		cap = max;
	buf = malloc(cap + 1);
	while (buf) {
		if (got == cap) {
			if (cap == max)
				break;
			cap = cap * 2 < max ? cap * 2 : max;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + got, cap - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (buf) {
		buf[got] = '\0';
		if (len)
			*len = got;
	}
	return buf;
}

bool oci_state_pid(const char *json, uint32_t *pid)
{
	struct json_object *o = json_tokener_parse(json), *v;
	int64_t p = 0;

	*pid = 0;
	if (!o)
		return false;
	if (json_object_object_get_ex(o, "init_process_pid", &v) || /* runc */
	    json_object_object_get_ex(o, "pid", &v))		    /* crun */
		p = json_object_get_int64(v);
	json_object_put(o);
	if (p <= 0 || p > INT_MAX)
		return false;
	*pid = (uint32_t)p;
	return true;
}

int podman_names_parse(const char *json, void (*fn)(void *ctx, const char *id, const char *name),
		       void *ctx)
{
	struct json_object *a = json_tokener_parse(json), *e, *id, *names, *nm;
	size_t i, n;

	if (!a || !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		return -1;
	}
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_object_get_ex(e, "id", &id) ||
		    !json_object_is_type(id, json_type_string))
			continue;
		nm = NULL;
		if (json_object_object_get_ex(e, "names", &names) &&
		    json_object_is_type(names, json_type_array) && json_object_array_length(names))
			nm = json_object_array_get_idx(names, 0);
		fn(ctx, json_object_get_string(id),
		   nm && json_object_is_type(nm, json_type_string) ? json_object_get_string(nm)
								   : "");
	}
	json_object_put(a);
	return (int)n;
}

/* A directory entry that can be a container id (no paths, no controls). */
static bool plausible_id(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= CONTAINER_ID_LEN || s[0] == '.')
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s) || *s == '/')
			return false;
	return true;
}

static struct container_info *add(struct containers *c, const char *id)
{
	struct container_info *ci;
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].id, id))
			return &c->v[i];
	if (ARRAY_RESERVE(&c->v, &c->cap, (size_t)c->n + 1))
		return NULL;
	ci = &c->v[c->n++];
	memset(ci, 0, sizeof(*ci));
	snprintf(ci->id, sizeof(ci->id), "%s", id);
	return ci;
}

static void note_name(void *ctx, const char *id, const char *name)
{
	struct containers *c = ctx;
	struct podman_name *pn;

	if (!plausible_id(id))
		return;
	if (ARRAY_RESERVE(&c->names, &c->capnames, (size_t)c->nnames + 1))
		return;
	pn = &c->names[c->nnames++];
	snprintf(pn->id, sizeof(pn->id), "%s", id);
	snprintf(pn->name, sizeof(pn->name), "%s", name);
}

/* podman's names, re-read when containers.json changed */
static void read_names(struct containers *c)
{
	char path[PATH_MAX + 64];
	struct stat st;
	char *buf;

	runtime_root(RT_ROOT_PODMAN, c->root, path, sizeof(path) - sizeof(PODMAN_JSON));
	strcat(path, PODMAN_JSON);
	if (stat(path, &st)) {
		c->nnames = 0;
		return;
	}
	if (st.st_mtim.tv_sec == c->names_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == c->names_mtime.tv_nsec)
		return;
	buf = read_file(path, 16 << 20, NULL);
	if (!buf)
		return;
	c->nnames = 0;
	podman_names_parse(buf, note_name, c);
	free(buf);
	c->names_mtime = st.st_mtim;
}

/* What the bundle's OCI config says (pod, name), when runc's state names it. */
static void read_bundle(struct container_info *ci, const char *bundle)
{
	char path[PATH_MAX + 16];
	struct oci_meta m;
	char *buf;

	if (!bundle[0])
		return;
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	buf = read_file(path, STATE_MAX, NULL);
	if (buf && oci_config_meta(buf, &m)) {
		snprintf(ci->pod, sizeof(ci->pod), "%s", m.pod);
		snprintf(ci->pod_ns, sizeof(ci->pod_ns), "%s", m.pod_ns);
		if (m.name[0] && !ci->name[0])
			snprintf(ci->name, sizeof(ci->name), "%s", m.name);
	}
	free(buf);
}

/* Docker's name of a container, from its data root's config.v2.json. */
static void read_docker_name(struct containers *c, struct container_info *ci)
{
	char path[PATH_MAX + 128];
	char *buf;

	runtime_root(RT_ROOT_DOCKER_DATA, c->root, path, PATH_MAX);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/containers/%s/config.v2.json",
		 ci->id);
	buf = read_file(path, STATE_MAX, NULL);
	if (buf)
		docker_config_name(buf, ci->name, sizeof(ci->name));
	free(buf);
}

bool containers_docker_name(struct containers *c, const char *id, char *name, size_t len)
{
	struct container_info ci = { 0 };

	if (!plausible_id(id))
		return false;
	snprintf(ci.id, sizeof(ci.id), "%s", id);
	read_docker_name(c, &ci);
	snprintf(name, len, "%s", ci.name);
	return ci.name[0] != '\0';
}

bool containers_containerd_task(struct containers *c, const char *cgpath, char *id, size_t len)
{
	char dir[PATH_MAX];

	runtime_root(RT_ROOT_CONTAINERD, c->root, dir, sizeof(dir));
	return containerd_task_of_cgroup(dir, cgpath, id, len);
}

/* One runtime state directory: DIR/ID/FILE per container. */
static void read_runtime(struct containers *c, const char *dir, const char *rt, const char *file)
{
	char path[PATH_MAX + 384], bundle[PATH_MAX];
	struct container_info *ci;
	struct dirent *d;
	char *buf;
	struct stat st;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!plausible_id(d->d_name) || !(ci = add(c, d->d_name)))
			continue;
		snprintf(ci->runtime, sizeof(ci->runtime), "%s", rt);
		snprintf(path, sizeof(path), "%s/%s/%s", dir, d->d_name, file);
		buf = read_file(path, STATE_MAX, NULL);
		bundle[0] = '\0';
		if (buf && strcmp(file, "state.json"))
			oci_state_pid(buf, &ci->pid);
		else if (buf)
			runc_state_parse(buf, &ci->pid, bundle, sizeof(bundle));
		if (c->root[0])
			ci->pid = 0; /* a test's state: its pids are not ours */
		free(buf);
		read_bundle(ci, bundle);
		if (!strcmp(rt, "docker"))
			read_docker_name(c, ci);
		/* no init pid in a directory made in the last seconds: the
		 * runtime is making the container (a stale one is not) */
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!ci->pid && !stat(path, &st) && time(NULL) - st.st_mtime < 10)
			c->creating = true;
	}
	closedir(dp);
}

/* runc roots with a level of namespaces: DIR/NS/ID/state.json (docker's
 * runtime-runc/moby, containerd's runc/default, runc/k8s.io ...). */
static void read_namespaced(struct containers *c, const char *dir, const char *rt)
{
	char sub[PATH_MAX + 256];
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!plausible_id(d->d_name))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
		read_runtime(c, sub, rt, "state.json");
	}
	closedir(dp);
}

/*
 * ns_id from an nsfs file handle (6.18: handle type FILEID_NSFS, the id in
 * its first 8 bytes). A handle, not open()+NS_GET_ID: opening another
 * process's namespace files would be a record of ours in every other
 * tracer on the machine, about the containers we look at.
 */
bool ns_ident_of(uint32_t pid, int type, uint32_t *inum, uint64_t *id)
{
	static int have_id = -1; /* nsfs handles known to work (1) or not (0) */
	struct {
		unsigned int bytes;
		int type;
		uint64_t ns_id;
		uint32_t ns_type, ns_inum;
		unsigned char more[64];
	} h;
	char path[64];
	struct stat st;
	int mnt_id;

	*inum = 0;
	*id = 0;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%u/ns/%s", pid, nstype_name(type));
	else
		snprintf(path, sizeof(path), "/proc/self/ns/%s", nstype_name(type));
	if (stat(path, &st))
		return false;
	*inum = (uint32_t)st.st_ino;
	if (!have_id)
		return true;
	memset(&h, 0, sizeof(h));
	h.bytes = sizeof(h) - 8;
	if (name_to_handle_at(AT_FDCWD, path, (struct file_handle *)&h, &mnt_id,
			      AT_SYMLINK_FOLLOW) || h.type != FILEID_NSFS || h.ns_inum != *inum) {
		if (have_id < 0 && errno != ENOENT && errno != ESRCH)
			have_id = 0; /* an older kernel: inodes only from now on */
		return true;
	}
	have_id = 1;
	*id = h.ns_id;
	return true;
}

/* A container's namespaces: the ones it had when first seen with this init
 * process (an init that joins other namespaces keeps its own here). */
static void read_namespaces(struct containers *c, struct container_info *ci)
{
	int t, i;

	for (i = 0; i < c->nprev; i++) {
		if (c->prev[i].pid == ci->pid && ci->pid && !strcmp(c->prev[i].id, ci->id) &&
		    c->prev[i].inum[NSAUDIT_NS_PID]) {
			memcpy(ci->inum, c->prev[i].inum, sizeof(ci->inum));
			memcpy(ci->nsid, c->prev[i].nsid, sizeof(ci->nsid));
			return;
		}
	}
	for (t = 0; t < NSAUDIT_NS_MAX; t++)
		if (!ci->pid || !ns_ident_of(ci->pid, t, &ci->inum[t], &ci->nsid[t]))
			ci->inum[t] = 0, ci->nsid[t] = 0;
}

void containers_refresh(struct containers *c, bool force)
{
	int64_t now = now_coarse_ns();
	char dir[PATH_MAX + 32];
	struct container_info *tmp;
	size_t cap;
	int i, j;

	if (!force && now - c->refreshed_ns < (c->creating ? REFRESH_BUSY_NS : REFRESH_NS))
		return;
	c->refreshed_ns = now;
	c->gen++;
	/* the last table becomes prev: its first-seen namespaces carry over */
	tmp = c->prev;
	c->prev = c->v;
	c->nprev = c->n;
	cap = c->cap;
	c->v = tmp;
	c->cap = tmp ? c->capprev : 0;
	c->capprev = cap;
	c->n = 0;
	c->creating = false;
	runtime_root(RT_ROOT_RUNC, c->root, dir, PATH_MAX);
	read_runtime(c, dir, "runc", "state.json");
	runtime_root(RT_ROOT_CRUN, c->root, dir, PATH_MAX);
	read_runtime(c, dir, "crun", "status");
	runtime_root(RT_ROOT_DOCKER_EXEC, c->root, dir, PATH_MAX);
	strcat(dir, "/runtime-runc");
	read_namespaced(c, dir, "docker");
	runtime_root(RT_ROOT_CONTAINERD, c->root, dir, PATH_MAX);
	strcat(dir, "/runc");
	read_namespaced(c, dir, "containerd");
	read_names(c);
	for (j = 0; j < c->nnames; j++) { /* podman's, created or not yet */
		struct container_info *ci = add(c, c->names[j].id);

		if (ci)
			snprintf(ci->name, sizeof(ci->name), "%s", c->names[j].name);
	}
	for (i = 0; i < c->n; i++)
		read_namespaces(c, &c->v[i]);
}

struct containers *containers_new(const char *root)
{
	struct containers *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	snprintf(c->root, sizeof(c->root), "%s", root && strcmp(root, "/") ? root : "");
	containers_refresh(c, true);
	return c;
}

void containers_free(struct containers *c)
{
	if (!c)
		return;
	free(c->v);
	free(c->prev);
	free(c->names);
	free(c);
}

int containers_count(const struct containers *c)
{
	return c->n;
}

/* How far a namespace's id is from a container's pid namespace's (ns_id
 * is one counter for all namespaces: the ones made with a container are
 * made together). */
static uint64_t id_distance(const struct container_info *ci, uint64_t id)
{
	uint64_t p = ci->nsid[NSAUDIT_NS_PID];

	if (!p || !id)
		return UINT64_MAX;
	return p > id ? p - id : id - p;
}

/*
 * Several containers can have one namespace: shared on purpose (--net
 * container:B, a pod) or joined by an init (setns). Its owner is the one
 * it was made with: with ns_ids, the container whose pid namespace was
 * made closest to it; without, the first found.
 */
static const struct container_info *find_ns(struct containers *c, int type, uint32_t inum,
					    uint64_t id)
{
	const struct container_info *best = NULL;
	int i;

	for (i = 0; i < c->n; i++) {
		if (!c->v[i].pid || c->v[i].inum[type] != inum)
			continue;
		/* ns_id is never reused: a different one is another namespace
		 * that got the same inode after the first died */
		if (id && c->v[i].nsid[type] && c->v[i].nsid[type] != id)
			continue;
		if (!best || id_distance(&c->v[i], c->v[i].nsid[type]) <
				     id_distance(best, best->nsid[type]))
			best = &c->v[i];
	}
	return best;
}

const struct container_info *containers_by_ns(struct containers *c, int type, uint32_t inum,
					      uint64_t id)
{
	const struct container_info *ci;

	if (type < 0 || type >= NSAUDIT_NS_MAX || !inum)
		return NULL;
	ci = find_ns(c, type, inum, id);
	if (ci && (id && ci->nsid[type] == id))
		return ci; /* the same namespace, never another */
	if (ci) { /* no ids: inodes are reused: is its init still in it? */
		uint32_t cur;
		uint64_t cid;

		if (ns_ident_of(ci->pid, type, &cur, &cid) && cur == inum)
			return ci;
	}
	containers_refresh(c, false);
	return find_ns(c, type, inum, id);
}

static const struct container_info *find_word(struct containers *c, const char *w, bool names)
{
	const struct container_info *hit = NULL;
	size_t n = strlen(w);
	int i;

	if (!n)
		return NULL;
	for (i = 0; i < c->n; i++) {
		if (names) {
			if (c->v[i].name[0] && !strcmp(c->v[i].name, w))
				return &c->v[i];
			continue;
		}
		if (!strcmp(c->v[i].id, w))
			return &c->v[i];
		/* podman's short ids: a unique prefix of 12 or more */
		if (n >= 12 && !strncmp(c->v[i].id, w, n)) {
			if (hit)
				return NULL;
			hit = &c->v[i];
		}
	}
	return hit;
}

const struct container_info *containers_find(struct containers *c, const char *what)
{
	const struct container_info *ci = find_word(c, what, false);

	return ci ?: find_word(c, what, true);
}

/* The container a runtime's command line names (ids first, then names). */
static int cmdline_container(struct containers *c, uint32_t pid)
{
	const struct container_info *ci = NULL;
	char path[64], *buf, *p;
	size_t len;
	int pass;

	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	buf = read_file(path, 64 * 1024, &len);
	if (!buf)
		return -1;
	for (pass = 0; pass < 2 && !ci; pass++)
		for (p = buf; p < buf + len && !ci; p += strlen(p) + 1)
			ci = find_word(c, p, pass == 1);
	free(buf);
	return ci ? (int)(ci - c->v) : -1;
}

static bool comm_of(uint32_t pid, char *comm, size_t len)
{
	char path[64];
	char *buf;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	buf = read_file(path, 64, NULL);
	if (!buf)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(comm, len, "%s", buf);
	free(buf);
	return true;
}

static int actor_lookup(struct containers *c, uint32_t pid, const char *comm, uint32_t ppid)
{
	char pcomm[NSAUDIT_COMM_LEN + 8];
	int idx = -1;

	if (runtime_comm(comm))
		idx = cmdline_container(c, pid);
	if (idx < 0 && ppid && comm_of(ppid, pcomm, sizeof(pcomm)) && runtime_comm(pcomm))
		idx = cmdline_container(c, ppid);
	return idx;
}

const struct container_info *containers_by_actor(struct containers *c, uint32_t pid,
						 const char *comm, uint32_t ppid)
{
	struct actor_ent *a = &c->actors[pid % ACTOR_SLOTS];
	int64_t now = now_coarse_ns();
	int idx;

	if (a->pid == pid && !strncmp(a->comm, comm, sizeof(a->comm)) && a->gen == c->gen &&
	    now - a->at < ACTOR_TTL_NS)
		return a->idx >= 0 ? &c->v[a->idx] : NULL;
	idx = c->n ? actor_lookup(c, pid, comm, ppid) : -1;
	if (idx < 0) { /* a container this refresh did not know yet */
		uint64_t gen = c->gen;

		containers_refresh(c, false);
		if (c->gen != gen && c->n)
			idx = actor_lookup(c, pid, comm, ppid);
	}
	a->pid = pid;
	snprintf(a->comm, sizeof(a->comm), "%s", comm);
	a->idx = idx;
	a->at = now;
	a->gen = c->gen;
	return idx >= 0 ? &c->v[idx] : NULL;
}

const struct container_info *containers_at(const struct containers *c, int i)
{
	return i >= 0 && i < c->n ? &c->v[i] : NULL;
}
