// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * driver - the load generator of "make bench".
 *
 *   driver lat OP N [BATCH PAUSE_US]
 *                            run OP N times (after N/10 warm-up calls) and
 *                            print one line of key=value pairs:
 *                              op=setns n=N cpu_ns=C wall_ns=W errors=E
 *                            C and W are per call: the calling thread's CPU
 *                            time (CLOCK_THREAD_CPUTIME_ID: user + kernel,
 *                            so it includes every BPF program and audit hook
 *                            that runs in the syscall) and elapsed time
 *                            (CLOCK_MONOTONIC). With BATCH, the calls come in
 *                            bursts of BATCH separated by PAUSE_US of sleep
 *                            (a paced load a tracer can keep up with); only
 *                            the bursts are timed.
 *   driver rate P SECONDS [alt]
 *                            P producer processes call setns as fast as they
 *                            can for SECONDS; prints
 *                              producers=P seconds=S calls=C rate=R errors=E
 *                            With "alt" each producer alternates between its
 *                            net and uts namespace fds, so that no two
 *                            consecutive records of a thread are identical
 *                            (a flood that in-kernel coalescing cannot fold).
 *   driver flood P SECONDS N the mixed flood: P producers as with "rate ...
 *                            alt", and meanwhile one more process (named
 *                            "nsrare", BENCH_RARE_COMM overrides) makes N
 *                            rounds of rare operations, spread over the
 *                            flood: unshare(CLONE_NEWUTS), open+close of
 *                            /proc/PID/ns/uts, a bind mount of it and its
 *                            umount (in a private mount namespace of its
 *                            own), and a setns that fails (a uts fd with
 *                            CLONE_NEWNET: EINVAL). Prints the rate line,
 *                            then
 *                              rare_rounds=N unshare=U open=O mount=M
 *                              umount=D setns_fail=F rare_errors=E
 *                            (the calls made of each kind). Its mount point
 *                            is made under BENCH_TMP (default /tmp).
 *
 * OPs:
 *   setns      setns(fd, CLONE_NEWNET) on an already-open /proc/self/ns/net:
 *              entering the namespace we are in is legal and cheap
 *   openclose  open(O_RDONLY) + close of an unrelated file (BENCH_FILE or
 *              /etc/hostname): the collateral cost on ordinary syscalls
 *   unshare    unshare(CLONE_NEWUTS): creates (and frees) a namespace
 *   fork       fork() + the child's _exit + waitpid: what the fork hooks
 *              (the child's birth slot for setns' exit hook) cost
 *   exec       fork() + the child's execve of /bin/true (BENCH_EXEC
 *              overrides) + waitpid: what the exec hook costs on top
 *   ioctl      ioctl(FIONREAD) on a pipe: an ioctl nsaudit does not record,
 *              on a hook that sees every ioctl on the machine
 *   mount      mount of a tmpfs + umount2, in a private mount namespace of
 *              the driver's own (made once, before the timed calls; under
 *              BENCH_TMP, default /tmp): a mount that pins nothing
 *
 * Every process renames itself "nsbench" (BENCH_COMM overrides) so that
 * tracers' records of the bench can be told apart from the machine's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *comm(void)
{
	const char *c = getenv("BENCH_COMM");

	return c && *c ? c : "nsbench";
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int nsfd = -1;
static const char *file;

static int op_fork(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -1;
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

static const char *exec_path;

static int op_exec(void)
{
	char *argv[] = {(char *)exec_path, NULL};
	char *envp[] = {NULL};
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execve(exec_path, argv, envp);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int pipefd[2] = {-1, -1};

static int op_ioctl(void)
{
	int n;

	return ioctl(pipefd[0], FIONREAD, &n);
}

static char mount_dir[256];

static int op_mount(void)
{
	if (mount("nsbench", mount_dir, "tmpfs", 0, "size=4k"))
		return -1;
	return umount2(mount_dir, 0);
}

/* A private mount namespace and a mount point in it (not timed). */
static int mount_setup(void)
{
	const char *tmp = getenv("BENCH_TMP");

	snprintf(mount_dir, sizeof(mount_dir), "%s/nsbench-mnt.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("driver: private mount namespace");
		return -1;
	}
	if (!mkdtemp(mount_dir)) {
		perror("driver: mkdtemp");
		return -1;
	}
	return 0;
}

static int op_setns(void)
{
	return setns(nsfd, CLONE_NEWNET);
}

static int op_openclose(void)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return close(fd);
}

static int op_unshare(void)
{
	return unshare(CLONE_NEWUTS);
}

static int open_nsfd(void)
{
	nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		perror("driver: /proc/self/ns/net");
		return -1;
	}
	return 0;
}

/* What an op set up goes (the private mount namespace goes with us). */
static void lat_cleanup(void)
{
	if (mount_dir[0])
		rmdir(mount_dir);
}

static int lat(const char *name, long n, long batch, long pause_us)
{
	int (*fn)(void);
	uint64_t c0, c1, w0, w1, cpu = 0, wall = 0;
	long i, k, errors = 0;
	struct timespec pause = {pause_us / 1000000, (pause_us % 1000000) * 1000};

	if (!strcmp(name, "setns")) {
		if (open_nsfd())
			return 1;
		fn = op_setns;
	} else if (!strcmp(name, "openclose")) {
		file = getenv("BENCH_FILE");
		if (!file || !*file)
			file = "/etc/hostname";
		fn = op_openclose;
	} else if (!strcmp(name, "unshare")) {
		fn = op_unshare;
	} else if (!strcmp(name, "fork")) {
		fn = op_fork;
	} else if (!strcmp(name, "exec")) {
		exec_path = getenv("BENCH_EXEC");
		if (!exec_path || !*exec_path)
			exec_path = "/bin/true";
		fn = op_exec;
	} else if (!strcmp(name, "ioctl")) {
		if (pipe2(pipefd, O_CLOEXEC)) {
			perror("driver: pipe");
			return 1;
		}
		fn = op_ioctl;
	} else if (!strcmp(name, "mount")) {
		if (mount_setup())
			return 1;
		fn = op_mount;
	} else {
		fprintf(stderr,
			"driver: unknown op '%s' (setns, openclose, unshare, fork, exec, ioctl, mount)\n",
			name);
		return 2;
	}
	if (fn()) {
		fprintf(stderr, "driver: %s: %s\n", name, strerror(errno));
		lat_cleanup();
		return 1;
	}
	if (n < 1 || batch < 0 || pause_us < 0) {
		fprintf(stderr, "driver: lat: N >= 1, BATCH and PAUSE_US >= 0\n");
		lat_cleanup();
		return 2;
	}
	if (batch == 0 || batch > n)
		batch = n;
	for (i = 0; i < n / 10; i++)
		fn();
	for (i = 0; i < n; i += batch) {
		if (i && pause_us)
			nanosleep(&pause, NULL);
		w0 = now_ns(CLOCK_MONOTONIC);
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (k = 0; k < batch && i + k < n; k++)
			if (fn())
				errors++;
		c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		w1 = now_ns(CLOCK_MONOTONIC);
		cpu += c1 - c0;
		wall += w1 - w0;
	}
	printf("op=%s n=%ld cpu_ns=%.1f wall_ns=%.1f errors=%ld\n", name, n, (double)cpu / n,
	       (double)wall / n, errors);
	lat_cleanup();
	return errors ? 1 : 0;
}

struct shared {
	volatile int go, stop;
	volatile uint64_t calls[64];
	volatile uint64_t errors[64];
	/* the rare process's tallies: made per kind, and failures */
	volatile uint64_t rare[5], rare_errors;
};

enum { RARE_UNSHARE, RARE_OPEN, RARE_MOUNT, RARE_UMOUNT, RARE_SETNS_FAIL };

static void producer(struct shared *sh, int i, bool alt)
{
	int fds[2] = {nsfd, nsfd};
	int types[2] = {CLONE_NEWNET, CLONE_NEWNET};
	uint64_t n = 0, e = 0;
	int k;

	if (alt) {
		fds[1] = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
		types[1] = CLONE_NEWUTS;
		if (fds[1] < 0)
			_exit(1);
	}
	while (!sh->go)
		sched_yield();
	while (!sh->stop) {
		for (k = 0; k < 64; k++)
			if (setns(fds[k & 1], types[k & 1]))
				e++;
		n += 64;
	}
	sh->calls[i] = n;
	sh->errors[i] = e;
	_exit(0);
}

static const char *rare_comm(void)
{
	const char *c = getenv("BENCH_RARE_COMM");

	return c && *c ? c : "nsrare";
}

/*
 * The rare process: set up a private mount namespace and a mount point
 * under its old name (setup is not what is counted), then rename itself
 * and make N rounds of the rare operations, evenly spread over SECONDS.
 */
static void rare_process(struct shared *sh, long rounds, double seconds)
{
	const char *tmp = getenv("BENCH_TMP");
	char dir[256], target[300], nspath[64];
	long pause_ns = rounds > 0 ? (long)(seconds * 1e9 / rounds) : 0;
	struct timespec pause = {pause_ns / 1000000000, pause_ns % 1000000000};
	int fd, utsfd;
	long r;

	snprintf(dir, sizeof(dir), "%s/nsbench-rare.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(dir)) {
		sh->rare_errors = rounds * 5 + 1;
		_exit(1);
	}
	/* the tmp dir is in our private mount namespace's view only after
	 * this point; it is removed at the end, whatever happened */
	snprintf(target, sizeof(target), "%s/ns", dir);
	fd = open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	snprintf(nspath, sizeof(nspath), "/proc/%d/ns/uts", (int)getpid());
	utsfd = open(nspath, O_RDONLY | O_CLOEXEC);
	prctl(PR_SET_NAME, rare_comm());
	while (!sh->go)
		sched_yield();
	for (r = 0; r < rounds; r++) {
		nanosleep(&pause, NULL);
		if (unshare(CLONE_NEWUTS))
			sh->rare_errors++;
		sh->rare[RARE_UNSHARE]++;
		fd = open(nspath, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			sh->rare_errors++;
		else
			close(fd);
		sh->rare[RARE_OPEN]++;
		if (mount(nspath, target, NULL, MS_BIND, NULL))
			sh->rare_errors++;
		sh->rare[RARE_MOUNT]++;
		if (umount2(target, 0))
			sh->rare_errors++;
		sh->rare[RARE_UMOUNT]++;
		/* a uts namespace fd with CLONE_NEWNET: EINVAL, a failure */
		if (!setns(utsfd, CLONE_NEWNET))
			sh->rare_errors++;
		sh->rare[RARE_SETNS_FAIL]++;
	}
	unlink(target);
	rmdir(dir);
	_exit(0);
}

static int rate(int producers, double seconds, bool alt, long rare_rounds)
{
	struct shared *sh;
	uint64_t calls = 0, errors = 0, t0, t1;
	pid_t pids[65];
	int i, status, rc = 0, nproc;

	if (producers < 1 || producers > 64 || seconds <= 0 || rare_rounds < 0) {
		fprintf(stderr, "driver: rate P SECONDS: 1 <= P <= 64\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("driver: mmap");
		return 1;
	}
	memset((void *)sh, 0, sizeof(*sh));
	if (open_nsfd())
		return 1;
	nproc = producers + (rare_rounds > 0);
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("driver: fork");
			sh->stop = 1;
			nproc = i;
			rc = 1;
			break;
		}
		if (pids[i] == 0) {
			if (i < producers)
				producer(sh, i, alt);
			/* the rare rounds end a little before the flood does */
			rare_process(sh, rare_rounds, seconds * 0.9);
		}
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	sh->go = 1;
	if (!rc) {
		struct timespec d = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};

		while (nanosleep(&d, &d) && errno == EINTR)
			;
	}
	sh->stop = 1;
	/* the producers first: their time is the flood's */
	for (i = 0; i < nproc && i < producers; i++)
		waitpid(pids[i], &status, 0);
	t1 = now_ns(CLOCK_MONOTONIC);
	for (; i < nproc; i++)
		waitpid(pids[i], &status, 0);
	for (i = 0; i < producers; i++) {
		calls += sh->calls[i];
		errors += sh->errors[i];
	}
	printf("producers=%d seconds=%.3f calls=%llu rate=%.0f errors=%llu\n", producers,
	       (t1 - t0) / 1e9, (unsigned long long)calls, calls / ((t1 - t0) / 1e9),
	       (unsigned long long)errors);
	if (rare_rounds > 0) {
		printf("rare_rounds=%ld unshare=%llu open=%llu mount=%llu umount=%llu "
		       "setns_fail=%llu rare_errors=%llu\n",
		       rare_rounds, (unsigned long long)sh->rare[RARE_UNSHARE],
		       (unsigned long long)sh->rare[RARE_OPEN],
		       (unsigned long long)sh->rare[RARE_MOUNT],
		       (unsigned long long)sh->rare[RARE_UMOUNT],
		       (unsigned long long)sh->rare[RARE_SETNS_FAIL],
		       (unsigned long long)sh->rare_errors);
		if (sh->rare_errors)
			rc = 1;
	}
	return rc || errors;
}

int main(int argc, char **argv)
{
	prctl(PR_SET_NAME, comm());
	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((argc == 4 || argc == 6) && !strcmp(argv[1], "lat"))
		return lat(argv[2], atol(argv[3]), argc == 6 ? atol(argv[4]) : 0,
			   argc == 6 ? atol(argv[5]) : 0);
	if ((argc == 4 || (argc == 5 && !strcmp(argv[4], "alt"))) && !strcmp(argv[1], "rate"))
		return rate(atoi(argv[2]), atof(argv[3]), argc == 5, 0);
	if (argc == 5 && !strcmp(argv[1], "flood"))
		return rate(atoi(argv[2]), atof(argv[3]), true, atol(argv[4]));
	fprintf(stderr, "Usage: driver lat setns|openclose|unshare|fork|exec|ioctl|mount N [BATCH PAUSE_US]\n"
			"       driver rate PRODUCERS SECONDS [alt]\n"
			"       driver flood PRODUCERS SECONDS RARE_ROUNDS\n");
	return 2;
}
