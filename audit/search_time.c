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
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

#define NS 1000000000LL

/* Local midnight of the day now_ns falls in, days later (may be < 0). */
static int local_midnight(int64_t now_ns, int days, int64_t *ns)
{
	time_t t = (time_t)(now_ns / NS);
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return -1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	*ns = (int64_t)t * NS;
	return 0;
}

/* "2026-12-07", "2026-12-07 08:40[:05]", "2026-12-07T08:40[:05]" (no
 * zone), "08:40[:05]" (today): local time. */
static int local_time(const char *s, int64_t now_ns, int64_t *ns)
{
	static const char *const forms[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					     "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d",
					     "%H:%M:%S", "%H:%M" };
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct tm tm = { 0 };
		const char *end;
		time_t t;

		if (i >= 5) {	/* a time of day: today's date */
			t = (time_t)(now_ns / NS);
			if (!localtime_r(&t, &tm))
				return -1;
		}
		end = strptime(s, forms[i], &tm);
		if (!end || *end)
			continue;
		tm.tm_isdst = -1;
		t = mktime(&tm);
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

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "now")) {
		*ns = now_ns;
		return 0;
	}
	if (!strcmp(s, "recent")) { /* ausearch: 10 minutes ago */
		*ns = now_ns - 600 * NS;
		return 0;
	}
	if (!strcmp(s, "today"))
		return local_midnight(now_ns, 0, ns);
	if (!strcmp(s, "yesterday"))
		return local_midnight(now_ns, -1, ns);
	if (!strcmp(s, "tomorrow"))
		return local_midnight(now_ns, 1, ns);
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
