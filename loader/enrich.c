// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* enrich.c - process, cgroup and mount knowledge for records, cached. */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "clock.h"
#include "enrich.h"
#include "mountinfo.h"
#include "nstype.h"

#define PROC_SLOTS 4096		/* direct-mapped by pid; a miss costs a readlink */
#define MAX_MOUNTS 4096

struct proc_info {
	uint32_t pid;
	char comm[NSAUDIT_COMM_LEN];
	char *exe;
	uint64_t exe_ino;	/* the executable exe names (0: unchecked) */
	char *cgroup;
	bool exe_done, cgroup_done;
};

struct nsfs_mount {
	char *path;
	int type;
	uint32_t inum;
};

struct cgroup_name {
	uint64_t id;
	char *path;
};

struct enrich {
	int64_t boot_to_real_ns;
	struct cgroup_name *cgroups;	/* cgroup id (= inode) -> path */
	size_t ncgroups;
	int64_t cgroups_scanned_ns;
	struct proc_info procs[PROC_SLOTS];
	struct nsfs_mount mounts[MAX_MOUNTS];
	int nmounts;
	uint32_t mntns_pid[256];	/* one pid per mount ns seen at start */
	uint32_t mntns_inum[256];
	int nmntns;
	int exe_map_fd;		/* the BPF side's exe_paths, -1 if none */
	bool own_exe_map;
};

struct enrich *enrich_new(void)
{
	struct enrich *en = calloc(1, sizeof(*en));

	if (!en)
		return NULL;
	en->exe_map_fd = -1;
	enrich_sync_clock(en);
	return en;
}

static void proc_clear(struct proc_info *p)
{
	free(p->exe);
	free(p->cgroup);
	memset(p, 0, sizeof(*p));
}

void enrich_free(struct enrich *en)
{
	int i;

	if (!en)
		return;
	for (i = 0; i < PROC_SLOTS; i++)
		proc_clear(&en->procs[i]);
	for (i = 0; i < en->nmounts; i++)
		free(en->mounts[i].path);
	for (size_t j = 0; j < en->ncgroups; j++)
		free(en->cgroups[j].path);
	free(en->cgroups);
	if (en->own_exe_map && en->exe_map_fd >= 0)
		close(en->exe_map_fd);
	free(en);
}

void enrich_set_exe_map(struct enrich *en, int fd, bool owned)
{
	if (en->own_exe_map && en->exe_map_fd >= 0)
		close(en->exe_map_fd);
	en->exe_map_fd = fd;
	en->own_exe_map = owned && fd >= 0;
}

void enrich_sync_clock(struct enrich *en)
{
	en->boot_to_real_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME);
}

int64_t enrich_realtime(const struct enrich *en, uint64_t boot_ns)
{
	return (int64_t)boot_ns + en->boot_to_real_ns;
}

/* The cache slot for pid, reset when it now holds another process. */
static struct proc_info *proc_slot(struct enrich *en, uint32_t pid, const char *comm)
{
	struct proc_info *p = &en->procs[pid % PROC_SLOTS];

	if (p->pid != pid || strncmp(p->comm, comm, sizeof(p->comm))) {
		proc_clear(p);
		p->pid = pid;
		strncpy(p->comm, comm, sizeof(p->comm) - 1);
	}
	return p;
}

/*
 * Teach exe_paths the executable of a process that exec'd before the BPF
 * side was there to see it: its records may come after it has exited.
 */
static void learn_exe(struct enrich *en, uint32_t pid)
{
	struct nsaudit_exe_key k = { 0 };
	char link[64], path[NSAUDIT_PATH_LEN] = "";
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%u/exe", pid);
	if (stat(link, &st))
		return;		/* kernel thread, or gone */
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	k.ino = st.st_ino;
	/* the kernel's dev_t, as the records carry it (MKDEV) */
	k.dev = (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev));
	bpf_map_update_elem(en->exe_map_fd, &k, path, BPF_NOEXIST);
}

