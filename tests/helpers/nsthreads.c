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
	} else if (argc == 4 && !strcmp(argv[1], "move")) {
		if (syscall(SYS_move_mount, AT_FDCWD, argv[2], AT_FDCWD, argv[3], 0))
			die("move_mount");
		printf("pid %d\n", getpid());
		return 0;
	} else {
		fprintf(stderr, "usage: nsthreads setns PATH | pin PIN | move SRC DST\n");
		return 2;
	}
	pthread_join(th, NULL);
	fflush(stdout);
	return 0;
}
