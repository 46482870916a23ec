// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search --since/--until over a log of many segments: the segments left
 * unread (audit_seg_since) and what "nsaudit search" prints must be
 * exactly the records in the range, at its bounds too, whatever the clock
 * did between segments (set back: later segments begin before records of
 * an earlier one) and when a segment's first line is damaged.
 *
 * The log is written for real (small segments), then every line is given
 * a chosen time of the same length; search does not check MACs.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "audit_util.h"
#include "cmd/commands.h"
#include "codec.h"
#include "segment.h"

#define MIN_NS	(60 * 1000000000LL)
#define HOUR_NS (60 * MIN_NS)
#define DAY_NS	(24 * HOUR_NS)
#define T0	1796256000000000000LL /* 2026-12-03T00:00:00Z */
#define MAX_SEQ 512

struct slog {
	struct tlog t;
	int dirfd;
	unsigned int *nums;
	size_t n;
};

static void slog_init_fmt(struct slog *s, enum audit_format fmt)
{
	tlog_init(&s->t, fmt);
	s->t.o.max_size = 4096; /* ~6 records a segment */
	tlog_write(&s->t, 120);
	s->dirfd = open(s->t.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(s->dirfd, 0);
	cr_assert_eq(audit_seg_list(s->dirfd, &s->nums, &s->n), 0);
	cr_assert_geq(s->n, 6, "only %zu segments", s->n);
}

static void slog_init(struct slog *s)
{
	slog_init_fmt(s, AUDIT_FMT_JSON);
}

/* Where the time of the line at p begins (JSON or audit format). */
static char *time_in(char *p, size_t len)
{
	char *t = memmem(p, len, "\"time\":\"", 8);

	if (t)
		return t + 8;
	t = memmem(p, len, " time=\"", 7);
	return t ? t + 7 : NULL;
}

static void slog_fini(struct slog *s)
{
	free(s->nums);
	close(s->dirfd);
	tlog_cleanup(&s->t);
}

static void fmt_time(int64_t ns, char out[31])
{
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&sec, &tm);
	strftime(out, 31, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + 19, 12, ".%09dZ", (int)(ns % 1000000000));
}

/* Line i (from 1) of segment number k (index into nums) gets time t(i). */
static void set_times(struct slog *s, size_t k, int64_t base, int64_t step)
{
	char path[256], *data, *p, when[31];
	size_t len;
	int64_t t = base;

	tseg_path(&s->t, s->nums[k], path, sizeof(path));
	data = tslurp(path, &len);
	for (p = data; p < data + len && (p = time_in(p, len - (size_t)(p - data))); t += step) {
		fmt_time(t, when);
		cr_assert_eq(p[30], '"', "a time of another length");
		memcpy(p, when, 30);
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	tspit(path, data, len);
	free(data);
}

/* The time of line i (1 = the header, 0 = the last) of segment index k
 * (tline's lengths include the newline). */
static int64_t line_time_of(struct slog *s, size_t k, int i)
{
	char path[256], *data;
	size_t len, start, llen;
	struct audit_rec r;
	char err[256];
	int64_t ns = -1;
	const char *t;

	tseg_path(&s->t, s->nums[k], path, sizeof(path));
	data = tslurp(path, &len);
	if (!i)
		i = tlines(data, len);
	cr_assert(tline(data, len, i, &start, &llen));
	if (!audit_rec_parse(data + start, llen - 1, &r, err, sizeof(err))) {
		t = audit_rec_str(&r, "time", NULL);
		cr_assert_eq(audit_time_parse(t, &ns), 0);
		audit_rec_free(&r);
	}
	free(data);
	return ns;
}

/* Give line i (0 = the last) of segment index k the time ns. */
static void set_line_time(struct slog *s, size_t k, int i, int64_t ns)
{
	char path[256], *data, *p, when[31];
	size_t len, start, llen;

	tseg_path(&s->t, s->nums[k], path, sizeof(path));
	data = tslurp(path, &len);
	if (!i)
		i = tlines(data, len);
	cr_assert(tline(data, len, i, &start, &llen));
	p = time_in(data + start, llen);
	cr_assert_not_null(p);
	fmt_time(ns, when);
	memcpy(p, when, 30);
	tspit(path, data, len);
	free(data);
}

/* Every segment in order: segment k from T0 + k hours, a minute a line. */
static void ordered(struct slog *s)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		set_times(s, k, T0 + (int64_t)k * HOUR_NS, MIN_NS);
}

