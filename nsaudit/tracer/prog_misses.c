// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * prog_misses.c - the kernel skips a tracing program that would run while
 * another one runs on the same CPU (a tracepoint hit from inside a BPF
 * program, an NMI): the call goes unrecorded and only the program's
 * recursion_misses counter knows. Read it, so that "lost" says so.
 */
#include <string.h>

#include <bpf/bpf.h>

#include "prog_misses.h"

static uint64_t misses(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

void prog_misses_add(struct prog_misses *m, int fd, const char *name)
{
	if (fd < 0 || m->n >= PROG_MISSES_MAX)
		return;
	m->p[m->n].fd = fd;
	strncpy(m->p[m->n].name, name, sizeof(m->p[m->n].name) - 1);
	m->p[m->n].name[sizeof(m->p[m->n].name) - 1] = '\0';
	m->p[m->n].seen = misses(fd);
	m->n++;
}

void prog_misses_poll(struct prog_misses *m, void (*fn)(void *ctx, const char *name, uint64_t more),
		      void *ctx)
{
	uint64_t now;
	int i;

	for (i = 0; i < m->n; i++) {
		now = misses(m->p[i].fd);
		if (now <= m->p[i].seen)
			continue;
		fn(ctx, m->p[i].name, now - m->p[i].seen);
		m->p[i].seen = now;
	}
}
