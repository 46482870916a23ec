// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsops - make the namespace syscalls nsaudit traces, one at a time, so that
 * integration tests can compare what was traced with what was done.
 *
 *   nsops [-n COMM] setns PATH [TYPE]     open PATH, setns(fd, TYPE flag or 0)
 *   nsops [-n COMM] setns-pidfd PID TYPES  pidfd_open(PID), setns(pidfd, flags)
 *   nsops [-n COMM] unshare TYPES [PROG..] unshare(flags of TYPES, e.g. net,uts),
 *                                          then exec PROG if given (a holder of
 *                                          time and cgroup, which busybox lacks)
 *   nsops [-n COMM] clone TYPES            clone a child with those CLONE_NEW*;
 *                                          prints "child PID NS_INUM..." per type
 *   nsops [-n COMM] open PATH              open and close an nsfs file
 *   nsops [-n COMM] open-by CALL PATH      the same through the raw syscall
 *                                          CALL: open, openat or openat2
 *   nsops [-n COMM] move-mount SRC DST     open_tree(SRC, CLONE) + move_mount
 *   nsops [-n COMM] setns-bad              setns on /dev/null (EINVAL)
 *   nsops [-n COMM] setns-loop N PATH      N times setns(fd of PATH, 0)
 * -n sets the process name (prctl PR_SET_NAME) first: hostile names welcome,
 * \n and \xHH escapes are decoded. -w waits for a byte on stdin before the
 * syscall (a process that exists before the tracer starts).
 * Prints "pid N" first; exits 0 when the syscall did what was asked.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#define OPEN_TREE_CLONE 1
#define MOVE_MOUNT_F_EMPTY_PATH 0x04
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static const struct {
	const char *name;
	unsigned long flag;
} types[] = {
	{ "net", CLONE_NEWNET },   { "uts", CLONE_NEWUTS },	  { "ipc", CLONE_NEWIPC },
	{ "mnt", CLONE_NEWNS },	   { "pid", CLONE_NEWPID },	  { "user", CLONE_NEWUSER },
	{ "cgroup", CLONE_NEWCGROUP }, { "time", CLONE_NEWTIME },
};

static unsigned long flags_of(const char *list)
{
	char buf[128], *tok, *save;
	unsigned long f = 0;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(tok, types[i].name))
				f |= types[i].flag;
	}
	return f;
}

static void decode(const char *in, char *out, size_t len)
{
	size_t o = 0;

	while (*in && o + 1 < len) {
		if (in[0] == '\\' && in[1] == 'n') {
			out[o++] = '\n';
			in += 2;
		} else if (in[0] == '\\' && in[1] == 'x' && in[2] && in[3]) {
			char h[3] = { in[2], in[3], 0 };

			out[o++] = (char)strtol(h, NULL, 16);
			in += 4;
		} else {
			out[o++] = *in++;
		}
	}
	out[o] = '\0';
}

static int die(const char *what)
{
	fprintf(stderr, "nsops: %s: %s\n", what, strerror(errno));
	return 1;
}

static int child_fn(void *arg)
{
	return 0;
}

int main(int argc, char **argv)
{
	char name[64];
	bool wait_go = false;
	int fd;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		decode(argv[2], name, sizeof(name));
		prctl(PR_SET_NAME, name);
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strcmp(argv[1], "-w")) {
		wait_go = true;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: see the comment at the top of nsops.c\n");
		return 2;
	}
	printf("pid %d\n", getpid());
	fflush(stdout);
	if (wait_go && read(0, name, 1) != 1)
		return die("read stdin");
	if (!strcmp(argv[1], "setns") && argc >= 3) {
		fd = open(argv[2], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return die("open");
		if (setns(fd, argc > 3 ? (int)flags_of(argv[3]) : 0))
			return die("setns");
		return 0;
	}
	if (!strcmp(argv[1], "setns-pidfd") && argc == 4) {
		fd = (int)syscall(SYS_pidfd_open, atoi(argv[2]), 0);
		if (fd < 0)
			return die("pidfd_open");
		if (setns(fd, (int)flags_of(argv[3])))
			return die("setns");
		return 0;
	}
	if (!strcmp(argv[1], "setns-bad")) {
		fd = open("/dev/null", O_RDONLY);
		if (setns(fd, CLONE_NEWNET) == 0)
			return 1;
		printf("errno %d\n", errno);
		return 0;
	}
	if (!strcmp(argv[1], "setns-loop") && argc == 4) {
		long i, n = atol(argv[2]);

		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return die("open");
		for (i = 0; i < n; i++)
			if (setns(fd, 0))
				return die("setns");
		return 0;
	}
	if (!strcmp(argv[1], "unshare") && argc >= 3) {
		if (unshare((int)flags_of(argv[2])))
			return die("unshare");
		if (argc > 3) {
			/* exec: a new time namespace is entered here */
			execvp(argv[3], argv + 3);
			return die("exec");
		}
		return 0;
	}
	if (!strcmp(argv[1], "clone") && argc == 3) {
		static char stack[64 * 1024];
		int status;
		pid_t pid = clone(child_fn, stack + sizeof(stack),
				  (int)flags_of(argv[2]) | SIGCHLD, NULL);

		if (pid < 0)
			return die("clone");
		printf("child %d\n", pid);
		waitpid(pid, &status, 0);
		return 0;
	}
	if (!strcmp(argv[1], "open") && argc == 3) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return die("open");
		printf("fd %d\n", fd);
		close(fd);
		return 0;
	}
	if (!strcmp(argv[1], "open-by") && argc == 4) {
		/* struct open_how: flags, mode, resolve */
		unsigned long long how[3] = { O_RDONLY, 0, 0 };

		if (!strcmp(argv[2], "openat2"))
			fd = (int)syscall(SYS_openat2, AT_FDCWD, argv[3], how, sizeof(how));
		else if (!strcmp(argv[2], "openat"))
			fd = (int)syscall(SYS_openat, AT_FDCWD, argv[3], O_RDONLY);
#ifdef SYS_open
		else if (!strcmp(argv[2], "open"))
			fd = (int)syscall(SYS_open, argv[3], O_RDONLY);
#endif
		else
			return die("open-by: no such call here");
		if (fd < 0)
			return die(argv[2]);
		printf("fd %d\n", fd);
		close(fd);
		return 0;
	}
	if (!strcmp(argv[1], "move-mount") && argc == 4) {
		fd = (int)syscall(SYS_open_tree, AT_FDCWD, argv[2], OPEN_TREE_CLONE);
		if (fd < 0)
			return die("open_tree");
		if (syscall(SYS_move_mount, fd, "", AT_FDCWD, argv[3], MOVE_MOUNT_F_EMPTY_PATH))
			return die("move_mount");
		return 0;
	}
	fprintf(stderr, "nsops: unknown command '%s'\n", argv[1]);
	return 2;
}