/* want[seq]: the records of the log whose time is in [lo, hi]. */
static size_t expected(struct slog *s, int64_t lo, int64_t hi, bool want[MAX_SEQ])
{
	size_t k, count = 0;

	memset(want, 0, MAX_SEQ * sizeof(bool));
	for (k = 0; k < s->n; k++) {
		char path[256], *data, err[256];
		size_t len, start, llen;
		int i, lines;

		tseg_path(&s->t, s->nums[k], path, sizeof(path));
		data = tslurp(path, &len);
		lines = tlines(data, len);
		for (i = 1; i <= lines; i++) {
			struct audit_rec r;
			const char *t;
			int64_t ns;

			cr_assert(tline(data, len, i, &start, &llen));
			if (audit_rec_parse(data + start, llen - 1, &r, err, sizeof(err)))
				continue; /* damaged: nothing can print it */
			t = audit_rec_str(&r, "time", NULL);
			cr_assert(t && !audit_time_parse(t, &ns));
			cr_assert_lt(r.seq, MAX_SEQ);
			if (ns >= lo && ns <= hi) {
				want[r.seq] = true;
				count++;
			}
			audit_rec_free(&r);
		}
		free(data);
	}
	return count;
}

/* "nsaudit search --log-dir DIR --format json ARGS...": the seqs printed. */
static size_t search(struct slog *s, const char *opt, int64_t ns, bool got[MAX_SEQ])
{
	char out[160], when[31], *data, *p, *nl;
	char *argv[] = { "search", "--log-dir", s->t.dir, "--format", "json",
			 (char *)opt, when, NULL };
	int saved, fd;
	size_t len, count = 0;

	fmt_time(ns, when);
	snprintf(out, sizeof(out), "%s/out", s->t.root);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	cr_assert(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	close(fd);
	cmd_search(7, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	memset(got, 0, MAX_SEQ * sizeof(bool));
	data = tslurp(out, &len);
	for (p = data; p < data + len; p = nl + 1) {
		struct json_object *o, *v;
		int64_t seq;

		nl = strchr(p, '\n');
		cr_assert_not_null(nl);
		*nl = '\0';
		o = json_tokener_parse(p);
		cr_assert(o && json_object_object_get_ex(o, "seq", &v), "%s", p);
		seq = json_object_get_int64(v);
		cr_assert(seq > 0 && seq < MAX_SEQ);
		cr_assert_not(got[seq], "seq %" PRId64 " printed twice", seq);
		got[seq] = true;
		count++;
		json_object_put(o);
	}
	free(data);
	return count;
}

/* search OPT T prints exactly the records in [lo, hi]. */
static void search_exactly(struct slog *s, const char *opt, int64_t t, int64_t lo, int64_t hi)
{
	bool want[MAX_SEQ], got[MAX_SEQ];
	size_t nw = expected(s, lo, hi, want), ng = search(s, opt, t, got), i;

	cr_assert_gt(nw, 0, "the range holds nothing: a useless test");
	for (i = 0; i < MAX_SEQ; i++)
		cr_assert_eq(got[i], want[i], "%s: seq %zu %s", opt, i,
			     want[i] ? "missing" : "printed but out of range");
	cr_assert_eq(ng, nw);
}

/* Which segment indexes audit_seg_since keeps, as a bit mask. */
static unsigned int kept(struct slog *s, int64_t since)
{
	unsigned int nums[64], mask = 0;
	size_t n, i, k;

	cr_assert_leq(s->n, 32);
	memcpy(nums, s->nums, s->n * sizeof(*nums));
	n = audit_seg_since(s->dirfd, nums, s->n, since);
	for (i = 0; i < n; i++)
		for (k = 0; k < s->n; k++)
			if (nums[i] == s->nums[k])
				mask |= 1u << k;
	return mask;
}

#define ALL(s) ((1u << (s)->n) - 1)

Test(search_since, skips_exactly_the_segments_before)
{
	struct slog s;
	int64_t since;

	slog_init(&s);
	ordered(&s);
	/* line 3 of segment 2: 0 and 1 end before it, 2 holds it */
	since = line_time_of(&s, 2, 3);
	cr_assert_eq(since, T0 + 2 * HOUR_NS + 2 * MIN_NS);
	cr_assert_eq(kept(&s, since), ALL(&s) & ~3u);
	search_exactly(&s, "--since", since, since, INT64_MAX);
	/* before everything: all read; after everything: the newest only */
	cr_assert_eq(kept(&s, T0 - 1), ALL(&s));
	cr_assert_eq(kept(&s, T0 + 100 * DAY_NS), 1u << (s.n - 1));
	slog_fini(&s);
}

/* A record stamped exactly at the bound is in the range, also when it is
 * the last of its segment and the next segment starts at the same time. */
Test(search_since, bound_is_inclusive)
{
	struct slog s;
	int64_t t;

	slog_init(&s);
	ordered(&s);
	t = line_time_of(&s, 3, 1);
	set_line_time(&s, 2, 0, t);
	cr_assert(kept(&s, t) & (1u << 2), "segment 2 ends at the bound: read");
	cr_assert_not(kept(&s, t) & (1u << 1));
	search_exactly(&s, "--since", t, t, INT64_MAX);
	search_exactly(&s, "--since", t + 1, t + 1, INT64_MAX);
	/* --until: up to and with the record at the bound */
	t = line_time_of(&s, 1, 3);
	search_exactly(&s, "--until", t, INT64_MIN, t);
	search_exactly(&s, "--until", t - 1, INT64_MIN, t - 1);
	slog_fini(&s);
}

/*
 * The clock was ahead while segment 1 was written and set back before
 * segment 2 began: every later segment starts before segment 1's records.
 * A bound between them must still find segment 1's records.
 */
Test(search_since, clock_set_back_hides_nothing)
{
	struct slog s;
	int64_t since = T0 + 5 * DAY_NS;

	slog_init(&s);
	ordered(&s);
	set_times(&s, 1, T0 + 10 * DAY_NS, MIN_NS);
	cr_assert(kept(&s, since) & (1u << 1));
	search_exactly(&s, "--since", since, since, INT64_MAX);
	/* set back within segment 3, after its first record: its last record
	 * is before its first, it is read */
	set_times(&s, 1, T0 + HOUR_NS, MIN_NS);
	set_times(&s, 3, T0 + 2 * HOUR_NS, MIN_NS);
	set_line_time(&s, 3, 1, T0 + 4 * HOUR_NS);
	since = T0 + 30 * HOUR_NS;
	cr_assert(kept(&s, since) & (1u << 3), "first after last: not skipped");
	/* and set back right at a boundary: segment 2's last record is later
	 * than segment 3's first */
	ordered(&s);
	set_line_time(&s, 2, 0, line_time_of(&s, 3, 1) + 60 * MIN_NS);
	since = line_time_of(&s, 4, 1) + 1;
	cr_assert(kept(&s, since) & (1u << 2), "out of order at the boundary: read");
	search_exactly(&s, "--since", since, since, INT64_MAX);
	slog_fini(&s);
}

/* A segment whose first line cannot be read is read, and so is the one
 * before it (its upper bound is that first line); nothing is skipped
 * silently. */
Test(search_since, damaged_head_is_read)
{
	struct slog s;
	char path[256], *data;
	size_t len, start, llen;
	int64_t since;

	slog_init(&s);
	ordered(&s);
	tseg_path(&s.t, s.nums[3], path, sizeof(path));
	data = tslurp(path, &len);
	cr_assert(tline(data, len, 1, &start, &llen));
	memset(data + start, 'x', llen - 1); /* the newline stays */
	tspit(path, data, len);
	free(data);
	since = line_time_of(&s, 3, 3);
	cr_assert_eq(kept(&s, since), ALL(&s) & ~3u, "segments 2 and 3 read");
	search_exactly(&s, "--since", since, since, INT64_MAX);
	/* a FIFO in place of a segment: never skipped past, never waited on */
	tseg_path(&s.t, s.nums[1], path, sizeof(path));
	unlink(path);
	cr_assert_eq(mkfifo(path, 0600), 0);
	since = line_time_of(&s, 4, 2);
	cr_assert_eq(kept(&s, since) & 3u, 3u);
	slog_fini(&s);
}

/* An unfinished last line (a crash) is not the segment's last record. */
Test(search_since, unfinished_tail)
{
	struct slog s;
	char path[256];
	int64_t first, last, want;
	FILE *f;

	slog_init(&s);
	ordered(&s);
	want = line_time_of(&s, 0, 0);
	tseg_path(&s.t, s.nums[0], path, sizeof(path));
	f = fopen(path, "a");
	cr_assert_not_null(f);
	fputs("{\"seq\":999,\"time\":\"2030-01-01T00:00:00.000000000Z\",\"op\":\"se", f);
	fclose(f);
	cr_assert_eq(audit_seg_times(s.dirfd, s.nums[0], &first, &last), 0);
	cr_assert_eq(first, T0);
	cr_assert_eq(last, want);
	slog_fini(&s);
}

/* The same over a log in the audit format, whose lines the prefilter
 * judges by their time alone. */
Test(search_since, audit_format)
{
	struct slog s;
	int64_t t;

	slog_init_fmt(&s, AUDIT_FMT_AUDIT);
	ordered(&s);
	t = line_time_of(&s, 2, 3);
	cr_assert_eq(t, T0 + 2 * HOUR_NS + 2 * MIN_NS);
	cr_assert_eq(kept(&s, t), ALL(&s) & ~3u);
	search_exactly(&s, "--since", t, t, INT64_MAX);
	search_exactly(&s, "--until", t, INT64_MIN, t);
	slog_fini(&s);
}
