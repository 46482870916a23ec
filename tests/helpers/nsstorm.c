// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsstorm - floods that nsflood does not make (issue 47: "floods not
 * named"), for the flooder's side of a fairness test.
 *
 *   nsstorm KIND SECONDS
 *
 * Every thread group that makes calls prints one line when it is done:
 *   "actor PID OPS CALLS PPID"
 * (OPS: the record ops its calls make, '|' between; CALLS: records of
 * those ops it made, by its own count; PPID: its parent, which its
 * records name too: pids come back during a storm, (pid, ppid) rarely), and the first process prints
 * "pid N" at the start. SIGUSR1 makes the one-process kinds print
 * "mark CALLS" (their calls so far: a flood started before the tracer);
 * SIGTERM ends a flood early (its lines are printed all the same).
 * KIND:
 *   execstorm  children one after another, 4 at a time, each exec'ing
 *              nsstorm again (a new thread group) that makes STORM_CALLS
 *              NS_GET_USERNS ioctls (op nsfd)
 *   forktree   the same, but each caller is the only child of a process
 *              of its own (a fresh parent per caller, no exec)
 *   threads    THREADS threads of one process, each NS_GET_USERNS ioctls
 *              (its mark: the sum of the threads' counts read after the signal)
 *   unshare    in a user namespace of its own, unshare of UTS|IPC|CGROUP|NS
 *              at once, again and again (op unshare; CALLS counts records:
 *              one per type, the first unshare(CLONE_NEWUSER) one more)
 *   clone3     in a user namespace of its own, clone3 with UTS|IPC|CGROUP|NS
 *              of children that exit at once (op clone, one per type)
 *   pidfdsetns in a user namespace of its own, two children with UTS and
 *              IPC namespaces of their own; setns(pidfd, UTS|IPC) into one
 *              then the other (op setns, one record per type)
 *   pidfdsetns_fail  setns(pidfd of pid 1, CLONE_NEWNET|CLONE_NEWUTS),
 *              refused (EPERM) without privilege (op setns, one record
 *              per type)
 *   pidfdns    PIDFD_GET_*_NAMESPACE ioctls on a child's pidfd, the ten
 *              in turn (op nsfd), and NS_GET_OWNER_UID on the user
 *              namespace's fd (op query)
 *   handle     open_by_handle_at of its own net namespace's nsfs handle
 *              (6.18: allowed without privilege; op nsfd, via handle)
 *   comm       NS_GET_USERNS ioctls, the comm set before each call to
 *              "nsrare" (root's rare process's) or "systemd" in turn
 *   pinchurn   in a user+mount namespace of its own: bind mount of
 *              /proc/self/ns/uts on a file and umount, again and again
 *              (ops mount|umount)
 *   mntns      children one after another, each in a new user+mount
 *              namespace binding /proc/self/ns/uts on a file and exiting
 *              with it held: the mount namespace dies with the pin (op
 *              mount, and an inferred umount naming the maker)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define NS_GET_USERNS		0xb701
#define NS_GET_OWNER_UID	0xb704
#define STORM_CALLS		20
#define STORM_WIDTH		4
#define THREADS			16
#define MANY (CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWCGROUP | CLONE_NEWNS)
#define MANY_TYPES		4

static volatile sig_atomic_t marked;
static volatile sig_atomic_t stop;

static void on_usr1(int sig)
{
	(void)sig;
	marked = 1;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* until end, or until SIGTERM */
static int going(double end)
{
	return !stop && now() < end;
}

static void die(const char *what)
{
	fprintf(stderr, "nsstorm: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_ns(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(path);
	return fd;
}

static void actor(const char *ops, unsigned long long calls)
{
	printf("actor %d %s %llu %d\n", getpid(), ops, calls, getppid());
	fflush(stdout);
}

static void check_mark(unsigned long long calls)
{
	if (marked) {
		marked = 0;
		printf("mark %llu\n", calls);
		fflush(stdout);
	}
}

static int ioctl_once(int fd)
{
	int r = ioctl(fd, NS_GET_USERNS, 0);

	if (r < 0)
		return 0;
	close(r);
	return 1;
}

/* own user namespace (uid 0 there), so the other namespaces need no privilege */
static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

/* uid and gid 0 there are ours outside (files can be made) */
static void map_self(uid_t uid, gid_t gid)
{
	char m[64];

	snprintf(m, sizeof(m), "0 %u 1\n", uid);
	write_file("/proc/self/uid_map", m);
	write_file("/proc/self/setgroups", "deny");
	snprintf(m, sizeof(m), "0 %u 1\n", gid);
	write_file("/proc/self/gid_map", m);
}

static void own_userns(unsigned long long *calls)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER))
		die("unshare(CLONE_NEWUSER)");
	(*calls)++;
	map_self(uid, gid);
}

