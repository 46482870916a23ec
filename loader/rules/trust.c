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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rules_impl.h"
#include "array.h"

/* where Debian and common installs put them; only those present count */
static const char *const default_trusted[] = {
	"/usr/sbin/runc", "/usr/bin/runc", "/usr/bin/crun", "/usr/bin/conmon",
	"/usr/libexec/podman/conmon", "/usr/bin/podman", "/usr/bin/bwrap",
	"/usr/bin/containerd", "/usr/bin/containerd-shim-runc-v2", "/usr/sbin/runsc",
	"/usr/bin/firejail", "/usr/bin/systemd-nspawn", "/usr/bin/catatonit",
	"/usr/libexec/podman/catatonit",
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

void facts_trust_defaults(struct facts_ctx *fx)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(default_trusted); i++)
		facts_trust_exe(fx, default_trusted[i]);
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

static bool host_mnt(const struct facts_ctx *fx, uint32_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%u/ns/mnt", pid);
	return !stat(path, &st) && facts_host_ns(fx, NSAUDIT_NS_MNT, (uint32_t)st.st_ino);
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
			return (uint64_t)st.st_size == size && host_mnt(fx, pid);
		if (!memfd || (uint64_t)st.st_size != size)
			return false;
	}
	return false;
}

bool facts_trusted(struct facts_ctx *fx, const struct nsaudit_event *e, uint32_t mntns)
{
	struct stat st;
	bool memfd = false;

	if (mntns && !facts_host_ns(fx, NSAUDIT_NS_MNT, mntns))
		return false;
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
