// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsfd_workload - the guest workload for "nsaudit on the patched kernel":
 * nsfd() for all eight types (one denied by the access check, one for a pid
 * that does not exist, one for the pid namespace for children), a
 * PIDFD_GET_*_NAMESPACE ioctl, setns through nsfd fds, a time namespace left
 * after unshare(CLONE_NEWTIME) without a fork, a bind-mount pin of an nsfd fd
 * outliving its namespace's last process, unshare, and namespaces that die.
 * It prints what it did, one fact per line, for the host to compare with the
 * traced records:
 *   nsfd TYPE FD INODE          denied ERRNO          esrch PID
 *   children pid INODE          pidfd TYPE FD INODE   timeleft OWN CHILDREN
 *   setns TYPE INODE            pinned net INODE      freed TYPE INODE
 *   unshared TYPE OLD NEW       cloned TYPE PID OLD NEW
 * Static, for the busybox initramfs. Needs the kernel-patch series, and
 * calls nsfd() only with the number /proc/sys/kernel/nsfd_syscall_nr gives
 * (the file exists only with the series; the number is not mainline's).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#define NSFD_FOR_CHILDREN 0x1
#define PIDFD_GET_NET_NAMESPACE _IO(0xFF, 4)

static const struct {
	const char *name;
	int flag;
} types[] = {
	{ "net", CLONE_NEWNET },   { "uts", CLONE_NEWUTS },	  { "ipc", CLONE_NEWIPC },
	{ "mnt", CLONE_NEWNS },	   { "pid", CLONE_NEWPID },	  { "user", CLONE_NEWUSER },
	{ "cgroup", CLONE_NEWCGROUP }, { "time", CLONE_NEWTIME },
};

static long nsfd_nr = -1;	/* from /proc/sys/kernel/nsfd_syscall_nr */

static int nsfd(pid_t pid, unsigned int type, unsigned int flags)
{
	if (nsfd_nr <= 0) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(nsfd_nr, pid, type, flags);
}

/* The series says whether the kernel has nsfd(), and its number. */
static int have_nsfd(void)
{
	FILE *f = fopen("/proc/sys/kernel/nsfd_syscall_nr", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &nsfd_nr) != 1)
		nsfd_nr = -1;
	fclose(f);
	return nsfd_nr > 0;
}

static unsigned long ino_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (unsigned long)st.st_ino;
}

/* A child that unshares FLAGS and waits to be killed; its pid. */
static pid_t child_in_new(int flags)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (unshare(flags))
			_exit(1);
		write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		return -1;
	close(p[0]);
	return pid;
}

/*
 * 5. unshare in a child that exits: its uts and ipc namespaces die;
 * 6. clone() with CLONE_NEWUTS: the child is born in a new one.
 */
static void unshare_and_clone(void)
{
	int fd, status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		unsigned long old;

		fd = open("/proc/self/ns/uts", O_RDONLY);
		old = ino_of(fd);
		close(fd);
		if (unshare(CLONE_NEWUTS | CLONE_NEWIPC))
			_exit(1);
		fd = open("/proc/self/ns/uts", O_RDONLY);
		printf("unshared uts %lu %lu\n", old, ino_of(fd));
		close(fd);
		fd = open("/proc/self/ns/ipc", O_RDONLY);
		printf("freed ipc %lu\n", ino_of(fd));
		_exit(0);
	}
	waitpid(pid, &status, 0);

	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (pid > 0) {
		char path[64];
		int cfd;

		snprintf(path, sizeof(path), "/proc/%d/ns/uts", pid);
		cfd = open(path, O_RDONLY);
		fd = open("/proc/self/ns/uts", O_RDONLY);
		printf("cloned uts %d %lu %lu\n", pid, ino_of(fd), ino_of(cfd));
		close(cfd);
		close(fd);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	} else {
		printf("error clone %d\n", errno);
	}
}

