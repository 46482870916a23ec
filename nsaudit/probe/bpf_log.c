// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* bpf_log.c - libbpf's warnings kept until a load fails (see bpf_log.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf_log.h"

/* The end of a verifier log is where it says why: keep the last part. */
#define KEEP_MAX (64 * 1024)

static bool verbose;
static char kept[KEEP_MAX];
static size_t nkept;
static bool cut; /* older messages were dropped to make room */
/* libbpf prints from each thread that loads (tracer_load.c) */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void keep(const char *p, size_t n)
{
	if (n > sizeof(kept)) {	/* a verifier log longer than all we keep */
		p += n - sizeof(kept);
		n = sizeof(kept);
		cut = true;
	}
	if (nkept + n > sizeof(kept)) {
		size_t drop = nkept + n - sizeof(kept);

		memmove(kept, kept + drop, nkept - drop);
		nkept -= drop;
		cut = true;
	}
	memcpy(kept + nkept, p, n);
	nkept += n;
}

static int bpf_log_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg;
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;
	if (verbose)
		return vfprintf(stderr, fmt, ap);
	if (level != LIBBPF_WARN)
		return 0;
	/* whole: libbpf prints a verifier log as one message, its reason last */
	n = vasprintf(&msg, fmt, ap);
	if (n <= 0)
		return 0;
	pthread_mutex_lock(&kept_lock);
	keep(msg, (size_t)n);
	pthread_mutex_unlock(&kept_lock);
	free(msg);
	return n;
}

void bpf_log_setup(bool v)
{
	verbose = v;
	nkept = 0;
	cut = false;
	libbpf_set_print(bpf_log_print);
}

void bpf_log_show(int err)
{
	if (err != EPERM && nkept) {
		if (cut)
			fputs("libbpf: ... (earlier messages cut)\n", stderr);
		fwrite(kept, 1, nkept, stderr);
		if (kept[nkept - 1] != '\n')
			fputc('\n', stderr);
	}
	nkept = 0;
	cut = false;
}
