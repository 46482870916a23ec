// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* enrich.c - process, cgroup and mount knowledge for records, cached. */
#include <errno.h>
#include <dirent.h>
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
#include "mounttab.h"
#include "mntns_id.h"
#include "nstype.h"

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
	bool exe_done, cgroup_done;
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

struct enrich {
	int64_t boot_to_real_ns;
	struct cgroup_name *cgroups;	/* cgroup id (= inode) -> path */
	size_t ncgroups;
	int64_t cgroups_scanned_ns;
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
	bool own_exe_map;
};

/* The mount namespace of a task (0, 0: ourselves); 0 if it is gone. */
static uint32_t task_mntns(uint32_t pid, uint32_t tid)
{
	char path[64];
	struct stat st;

	if (!pid)
		snprintf(path, sizeof(path), "/proc/self/ns/mnt");
	else
		snprintf(path, sizeof(path), "/proc/%u/task/%u/ns/mnt", pid, tid ?: pid);
	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/* Remember a task in mount namespace inum (the newest one wins). */
static void note_mntns(struct enrich *en, uint32_t inum, uint32_t pid, uint32_t tid)
{
	int i;

	if (!inum || !pid)
		return;
	for (i = 0; i < en->nmntns; i++) {
		if (en->mntns[i].inum == inum) {
			en->mntns[i].pid = pid;
			en->mntns[i].tid = tid ?: pid;
			return;
		}
	}
	if (en->nmntns < MAX_MNTNS) {
		en->mntns[en->nmntns].inum = inum;
		en->mntns[en->nmntns].pid = pid;
		en->mntns[en->nmntns++].tid = tid ?: pid;
	}
}

static struct mntns_task *find_mntns(struct enrich *en, uint32_t inum)
{
	int i;

	for (i = 0; i < en->nmntns; i++)
		if (en->mntns[i].inum == inum)
			return &en->mntns[i];
	return NULL;
}

struct enrich *enrich_new(void)
{
	struct enrich *en = calloc(1, sizeof(*en));

	if (!en)
		return NULL;
	en->exe_map_fd = -1;
	mounttab_init(&en->pins);
	en->self_mntns = task_mntns(0, 0);
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
	mounttab_free(&en->pins);
	for (size_t j = 0; j < en->ndead; j++)
		free(en->dead[j].path);
	free(en->dead);
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
 * side was there to see it: its records may come after it has exited. Its
 * path is relative to the mount namespace it has now (its exec's is not
 * known any more).
 */
static void learn_exe(struct enrich *en, const struct nsaudit_task_snap *s)
{
	struct nsaudit_exe_hist h = { 0 };
	struct nsaudit_exe_info *v = &h.cur;
	char link[64];
	struct stat st;
	ssize_t n;

	if (!s->exe_key)
		return;		/* kernel thread */
	snprintf(link, sizeof(link), "/proc/%u/exe", s->pid);
	n = readlink(link, v->path, sizeof(v->path) - 1);
	if (n <= 0)
		return;		/* gone */
	v->path[n] = '\0';
	v->mntns = s->inum[NSAUDIT_NS_MNT];
	if (!stat(link, &st))
		v->ino = st.st_ino;
	bpf_map_update_elem(en->exe_map_fd, &s->exe_key, &h, BPF_NOEXIST);
}

void enrich_note_task(struct enrich *en, const struct nsaudit_task_snap *s)
{
	int i;

	uint32_t tid = s->tid ?: s->pid;

	if (tid == s->pid) {	/* a thread's comm is not its process's */
		proc_slot(en, s->pid, s->comm);
		if (en->exe_map_fd >= 0)
			learn_exe(en, s);
	}
	for (i = 0; i < en->nmntns; i++)
		if (en->mntns[i].inum == s->inum[NSAUDIT_NS_MNT])
			return;
	note_mntns(en, s->inum[NSAUDIT_NS_MNT], s->pid, tid);
}

/* Whether path names the file with inode ino (in our mount namespace). */
static bool same_ino(const char *path, uint64_t ino)
{
	struct stat st;

	return !stat(path, &st) && (uint64_t)st.st_ino == ino;
}

/*
 * The path the BPF side saw this exec run (key: a record's exe_key) and
 * the mount namespace it is relative to. In our own mount namespace it is
 * resolved like /proc/PID/exe would be (/usr/sbin/ip -> /usr/bin/ip) when
 * that names the same file; a path of another mount namespace is kept as
 * exec'd (it means nothing here).
 */
/* Whether an exe_paths entry can be the exec of a record: a path, the
 * record's file (ino 0: learnt from /proc, unchecked), not after its call. */
static bool exe_fits(const struct nsaudit_exe_info *v, uint64_t ino, uint64_t call_ns)
{
	return v->path[0] && (!v->ino || v->ino == ino) && v->exec_ns <= call_ns;
}

static char *exe_from_map(struct enrich *en, uint64_t key, uint64_t ino, uint64_t call_ns,
			  struct proc_info *p)
{
	struct nsaudit_exe_hist h;
	struct nsaudit_exe_info *v;
	char real[PATH_MAX];

	if (en->exe_map_fd < 0 || !key || bpf_map_lookup_elem(en->exe_map_fd, &key, &h))
		return NULL;
	/* the newest exec not after the call: the address of a freed struct
	 * file is taken by the next exec at once, of the same file even */
	v = &h.cur;
	if (!exe_fits(v, ino, call_ns))
		v = &h.prev;
	if (!exe_fits(v, ino, call_ns))
		return NULL;
	v->path[sizeof(v->path) - 1] = '\0';
	p->exe_mntns = v->mntns;
	p->exe_mntns_id = v->mntns_id;
	if ((!v->mntns || v->mntns == en->self_mntns) && realpath(v->path, real) &&
	    same_ino(real, ino))
		return strdup(real);
	return strdup(v->path);
}

/* /proc/PID/exe, if it still names the executable of the record; its
 * path is relative to the process's mount namespace (as it is now). */
static char *exe_from_proc(uint32_t pid, uint64_t ino, struct proc_info *p)
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
	p->exe_mntns = task_mntns(pid, 0);
	return strdup(buf);
}

const char *enrich_exe(struct enrich *en, const struct nsaudit_event *e, uint32_t *mntns,
		       uint64_t *mntns_id)
{
	struct proc_info *p = proc_slot(en, e->pid, e->comm);

	if (!p->exe_done || p->exe_key != e->exe_key || p->exe_ino != e->exe_ino) {
		free(p->exe);
		p->exe_mntns = 0;
		p->exe_mntns_id = 0;
		p->exe = exe_from_map(en, e->exe_key, e->exe_ino, e->ts_boot_ns, p);
		if (!p->exe)
			p->exe = exe_from_proc(e->pid, e->exe_ino, p);
		p->exe_key = e->exe_key;
		p->exe_ino = e->exe_ino;
		p->exe_done = true;
	}
	*mntns = p->exe ? p->exe_mntns : 0;
	*mntns_id = p->exe ? p->exe_mntns_id : 0;
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

static void scan_mountinfo(struct enrich *en, const char *file, uint32_t mntns)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	uint32_t inum;
	int type;
	FILE *f = fopen(file, "re");

	if (!f)
		return;
	/* the mount id (first field) lets an umount by any spelling be matched */
	while (fgets(line, sizeof(line), f))
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum))
			mounttab_add_id(&en->pins, mntns, mnt, type, inum,
					(uint32_t)strtoul(line, NULL, 10), 0);
	fclose(f);
}

