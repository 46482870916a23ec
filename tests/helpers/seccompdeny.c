// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * seccompdeny - namespace calls a seccomp filter refuses, for
 * tests/integration/23-seccomp-refused.sh. The filter returns
 * SECCOMP_RET_ERRNO(EPERM) the way docker's default profile does for a
 * container without CAP_SYS_ADMIN: unshare, setns, mount, umount2 and
 * clone3 always, clone when its flags ask for a new namespace.
 *
 *   probe N TARGET PIN   install it, then N times each: unshare(UTS|NET),
 *                        unshare(USER), mount(/proc/self/ns/net, TARGET,
 *                        MS_BIND), umount2(PIN, 0), clone(NEWNET),
 *                        clone3(NEWUSER), setns(fd of /proc/self/ns/uts);
 *                        prints "pid N", then "CALL errno NAME" once per
 *                        call kind (the last call's)
 *   exec ns|other CMD... install it (ns), or one that refuses only
 *                        acct(2) (other: a filter that leaves namespace
 *                        calls to the kernel), then exec CMD
 * Exit 0 when every probe call failed with EPERM, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define NS_FLAGS 0x7E020080u	/* CLONE_NEW*: docker's mask, and NEWTIME */

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		 BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int install(int ns)
{
	struct sock_filter deny_ns[] = {
		LOAD_NR,
		DENY(__NR_unshare), DENY(__NR_setns), DENY(__NR_mount),
		DENY(__NR_umount2), DENY(__NR_clone3),
		/* clone: refused when its flags ask for a namespace */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		ALLOW,
		ALLOW,
	};
	struct sock_filter deny_other[] = { LOAD_NR, DENY(__NR_acct), ALLOW };
	struct sock_fprog p = { sizeof(deny_ns) / sizeof(deny_ns[0]), deny_ns };

	if (!ns) {
		p.len = sizeof(deny_other) / sizeof(deny_other[0]);
		p.filter = deny_other;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p)) {
		perror("seccompdeny: installing the filter");
		return -1;
	}
	return 0;
}

static int bad;

/* One call kind's last errno; any that is not EPERM (or a success) is bad. */
static void said(const char *call, long r)
{
	int e = errno;

	if (r != -1 || e != EPERM)
		bad = 1;
	printf("%s errno %s\n", call, r == -1 ? strerrorname_np(e) : "none");
}

static int probe(int n, const char *target, const char *pin)
{
	struct clone_args ca = { .flags = CLONE_NEWUSER, .exit_signal = SIGCHLD };
	int fd = open("/proc/self/ns/uts", O_RDONLY), i;
	long r = 0;

	if (fd < 0 || install(1))
		return 1;
	printf("pid %d\n", getpid());
	for (i = 0; i < n; i++)
		r = unshare(CLONE_NEWUTS | CLONE_NEWNET);
	said("unshare", r);
	for (i = 0; i < n; i++)
		r = unshare(CLONE_NEWUSER);
	said("unshare_user", r);
	for (i = 0; i < n; i++)
		r = mount("/proc/self/ns/net", target, NULL, MS_BIND, NULL);
	said("mount", r);
	for (i = 0; i < n; i++)
		r = umount2(pin, 0);
	said("umount2", r);
	for (i = 0; i < n; i++) {
		r = syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
		if (r == 0)
			_exit(0);
	}
	said("clone", r);
	for (i = 0; i < n; i++) {
		r = syscall(SYS_clone3, &ca, sizeof(ca));
		if (r == 0)
			_exit(0);
	}
	said("clone3", r);
	for (i = 0; i < n; i++)
		r = setns(fd, CLONE_NEWUTS);
	said("setns", r);
	return bad;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "probe"))
		return probe(atoi(argv[2]), argv[3], argv[4]);
	if (argc >= 4 && !strcmp(argv[1], "exec")) {
		if (install(!strcmp(argv[2], "ns")))
			return 1;
		execvp(argv[3], argv + 3);
		perror("seccompdeny: exec");
		return 127;
	}
	fprintf(stderr, "usage: seccompdeny probe N TARGET PIN | exec ns|other CMD...\n");
	return 2;
}
