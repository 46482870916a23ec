// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsfail - attempts to get hold of a namespace that the kernel refuses, for
 * tests/integration/93-failed-attempts.sh. Each prints "pid N", then what
 * it did and saw as "KEY VALUE" lines ("errno NAME" of the failed call):
 *
 *   handle-stale              open_by_handle_at of an nsfs handle naming
 *                             no namespace (ns_id changed): ESTALE;
 *                             "ns_id I", "inum I"
 *   handle-eperm PATH         name_to_handle_at(PATH) as root, then as
 *                             nobody open_by_handle_at through its own
 *                             file system, not nsfs' root: EPERM (from
 *                             FD_NSFS_ROOT nobody gets ESTALE: namespaces
 *                             out of its reach look absent); "ns_id", "inum"
 *   pidfd-ns-esrch            PIDFD_GET_NET_NAMESPACE on a pidfd of a
 *                             reaped child: ESRCH; "target N"
 *   pidfd-ns-eacces PID       as nobody, PIDFD_GET_NET_NAMESPACE on a
 *                             pidfd of PID (root's): EACCES
 *   getfd-eperm PID FD        as nobody, pidfd_getfd of PID's FD: EPERM
 *   ns-ioctl-eperm parent|userns PATH
 *                             NS_GET_PARENT / NS_GET_USERNS on PATH
 *                             (the initial pid or user namespace): EPERM
 *   open-rel-eacces DIR NAME  as nobody, openat(DIR's fd, NAME): a
 *                             relative ns/TYPE under root's /proc/PID:
 *                             EACCES
 * Exit 0 when the call failed as meant, 3 when the kernel lacks the
 * feature, 1 otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#define FD_NSFS_ROOT (-10003)
#define PIDFD_GET_NET_NAMESPACE _IO(0xff, 4)
#define NS_GET_USERNS _IO(0xb7, 0x1)
#define NS_GET_PARENT _IO(0xb7, 0x2)
#define NOBODY 65534

struct nsfs_handle {
	unsigned int handle_bytes;
	int handle_type;
	uint64_t ns_id;
	uint32_t ns_type;
	uint32_t ns_inum;
	unsigned char pad[112];
};

/* The failure expected: print it, exit 0; anything else: 1. */
static int failed_as(long r, int want)
{
	int e = errno;

	if (r >= 0) {
		printf("result %ld\n", r);
		return 1;
	}
	printf("errno %s\n", strerrorname_np(e) ?: "?");
	return e == want ? 0 : 1;
}

static void drop_to_nobody(void)
{
	if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY)) {
		perror("setresuid");
		exit(1);
	}
}

static int get_handle(const char *path, struct nsfs_handle *h)
{
	int mnt_id, fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(h, 0, sizeof(*h));
	h->handle_bytes = sizeof(*h) - 8;
	if (fd < 0 || syscall(SYS_name_to_handle_at, fd, "", h, &mnt_id, AT_EMPTY_PATH)) {
		perror("name_to_handle_at");
		return errno == EOPNOTSUPP || errno == EINVAL ? 3 : 1;
	}
	close(fd);
	return 0;
}

static int handle_cmd(const char *path, bool stale)
{
	struct nsfs_handle h;
	int rc = get_handle(path, &h), mount_fd = FD_NSFS_ROOT;

	if (rc)
		return rc;
	if (stale)
		h.ns_id = (1ULL << 40) + 7;	/* ids count up from a few: none */
	printf("ns_id %llu\ninum %u\n", (unsigned long long)h.ns_id, h.ns_inum);
	if (!stale) {
		drop_to_nobody();
		mount_fd = AT_FDCWD; /* not nsfs' root: the caller's own file system */
	}
	fflush(stdout);
	return failed_as(syscall(SYS_open_by_handle_at, mount_fd, &h, O_RDONLY),
			 stale ? ESTALE : EPERM);
}

static int pidfd_esrch(void)
{
	int p[2], pidfd;
	pid_t child;
	char c;

	if (pipe(p))
		return 1;
	child = fork();
	if (child == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	if (pidfd < 0)
		return 3;
	close(p[1]);
	waitpid(child, NULL, 0);
	printf("target %d\n", child);
	fflush(stdout);
	return failed_as(ioctl(pidfd, PIDFD_GET_NET_NAMESPACE, 0), ESRCH);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd;

	printf("pid %d\n", getpid());
	fflush(stdout);
	if (!strcmp(cmd, "handle-stale"))
		return handle_cmd("/proc/self/ns/net", true);
	if (!strcmp(cmd, "handle-eperm") && argc > 2)
		return handle_cmd(argv[2], false);
	if (!strcmp(cmd, "pidfd-ns-esrch"))
		return pidfd_esrch();
	if (!strcmp(cmd, "pidfd-ns-eacces") && argc > 2) {
		fd = (int)syscall(SYS_pidfd_open, atoi(argv[2]), 0);
		if (fd < 0)
			return 3;
		drop_to_nobody();
		return failed_as(ioctl(fd, PIDFD_GET_NET_NAMESPACE, 0), EACCES);
	}
	if (!strcmp(cmd, "getfd-eperm") && argc > 3) {
		fd = (int)syscall(SYS_pidfd_open, atoi(argv[2]), 0);
		if (fd < 0)
			return 3;
		drop_to_nobody();
		return failed_as(syscall(SYS_pidfd_getfd, fd, atoi(argv[3]), 0), EPERM);
	}
	if (!strcmp(cmd, "ns-ioctl-eperm") && argc > 3) {
		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 1;
		return failed_as(ioctl(fd, !strcmp(argv[2], "parent") ? NS_GET_PARENT
								  : NS_GET_USERNS), EPERM);
	}
	if (!strcmp(cmd, "open-rel-eacces") && argc > 3) {
		fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return 1;
		drop_to_nobody();
		return failed_as(openat(fd, argv[3], O_RDONLY | O_CLOEXEC), EACCES);
	}
	fprintf(stderr, "usage: see the comment at the top of nsfail.c\n");
	return 2;
}
