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
	unsigned int *v = NULL, *nv;
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
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				errno = ENOMEM;
				return -1;
			}
			v = nv;
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
	size_t got = 0;
	int fd;

	memset(s, 0, sizeof(*s));
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", name);
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > AUDIT_SEG_READ_MAX) {
		snprintf(err, errlen, "%s: %lld bytes, too big to be a segment", name,
			 (long long)st.st_size);
		close(fd);
		return -1;
	}
	s->data = malloc((size_t)st.st_size + 1);
	if (!s->data) {
		snprintf(err, errlen, "%s: out of memory", name);
		close(fd);
		return -1;
	}
	/* A live recorder may append meanwhile: read what was there at fstat. */
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, s->data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			close(fd);
			audit_seg_free(s);
			return -1;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	s->size = got;
	s->data[got] = '\0';
	return 0;
}

bool audit_seg_next(struct audit_seg *s, const char **line, size_t *len, bool *complete)
{
	const char *nl;

	if (s->off >= s->size)
		return false;
	*line = s->data + s->off;
	nl = memchr(*line, '\n', s->size - s->off);
	*complete = nl != NULL;
	*len = nl ? (size_t)(nl - *line) : s->size - s->off;
	s->off += *len + (nl ? 1 : 0);
	s->lineno++;
	return true;
}

void audit_seg_free(struct audit_seg *s)
{
	free(s->data);
	memset(s, 0, sizeof(*s));
}
