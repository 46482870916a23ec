// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tidchurn - namespace calls by threads and processes whose tids are
 * reused, for the integration tests (issue 47): a tracer keeps a thread's
 * state in a slot indexed by its tid (bpf/nsaudit/tslot.bpf.h); a tid
 * that comes back must neither find a dead thread's state nor lose its
 * own, and every call must be a record or a lost count.
 *
 *   tidchurn SECS [HOLDERS]
 *
 * For SECS seconds, over and over: a new thread of this process makes
 * unshare(CLONE_NEWUTS) then setns() back to the first uts namespace and
 * exits; a child process does the same, created (clone3 set_tid, root) at
 * the tid a child of the round before had, or at the tid 32,768 away from
 * a holder's when pid_max allows (the holder's slot is taken: the child
 * takes a spare), else wherever the kernel puts it; four more children
 * exit at once, so that pids go round pid_max quickly. HOLDERS threads
 * (default 64) make the same two calls at the start, sleep through it all
 * and make them again at the end: their slots must still be theirs.
 * Every process is named "tidchurn". With TIDCHURN_LOG=FILE, FILE gets a
 * line "ROUND THREAD_TID CHILD_PID" per round and "holder TID" per holder.
 * On stdout: "unshare N" and "setns N"
 * (the calls made, whatever their result), "failed N" (of them, those
 * that failed), "threads N", "children N", "at_reused N", "at_spare N"
 * (children created at a chosen tid), "wraps N" (times the pids the
 * kernel chose went round).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 32768
#define HOLDERS_MAX 4096

static int uts_fd;
static atomic_long n_unshare, n_setns, n_failed;
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int holders_go;
static pid_t holder_tid[HOLDERS_MAX];

/* The two calls; counted whatever they return. */
static int calls(void)
{
	int bad = 0;

	atomic_fetch_add(&n_unshare, 1);
	if (unshare(CLONE_NEWUTS))
		bad++;
	atomic_fetch_add(&n_setns, 1);
	if (setns(uts_fd, CLONE_NEWUTS))
		bad++;
	atomic_fetch_add(&n_failed, bad);
	return bad;
}

static void *one_thread(void *tid)
{
	*(pid_t *)tid = (pid_t)syscall(SYS_gettid);
	calls();
	return NULL;
}

static void *holder(void *arg)
{
	holder_tid[(long)arg] = (pid_t)syscall(SYS_gettid);
	calls();
	pthread_mutex_lock(&go_lock);
	while (!holders_go)
		pthread_cond_wait(&go_cond, &go_lock);
	pthread_mutex_unlock(&go_lock);
	calls();
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A child at tid want (0: anywhere); -1 if the kernel refused that tid. */
static pid_t child_at(pid_t want)
{
	struct clone_args ca;
	pid_t tid = want;

	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	if (want) {
		ca.set_tid = (uintptr_t)&tid;
		ca.set_tid_size = 1;
	}
	return (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
}

static long pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long n = SLOTS;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = SLOTS;
		fclose(f);
	}
	return n;
}

int main(int argc, char **argv)
{
	long threads = 0, children = 0, at_reused = 0, at_spare = 0, wraps = 0;
	double secs = argc > 1 ? atof(argv[1]) : 10, end;
	long nholders = argc > 2 ? atol(argv[2]) : 64, pmax = pid_max(), i;
	pid_t last = 0, prev_child = 0, c, want, ttid = 0;
	FILE *log = getenv("TIDCHURN_LOG") ? fopen(getenv("TIDCHURN_LOG"), "w") : NULL;
	pthread_t hold[HOLDERS_MAX], t;
	int st, k;

	if (argc < 2 || secs <= 0 || nholders < 0 || nholders > HOLDERS_MAX) {
		fprintf(stderr, "usage: tidchurn SECS [HOLDERS (0-%d)]\n", HOLDERS_MAX);
		return 2;
	}
	prctl(PR_SET_NAME, "tidchurn");
	uts_fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	if (uts_fd < 0) {
		perror("tidchurn: /proc/self/ns/uts");
		return 1;
	}
	for (i = 0; i < nholders; i++)
		if (pthread_create(&hold[i], NULL, holder, (void *)i)) {
			perror("tidchurn: pthread_create");
			return 1;
		}
	end = now_s() + secs;
	for (i = 0; now_s() < end; i++) {
		if (pthread_create(&t, NULL, one_thread, &ttid) == 0) {
			pthread_join(t, NULL);
			threads++;
		}
		/* where the next child goes: a tid a child had (its slot is
		 * free now, or a dead thread's), or a holder's tid + 32,768 */
		want = 0;
		if (i % 2 == 0 && prev_child)
			want = prev_child;
		else if (nholders && pmax > SLOTS && holder_tid[i % nholders])
			want = (holder_tid[i % nholders] + SLOTS) % pmax;
		c = want > 1 ? child_at(want) : -1;
		if (c < 0)
			c = fork();
		else if (c > 0 && want == prev_child)
			at_reused++;
		else if (c > 0)
			at_spare++;
		if (c == 0)
			_exit(calls());
		if (c > 0) {
			/* its exit status: how many of its calls failed */
			if (waitpid(c, &st, 0) == c && WIFEXITED(st))
				atomic_fetch_add(&n_failed, WEXITSTATUS(st));
			else
				atomic_fetch_add(&n_failed, 2);
			/* the child's two calls, counted here (its counters are its own) */
			atomic_fetch_add(&n_unshare, 1);
			atomic_fetch_add(&n_setns, 1);
			children++;
			prev_child = c;
			if (log)
				fprintf(log, "%ld %d %d\n", i, ttid, c);
		}
		for (k = 0; k < 4; k++) {
			c = fork();
			if (c == 0)
				_exit(0);
			if (c > 0) {
				waitpid(c, NULL, 0);
				if (c < last)
					wraps++;
				last = c;
			}
		}
	}
	pthread_mutex_lock(&go_lock);
	holders_go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&go_lock);
	for (i = 0; i < nholders; i++) {
		pthread_join(hold[i], NULL);
		if (log)
			fprintf(log, "holder %d\n", holder_tid[i]);
	}
	if (log)
		fclose(log);
	printf("unshare %ld\nsetns %ld\nfailed %ld\nthreads %ld\nchildren %ld\n"
	       "at_reused %ld\nat_spare %ld\nwraps %ld\n",
	       atomic_load(&n_unshare), atomic_load(&n_setns), atomic_load(&n_failed), threads,
	       children, at_reused, at_spare, wraps);
	return 0;
}