void enrich_scan_mounts(struct enrich *en)
{
	char file[96];
	int i;

	scan_mountinfo(en, "/proc/self/mountinfo", en->self_mntns);
	for (i = 0; i < en->nmntns; i++) {
		if (en->mntns[i].inum == en->self_mntns)
			continue;
		/* a thread can be in another mount namespace than its leader */
		snprintf(file, sizeof(file), "/proc/%u/task/%u/mountinfo", en->mntns[i].pid,
			 en->mntns[i].tid);
		scan_mountinfo(en, file, en->mntns[i].inum);
	}
}

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
static bool find_mount(const char *file, const char *path, int *type, uint32_t *inum,
		       bool *readable)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	bool found = false;
	uint32_t i;
	int t;
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	*readable = true;
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

/*
 * The actor's mount namespace: its thread's, or (gone already: mount(8),
 * ip) its parent's, which it almost always shares. 0 if neither is there.
 */
static uint32_t actor_mntns(const struct nsaudit_event *e)
{
#ifdef NSAUDIT_F_MOVE	/* the kernel side says which (mnt_ns_inum) */
	if (e->mnt_ns_inum)
		return e->mnt_ns_inum;
#endif
	return task_mntns(e->pid, e->tid) ?: (e->ppid ? task_mntns(e->ppid, e->ppid) : 0);
}

