// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsflood - the two sides of a flood-fairness test (issue 32).
 *
 *   nsflood flood KIND SECONDS
 *       one process repeats one namespace call as fast as it can for
 *       SECONDS (comm "nsflood"); KIND:
 *         open        open("/proc/self/ns/net") + close
 *         ioctl       ioctl(NS_GET_USERNS) on a net fd + close of the new fd
 *         pidfd       ioctl(pidfd of itself, PIDFD_GET_NET_NAMESPACE) + close
 *         setns_fail  setns(net fd, CLONE_NEWUTS): EINVAL
 *         unshare     unshare(CLONE_NEWUSER) once, then unshare(CLONE_NEWUTS)
 *                     (a new namespace each time: nothing to coalesce)
 *         mixed       NS_GET_* ioctls in turn, each call's record unlike
 *                     the one before (nothing to coalesce): NS_GET_USERNS
 *                     of its net namespace (+ close), NS_GET_OWNER_UID of
 *                     its user namespace, NS_GET_PARENT of its user
 *                     namespace (refused: EPERM), NS_GET_PARENT of its
 *                     net namespace (refused: EINVAL)
 *       prints "pid N" first and "calls N" at the end: the calls that each
 *       make one record of the kind (op open/nsfd/nsfd/setns/unshare,
 *       mixed: nsfd or query).
 *   nsflood forkflood SECONDS
 *       a fork flood (issue 47): children one after the other for SECONDS,
 *       each making FORK_CALLS NS_GET_USERNS ioctls; prints "pid N" (the
 *       parent), "child N" for each child, and "calls N" at the end.
 *   nsflood rare ROUNDS SECONDS DIR
 *       root's rare operations, each in a fresh child (its pid names the
 *       record), ROUNDS rounds at random moments over SECONDS: unshare
 *       uts, clone with CLONE_NEWUTS, setns into another net namespace,
 *       a failed setns (EINVAL), open of another process's ns file, bind
 *       mount of it on a file in DIR and umount (another child again while
 *       the pin is busy), a pidfd ioctl. Prints one
 *       line per operation: "OP PID TYPE INUM [PATH]", INUM read by the
 *       workload itself (fstat of the nsfs fd, or readlink).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define NS_GET_USERNS 0xb701