void enrich_note_task(struct enrich *en, const struct nsaudit_task_snap *s)
{
	int i;

	proc_slot(en, s->pid, s->comm);
	if (en->exe_map_fd >= 0)
		learn_exe(en, s->pid);
	for (i = 0; i < en->nmntns; i++)
		if (en->mntns_inum[i] == s->inum[NSAUDIT_NS_MNT])
			return;
	if (en->nmntns < (int)(sizeof(en->mntns_pid) / sizeof(en->mntns_pid[0]))) {
		en->mntns_inum[en->nmntns] = s->inum[NSAUDIT_NS_MNT];
		en->mntns_pid[en->nmntns++] = s->pid;
	}
}

/* Whether path names the file with inode ino (in our mount namespace). */
static bool same_ino(const char *path, uint64_t ino)
{
	struct stat st;

	return !stat(path, &st) && (uint64_t)st.st_ino == ino;
}

/*
 * The path the BPF side saw ino exec'd by, resolved like /proc/PID/exe
 * would (/usr/sbin/ip -> /usr/bin/ip) when it names the same file here;
 * as exec'd when it does not (another mount namespace's file).
 */
static char *exe_from_map(struct enrich *en, uint64_t ino, uint32_t dev)
{
	struct nsaudit_exe_key k = { .ino = ino, .dev = dev };
	char path[NSAUDIT_PATH_LEN], real[PATH_MAX];

	if (en->exe_map_fd < 0 || bpf_map_lookup_elem(en->exe_map_fd, &k, path))
		return NULL;
	path[sizeof(path) - 1] = '\0';
	if (realpath(path, real) && same_ino(real, ino))
		return strdup(real);
	return strdup(path);
}

/* /proc/PID/exe, if it still names the executable of the record. */
static char *exe_from_proc(uint32_t pid, uint64_t ino)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%u/exe", pid);
	/* stat follows the magic link to the very file: no path lookup */
	if (ino && !same_ino(link, ino))
		return NULL;	/* exited, or exec'd something else since */
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

const char *enrich_exe(struct enrich *en, uint32_t pid, const char *comm, uint64_t ino,
		       uint32_t dev)
{
	struct proc_info *p = proc_slot(en, pid, comm);

	if (p->exe_done && p->exe_ino == ino)
		return p->exe;
	free(p->exe);
	p->exe = ino ? exe_from_map(en, ino, dev) : NULL;
	if (!p->exe)
		p->exe = exe_from_proc(pid, ino);
	p->exe_ino = ino;
	p->exe_done = true;
	return p->exe;
}

/* nftw has no context argument: the scan in progress. */
static struct enrich *scan_en;
static size_t scan_cap;

static int note_cgroup(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct enrich *en = scan_en;
	const char *rel = path + strlen("/sys/fs/cgroup");

	if (flag != FTW_D)
		return 0;
	if (en->ncgroups == scan_cap) {
		size_t cap = scan_cap ? 2 * scan_cap : 256;
		struct cgroup_name *n = realloc(en->cgroups, cap * sizeof(*n));

		if (!n)
			return 1;
		en->cgroups = n;
		scan_cap = cap;
	}
	en->cgroups[en->ncgroups].id = st->st_ino;
	en->cgroups[en->ncgroups].path = strdup(*rel ? rel : "/");
	if (en->cgroups[en->ncgroups].path)
		en->ncgroups++;
	return 0;
}

/*
 * A process that already exited has no /proc/PID/cgroup; its cgroup id
 * (the cgroup2 directory's inode) still names the cgroup. Rescanned at
 * most once a second, only when an unknown id shows up.
 */
static const char *cgroup_by_id(struct enrich *en, uint64_t id)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	size_t i;

	for (i = 0; i < en->ncgroups; i++)
		if (en->cgroups[i].id == id)
			return en->cgroups[i].path;
	if (now - en->cgroups_scanned_ns < 1000000000)
		return NULL;
	en->cgroups_scanned_ns = now;
	for (i = 0; i < en->ncgroups; i++)
		free(en->cgroups[i].path);
	en->ncgroups = 0;
	scan_en = en;
	scan_cap = 0;
	free(en->cgroups);
	en->cgroups = NULL;
	nftw("/sys/fs/cgroup", note_cgroup, 16, FTW_PHYS | FTW_MOUNT);
	for (i = 0; i < en->ncgroups; i++)
		if (en->cgroups[i].id == id)
			return en->cgroups[i].path;
	return NULL;
}