#ifdef NSAUDIT_F_MOVE
/*
 * A bind source that can name a namespace: /proc/PID/ns/TYPE (also under
 * task/TID, self, thread-self), /proc/PID/fd/N, or a known pin. Any other
 * unresolved bind is of an ordinary file.
 */
static bool nsfs_like_source(struct enrich *en, uint32_t mntns, const char *src)
{
	bool children;

	if (!src[0])
		return true;	/* not told: it may have been */
	if (proc_ns_path_type(src, &children) >= 0)
		return true;
	if (!strncmp(src, "/proc/", 6) && strstr(src, "/fd/"))
		return true;
	return mounttab_find(&en->pins, mntns, src) != NULL;
}

/*
 * mount MS_MOVE or move_mount of an attached mount: a pin there moves (and
 * pins below it move along, without records of their own). A move of a
 * mount that is no pin is no record.
 */
static bool complete_move(struct enrich *en, struct nsaudit_event *e, const char *path,
			  uint32_t mntns)
{
	char src[PATH_MAX];
	uint32_t inum;
	size_t below;
	int type;

	snprintf(src, sizeof(src), "%s", e->src_path);
	if (!mounttab_move(&en->pins, mntns ?: en->self_mntns, src, path, &type, &inum, &below))
		return false;
	e->ns_type = (uint32_t)type;
	e->ns_inum = inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}
#endif

/* The mountinfo of mount namespace mntns, through a task known to be in it. */
static bool mntns_mountinfo(struct enrich *en, uint32_t mntns, char *file, size_t len)
{
	struct mntns_task *m = find_mntns(en, mntns);

	if (!mntns)
		return false;
	if (mntns == en->self_mntns) {
		snprintf(file, len, "/proc/self/mountinfo");
		return true;
	}
	if (!m || task_mntns(m->pid, m->tid) != mntns)
		return false;
	snprintf(file, len, "/proc/%u/task/%u/mountinfo", m->pid, m->tid);
	return true;
}

static void unresolved(struct enrich *en, const char *fmt, const char *what)
{
	size_t n = strlen(en->unresolved);

	snprintf(en->unresolved + n, sizeof(en->unresolved) - n, "%s%s: %s", n ? "; " : "", what,
		 fmt);
}

/*
 * mount(2) with MS_BIND. A remount of a bind mount changes its flags and
 * pins nothing. A source the kernel side resolved (the caller's own
 * namespace) is a pin; otherwise the target is looked up in the actor's
 * mount namespace. Not nsfs there: an ordinary bind, not a record. Not
 * readable (the actor and everything in its mount namespace are gone) or
 * no longer mounted: it may have been a pin, so it is kept, with unresolved
 * saying why it names no namespace.
 */
static bool complete_mount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX], real[PATH_MAX], file[96];
	uint32_t inum, mntns;
	bool readable = false;
	int type;

	/* (arg is mount(2)'s flags; move_mount's are other bits) */
	if (!(e->flags & NSAUDIT_F_NEW_MOUNT_API) && (e->arg & MS_REMOUNT))
		return false;
	absolute_path(e, path, sizeof(path));
	mntns = actor_mntns(e);
	/* found in the kernel's mount tree: nothing to look up, nothing to race */
	if (e->flags & NSAUDIT_F_PIN_EXACT) {
		mntns = e->mnt_ns_inum ?: mntns;
		note_mntns(en, mntns, e->pid, e->tid);
		mounttab_add_id(&en->pins, mntns, path, e->ns_type, e->ns_inum, e->mnt_id,
				e->mnt_unique);
		return true;
	}
#ifdef NSAUDIT_F_MOVE
	/* a known pin moved; otherwise (an open_tree copy the kernel side
	 * resolved, a mount we did not know) it is handled as a bind */
	if ((e->flags & NSAUDIT_F_MOVE) && e->src_path[0] == '/' &&
	    complete_move(en, e, path, mntns))
		return true;