#define PIDFD_GET_NET_NAMESPACE 0xff04 /* _IO(0xFF, 4) */

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_ns(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "nsflood: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

#define NS_GET_PARENT 0xb702
#define NS_GET_OWNER_UID 0xb704

/* One call of the mixed flood: the next of four NS_GET_* ioctls, each
 * a record of its own (made or refused, the answer or the errno). */
static int mixed_once(int net, int user)
{
	static unsigned int step;
	unsigned int uid;
	int r;

	switch (step++ % 4) {
	case 0:
		r = ioctl(net, NS_GET_USERNS, 0);
		break;
	case 1:
		return ioctl(user, NS_GET_OWNER_UID, &uid) == 0;
	case 2:
		r = ioctl(user, NS_GET_PARENT, 0);
		break;
	default:
		r = ioctl(net, NS_GET_PARENT, 0);
		break;
	}
	if (r >= 0)
		close(r);
	return 1;	/* made or refused: one record */
}

/* One call of the kind; 1 if it makes one record of the kind. */
static int flood_once(const char *kind, int fd)
{
	static int user = -1;
	int r;

	if (!strcmp(kind, "mixed")) {
		if (user < 0)
			user = open_ns("/proc/self/ns/user");
		return mixed_once(fd, user);
	} else if (!strcmp(kind, "open")) {
		r = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (r < 0)
			return 0;
		close(r);
	} else if (!strcmp(kind, "ioctl") || !strcmp(kind, "pidfd")) {
		r = ioctl(fd, !strcmp(kind, "ioctl") ? NS_GET_USERNS : PIDFD_GET_NET_NAMESPACE, 0);
		if (r < 0)
			return 0;	/* a refusal would be another record */
		close(r);
	} else if (!strcmp(kind, "setns_fail")) {
		if (setns(fd, CLONE_NEWUTS) == 0 || errno != EINVAL)
			return 0;
	} else {
		unshare(CLONE_NEWUTS);	/* failed or not: one record */
	}
	return 1;
}

static int flood(const char *kind, double seconds)
{
	unsigned long long calls = 0;
	double end;
	int fd = -1, i;

	prctl(PR_SET_NAME, "nsflood");
	if (!strcmp(kind, "ioctl") || !strcmp(kind, "setns_fail") || !strcmp(kind, "mixed"))
		fd = open_ns("/proc/self/ns/net");
	else if (!strcmp(kind, "pidfd"))
		fd = pidfd_open(getpid());
	else if (!strcmp(kind, "unshare")) {
		if (unshare(CLONE_NEWUSER)) {
			fprintf(stderr, "nsflood: unshare(CLONE_NEWUSER): %s\n", strerror(errno));
			return 1;
		}
		calls++;	/* that one is an unshare record too */
	} else if (strcmp(kind, "open")) {
		fprintf(stderr, "nsflood: unknown kind '%s'\n", kind);
		return 2;
	}
	if (!strcmp(kind, "pidfd") && fd < 0) {
		fprintf(stderr, "nsflood: pidfd_open: %s\n", strerror(errno));
		return 1;
	}
	printf("pid %d\n", getpid());
	fflush(stdout);
	end = now() + seconds;
	while (now() < end)
		for (i = 0; i < 256; i++)
			calls += flood_once(kind, fd);
	printf("calls %llu\n", calls);
	return 0;
}

#define FORK_CALLS 1000

/* A fork flood's child: FORK_CALLS ioctls; exits 0 if each made a record. */
static void fork_child(void)
{
	int fd = open_ns("/proc/self/ns/net"), i, n = 0;

	for (i = 0; i < FORK_CALLS; i++)
		n += flood_once("ioctl", fd);
	_exit(n == FORK_CALLS ? 0 : 1);
}

static int forkflood(double seconds)
{
	unsigned long long calls = 0;
	double end = now() + seconds;
	int status;
	pid_t pid;

	prctl(PR_SET_NAME, "nsflood");
	printf("pid %d\n", getpid());
	fflush(stdout);
	while (now() < end) {
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "nsflood: fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pid)
			fork_child();
		printf("child %d\n", pid);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "nsflood: child %d: its calls did not all succeed\n", pid);
			return 1;
		}
		calls += FORK_CALLS;
	}
	printf("calls %llu\n", calls);
	return 0;
}

/* ---- root's rare operations --------------------------------------------- */

static unsigned long inum_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (unsigned long)st.st_ino;
}

static unsigned long fd_inum(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (unsigned long)st.st_ino;
}

