// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * mntns_id.c - whether a mount namespace lives, asked by identity: inode
 * numbers are reused at once (a namespace that died and the next one made
 * share them), the 64-bit namespace id never is. listmount(2) (6.8; by
 * namespace id 6.11) of a namespace's root answers ENOENT once it is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mntns_id.h"

#ifndef __NR_listmount
#define __NR_listmount 458 /* the same on every architecture */
#endif
#define LSMT_ROOT	     0xffffffffffffffffULL
#define MNT_ID_REQ_SIZE_VER1 32

struct mnt_id_req_v1 {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
	uint64_t mnt_ns_id;
};

int mntns_id_alive(uint64_t id)
{
	struct mnt_id_req_v1 req;
	uint64_t out[1];
	long n;

	if (!id)
		return -1;
	memset(&req, 0, sizeof(req));
	req.size = MNT_ID_REQ_SIZE_VER1;
	req.mnt_id = LSMT_ROOT;
	req.mnt_ns_id = id;
	n = syscall(__NR_listmount, &req, out, 1, 0);
	if (n >= 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

static bool pid_holds(const char *pid, const char *want)
{
	char dir[64], link[96], target[64];
	struct dirent *d;
	bool found = false;
	ssize_t n;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	fds = opendir(dir);
	if (!fds)
		return false;
	while (!found && (d = readdir(fds))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, d->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			found = !strcmp(target, want);
		}
	}
	closedir(fds);
	return found;
}

bool mntns_held_by_fd(uint32_t inum)
{
	char want[32], *end;
	struct dirent *d;
	bool found = false;
	DIR *proc;

	snprintf(want, sizeof(want), "mnt:[%u]", inum);
	proc = opendir("/proc");
	if (!proc)
		return false;
	while (!found && (d = readdir(proc))) {
		strtoul(d->d_name, &end, 10);
		if (*end || d->d_name[0] == '\0')
			continue;
		found = pid_holds(d->d_name, want);
	}
	closedir(proc);
	return found;
}