#endif
	if (!(e->flags & NSAUDIT_F_HAS_NS)) {
		snprintf(file, sizeof(file), "/proc/%u/task/%u/mountinfo", e->pid, e->tid ?: e->pid);
		if (find_mount(file, path, &type, &inum, &readable))
			goto found;
		if (e->ppid && mntns && task_mntns(e->ppid, e->ppid) == mntns) {
			snprintf(file, sizeof(file), "/proc/%u/mountinfo", e->ppid);
			if (find_mount(file, path, &type, &inum, &readable))
				goto found;
		}
		if (mntns_mountinfo(en, mntns, file, sizeof(file)) &&
		    (find_mount(file, path, &type, &inum, &readable) ||
		     (realpath(path, real) && find_mount(file, real, &type, &inum, &readable))))
			goto found;
#ifdef NSAUDIT_F_MOVE
		/* the source says whether it could have been a pin */
		if (!nsfs_like_source(en, mntns, e->src_path))
			return false;	/* a bind of an ordinary file */
		if (readable && !e->src_path[0])
			return false;
#else
		if (readable)
			return false;	/* an ordinary bind mount */
#endif
		unresolved(en, mntns ? "no longer mounted when the record was read" :
			   "the actor and its mount namespace were gone when the record was read",
			   "mount");
		return true;
found:
		e->ns_type = type;
		e->ns_inum = inum;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	if (!mntns)
		mntns = en->self_mntns;	/* gone at once: ip netns add runs in ours */
	note_mntns(en, mntns, e->pid, e->tid);
	mounttab_add(&en->pins, mntns, path, e->ns_type, e->ns_inum);
	return true;
}

static bool mntns_alive(struct enrich *en, uint32_t inum);

/*
 * An umount whose path spelling names no pin (DIR//name, a symlinked
 * directory, a relative path, a pin that predates us): the same file by
 * its canonical path (the actor's mount namespace is ours), else the pin
 * of mntns whose mount id left its mountinfo.
 */
static bool umount_by_identity(struct enrich *en, uint32_t mntns, const char *path, int *type,
			       uint32_t *inum)
{
	char real[PATH_MAX], file[96], line[PATH_MAX * 2];
	size_t i, j, nids = 0, cap = 0;
	uint32_t *ids = NULL, *nv;
	bool hit = false;
	FILE *f;

	if (mntns == en->self_mntns && realpath(path, real) &&
	    mounttab_remove(&en->pins, mntns, real, type, inum))
		return true;
	if (!mntns_mountinfo(en, mntns, file, sizeof(file)) || !(f = fopen(file, "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (nids == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(ids, cap * sizeof(*ids));
			if (!nv)
				break;
			ids = nv;
		}
		if (nids < cap)
			ids[nids++] = (uint32_t)strtoul(line, NULL, 10);
	}
	fclose(f);
	for (i = 0; nids && i < en->pins.n && !hit; i++) {
		const struct mount_pin *p = &en->pins.v[i];

		if (p->mntns != mntns || !p->mnt_id || p->exact)
			continue;
		for (j = 0; j < nids && ids[j] != p->mnt_id; j++)
			;
		if (j == nids)
			hit = mounttab_remove_id(&en->pins, mntns, p->mnt_id, 0, type, inum, NULL);
	}
	free(ids);
	return hit;
}

/*
 * umount: the pin at that path in the actor's mount namespace, if any.
 * When the actor's mount namespace cannot be read any more, a path that
 * is a pin in exactly one known mount namespace is taken, and unresolved
 * says that it was matched by path only.
 */
static bool complete_umount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX];
	const struct mount_pin *hit = NULL;
	uint32_t mntns, inum;
	size_t i;
	int type;

	/* the kernel side named the pin it detached: keep the table in step */
	if (e->flags & NSAUDIT_F_PIN_EXACT) {
		mounttab_remove_id(&en->pins, e->mnt_ns_inum, e->mnt_id, e->mnt_unique, &type, &inum,
				   NULL);
		return true;
	}
	absolute_path(e, path, sizeof(path));
	mntns = actor_mntns(e);
	if (mntns) {
		if (!mounttab_remove(&en->pins, mntns, path, &type, &inum) &&
		    !umount_by_identity(en, mntns, path, &type, &inum))
			return false;
	} else {
		/* the actor's mount namespace is gone: if the path is a pin in
		 * several, the one that died with it is the actor's */
		int pass;

		for (pass = 0; pass < 2 && !hit; pass++) {
			for (i = 0; i < en->pins.n; i++) {
				if (strcmp(en->pins.v[i].path, path) ||
				    (pass && en->pins.v[i].mntns == en->self_mntns) ||
				    (pass && mntns_alive(en, en->pins.v[i].mntns)))
					continue;
				if (hit) {
					hit = NULL;	/* ambiguous: not ours to guess */
					if (pass)
						return false;
					break;
				}
				hit = &en->pins.v[i];
			}
		}
		if (!hit)
			return false;
		mntns = hit->mntns;
		mounttab_remove(&en->pins, mntns, path, &type, &inum);
		unresolved(en, "the actor's mount namespace was gone: matched by path", "umount");
	}
	e->ns_type = (uint32_t)type;
	e->ns_inum = inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}