/* A child doing one operation; it writes its own line; waited for: its exit status. */
static int in_child(void (*fn)(const char *arg, pid_t holder), const char *arg, pid_t holder)
{
	pid_t c = fork();
	int status = 0;

	if (c == 0) {
		prctl(PR_SET_NAME, "nsrare");
		fn(arg, holder);
		fflush(stdout);
		_exit(0);
	}
	if (c > 0)
		waitpid(c, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void op_unshare(const char *arg, pid_t holder)
{
	(void)arg, (void)holder;
	if (!unshare(CLONE_NEWUTS))
		printf("unshare %d uts %lu\n", getpid(), inum_of("/proc/self/ns/uts"));
}

static void op_setns(const char *arg, pid_t holder)
{
	char p[64];
	int fd;

	(void)arg;
	snprintf(p, sizeof(p), "/proc/%d/ns/net", holder);
	fd = open_ns(p);
	if (!setns(fd, CLONE_NEWNET))
		printf("setns %d net %lu\n", getpid(), fd_inum(fd));
}

static void op_setns_fail(const char *arg, pid_t holder)
{
	int fd = open_ns("/proc/self/ns/net");

	(void)arg, (void)holder;
	if (setns(fd, CLONE_NEWUTS) && errno == EINVAL)
		printf("setns_fail %d net %lu\n", getpid(), fd_inum(fd));
}

static void op_open(const char *arg, pid_t holder)
{
	char p[64];
	int fd;

	(void)arg;
	snprintf(p, sizeof(p), "/proc/%d/ns/net", holder);
	fd = open_ns(p);
	printf("open %d net %lu\n", getpid(), fd_inum(fd));
}

static void op_mount(const char *file, pid_t holder)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/ns/net", holder);
	if (!mount(p, file, NULL, MS_BIND, NULL))
		printf("mount %d net %lu %s\n", getpid(), inum_of(p), file);
	else
		fprintf(stderr, "nsflood: mount %s: %s\n", file, strerror(errno));
}

/*
 * An umount2 of a pin fails EBUSY while another process has it open (a
 * holders scan, `nsaudit holders` or `lifetime`, opens every nsfs mount on
 * the machine and holds it for seconds): the child says so, and a fresh
 * child (another pid, so the refused call's record is not taken for the
 * one printed) tries again, every 100 ms for up to 5 s.
 */
#define UMOUNT_BUSY 2
#define UMOUNT_TRIES 50

static void op_umount(const char *file, pid_t holder)
{
	unsigned long ino = inum_of(file);

	(void)holder;
	if (!umount2(file, 0))
		printf("umount %d net %lu %s\n", getpid(), ino, file);
	else if (errno == EBUSY)
		_exit(UMOUNT_BUSY);
	else
		fprintf(stderr, "nsflood: umount2 %s: %s\n", file, strerror(errno));
}

static void op_pidfd(const char *arg, pid_t holder)
{
	int pfd = pidfd_open(holder), fd;

	(void)arg;
	fd = pfd < 0 ? -1 : ioctl(pfd, PIDFD_GET_NET_NAMESPACE, 0);
	if (fd >= 0)
		printf("pidfd %d net %lu\n", getpid(), fd_inum(fd));
}

/* clone with CLONE_NEWUTS: the record is the parent's, about the child */
static void op_clone(void)
{
	char p[64];
	int go[2];
	pid_t c;

	if (pipe(go))
		return;
	c = (pid_t)syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, NULL, NULL, NULL, 0);
	if (c == 0) {
		char b;

		close(go[1]);
		if (read(go[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (c > 0) {
		snprintf(p, sizeof(p), "/proc/%d/ns/uts", c);
		printf("clone %d uts %lu %d\n", getpid(), inum_of(p), c);
		fflush(stdout);
		close(go[1]);
		waitpid(c, NULL, 0);
	}
	close(go[0]);
}

static int rare(long rounds, double seconds, const char *dir)
{
	double gap = seconds / (rounds * 8.0);
	char file[512];
	pid_t holder;
	long r;
	int k, t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* "the host" of other namespaces: a child in a net namespace of its own */
	holder = fork();
	if (holder == 0) {
		if (unshare(CLONE_NEWNET))
			_exit(1);
		pause();
		_exit(0);
	}
	usleep(100000);
	srand(getpid() ^ (unsigned int)time(NULL));
	for (r = 0; r < rounds; r++) {
		snprintf(file, sizeof(file), "%s/pin.%ld", dir, r);
		close(open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
		for (k = 0; k < 8; k++) {
			/* a random moment: 0 to 2 gaps after the previous one */
			usleep((useconds_t)(gap * 2e6 * rand() / RAND_MAX));
			switch (k) {
			case 0: in_child(op_unshare, NULL, holder); break;
			case 1: op_clone(); break;
			case 2: in_child(op_setns, NULL, holder); break;
			case 3: in_child(op_setns_fail, NULL, holder); break;
			case 4: in_child(op_open, NULL, holder); break;
			case 5: in_child(op_mount, file, holder); break;
			case 6:
				for (t = 0; t < UMOUNT_TRIES &&
					    in_child(op_umount, file, holder) == UMOUNT_BUSY; t++)
					usleep(100000);
				if (t == UMOUNT_TRIES)
					fprintf(stderr, "nsflood: umount2 %s: busy for 5 s\n", file);
				break;
			case 7: in_child(op_pidfd, NULL, holder); break;
			}
		}
		unlink(file);
	}
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "flood"))
		return flood(argv[2], atof(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "forkflood"))
		return forkflood(atof(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "rare"))
		return rare(atol(argv[2]), atof(argv[3]), argv[4]);
	fprintf(stderr, "usage: nsflood flood KIND SECONDS | nsflood forkflood SECONDS | "
		"nsflood rare ROUNDS SECONDS DIR\n");
	return 2;
}
