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
 *   driver rate P SECONDS    P producer processes call setns as fast as they
 *                            can for SECONDS; prints
 *                              producers=P seconds=S calls=C rate=R errors=E
 *
 * OPs:
 *   setns      setns(fd, CLONE_NEWNET) on an already-open /proc/self/ns/net:
 *              entering the namespace we are in is legal and cheap
 *   openclose  open(O_RDONLY) + close of an unrelated file (BENCH_FILE or
 *              /etc/hostname): the collateral cost on ordinary syscalls
 *   unshare    unshare(CLONE_NEWUTS): creates (and frees) a namespace
 *
 * Every process renames itself "nsbench" (BENCH_COMM overrides) so that
 * tracers' records of the bench can be told apart from the machine's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

static int lat(const char *name, long n, long batch, long pause_us)
{
	int (*fn)(void);
	uint64_t c0, c1, w0, w1, cpu = 0, wall = 0;
	long i, k, errors = 0;
	struct timespec pause = { pause_us / 1000000, (pause_us % 1000000) * 1000 };

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
	} else {
		fprintf(stderr, "driver: unknown op '%s' (setns, openclose, unshare)\n", name);
		return 2;
	}
	if (fn()) {
		fprintf(stderr, "driver: %s: %s\n", name, strerror(errno));
		return 1;
	}
	if (n < 1 || batch < 0 || pause_us < 0) {
		fprintf(stderr, "driver: lat: N >= 1, BATCH and PAUSE_US >= 0\n");
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
	return errors ? 1 : 0;
}

struct shared {
	volatile int go, stop;
	volatile uint64_t calls[64];
	volatile uint64_t errors[64];
};

static int rate(int producers, double seconds)
{
	struct shared *sh;
	uint64_t calls = 0, errors = 0, t0, t1;
	pid_t pids[64];
	int i, status, rc = 0;

	if (producers < 1 || producers > 64 || seconds <= 0) {
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
	for (i = 0; i < producers; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("driver: fork");
			sh->stop = 1;
			producers = i;
			rc = 1;
			break;
		}
		if (pids[i] == 0) {
			uint64_t n = 0, e = 0;
			int k;

			while (!sh->go)
				sched_yield();
			while (!sh->stop) {
				for (k = 0; k < 64; k++)
					if (setns(nsfd, CLONE_NEWNET))
						e++;
				n += 64;
			}
			sh->calls[i] = n;
			sh->errors[i] = e;
			_exit(0);
		}
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	sh->go = 1;
	if (!rc) {
		struct timespec d = { (time_t)seconds,
				      (long)((seconds - (time_t)seconds) * 1e9) };

		while (nanosleep(&d, &d) && errno == EINTR)
			;
	}
	sh->stop = 1;
	for (i = 0; i < producers; i++)
		waitpid(pids[i], &status, 0);
	t1 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < producers; i++) {
		calls += sh->calls[i];
		errors += sh->errors[i];
	}
	printf("producers=%d seconds=%.3f calls=%llu rate=%.0f errors=%llu\n", producers,
	       (t1 - t0) / 1e9, (unsigned long long)calls, calls / ((t1 - t0) / 1e9),
	       (unsigned long long)errors);
	return rc || errors;
}

int main(int argc, char **argv)
{
	prctl(PR_SET_NAME, comm());
	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((argc == 4 || argc == 6) && !strcmp(argv[1], "lat"))
		return lat(argv[2], atol(argv[3]), argc == 6 ? atol(argv[4]) : 0,
			   argc == 6 ? atol(argv[5]) : 0);
	if (argc == 4 && !strcmp(argv[1], "rate"))
		return rate(atoi(argv[2]), atof(argv[3]));
	fprintf(stderr, "Usage: driver lat setns|openclose|unshare N [BATCH PAUSE_US]\n"
			"       driver rate PRODUCERS SECONDS\n");
	return 2;
}