static int storm_child(void)
{
	int fd = open_ns("/proc/self/ns/net"), i, n = 0;

	for (i = 0; i < STORM_CALLS; i++)
		n += ioctl_once(fd);
	actor("nsfd", n);
	return 0;
}

/*
 * Children one after another, STORM_WIDTH at a time, until END; each runs
 * child() and never returns. Prints how many were started.
 */
static int storm(double end, void (*child)(void))
{
	unsigned long long n = 0;
	int running = 0;
	pid_t c;

	while (going(end) || running) {
		if (going(end) && running < STORM_WIDTH) {
			c = fork();
			if (c == 0)
				child();
			if (c > 0) {
				running++;
				n++;
				continue;
			}
		}
		if (wait(NULL) > 0)
			running--;
		else
			break;
	}
	printf("children %llu\n", n);
	return 0;
}

/* a new thread group by exec: the child's calls under a fresh tgid */
static void exec_child(void)
{
	char *argv[] = { "nsstorm", "storm-child", NULL };

	execv("/proc/self/exe", argv);
	_exit(127);
}

static int execstorm(double end)
{
	return storm(end, exec_child);
}

/* a child between: forks the one that calls, waits for it, exits */
static void tree_middle(void)
{
	pid_t c = fork();

	if (c == 0)
		_exit(storm_child());
	if (c > 0)
		waitpid(c, NULL, 0);
	_exit(0);
}

static int forktree(double end)
{
	return storm(end, tree_middle);
}

static unsigned long long thread_calls[THREADS];

static void *thread_main(void *arg)
{
	unsigned long long *calls = arg;
	int fd = open_ns("/proc/self/ns/net");

	while (!stop)
		*calls += ioctl_once(fd);
	close(fd);
	return NULL;
}

static int threads(double end)
{
	pthread_t t[THREADS];
	unsigned long long sum = 0;
	int i;

	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, thread_main, &thread_calls[i]);
	while (going(end)) {
		usleep(20000);
		if (marked) {	/* read after the signal: at least the calls before it */
			unsigned long long m = 0;

			for (i = 0; i < THREADS; i++)
				m += thread_calls[i];
			check_mark(m);
		}
	}
	stop = 1;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		sum += thread_calls[i];
	}
	actor("nsfd", sum);
	return 0;
}

static int unshare_many(double end)
{
	unsigned long long calls = 0;

	own_userns(&calls);
	while (going(end)) {
		if (!unshare(MANY))
			calls += MANY_TYPES;
		check_mark(calls);
	}
	actor("unshare", calls);
	return 0;
}

static int clone3_many(double end)
{
	struct clone_args a;
	unsigned long long calls = 0, unsh = 0;
	pid_t c;

	own_userns(&unsh);
	while (going(end)) {
		memset(&a, 0, sizeof(a));
		a.flags = MANY;
		a.exit_signal = SIGCHLD;
		c = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
		if (c == 0)
			_exit(0);
		if (c > 0) {
			calls += MANY_TYPES;
			waitpid(c, NULL, 0);
		}
		check_mark(calls);
	}
	actor("clone", calls);
	printf("unshare %llu\n", unsh);
	return 0;
}

/* a child in UTS and IPC namespaces of its own, paused; its pidfd */
static int ns_child(pid_t *pid)
{
	int fd;

	*pid = fork();
	if (*pid == 0) {
		if (unshare(CLONE_NEWUTS | CLONE_NEWIPC))
			_exit(1);
		pause();
		_exit(0);
	}
	usleep(50000);
	fd = (int)syscall(SYS_pidfd_open, *pid, 0);
	if (fd < 0)
		die("pidfd_open");
	return fd;
}

static int pidfd_setns(double end)
{
	unsigned long long calls = 0, unsh = 0;
	pid_t a, b;
	int pa, pb, i = 0;

	own_userns(&unsh);
	pa = ns_child(&a);
	pb = ns_child(&b);
	while (going(end)) {
		if (!setns(i++ & 1 ? pb : pa, CLONE_NEWUTS | CLONE_NEWIPC))
			calls += 2;
		check_mark(calls);
	}
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	actor("setns", calls);
	printf("unshare %llu\n", unsh);
	return 0;
}

/* setns(pidfd of init, NET|UTS): refused without privilege over it */
static int pidfd_setns_fail(double end)
{
	unsigned long long calls = 0;
	int p = (int)syscall(SYS_pidfd_open, 1, 0);

	if (p < 0)
		die("pidfd_open(1)");
	while (going(end)) {
		if (setns(p, CLONE_NEWNET | CLONE_NEWUTS) && errno == EPERM)
			calls += 2;	/* one record per type */
		check_mark(calls);
	}
	actor("setns", calls);
	return 0;
}

