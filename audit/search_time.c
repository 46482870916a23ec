// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search_time.c - the times --since and --until take: what users of
 * ausearch and journalctl type first, besides RFC 3339.
 *
 * Local forms (a date, a time of day, today, yesterday) are read in the
 * local time zone (TZ), as journalctl and ausearch read them; the log's
 * own times are UTC with a Z, so a zone is never guessed for them.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

#define NS 1000000000LL

enum day_start { DAY_OF, WEEK_OF, MONTH_OF, YEAR_OF };

/* Local midnight of the day now_ns falls in, days later (may be < 0), or
 * of the first day of its week (Sunday, as ausearch), month or year. */
static int local_midnight(int64_t now_ns, int days, enum day_start of, int64_t *ns)
{
	time_t t = (time_t)(now_ns / NS);
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return -1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += days;
	if (of == WEEK_OF)
		tm.tm_mday -= tm.tm_wday;
	if (of >= MONTH_OF)
		tm.tm_mday = 1;
	if (of == YEAR_OF)
		tm.tm_mon = 0;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	*ns = (int64_t)t * NS;
	return 0;
}

/* When this system booted (/proc/stat btime), as ausearch's "boot". */
static int boot_time(int64_t *ns)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[256];
	long long bt;
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &bt) == 1 && bt > 0) {
			*ns = bt * NS;
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* ausearch's words: now, recent, boot, today, yesterday, this-week,
 * week-ago, this-month, this-year (and journalctl's tomorrow). 0, -1 not
 * one of them, -2 one that cannot be answered here. */
static int time_word(const char *s, int64_t now_ns, int64_t *ns)
{
	static const struct {
		const char *word;
		int days;
		enum day_start of;
	} days[] = {
		{ "today", 0, DAY_OF },		{ "yesterday", -1, DAY_OF },
		{ "tomorrow", 1, DAY_OF },	{ "this-week", 0, WEEK_OF },
		{ "week-ago", -7, DAY_OF },	{ "this-month", 0, MONTH_OF },
		{ "this-year", 0, YEAR_OF },
	};
	size_t i;

	if (!strcmp(s, "now")) {
		*ns = now_ns;
		return 0;
	}
	if (!strcmp(s, "recent")) { /* ausearch: 10 minutes ago */
		*ns = now_ns - 600 * NS;
		return 0;
	}
	if (!strcmp(s, "boot"))
		return boot_time(ns) ? -2 : 0;
	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++)
		if (!strcmp(s, days[i].word))
			return local_midnight(now_ns, days[i].days, days[i].of, ns) ? -2 : 0;
	return -1;
}

/* "2026-12-07", "2026-12-07 08:40[:05]", "2026-12-07T08:40[:05]" (no
 * zone), "08:40[:05]" (today): local time; with " UTC" after it (as
 * journalctl takes it), UTC. */
static int local_time(const char *s, int64_t now_ns, int64_t *ns)
{
	static const char *const forms[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					     "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d",
					     "%H:%M:%S", "%H:%M" };
	size_t i, len = strlen(s);
	bool utc = len > 4 && !strcmp(s + len - 4, " UTC");

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct tm tm = { 0 };
		const char *end;
		time_t t;

		if (i >= 5) {	/* a time of day: today's date */
			t = (time_t)(now_ns / NS);
			if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
				return -1;
		}
		end = strptime(s, forms[i], &tm);
		if (!end || (utc ? strcmp(end, " UTC") : *end))
			continue;
		tm.tm_isdst = -1;
		t = utc ? timegm(&tm) : mktime(&tm);
		if (t == (time_t)-1)
			return -1;
		*ns = (int64_t)t * NS;
		return 0;
	}
	return -1;
}

/* "90s", "10m", "2h", "7d", "-2h", "5 min ago", "3 hours ago", "1 week ago" */
static int span_ago(const char *s, int64_t now_ns, int64_t *ns)
{
	static const struct {
		const char *name;
		int64_t ns;
	} units[] = {
		{ "s", NS },	       { "sec", NS },	     { "second", NS },
		{ "m", 60 * NS },      { "min", 60 * NS },   { "minute", 60 * NS },
		{ "h", 3600 * NS },    { "hour", 3600 * NS }, { "d", 86400 * NS },
		{ "day", 86400 * NS }, { "w", 604800 * NS }, { "week", 604800 * NS },
	};
	char unit[16], *end;
	unsigned long v;
	size_t i, n;

	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v > 100000000)
		return -1;
	while (*end == ' ')
		end++;
	n = strcspn(end, " ");
	if (!n || n >= sizeof(unit))
		return -1;
	memcpy(unit, end, n);
	unit[n] = '\0';
	end += n;
	if (n > 1 && unit[n - 1] == 's' && strcmp(unit, "s"))
		unit[n - 1] = '\0'; /* minutes, hours, secs */
	while (*end == ' ')
		end++;
	if (*end && strcmp(end, "ago"))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name) && (int64_t)v <= INT64_MAX / units[i].ns) {
			*ns = now_ns - (int64_t)v * units[i].ns;
			return 0;
		}
	return -1;
}

int audit_time_arg(const char *s, int64_t now_ns, int64_t *ns)
{
	char *end;
	int rc;

	if (!s || !*s)
		return -1;
	rc = time_word(s, now_ns, ns);
	if (rc != -1)
		return rc ? -1 : 0;
	if (s[0] == '@') {
		double d;

		if (!s[1] || s[1] == ' ' || s[1] == '+')
			return -1;
		errno = 0;
		d = strtod(s + 1, &end);
		if (errno || *end || d < -9.2e9 || d > 9.2e9)
			return -1;
		*ns = (int64_t)(d * 1e9);
		return 0;
	}
	if (!audit_time_parse(s, ns))
		return 0;
	if (!local_time(s, now_ns, ns))
		return 0;
	return span_ago(s, now_ns, ns);
}