/* A new mount namespace starts with a copy of its parent's pins. */
static void new_mntns(struct enrich *en, const struct nsaudit_event *e)
{
	uint32_t pid = e->op == NSAUDIT_OP_CLONE && e->target_pid > 0 ? (uint32_t)e->target_pid
								     : e->pid;

	if (e->ns_type != NSAUDIT_NS_MNT || e->result < 0 || !(e->flags & NSAUDIT_F_HAS_NS))
		return;
	if (e->op == NSAUDIT_OP_SETNS) {
		note_mntns(en, e->ns_inum, e->pid, e->tid);
		return;
	}
	if (e->flags & NSAUDIT_F_HAS_OLD)
		mounttab_copy_ns(&en->pins, e->old_inum, e->ns_inum);
	note_mntns(en, e->ns_inum, pid, e->op == NSAUDIT_OP_CLONE ? pid : e->tid);
}

static void keep_dead(void *ctx, const struct mount_pin *p)
{
	struct enrich *en = ctx;
	struct dead_pin *d;

	if (p->copied)		/* no record pinned it there: none unpins it */
		return;
	if (en->ndead == en->capdead) {
		size_t cap = en->capdead ? 2 * en->capdead : 16;

		d = realloc(en->dead, cap * sizeof(*d));
		if (!d)
			return;
		en->dead = d;
		en->capdead = cap;
	}
	d = &en->dead[en->ndead];
	d->path = strdup(p->path);
	if (!d->path)
		return;
	d->mntns = p->mntns;
	d->type = p->type;
	d->inum = p->inum;
	en->ndead++;
}