const char *enrich_cgroup(struct enrich *en, uint32_t pid, const char *comm, uint64_t id)
{
	struct proc_info *p = proc_slot(en, pid, comm);
	char path[64], line[PATH_MAX + 16];
	FILE *f;

	if (p->cgroup_done)
		return p->cgroup;
	p->cgroup_done = true;
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return cgroup_by_id(en, id);
	while (fgets(line, sizeof(line), f)) {
		/* cgroup v2: "0::/path"; that is the one that names containers */
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			p->cgroup = strdup(line + 3);
			break;
		}
	}
	fclose(f);
	return p->cgroup ?: cgroup_by_id(en, id);
}

int proc_ns_path_pid(const char *path, uint32_t self_pid)
{
	const char *s;
	char *end;
	long v;

	if (strncmp(path, "/proc/", 6))
		return 0;
	s = path + 6;
	if (!strncmp(s, "self/", 5) || !strncmp(s, "thread-self/", 12))
		return (int)self_pid;
	v = strtol(s, &end, 10);
	if (end == s || *end != '/' || v <= 0 || v > INT_MAX)
		return 0;
	return (int)v;
}

int proc_ns_path_type(const char *path, bool *for_children)
{
	static const char sfx[] = "_for_children";
	char name[32];
	const char *s;
	size_t n;
	int type;

	if (!proc_ns_path_pid(path, 1))
		return -1;
	s = strchr(path + 6, '/');		/* after PID, self or thread-self */
	if (!strncmp(s, "/task/", 6)) {
		char *end;

		if (strtol(s + 6, &end, 10) <= 0 || *end != '/')
			return -1;
		s = end;
	}
	if (strncmp(s, "/ns/", 4))
		return -1;
	s += 4;
	n = strlen(s);
	if (!n || n >= sizeof(name) || strchr(s, '/'))
		return -1;
	memcpy(name, s, n + 1);
	*for_children = n > sizeof(sfx) - 1 && !strcmp(name + n - (sizeof(sfx) - 1), sfx);
	if (*for_children)
		name[n - (sizeof(sfx) - 1)] = '\0';
	type = nstype_from_name(name);
	if (type < 0 || (*for_children && type != NSAUDIT_NS_PID && type != NSAUDIT_NS_TIME))
		return -1;
	return type;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void mount_remember(struct enrich *en, const char *path, int type, uint32_t inum)
{
	int i;

	for (i = 0; i < en->nmounts; i++) {
		if (!strcmp(en->mounts[i].path, path)) {
			en->mounts[i].type = type;
			en->mounts[i].inum = inum;
			return;
		}
	}
	if (en->nmounts == MAX_MOUNTS)
		return;
	en->mounts[en->nmounts].path = strdup(path);
	if (!en->mounts[en->nmounts].path)
		return;
	en->mounts[en->nmounts].type = type;
	en->mounts[en->nmounts++].inum = inum;
}

static void scan_mountinfo(struct enrich *en, const char *file)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	uint32_t inum;
	int type;
	FILE *f = fopen(file, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum))
			mount_remember(en, mnt, type, inum);
	fclose(f);
}

void enrich_scan_mounts(struct enrich *en)
{
	char file[64];
	int i;

	scan_mountinfo(en, "/proc/self/mountinfo");
	for (i = 0; i < en->nmntns; i++) {
		snprintf(file, sizeof(file), "/proc/%u/mountinfo", en->mntns_pid[i]);
		scan_mountinfo(en, file);
	}
}

/* Make a record's path absolute the way the actor saw it. */
static void absolute_path(const struct nsaudit_event *e, char *out, size_t len)
{
	char link[64], cwd[PATH_MAX];
	ssize_t n;

	if (e->path[0] == '/') {
		snprintf(out, len, "%s", e->path);
		return;
	}
	snprintf(link, sizeof(link), "/proc/%u/cwd", e->pid);
	n = readlink(link, cwd, sizeof(cwd) - 1);
	if (n <= 0) {
		snprintf(out, len, "%s", e->path);
		return;
	}
	cwd[n] = '\0';
	snprintf(out, len, "%s/%s", strcmp(cwd, "/") ? cwd : "", e->path);
}

