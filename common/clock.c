// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* clock.c - every clock nsaudit reads, as nanoseconds (see clock.h). */
#include "clock.h"

int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t now_coarse_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}

int64_t boot_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

int64_t realtime_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

struct timespec ns_to_timespec(int64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return ts;
}
