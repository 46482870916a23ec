// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * trust.c - the runtime's own work is not an attack: runtimes and
 * sandboxes are known by the identity of their executable file (device
 * and inode, stat'ed from the host's root at start), never by a process
 * name or a path a container can copy. runc and crun re-execute
 * themselves from a memfd copy (CVE-2019-5736): such a process is trusted
 * when its executable is a memfd of a trusted binary's size and its
 * parent chain (the copies' own stages) reaches that binary. A trusted
 * binary counts only run from the host's mount namespace: a privileged
 * container can exec the host's runc through /proc/PID/root, but not from
 * the host's mount namespace without having escaped already.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rules_impl.h"
#include "array.h"
#include "clock.h"
#include "nstype.h"

/* where Debian and common installs put them; only those present count */
static const char *const default_trusted[] = {
	"/usr/sbin/runc", "/usr/bin/runc", "/usr/bin/crun", "/usr/bin/conmon",
	"/usr/libexec/podman/conmon", "/usr/bin/podman", "/usr/bin/bwrap",
	"/usr/bin/containerd", "/usr/bin/containerd-shim-runc-v2", "/usr/sbin/runsc",
	"/usr/bin/firejail", "/usr/bin/systemd-nspawn", "/usr/bin/catatonit",
	"/usr/libexec/podman/catatonit", "/usr/bin/lxc-start", "/usr/bin/lxc-attach",
	"/usr/lib/x86_64-linux-gnu/lxc/lxc-monitord", "/usr/bin/containerd-shim",
	"/usr/bin/buildah", "/usr/bin/ctr", "/usr/sbin/dockerd", "/usr/bin/dockerd",
	"/usr/lib/podman/netavark", "/usr/lib/podman/aardvark-dns", "/usr/bin/slirp4netns",
};

/* memfd copies stand at most this many stages below the binary */
#define CLONE_DEPTH 4

uint32_t facts_kdev(uint64_t st_dev)
{
	return (uint32_t)(major(st_dev) << 20 | minor(st_dev));
}

int facts_trust_exe(struct facts_ctx *fx, const char *path)
{
	struct trusted_exe *t;
	struct stat st;
	int i;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	for (i = 0; i < fx->ntrust; i++)
		if (fx->trust[i].ino == st.st_ino && fx->trust[i].dev == facts_kdev(st.st_dev))
			return 0;
	if (fx->ntrust >= TRUST_MAX)
		return -ENOSPC;
	t = &fx->trust[fx->ntrust++];
	t->ino = st.st_ino;
	t->dev = facts_kdev(st.st_dev);
	t->size = (uint64_t)st.st_size;
	snprintf(t->path, sizeof(t->path), "%s", path);
	return 0;
}

/* the runtimes' network helpers: CNI plugins, every file of their dirs */
static const char *const default_trusted_dirs[] = { "/usr/lib/cni", "/opt/cni/bin" };

void facts_trust_defaults(struct facts_ctx *fx)
{
	char path[COND_STR_LEN];
	struct dirent *d;
	size_t i;
	DIR *dir;

	for (i = 0; i < ARRAY_SIZE(default_trusted); i++)
		facts_trust_exe(fx, default_trusted[i]);
	for (i = 0; i < sizeof(default_trusted_dirs) / sizeof(default_trusted_dirs[0]); i++) {
		dir = opendir(default_trusted_dirs[i]);
		while (dir && (d = readdir(dir)))
			if (d->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", default_trusted_dirs[i],
					 d->d_name);
				facts_trust_exe(fx, path);
			}
		if (dir)
			closedir(dir);
	}
}

static const struct trusted_exe *trusted_id(const struct facts_ctx *fx, uint64_t ino,
					    uint32_t dev)
{
	int i;

	for (i = 0; i < fx->ntrust; i++)
		if (fx->trust[i].ino == ino && fx->trust[i].dev == dev)
			return &fx->trust[i];
	return NULL;
}

/* /proc/PID/exe: its identity, size, and whether it is a memfd. */
static bool proc_exe(uint32_t pid, struct stat *st, bool *memfd)
{
	char path[64], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/exe", pid);
	if (stat(path, st))
		return false;
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	/* the kernel's own rendering of an anonymous memfd file */
	*memfd = !strncmp(link, "/memfd:", 7);
	return true;
}

static uint32_t parent_of(uint32_t pid)
{
	char path[64], buf[512], *p;
	unsigned int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 1, " %*c %u", &ppid);
	fclose(f);
	return ppid;
}

/* Whether pid is in the host's namespace of type (what /proc says now). */
static bool host_ns(const struct facts_ctx *fx, uint32_t pid, int type)
{
	return facts_host_ns(fx, type, facts_proc_ns(pid, nstype_name(type)));
}

/* A memfd copy of a trusted runtime: every stage up to it is one too. */
static bool trusted_clone(const struct facts_ctx *fx, uint32_t pid, uint64_t size)
{
	struct stat st;
	bool memfd;
	int depth;

	for (depth = 0; depth < CLONE_DEPTH; depth++) {
		pid = parent_of(pid);
		if (pid <= 1 || !proc_exe(pid, &st, &memfd))
			return false;
		if (trusted_id(fx, st.st_ino, facts_kdev(st.st_dev)))
			return (uint64_t)st.st_size == size && host_ns(fx, pid, NSAUDIT_NS_MNT);
		if (!memfd || (uint64_t)st.st_size != size)
			return false;
	}
	return false;
}

