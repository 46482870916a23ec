// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* segment.c - segment names, listing and reading. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "regfile.h"
#include "segment.h"

void audit_seg_name(unsigned int n, char buf[AUDIT_SEG_NAME_MAX])
{
	snprintf(buf, AUDIT_SEG_NAME_MAX, "nsaudit-%06u.log", n);
}

bool audit_seg_number(const char *name, unsigned int *n)
{
	const char *p = name + 8;
	unsigned long v = 0;
	size_t digits = 0;
	char canon[AUDIT_SEG_NAME_MAX];

	if (strncmp(name, "nsaudit-", 8))
		return false;
	for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (digits < 6 || strcmp(p, ".log") || v < 1 || v > 0xffffffffu)
		return false;
	/* Only the one spelling we write: "nsaudit-0000042.log" is not 42. */
	audit_seg_name((unsigned int)v, canon);
	if (strcmp(canon, name))
		return false;
	*n = (unsigned int)v;
	return true;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

int audit_seg_list(int dirfd, unsigned int **nums, size_t *count)
{
	unsigned int *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	*nums = NULL;
	*count = 0;
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d))) {
		unsigned int num;

		if (!audit_seg_number(de->d_name, &num))
			continue;
		if (ARRAY_RESERVE(&v, &cap, n + 1)) {
			free(v);
			closedir(d);
			errno = ENOMEM;
			return -1;
		}
		v[n++] = num;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_uint);
	*nums = v;
	*count = n;
	return 0;
}

int audit_seg_read(int dirfd, const char *name, struct audit_seg *s, char *err, size_t errlen)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = audit_open_regular(dirfd, name, O_RDONLY, 0);
	if (s->fd < 0) {
		snprintf(err, errlen, "%s: %s", name, audit_regfile_why(errno));
		return -1;
	}
	if (fstat(s->fd, &st)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		close(s->fd);
		s->fd = -1;
		return -1;
	}
	s->size = (size_t)st.st_size;
	return 0;
}

/* Make room and read more: false at the end of what the file held. */
static bool fill(struct audit_seg *s)
{
	size_t want;
	ssize_t n;

	if (s->got >= s->size || s->fd < 0)
		return false;
	if (s->head) { /* keep the unread part at the front */
		memmove(s->buf, s->buf + s->head, s->tail - s->head);
		s->tail -= s->head;
		s->scan -= s->head;
		s->head = 0;
	}
	if (s->tail == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : (64u << 10);
		char *nb;

		if (cap > AUDIT_SEG_BUF_MAX)
			cap = AUDIT_SEG_BUF_MAX;
		if (cap <= s->cap)
			return false; /* caller checks overlong first */
		nb = realloc(s->buf, cap);
		if (!nb) {
			s->err = ENOMEM;
			return false;
		}
		s->buf = nb;
		s->cap = cap;
	}
	want = s->cap - s->tail;
	if (want > s->size - s->got)
		want = s->size - s->got;
	do
		n = read(s->fd, s->buf + s->tail, want);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n < 0)
			s->err = errno;
		s->got = s->size; /* cut meanwhile, or unreadable: the end */
		return false;
	}
	s->tail += (size_t)n;
	s->got += (size_t)n;
	return true;
}

/* After an overlong line: drop everything up to and including the next
 * newline. */
static void skip_rest(struct audit_seg *s)
{
	for (;;) {
		char *nl = memchr(s->buf + s->head, '\n', s->tail - s->head);

		if (nl) {
			s->off += (size_t)(nl + 1 - (s->buf + s->head));
			s->head = s->scan = (size_t)(nl + 1 - s->buf);
			s->skip = false;
			return;
		}
		s->off += s->tail - s->head;
		s->head = s->tail = s->scan = 0;
		if (!fill(s)) {
			s->skip = false;
			return;
		}
	}
}

bool audit_seg_next(struct audit_seg *s, const char **line, size_t *len, bool *complete)
{
	char *nl;

	s->overlong = false;
	if (s->skip)
		skip_rest(s);
	for (;;) {
		/* (no buffer yet for an empty segment: nothing to scan) */
		nl = s->tail > s->scan ? memchr(s->buf + s->scan, '\n', s->tail - s->scan) : NULL;
		if (nl)
			break;
		s->scan = s->tail;
		if (s->tail - s->head > AUDIT_SEG_LINE_MAX) {
			/* longer than any record: its start, once */
			*line = s->buf + s->head;
			*len = s->tail - s->head;
			*complete = false;
			s->overlong = true;
			s->skip = true;
			s->off += *len;
			s->head = s->scan = s->tail;
			s->lineno++;
			return true;
		}
		if (!fill(s)) {
			if (s->head == s->tail)
				return false;
			*line = s->buf + s->head;
			*len = s->tail - s->head;
			*complete = false;
			s->off += *len;
			s->head = s->scan = s->tail;
			s->lineno++;
			return true;
		}
	}
	*line = s->buf + s->head;
	*len = (size_t)(nl - *line);
	*complete = true;
	s->off += *len + 1;
	s->head = s->scan = (size_t)(nl + 1 - s->buf);
	s->lineno++;
	return true;
}

void audit_seg_free(struct audit_seg *s)
{
	if (s->fd > 0)
		close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
