// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders_scan.c - run the holders iterators (bpf/holders.bpf.c) once and
 * keep every record they wrote, plus the creds map and the mount walk's
 * nsfs mounts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probe/bpf_log.h"
#include "array.h"
#include "holders_lib.h"
#include "holders.skel.h"

/* Read a whole iterator into a malloc'd buffer. */
static int read_iter(struct bpf_link *link, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	int fd;

	if (!b)
		return -ENOMEM;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		free(b);
		return -errno;
	}
	for (;;) {
		ssize_t r;

		if (cap - n < 4096) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				close(fd);
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			close(fd);
			free(b);
			return e;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

static int read_creds(struct holders_bpf *skel, struct holders_scan *scan)
{
	int fd = bpf_map__fd(skel->maps.creds);
	uint64_t key, next, *prev = NULL;
	size_t cap = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		uint32_t inum;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &inum))
			continue;
		if (ARRAY_RESERVE(&scan->creds, &cap, scan->ncreds + 1))
			return -ENOMEM;
		scan->creds[scan->ncreds].addr = key;
		scan->creds[scan->ncreds].user_inum = inum;
		scan->ncreds++;
	}
	return 0;
}

/* Every value of a hash map keyed by u64, into a malloc'd array. */
static int read_map(int fd, size_t vsize, void **out, size_t *n)
{
	uint64_t key, next, *prev = NULL;
	size_t cap = 0;
	char *v = NULL;

	*out = NULL;
	*n = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (*n + 1 > cap) {
			char *nv = realloc(v, (cap ? cap * 2 : 64) * vsize);

			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
			cap = cap ? cap * 2 : 64;
		}
		if (bpf_map_lookup_elem(fd, &key, v + *n * vsize))
			continue; /* gone meanwhile */
		(*n)++;
	}
	*out = v;
	return 0;
}

int holders_scan_run(struct holders_scan *scan, char *err, size_t errlen)
{
	struct bpf_link *tlink = NULL, *flink = NULL;
	struct holders_bpf *skel;
	char *buf = NULL;
	size_t len = 0;
	int e;

	memset(scan, 0, sizeof(*scan));
	bpf_log_setup(getenv("NSAUDIT_DEBUG") != NULL);
	skel = holders_bpf__open_and_load();
	if (!skel) {
		e = errno;
		bpf_log_show(e);
		snprintf(err, errlen, "loading the BPF iterators: %s", strerror(e));
		return -1;
	}
	tlink = bpf_program__attach_iter(skel->progs.holders_task, NULL);
	flink = bpf_program__attach_iter(skel->progs.holders_file, NULL);
	if (!tlink || !flink) {
		snprintf(err, errlen, "attaching iter/task and iter/task_file: %s",
			 strerror(errno));
		goto fail;
	}
	e = read_iter(tlink, &buf, &len);
	if (e) {
		snprintf(err, errlen, "reading iter/task: %s", strerror(-e));
		goto fail;
	}
	scan->tasks = (struct holders_task *)buf;
	scan->ntasks = len / sizeof(struct holders_task);
	e = read_iter(flink, &buf, &len);
	if (e) {
		snprintf(err, errlen, "reading iter/task_file: %s", strerror(-e));
		goto fail;
	}
	scan->files = (struct holders_file *)buf;
	scan->nfiles = len / sizeof(struct holders_file);
	if (read_creds(skel, scan) ||
	    read_map(bpf_map__fd(skel->maps.nsfs_mounts), sizeof(*scan->mounts),
		     (void **)&scan->mounts, &scan->nmounts) ||
	    read_map(bpf_map__fd(skel->maps.mnt_walks), sizeof(*scan->walks),
		     (void **)&scan->walks, &scan->nwalks)) {
		snprintf(err, errlen, "reading the scan's maps: %s", strerror(ENOMEM));
		goto fail;
	}
	bpf_link__destroy(tlink);
	bpf_link__destroy(flink);
	holders_bpf__destroy(skel);
	return 0;
fail:
	bpf_link__destroy(tlink);
	bpf_link__destroy(flink);
	holders_bpf__destroy(skel);
	holders_scan_free(scan);
	return -1;
}

void holders_scan_free(struct holders_scan *scan)
{
	free(scan->tasks);
	free(scan->files);
	free(scan->creds);
	free(scan->mounts);
	free(scan->walks);
	memset(scan, 0, sizeof(*scan));
}
