// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nspaths - the less travelled ways to get hold of a namespace, one per
 * command, for tests/integration/15-kernel-paths.sh. Each prints "pid N"
 * (and "tid N" where a thread acts), then what it observed itself, as
 * "KEY VALUE" lines the test compares nsaudit's records with:
 *
 *   ns-ioctl userns|parent PATH   ioctl NS_GET_USERNS/NS_GET_PARENT on PATH;
 *                                 "fd N", "inum I" of the new fd
 *   owner-uid PATH                ioctl NS_GET_OWNER_UID; "uid U", "inum I"
 *   pidfd-ns PID TYPE [setns]     ioctl PIDFD_GET_<TYPE>_NAMESPACE; "fd",
 *                                 "inum"; with setns: setns(fd, 0), "setns R"
 *   getfd PID FD [setns]          pidfd_getfd of PID's FD; "fd", "inum"
 *   handle PATH [setns]           name_to_handle_at + open_by_handle_at of
 *                                 an nsfs file (6.18+); "fd", "inum"
 *   clone-fail einval|eperm|enospc [clone3]
 *                                 a clone with CLONE_NEWNET that fails;
 *                                 "errno E"
 *   setns-badfd                   setns(-1, 0): "errno E"
 *   setns-eventfd                 setns(eventfd, CLONE_NEWNET): "errno E"
 *   setns-pidfd0 PID              setns(pidfd, 0): "errno E"
 *   thread-setns PATH TYPE        a second thread setns(open(PATH), TYPE);
 *                                 "tid N", "result R"
 *   move-path SRC DST             move_mount(AT_FDCWD, SRC, AT_FDCWD, DST, 0)
 *   loop-then-sleep N PATH SECS   N x setns(fd of PATH, 0), then sleep
 *   hold PATH                     open PATH and wait for stdin to close
 *                                 ("fd N"): an fd for getfd to copy
 * Exit 0 when the call did what the command means (a failure, for the
 * failing ones), 3 when the kernel does not have the feature.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
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
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif

#define NSIO		  0xb7
#define NS_GET_USERNS	  _IO(NSIO, 0x1)
#define NS_GET_PARENT	  _IO(NSIO, 0x2)
#define NS_GET_OWNER_UID  _IO(NSIO, 0x4)
#define PIDFS_IOCTL_MAGIC 0xFF

static const struct {
	const char *name;
	int nr;
} pidfd_types[] = {
    {"cgroup", 1}, {"ipc", 2},
    {"mnt", 3},	   {"net", 4},
    {"pid", 5},	   {"pid_for_children", 6},
    {"time", 7},   {"time_for_children", 8},
    {"user", 9},   {"uts", 10},
};

static int die(const char *what)
{
	fprintf(stderr, "nspaths: %s: %s\n", what, strerror(errno));
	return 1;
}

static void print_fd(int fd)
{
	struct stat st;

	printf("fd %d\n", fd);
	if (!fstat(fd, &st))
		printf("inum %lu\n", (unsigned long)st.st_ino);
}

static int maybe_setns(int fd, int argc, char **argv, int at)
{
	if (argc > at && !strcmp(argv[at], "setns")) {
		int r = setns(fd, 0);

		printf("setns %d\n", r ? -errno : 0);
		return r ? 1 : 0;
	}
	return 0;
}

static int pidfd_of(const char *pid)
{
	return syscall(SYS_pidfd_open, atoi(pid), 0);
}

