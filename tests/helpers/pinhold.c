// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pinhold - many held pins, and what an umount2 costs meanwhile (issue 47).
 *
 *   pinhold hold N DIR
 *       bind-mounts /proc/self/ns/ipc on N files DIR/hN (made here) in the
 *       caller's mount namespace, prints "held PID", then waits to be
 *       killed: its namespace (unshare -m) dies with it.
 *   pinhold umlat N DIR
 *       N times: bind-mounts /proc/self/ns/uts on DIR/pin and times the
 *       umount2 of it; prints "median_us X p90_us Y max_us Z".
 * Exits 1 with a line saying which call failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

static int make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int hold(long n, const char *dir)
{
	char path[4096];
	long i;

	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s/h%ld", dir, i);
		if (make_file(path) || mount("/proc/self/ns/ipc", path, NULL, MS_BIND, NULL)) {
			printf("failed %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	printf("held %d\n", getpid());
	fflush(stdout);
	for (;;)
		pause();
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long ns_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000000000L + t1.tv_nsec - t0->tv_nsec;
}

static int umlat(long n, const char *dir)
{
	char path[4096];
	struct timespec t0;
	long *ns, i;

	ns = calloc(n, sizeof(*ns));
	snprintf(path, sizeof(path), "%s/pin", dir);
	if (!ns || make_file(path)) {
		printf("failed %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (mount("/proc/self/ns/uts", path, NULL, MS_BIND, NULL)) {
			printf("failed mount %s: %s\n", path, strerror(errno));
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (umount2(path, 0)) {
			printf("failed umount2 %s: %s\n", path, strerror(errno));
			return 1;
		}
		ns[i] = ns_since(&t0);
	}
	qsort(ns, n, sizeof(*ns), cmp_long);
	printf("median_us %.1f p90_us %.1f max_us %.1f\n", ns[n / 2] / 1e3, ns[n * 9 / 10] / 1e3,
	       ns[n - 1] / 1e3);
	free(ns);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc == 4 ? strtol(argv[2], NULL, 10) : 0;

	if (n > 0 && n <= 1000000 && !strcmp(argv[1], "hold"))
		return hold(n, argv[3]);
	if (n > 0 && n <= 1000000 && !strcmp(argv[1], "umlat"))
		return umlat(n, argv[3]);
	fprintf(stderr, "usage: pinhold hold N DIR | pinhold umlat N DIR\n");
	return 2;
}