/* Find the nsfs mount now at path in a mountinfo file (the last wins). */
static bool find_mount(const char *file, const char *path, int *type, uint32_t *inum)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	bool found = false;
	uint32_t i;
	int t;
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &t, &i) && !strcmp(mnt, path)) {
			*type = t;
			*inum = i;
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* A pin moved (MS_MOVE, move_mount): from the known mount at from to to. */
static bool mount_move(struct enrich *en, const char *from, const char *to, int *type,
		       uint32_t *inum)
{
	char *p;
	int i;

	for (i = 0; i < en->nmounts; i++) {
		if (strcmp(en->mounts[i].path, from))
			continue;
		p = strdup(to);
		if (!p)
			return false;
		free(en->mounts[i].path);
		en->mounts[i].path = p;
		*type = en->mounts[i].type;
		*inum = en->mounts[i].inum;
		return true;
	}
	return false;
}

static bool complete_mount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX], real[PATH_MAX], file[64];
	uint32_t inum;
	int type;

	absolute_path(e, path, sizeof(path));
	if (!(e->flags & NSAUDIT_F_HAS_NS) && (e->flags & NSAUDIT_F_MOVE) && e->src_path[0] == '/' &&
	    mount_move(en, e->src_path, path, &type, &inum)) {
		/* a known pin moved: it names the same namespace at its new place */
		e->ns_type = type;
		e->ns_inum = inum;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	if (!(e->flags & NSAUDIT_F_HAS_NS)) {
		/* mount(2): which namespace is now mounted there, if any */
		snprintf(file, sizeof(file), "/proc/%u/mountinfo", e->pid);
		if (!find_mount(file, path, &type, &inum) &&
		    !find_mount("/proc/self/mountinfo", path, &type, &inum) &&
		    !(realpath(path, real) && find_mount("/proc/self/mountinfo", real, &type, &inum)))
			return false;
		e->ns_type = type;
		e->ns_inum = inum;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	mount_remember(en, path, e->ns_type, e->ns_inum);
	return true;
}

static bool complete_umount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX];
	int i;

	absolute_path(e, path, sizeof(path));
	for (i = 0; i < en->nmounts; i++) {
		if (strcmp(en->mounts[i].path, path))
			continue;
		e->ns_type = en->mounts[i].type;
		e->ns_inum = en->mounts[i].inum;
		e->flags |= NSAUDIT_F_HAS_NS;
		free(en->mounts[i].path);
		en->mounts[i] = en->mounts[--en->nmounts];
		return true;
	}
	return false;
}

/*
 * An open of /proc/PID/ns/TYPE that the access check refused: the kernel
 * side only has the path. Name the type from it and, where we may look,
 * the namespace the caller tried to pin (as it is now: the target may have
 * moved on since). Anything else under /proc is not ours: drop it.
 */
static bool complete_denied_open(struct nsaudit_event *e)
{
	char path[PATH_MAX];
	const char *rest;
	bool children;
	struct stat st;
	int type;

	type = proc_ns_path_type(e->path, &children);
	if (type < 0 || e->target_pid <= 0)
		return false;
	e->ns_type = (uint32_t)type;
	if (children)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	/* self and thread-self mean the caller, not us */
	rest = strchr(e->path + 6, '/');
	if (!strncmp(e->path + 6, "thread-self/", 12))
		snprintf(path, sizeof(path), "/proc/%u/task/%u%s", e->pid, e->tid, rest);
	else
		snprintf(path, sizeof(path), "/proc/%d%s", e->target_pid, rest);
	if (stat(path, &st) == 0 && st.st_ino <= UINT32_MAX) {
		e->ns_inum = (uint32_t)st.st_ino;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	return true;
}

bool enrich_complete(struct enrich *en, struct nsaudit_event *e)
{
	switch (e->op) {
	case NSAUDIT_OP_MOUNT:
		return complete_mount(en, e);
	case NSAUDIT_OP_UMOUNT:
		return complete_umount(en, e);
	case NSAUDIT_OP_OPEN:
		e->target_pid = proc_ns_path_pid(e->path, e->pid);
		return e->result >= 0 || complete_denied_open(e);
	default:
		return true;
	}
}