int main(void)
{
	unsigned int i;
	int fd, status;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!have_nsfd()) {
		printf("error kernel without nsfd() (no /proc/sys/kernel/nsfd_syscall_nr)\n");
		return 1;
	}
	/* 1. every type, for the caller */
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		fd = nsfd(0, types[i].flag, 0);
		if (fd < 0) {
			printf("error nsfd %s %d\n", types[i].name, errno);
			continue;
		}
		printf("nsfd %s %d %lu\n", types[i].name, fd, ino_of(fd));
		close(fd);
	}

	/* 2. denied: an unprivileged caller against pid 1 */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = nsfd(1, CLONE_NEWNET, 0);
		printf("denied %d\n", fd < 0 ? errno : 0);
		_exit(0);
	}
	waitpid(pid, &status, 0);

	/* 2b. a pid that does not exist: the record names the pid asked for */
	if (nsfd(999999, CLONE_NEWUTS, 0) < 0 && errno == ESRCH)
		printf("esrch 999999\n");
	else
		printf("error nsfd of a missing pid %d\n", errno);

	/* 2c. the pidfd form */
	{
		int pidfd = (int)syscall(__NR_pidfd_open, getpid(), 0);

		fd = pidfd >= 0 ? ioctl(pidfd, PIDFD_GET_NET_NAMESPACE, 0) : -1;
		if (fd >= 0)
			printf("pidfd net %d %lu\n", fd, ino_of(fd));
		else
			printf("error PIDFD_GET_NET_NAMESPACE %d\n", errno);
		close(fd);
		close(pidfd);
	}

	/* 2d. the pid namespace for children, before the first child */
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWPID))
			_exit(1);
		fd = nsfd(0, CLONE_NEWPID, NSFD_FOR_CHILDREN);
		if (fd >= 0)
			printf("children pid %lu\n", ino_of(fd));
		else
			printf("error nsfd pid_for_children %d\n", errno);
		_exit(0);
	}
	waitpid(pid, &status, 0);

	/*
	 * 2e. unshare(CLONE_NEWTIME) without a fork, then setns into the time
	 * namespace the process is in: it leaves its own, not the one for its
	 * children (the two differ here)
	 */
	pid = fork();
	if (pid == 0) {
		unsigned long own, children;
		int cfd;

		if (unshare(CLONE_NEWTIME))
			_exit(1);
		fd = nsfd(0, CLONE_NEWTIME, 0);
		cfd = nsfd(0, CLONE_NEWTIME, NSFD_FOR_CHILDREN);
		own = ino_of(fd);
		children = ino_of(cfd);
		if (fd >= 0 && cfd >= 0 && !setns(fd, CLONE_NEWTIME))
			printf("timeleft %lu %lu\n", own, children);
		else
			printf("error setns time %d\n", errno);
		_exit(0);
	}
	waitpid(pid, &status, 0);

	/* 3. setns into another process's uts namespace through an nsfd fd */
	pid = child_in_new(CLONE_NEWUTS);
	fd = nsfd(pid, CLONE_NEWUTS, 0);
	if (fd >= 0 && !setns(fd, CLONE_NEWUTS))
		printf("setns uts %lu\n", ino_of(fd));
	else
		printf("error setns uts %d\n", errno);
	close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* 4. a bind-mounted nsfd keeps a netns alive after its last process */
	pid = child_in_new(CLONE_NEWNET);
	fd = nsfd(pid, CLONE_NEWNET, 0);
	mkdir("/tmp/nsaudit", 0700);
	close(open("/tmp/nsaudit/pin-net", O_CREAT | O_RDONLY, 0600));
	{
		char src[64];
		unsigned long ino = ino_of(fd);

		snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
		if (mount(src, "/tmp/nsaudit/pin-net", NULL, MS_BIND, NULL))
			printf("error mount %d\n", errno);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		close(fd);
		fd = open("/tmp/nsaudit/pin-net", O_RDONLY);
		if (fd >= 0 && ino_of(fd) == ino && !setns(fd, CLONE_NEWNET))
			printf("pinned net %lu\n", ino);
		fd >= 0 ? close(fd) : 0;
		/* back home, then drop the last pin: the netns is freed */
		fd = nsfd(1, CLONE_NEWNET, 0);
		setns(fd, CLONE_NEWNET);
		close(fd);
		umount2("/tmp/nsaudit/pin-net", MNT_DETACH);
		printf("freed net %lu\n", ino);
	}

	unshare_and_clone();
	sleep(1);	/* net namespaces are freed from a workqueue */
	return 0;
}