struct clone_args_min {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

static long do_clone(uint64_t flags, int use3)
{
	long r;

	if (use3) {
		struct clone_args_min a = {.flags = flags, .exit_signal = SIGCHLD};

		r = syscall(SYS_clone3, &a, sizeof(a));
	} else {
		r = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
	}
	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid(r, NULL, 0);
	return r;
}

static int clone_fail(const char *how, int use3)
{
	long r;

	if (!strcmp(how, "einval")) {
		/* a new mount namespace cannot share the fs struct */
		r = do_clone(CLONE_NEWNET | CLONE_NEWNS | CLONE_FS, use3);
	} else if (!strcmp(how, "eperm")) {
		if (setgid(65534) || setuid(65534))
			return die("setuid");
		r = do_clone(CLONE_NEWNET, use3);
	} else if (!strcmp(how, "enospc")) {
		/* a user namespace of our own, whose netns limit is 0 */
		int fd;

		if (unshare(CLONE_NEWUSER))
			return die("unshare user");
		fd = open("/proc/sys/user/max_net_namespaces", O_WRONLY);
		if (fd < 0 || write(fd, "0\n", 2) != 2)
			return die("max_net_namespaces");
		close(fd);
		r = do_clone(CLONE_NEWNET, use3);
	} else {
		fprintf(stderr, "nspaths: clone-fail einval|eperm|enospc\n");
		return 2;
	}
	printf("errno %d\n", r < 0 ? errno : 0);
	return r < 0 ? 0 : 1;
}

struct thread_arg {
	int fd, type, result;
	pid_t tid;
};

static void *thread_setns(void *p)
{
	struct thread_arg *a = p;

	a->tid = syscall(SYS_gettid);
	a->result = setns(a->fd, a->type) ? -errno : 0;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd, nfd;

	printf("pid %d\n", getpid());
	fflush(stdout);
	if (!strcmp(cmd, "ns-ioctl") && argc > 3) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			return die(argv[3]);
		nfd = ioctl(fd, !strcmp(argv[2], "parent") ? NS_GET_PARENT : NS_GET_USERNS);
		if (nfd < 0) {
			printf("errno %d\n", errno);
			return 1;
		}
		print_fd(nfd);
		return 0;
	}
	if (!strcmp(cmd, "owner-uid") && argc > 2) {
		struct stat st;
		uid_t uid;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			return die(argv[2]);
		if (ioctl(fd, NS_GET_OWNER_UID, &uid))
			return die("NS_GET_OWNER_UID");
		printf("uid %u\ninum %lu\n", uid, (unsigned long)st.st_ino);
		return 0;
	}
	if (!strcmp(cmd, "pidfd-ns") && argc > 3) {
		size_t i;

		fd = pidfd_of(argv[2]);
		if (fd < 0)
			return die("pidfd_open");
		for (i = 0; i < sizeof(pidfd_types) / sizeof(pidfd_types[0]); i++)
			if (!strcmp(pidfd_types[i].name, argv[3]))
				break;
		if (i == sizeof(pidfd_types) / sizeof(pidfd_types[0]))
			return 2;
		nfd = ioctl(fd, _IO(PIDFS_IOCTL_MAGIC, pidfd_types[i].nr), 0);
		if (nfd < 0) {
			printf("errno %d\n", errno);
			return errno == ENOTTY || errno == EINVAL ? 3 : 1;
		}
		print_fd(nfd);
		return maybe_setns(nfd, argc, argv, 4);
	}
	if (!strcmp(cmd, "getfd") && argc > 3) {
		fd = pidfd_of(argv[2]);
		if (fd < 0)
			return die("pidfd_open");
		nfd = syscall(SYS_pidfd_getfd, fd, atoi(argv[3]), 0);
		if (nfd < 0)
			return die("pidfd_getfd");
		print_fd(nfd);
		return maybe_setns(nfd, argc, argv, 4);
	}
	if (!strcmp(cmd, "handle") && argc > 2) {
		struct {
			struct file_handle fh;
			unsigned char buf[128];
		} h = {.fh.handle_bytes = 128};
		int mnt_id;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return die(argv[2]);
		if (syscall(SYS_name_to_handle_at, fd, "", &h.fh, &mnt_id, AT_EMPTY_PATH)) {
			printf("errno %d\n", errno);
			return 3;
		}
		/* FD_NSFS_ROOT (6.18): handles of nsfs files are opened from it */
		nfd = syscall(SYS_open_by_handle_at, -10003, &h.fh, O_RDONLY);
		if (nfd < 0) {
			printf("errno %d\n", errno);
			return 3;
		}
		print_fd(nfd);
		return maybe_setns(nfd, argc, argv, 3);
	}
	if (!strcmp(cmd, "clone-fail") && argc > 2)
		return clone_fail(argv[2], argc > 3 && !strcmp(argv[3], "clone3"));
	if (!strcmp(cmd, "setns-badfd")) {
		printf("errno %d\n", setns(-1, 0) ? errno : 0);
		return 0;
	}
	if (!strcmp(cmd, "setns-eventfd")) {
		fd = eventfd(0, 0);
		printf("fd %d\nerrno %d\n", fd, setns(fd, CLONE_NEWNET) ? errno : 0);
		return 0;
	}
	if (!strcmp(cmd, "setns-pidfd0") && argc > 2) {
		fd = pidfd_of(argv[2]);
		if (fd < 0)
			return die("pidfd_open");
		printf("fd %d\nerrno %d\n", fd, setns(fd, 0) ? errno : 0);
		return 0;
	}
	if (!strcmp(cmd, "thread-setns") && argc > 3) {
		struct thread_arg a = {.type = atoi(argv[3])};
		pthread_t th;

		a.fd = open(argv[2], O_RDONLY);
		if (a.fd < 0)
			return die(argv[2]);
		pthread_create(&th, NULL, thread_setns, &a);
		pthread_join(th, NULL);
		printf("tid %d\nresult %d\n", a.tid, a.result);
		return a.result ? 1 : 0;
	}
	if (!strcmp(cmd, "move-path") && argc > 3) {
		if (syscall(SYS_move_mount, AT_FDCWD, argv[2], AT_FDCWD, argv[3], 0))
			return die("move_mount");
		return 0;
	}
	if (!strcmp(cmd, "loop-then-sleep") && argc > 4) {
		int i, n = atoi(argv[2]);

		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			return die(argv[3]);
		for (i = 0; i < n; i++)
			if (setns(fd, 0))
				return die("setns");
		printf("done\n");
		fflush(stdout);
		sleep(atoi(argv[4]));
		return 0;
	}
	if (!strcmp(cmd, "hold") && argc > 2) {
		char c;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return die(argv[2]);
		printf("fd %d\n", fd);
		fflush(stdout);
		while (read(0, &c, 1) > 0)
			;
		return 0;
	}
	fprintf(stderr, "nspaths: unknown command (see the header of nspaths.c)\n");
	return 2;
}