static int pidfd_ns(double end)
{
	unsigned long long calls = 0;
	unsigned int uid;
	pid_t c;
	int p, fd, i = 0;

	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	p = (int)syscall(SYS_pidfd_open, c, 0);
	if (p < 0)
		die("pidfd_open");
	while (going(end)) {
		/* PIDFD_GET_CGROUP_NAMESPACE (1) .. PIDFD_GET_UTS_NAMESPACE (10) */
		fd = ioctl(p, 0xff00 | (1 + i % 10), 0);
		if (fd >= 0) {
			calls++;
			/* made or refused, a query is a record */
			if (i % 10 == 8) {
				ioctl(fd, NS_GET_OWNER_UID, &uid);
				calls++;
			}
			close(fd);
		}
		i++;
		check_mark(calls);
	}
	kill(c, SIGKILL);
	actor("nsfd|query", calls);
	return 0;
}

static int handle(double end)
{
	struct { struct file_handle fh; unsigned char b[128]; } h;
	unsigned long long calls = 0;
	int mnt, fd;

	h.fh.handle_bytes = sizeof(h.b);
	if (name_to_handle_at(AT_FDCWD, "/proc/self/ns/net", &h.fh, &mnt, AT_SYMLINK_FOLLOW))
		die("name_to_handle_at /proc/self/ns/net");
	fd = open_ns("/proc/self/ns/net");
	while (going(end)) {
		int r = open_by_handle_at(fd, &h.fh, O_RDONLY);

		if (r >= 0)
			close(r);
		calls++;
		check_mark(calls);
	}
	actor("nsfd", calls);
	return 0;
}

static int comm(double end)
{
	unsigned long long calls = 0;
	int fd = open_ns("/proc/self/ns/net"), i = 0;

	while (going(end)) {
		prctl(PR_SET_NAME, i++ & 1 ? "systemd" : "nsrare");
		calls += ioctl_once(fd);
		check_mark(calls);
	}
	actor("nsfd", calls);
	return 0;
}

/* a private tmpfs on /tmp of its own mount namespace, a file to bind on */
static void own_mntns(unsigned long long *unsh)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		die("unshare(CLONE_NEWUSER|CLONE_NEWNS)");
	*unsh += 2;
	map_self(uid, gid);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("mount --make-rprivate /");
	if (mount("nsstorm", "/tmp", "tmpfs", 0, NULL))
		die("mount tmpfs /tmp");
	close(open("/tmp/pin", O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
}

static int pinchurn(double end)
{
	unsigned long long calls = 0, unsh = 0;

	own_mntns(&unsh);
	while (going(end)) {
		if (mount("/proc/self/ns/uts", "/tmp/pin", NULL, MS_BIND, NULL))
			die("bind /proc/self/ns/uts");
		calls++;
		if (umount2("/tmp/pin", 0))
			die("umount /tmp/pin");
		calls++;
		check_mark(calls);
	}
	actor("mount|umount", calls);
	printf("unshare %llu\n", unsh);
	return 0;
}

static int mntns_child(void)
{
	unsigned long long unsh = 0;

	own_mntns(&unsh);
	if (mount("/proc/self/ns/uts", "/tmp/pin", NULL, MS_BIND, NULL))
		die("bind /proc/self/ns/uts");
	printf("held %d\n", getpid());
	actor("mount", 1);
	return 0;
}

static int mntns(double end)
{
	unsigned long long n = 0;
	pid_t c;

	while (going(end)) {
		c = fork();
		if (c == 0)
			_exit(mntns_child());
		if (c > 0) {
			waitpid(c, NULL, 0);
			n++;
		}
		usleep(2000);
	}
	printf("children %llu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(double end); } kinds[] = {
		{ "execstorm", execstorm }, { "threads", threads }, { "unshare", unshare_many },
		{ "clone3", clone3_many }, { "pidfdsetns", pidfd_setns }, { "pidfdns", pidfd_ns },
		{ "handle", handle }, { "comm", comm }, { "pinchurn", pinchurn },
		{ "mntns", mntns }, { "forktree", forktree }, { "pidfdsetns_fail", pidfd_setns_fail },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "storm-child"))
		return storm_child();
	if (argc != 3)
		goto usage;
	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(argv[1], kinds[i].name))
			continue;
		printf("pid %d\n", getpid());
		return kinds[i].fn(now() + atof(argv[2]));
	}
usage:
	fprintf(stderr, "usage: nsstorm KIND SECONDS (KIND: execstorm threads unshare clone3 "
		"pidfdsetns pidfdns handle comm pinchurn mntns forktree pidfdsetns_fail)\n");
	return 2;
}
