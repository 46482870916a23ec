// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsthreads - namespace calls made by a thread other than the leader, and
 * moves of existing mounts, for the integration tests.
 *
 *   nsthreads setns PATH      a second thread enters the namespace PATH
 *                             names; prints "pid P" and "tid T"
 *   nsthreads pin PIN         a second thread unshares its mount namespace,
 *                             bind-mounts its uts namespace at PIN there,
 *                             prints "pid P", "tid T", "mnt INODE", "ready",
 *                             waits for a line on stdin, unmounts PIN,
 *                             prints "unmounted" and exits a second later
 *   nsthreads move SRC DST    move_mount(2) of the mount at SRC to DST (an
 *                             attached mount, not an open_tree copy)
 *   nsthreads exec-setns PATH1 PATH2
 *                             a second thread enters PATH1's namespace and
 *                             execs (taking the leader's tid: de_thread);
 *                             the new program enters PATH2's. Prints
 *                             "pid P", "tid T" (the thread), "exec" and
 *                             "tid P" (after the exec)
 *   nsthreads at-tid TID PATH [PATH2]
 *                             fork until a child gets pid TID (the others
 *                             exit at once; gives up after 4,194,304);
 *                             that child enters PATH's namespace, then
 *                             PATH2's, and prints "pid TID"
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *arg;

static void die(const char *what)
{
	fprintf(stderr, "nsthreads: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *do_setns(void *unused)
{
	int fd = open(arg, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(arg);
	printf("tid %ld\n", (long)syscall(SYS_gettid));
	if (setns(fd, 0))
		die("setns");
	close(fd);
	return NULL;
}

/* The thread enters arg's namespace, then runs "nsthreads setns-here arg2". */
static const char *arg2;

static void *do_exec_setns(void *unused)
{
	char *const argv[] = { "nsthreads", "setns-here", (char *)arg2, NULL };

	do_setns(NULL);
	printf("exec\n");
	fflush(stdout);
	execv("/proc/self/exe", argv);
	die("execv");
	return NULL;
}

static void *do_pin(void *unused)
{
	struct stat st;
	char line[16];

	if (unshare(CLONE_NEWNS))
		die("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("making / private");
	if (mount("/proc/thread-self/ns/uts", arg, NULL, MS_BIND, NULL))
		die("bind mount");
	if (stat("/proc/thread-self/ns/mnt", &st))
		die("stat mnt");
	printf("tid %ld\nmnt %lu\nready\n", (long)syscall(SYS_gettid), (unsigned long)st.st_ino);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return NULL;
	if (umount2(arg, 0))
		die("umount");
	printf("unmounted\n");
	fflush(stdout);
	sleep(1); /* still there when the record is read */
	return NULL;
}

/* Make processes until one is pid tid; it enters path's namespace (and
 * path2's). 0 once it has, 1 if it failed or no child got that pid. */
static int at_tid(pid_t tid, const char *path, const char *path2)
{
	long n;

	for (n = 0; n < 4194304; n++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			if (getpid() != tid)
				_exit(0);
			arg = path;
			printf("pid %d\n", getpid());
			do_setns(NULL);
			if (path2) {
				arg = path2;
				do_setns(NULL);
			}
			fflush(stdout);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (pid == tid)
			return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
	}
	fprintf(stderr, "nsthreads: no child got pid %d\n", tid);
	return 1;
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc == 3 && !strcmp(argv[1], "setns")) {
		arg = argv[2];
		printf("pid %d\n", getpid());
		pthread_create(&th, NULL, do_setns, NULL);
	} else if (argc == 3 && !strcmp(argv[1], "pin")) {
		arg = argv[2];
		printf("pid %d\n", getpid());
		fflush(stdout);
		pthread_create(&th, NULL, do_pin, NULL);
	} else if (argc == 4 && !strcmp(argv[1], "exec-setns")) {
		arg = argv[2];
		arg2 = argv[3];
		printf("pid %d\n", getpid());
		fflush(stdout);
		pthread_create(&th, NULL, do_exec_setns, NULL);
	} else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "at-tid")) {
		return at_tid(atoi(argv[2]), argv[3], argc == 5 ? argv[4] : NULL);
	} else if (argc == 3 && !strcmp(argv[1], "setns-here")) {
		arg = argv[2];
		do_setns(NULL);
		return 0;
	} else if (argc == 4 && !strcmp(argv[1], "move")) {
		if (syscall(SYS_move_mount, AT_FDCWD, argv[2], AT_FDCWD, argv[3], 0))
			die("move_mount");
		printf("pid %d\n", getpid());
		return 0;
	} else {
		fprintf(stderr, "usage: nsthreads setns PATH | pin PIN | move SRC DST | "
				"exec-setns PATH1 PATH2 | at-tid TID PATH [PATH2]\n");
		return 2;
	}
	pthread_join(th, NULL);
	fflush(stdout);
	return 0;
}