/* Any process in mount namespace inum (one is remembered for it then)? */
static bool mntns_alive(struct enrich *en, uint32_t inum)
{
	struct mntns_task *m = find_mntns(en, inum);
	struct dirent *d;
	unsigned long pid;
	char path[64], *end;
	struct stat st;
	size_t i;
	DIR *dir;

	if (m && task_mntns(m->pid, m->tid) == inum)
		return true;
	/* a bind mount of the mount namespace itself keeps it */
	for (i = 0; i < en->pins.n; i++)
		if (en->pins.v[i].type == NSAUDIT_NS_MNT && en->pins.v[i].inum == inum)
			return true;
	dir = opendir("/proc");
	if (!dir)
		return true;	/* cannot tell: assume it lives */
	while ((d = readdir(dir))) {
		pid = strtoul(d->d_name, &end, 10);
		if (*end || !pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%lu/ns/mnt", pid);
		if (!stat(path, &st) && (uint32_t)st.st_ino == inum) {
			note_mntns(en, inum, (uint32_t)pid, (uint32_t)pid);
			closedir(dir);
			return true;
		}
	}
	closedir(dir);
	/* no process in it: an fd can still hold it */
	return mntns_held_by_fd(inum);
}

void enrich_check_mntns(struct enrich *en)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	uint32_t seen[64];
	size_t i, j, nseen = 0;

	if (now - en->mntns_checked_ns < MNTNS_CHECK_NS)
		return;
	en->mntns_checked_ns = now;
	for (i = 0; i < en->pins.n && nseen < 64; i++) {
		uint32_t ns = en->pins.v[i].mntns;

		/* the kernel side reports its own pins when they go (sweep_pins):
		 * a namespace held by an fd or a bind mount is not dead */
		if (ns == en->self_mntns || en->pins.v[i].exact)
			continue;
		for (j = 0; j < nseen && seen[j] != ns; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = ns;
	}
	for (j = 0; j < nseen; j++)
		if (!mntns_alive(en, seen[j]))
			mounttab_drop_ns(&en->pins, seen[j], keep_dead, en);
}

bool enrich_pin_left(struct enrich *en, const struct nsaudit_pin *pin, struct nsaudit_event *e,
		     bool *ns_died)
{
	char *path = NULL;
	uint32_t inum;
	int type, alive;

	if (!mounttab_remove_id(&en->pins, pin->mnt_ns_inum, pin->mnt_id, pin->mnt_unique, &type,
				&inum, &path))
		return false;
	memset(e, 0, sizeof(*e));
	e->op = NSAUDIT_OP_UMOUNT;
	e->ns_type = pin->ns_type;
	e->ns_inum = pin->ns_inum;
	e->ns_id = pin->ns_id;
	e->flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_PIN_EXACT | NSAUDIT_F_PIN_VANISHED;
	e->fd = -1;
	e->probe = NSAUDIT_PROBE_USER;
	e->ts_boot_ns = (uint64_t)clock_ns(CLOCK_BOOTTIME);
	e->mnt_ns_inum = pin->mnt_ns_inum;
	e->mnt_ns_id = pin->mnt_ns_id;
	e->mnt_unique = pin->mnt_unique;
	e->mnt_id = pin->mnt_id;
	snprintf(e->path, sizeof(e->path), "%s", path ?: "");
	free(path);
	/* by identity where the kernel can tell (inodes are reused) */
	alive = mntns_id_alive(pin->mnt_ns_id);
	*ns_died = alive >= 0 ? !alive : !mntns_alive(en, pin->mnt_ns_inum);
	return true;
}

bool enrich_dead_pin(struct enrich *en, struct nsaudit_event *e, uint32_t *mntns)
{
	struct dead_pin *d;

	if (!en->ndead)
		return false;
	d = &en->dead[--en->ndead];
	memset(e, 0, sizeof(*e));
	e->op = NSAUDIT_OP_UMOUNT;
	e->ns_type = (uint32_t)d->type;
	e->ns_inum = d->inum;
	e->flags = NSAUDIT_F_HAS_NS;
	e->fd = -1;
	e->probe = NSAUDIT_PROBE_USER;
	e->ts_boot_ns = (uint64_t)clock_ns(CLOCK_BOOTTIME);
	snprintf(e->path, sizeof(e->path), "%s", d->path);
	*mntns = d->mntns;
	free(d->path);
	return true;
}

const char *enrich_unresolved(struct enrich *en, const struct nsaudit_event *e, const char *exe,
			      const char *cgroup)
{
	char path[64];
	bool gone;

	if (e->op != NSAUDIT_OP_LOST && e->pid && (!exe || !cgroup)) {
		snprintf(path, sizeof(path), "/proc/%u", e->pid);
		gone = access(path, F_OK) != 0;
		/* kernel threads have no executable: nothing is missing there */
		if (!exe && gone && e->exe_ino)
			unresolved(en, "the process exited before the record was read and its "
				   "executable was not seen at exec", "exe");

	}
	return en->unresolved[0] ? en->unresolved : NULL;
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
	en->unresolved[0] = '\0';
	switch (e->op) {
	case NSAUDIT_OP_MOUNT:
		return complete_mount(en, e);
	case NSAUDIT_OP_UMOUNT:
		return complete_umount(en, e);
	case NSAUDIT_OP_OPEN:
		e->target_pid = proc_ns_path_pid(e->path, e->pid);
		return e->result >= 0 || complete_denied_open(e);
	case NSAUDIT_OP_UNSHARE:
	case NSAUDIT_OP_CLONE:
	case NSAUDIT_OP_SETNS:
		new_mntns(en, e);
		return true;
	default:
		return true;
	}
}
