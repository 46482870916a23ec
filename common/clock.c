// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* clock.c - a clock read as nanoseconds (see clock.h). */
#include "clock.h"

int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t now_coarse_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}
