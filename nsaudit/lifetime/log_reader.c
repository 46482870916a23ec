// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_reader.c - a recorded log's records in order, for "nsaudit lifetime":
 * every record of every segment, oldest first, then (--follow) what the
 * recorder appends, across rotations. Damaged lines are skipped and said
 * so; records are parsed by the log's own codec.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "codec.h"
#include "log_reader.h"
#include "nsaudit.h"
#include "search.h"
#include "segment.h"

/* A warning on stderr in the command's words: "nsaudit lifetime: ...". */
__attribute__((format(printf, 1, 2))) static void ERR(const char *fmt, ...)
{
	va_list ap;

	fputs("nsaudit lifetime: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* How often --follow looks at the newest segment. */
#define FOLLOW_POLL_NS 200000000L

/* Most bytes --follow reads at once (records are at most 1 MiB). */
#define FOLLOW_CHUNK (4u << 20)

static void skipped_line(struct log_reader *rd, const char *name, uint64_t lineno, const char *why)
{
	if (++rd->skipped <= 10)
		ERR("%.200s/%s line %" PRIu64 ": skipped: %s", rd->dir, name, lineno, why);
}

/* Whether a line may be a record read_log's caller needs (see about). */
static bool may_need(const struct log_reader *rd, const char *line, size_t len)
{
	static const struct audit_filter lost_or_log = {.ops = 1u << NSAUDIT_OP_LOST,
							.op_log = true};

	return audit_filter_may_match(rd->about, line, len) ||
	       audit_filter_may_match(&lost_or_log, line, len);
}

int log_read(struct log_reader *rd, rec_fn fn, void *ctx)
{
	unsigned int *nums = NULL;
	char err[512];
	size_t n, i;

	if (audit_seg_list(rd->dirfd, &nums, &n))
		return -1;
	rd->seg = n ? nums[n - 1] : 0;
	rd->off = 0;
	for (i = 0; i < n; i++) {
		char name[AUDIT_SEG_NAME_MAX];
		struct audit_seg seg;
		const char *line;
		size_t len, start;
		bool complete;

		audit_seg_name(nums[i], name);
		if (audit_seg_read(rd->dirfd, name, &seg, err, sizeof(err))) {
			ERR("%.200s/%s: skipped", rd->dir, err);
			continue;
		}
		for (start = seg.off; audit_seg_next(&seg, &line, &len, &complete);
		     start = seg.off) {
			struct audit_rec r;

			if (!complete) {
				/* the recorder is writing it: --follow reads it later */
				seg.off = start;
				break;
			}
			if (rd->about && !may_need(rd, line, len)) {
				rd->unread++;
				continue;
			}
			if (audit_rec_parse(line, len, &r, err, sizeof(err))) {
				skipped_line(rd, name, seg.lineno, err);
				continue;
			}
			fn(ctx, r.obj);
			audit_rec_free(&r);
		}
		if (i + 1 == n)
			rd->off = seg.off;
		audit_seg_free(&seg);
	}
	free(nums);
	return 0;
}

static bool newer_segment(int dirfd, unsigned int cur, unsigned int *next)
{
	unsigned int *nums = NULL;
	size_t n, i;
	bool found = false;

	if (audit_seg_list(dirfd, &nums, &n))
		return false;
	for (i = 0; i < n && !found; i++)
		if (nums[i] > cur) {
			*next = nums[i];
			found = true;
		}
	free(nums);
	return found;
}

/* Read what was appended to segment rd->seg since rd->off. 1 something
 * read, 0 nothing new, -1 the segment is gone. */
static int follow_once(struct log_reader *rd, char *buf, rec_fn fn, void *ctx)
{
	char name[AUDIT_SEG_NAME_MAX], err[512];
	struct stat st;
	size_t want, used = 0;
	ssize_t got;
	int fd;

	audit_seg_name(rd->seg, name);
	fd = openat(rd->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -1 : 0;
	if (fstat(fd, &st) || (size_t)st.st_size <= rd->off) {
		close(fd);
		return 0;
	}
	want = (size_t)st.st_size - rd->off;
	if (want > FOLLOW_CHUNK)
		want = FOLLOW_CHUNK;
	got = pread(fd, buf, want, (off_t)rd->off);
	close(fd);
	if (got <= 0)
		return 0;
	while (used < (size_t)got) {
		char *nl = memchr(buf + used, '\n', (size_t)got - used);
		struct audit_rec r;
		size_t len;

		if (!nl)
			break; /* unfinished: next time */
		len = (size_t)(nl - (buf + used));
		if (len) {
			if (audit_rec_parse(buf + used, len, &r, err, sizeof(err)))
				skipped_line(rd, name, 0, err);
			else {
				fn(ctx, r.obj);
				audit_rec_free(&r);
			}
		}
		used += len + 1;
	}
	rd->off += used;
	return used > 0;
}

int log_follow(struct log_reader *rd, rec_fn fn, void *ctx, volatile sig_atomic_t *stop)
{
	struct timespec ts = {0, FOLLOW_POLL_NS};
	char seg[AUDIT_SEG_NAME_MAX];
	char *buf = malloc(FOLLOW_CHUNK);
	unsigned int next;

	if (!buf) {
		ERR("--follow: %s", strerror(ENOMEM));
		return 1;
	}
	audit_seg_name(rd->seg, seg);
	ERR("following %s/%s (Ctrl-C stops)", rd->dir, rd->seg ? seg : "nsaudit-*.log");
	while (!*stop) {
		int r = rd->seg ? follow_once(rd, buf, fn, ctx) : 0;

		if (r > 0) {
			fflush(stdout);
			continue;
		}
		/* nothing new here: the recorder may have moved on (rotation),
		 * or not started yet */
		if (newer_segment(rd->dirfd, rd->seg, &next)) {
			if (r == 0 && rd->seg && follow_once(rd, buf, fn, ctx) > 0)
				continue; /* written just before the rotation */
			rd->seg = next;
			rd->off = 0;
			continue;
		}
		fflush(stdout);
		nanosleep(&ts, NULL);
	}
	free(buf);
	fflush(stdout);
	return 0;
}