/* A runtime's stage: a trusted binary, or a memfd of a trusted one's size. */
static bool runtime_stage(const struct facts_ctx *fx, const struct stat *st, bool memfd)
{
	int i;

	if (trusted_id(fx, st->st_ino, facts_kdev(st->st_dev)))
		return true;
	for (i = 0; memfd && i < fx->ntrust; i++)
		if (fx->trust[i].size == (uint64_t)st->st_size)
			return true;
	return false;
}

/*
 * A runtime's process away from the host's mount namespace (runc's and
 * crun's children set up a container's mounts and some go back; crun's
 * child is already the container's pid 1 when it joins a pod's network
 * namespace): trusted when each step up to a trusted binary run in the
 * host's mount and pid namespaces is the runtime's own: a fork (the same
 * executable file) or its re-execution from a memfd copy (of the parent's
 * size). A container's process that execs the host's runc (its shell's
 * child, or the init the shim started) is an exec of another file: not
 * trusted. The first step is the record's, at the call (dev/ino, ppid):
 * the child has often exec'd the container's program or exited by now.
 */
static bool runtime_lineage(const struct facts_ctx *fx, const struct nsaudit_event *e)
{
	uint32_t pid = e->ppid;
	struct stat st;
	bool memfd, child_memfd = false;
	uint64_t ino = e->exe_ino, size = 0;
	uint32_t dev = e->exe_dev;
	int depth;

	if (!pid || !ino)
		return false;
	for (depth = 0; depth < CLONE_DEPTH + 2; depth++) {
		if (pid <= 1 || !proc_exe(pid, &st, &memfd))
			return false;
		if (!(ino == st.st_ino && dev == facts_kdev(st.st_dev)) &&
		    !(child_memfd && size == (uint64_t)st.st_size))
			return false;
		if (trusted_id(fx, st.st_ino, facts_kdev(st.st_dev)))
			return host_ns(fx, pid, NSAUDIT_NS_MNT) && host_ns(fx, pid, NSAUDIT_NS_PID);
		ino = st.st_ino;
		dev = facts_kdev(st.st_dev);
		size = (uint64_t)st.st_size;
		child_memfd = memfd;
		pid = parent_of(pid);
	}
	return false;
}

static bool trusted_now(struct facts_ctx *fx, const struct nsaudit_event *e, bool away)
{
	struct stat st;
	bool memfd = false;

	/* away from the host's mount namespace, the runtime's own child only */
	if (away)
		return runtime_lineage(fx, e);
	if (e->exe_ino && trusted_id(fx, e->exe_ino, e->exe_dev))
		return true;
	if (!proc_exe(e->pid, &st, &memfd))
		return false;
	/* the record's identity, when it has one, is the one at the call */
	if (e->exe_ino && (st.st_ino != e->exe_ino || facts_kdev(st.st_dev) != e->exe_dev))
		return false;
	if (trusted_id(fx, st.st_ino, facts_kdev(st.st_dev)))
		return true;
	return memfd && trusted_clone(fx, e->pid, (uint64_t)st.st_size);
}

/*
 * A process found trusted stays so while it runs the same executable
 * (the record's dev/ino at the call: an exec changes them): a runtime's
 * child is judged on its first record, while its parents are there to be
 * looked at; its later ones often come after the parent has exited
 * (crun's) and the lineage can no longer be read.
 */
bool facts_trusted(struct facts_ctx *fx, const struct nsaudit_event *e, bool away)
{
	struct trusted_proc *p = &fx->tprocs[e->pid % TRUSTED_PROC_SLOTS];
	int64_t now = now_coarse_ns();

	/*
	 * The kernel's answer at the call, where it has one: the actor's
	 * lineage, followed through fork and exec from a trusted executable
	 * run in the host's namespaces (bpf/nsaudit/lineage.bpf.h). Away
	 * from the host's mount namespace that is all trust is; /proc,
	 * read later, is only for actors the kernel side did not follow
	 * (born before it began) or could not mark.
	 */
	if (e->lineage & NSAUDIT_LINEAGE_RUNTIME)
		return true;
	/* a runtime's workload (a container's program) is no runtime */
	if (e->lineage & NSAUDIT_LINEAGE_CONTAINED)
		return false;
	if (away && (e->lineage & NSAUDIT_LINEAGE_FOLLOWED) && !fx->lineage_lost)
		return false;
	if (e->exe_ino && p->pid == e->pid && p->ino == e->exe_ino && p->dev == e->exe_dev &&
	    now - p->at_ns < TRUSTED_PROC_TTL_NS)
		return true;
	if (!trusted_now(fx, e, away))
		return false;
	if (e->exe_ino) {
		p->pid = e->pid;
		p->ino = e->exe_ino;
		p->dev = e->exe_dev;
		p->at_ns = now;
	}
	return true;
}

/* runtimes' processes stand at most this many generations above their work */
#define RUNTIME_DEPTH 8

bool facts_runtime_pid(struct facts_ctx *fx, uint32_t pid)
{
	struct stat st;
	bool memfd;
	int depth;

	for (depth = 0; depth < RUNTIME_DEPTH && pid > 1; depth++, pid = parent_of(pid))
		if (proc_exe(pid, &st, &memfd) && runtime_stage(fx, &st, memfd))
			return true;
	return false;
}
