// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * enrich.c - what a record's actor is, cached: its executable (from the
 * kernel's exe map or /proc); the cache's life and the clock records are
 * dated by. Cgroups: enrich_cgroup.c. Mount namespaces and pins:
 * enrich_mntns.c, enrich_pins.c.
 */
#include <errno.h>
#include <dirent.h>
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
#include "enrich_impl.h"
#include "mountinfo.h"
#include "mounttab.h"
#include "mntns_id.h"
#include "nstype.h"
#include "array.h"

struct enrich *enrich_new(void)
{
	struct enrich *en = calloc(1, sizeof(*en));

	if (!en)
		return NULL;
	en->exe_map_fd = -1;
	en->cgroup2_fd = -1;
	en->task_iter_fd = -1;
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
	enrich_cgroups_free(en);
	free(en->tasks);
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
struct proc_info *proc_slot(struct enrich *en, uint32_t pid, const char *comm)
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
	char link[64], buf[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!s->exe_key)
		return;		/* kernel thread */
	snprintf(link, sizeof(link), "/proc/%u/exe", s->pid);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;		/* gone */
	/* longer than the entry holds: its first bytes, marked as the kernel
	 * side marks them */
	if ((size_t)n >= sizeof(v->path)) {
		n = sizeof(v->path) - 1;
		v->flags |= NSAUDIT_EXE_F_CUT;
	}
	memcpy(v->path, buf, (size_t)n);
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

/* path is this very file: its inode and the kernel's dev_t of its file system */
static bool same_file(const char *path, uint64_t ino, uint32_t kdev)
{
	struct stat st;

	return !stat(path, &st) && (uint64_t)st.st_ino == ino &&
	       (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev)) == kdev;
}

static char *exe_from_map(struct enrich *en, const struct nsaudit_event *e, struct proc_info *p,
			  bool *cut)
{
	uint64_t key = e->exe_key, ino = e->exe_ino, call_ns = e->ts_boot_ns;
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
	/* a directory is no executable: the kernel side could not render
	 * the file an exec by fd ran: not known */
	if (!strcmp(v->path, "/"))
		return NULL;
	/* the first bytes of a longer path: never resolved (they may name
	 * another file), kept as they are and said to be cut */
	if (v->flags & NSAUDIT_EXE_F_CUT) {
		*cut = true;
		p->exe_mntns = v->mntns;
		p->exe_mntns_id = v->mntns_id;
		return strdup(v->path);
	}
	/* runc and crun run themselves from a detached bind of their binary:
	 * the path in its own file system names it only if it leads to the
	 * very file here (the host's root: the runtime's binary) */
	if (v->flags & NSAUDIT_EXE_F_FS_PATH) {
		if (!realpath(v->path, real) || !same_file(real, ino, e->exe_dev))
			return NULL;
		p->exe_mntns = en->self_mntns;
		return strdup(real);
	}
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
	/* "/": what the kernel renders for crun's executable (run by fd):
	 * a directory is no executable, so it is not known */
	if (n <= 0 || (n == 1 && buf[0] == '/'))
		return NULL;
	buf[n] = '\0';
	p->exe_mntns = task_mntns(pid, 0);
	return strdup(buf);
}

const char *enrich_exe(struct enrich *en, const struct nsaudit_event *e, uint32_t *mntns,
		       uint64_t *mntns_id, bool *cut)
{
	struct proc_info *p = proc_slot(en, e->pid, e->comm);
	char *whole;

	if (!p->exe_done || p->exe_key != e->exe_key || p->exe_ino != e->exe_ino) {
		free(p->exe);
		p->exe_mntns = 0;
		p->exe_mntns_id = 0;
		p->exe_cut = false;
		p->exe = exe_from_map(en, e, p, &p->exe_cut);
		/* a cut path: the whole one while the process still runs the
		 * record's file (PATH_MAX, same inode) */
		if (!p->exe || p->exe_cut) {
			whole = exe_from_proc(e->pid, e->exe_ino, p);
			if (whole) {
				free(p->exe);
				p->exe = whole;
				p->exe_cut = false;
				p->exe_mntns_id = 0;
			}
		}
		p->exe_key = e->exe_key;
		p->exe_ino = e->exe_ino;
		p->exe_done = true;
	}
	*mntns = p->exe ? p->exe_mntns : 0;
	*mntns_id = p->exe ? p->exe_mntns_id : 0;
	*cut = p->exe && p->exe_cut;
	return p->exe;
}

#ifdef NSAUDIT_F_MOVE

#endif

