// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* --since/--until as ausearch and journalctl users type them (search_time.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "codec.h"
#include "search.h"

#define S 1000000000LL
/* 2026-12-07T10:30:00Z, a Monday */
#define NOW (1796639400LL * S)

static int64_t at(const char *s)
{
	int64_t ns = 0;

	cr_assert_eq(audit_time_arg(s, NOW, &ns), 0, "'%s' is a time", s);
	return ns;
}

static void local_zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

Test(search_time, local_words_and_dates)
{
	local_zone("UTC");
	cr_assert_eq(at("today"), 1796601600LL * S);
	cr_assert_eq(at("yesterday"), (1796601600LL - 86400) * S);
	cr_assert_eq(at("2026-12-07"), 1796601600LL * S);
	cr_assert_eq(at("2026-12-07 08:40"), (1796601600LL + 8 * 3600 + 40 * 60) * S);
	cr_assert_eq(at("2026-12-07 08:40:05"), (1796601600LL + 8 * 3600 + 40 * 60 + 5) * S);
	cr_assert_eq(at("08:40"), (1796601600LL + 8 * 3600 + 40 * 60) * S);
	/* a local time is local: two hours east, two hours earlier in UTC */
	local_zone("EET-2");
	cr_assert_eq(at("2026-12-07 08:40"), (1796601600LL + 6 * 3600 + 40 * 60) * S);
	cr_assert_eq(at("2026-12-07T08:40:00Z"), (1796601600LL + 8 * 3600 + 40 * 60) * S,
		     "a zone given is the zone used");
	local_zone("UTC");
}

/* ausearch's words (ausearch-time.c: midnight of the week's Sunday, of 7
 * days ago, of the month's and the year's first day; boot: btime) and
 * journalctl's " UTC" after a date or time */
Test(search_time, ausearch_words_and_utc)
{
	long long bt = 0;
	char line[256];
	FILE *f;

	local_zone("UTC");
	/* NOW is Monday 2026-12-07: the week began Sunday 2026-12-06 */
	cr_assert_eq(at("this-week"), (1796601600LL - 86400) * S);
	cr_assert_eq(at("week-ago"), (1796601600LL - 7 * 86400) * S);
	cr_assert_eq(at("this-month"), (1796601600LL - 6 * 86400) * S);
	cr_assert_eq(at("this-year"), 1767225600LL * S); /* 2026-01-01 */
	cr_assert_eq(at("tomorrow"), (1796601600LL + 86400) * S);
	local_zone("EET-2");
	cr_assert_eq(at("2026-12-07 08:40 UTC"), (1796601600LL + 8 * 3600 + 40 * 60) * S);
	cr_assert_eq(at("2026-12-07 08:40:05 UTC"), (1796601600LL + 8 * 3600 + 40 * 60 + 5) * S);
	cr_assert_eq(at("2026-12-07 UTC"), 1796601600LL * S);
	cr_assert_eq(at("08:40 UTC"), (1796601600LL + 8 * 3600 + 40 * 60) * S);
	cr_assert_eq(at("2026-12-07 08:40"), (1796601600LL + 6 * 3600 + 40 * 60) * S,
		     "without UTC, still local");
	local_zone("UTC");
	f = fopen("/proc/stat", "re");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &bt) == 1)
			break;
	fclose(f);
	cr_assert_gt(bt, 0);
	cr_assert_eq(at("boot"), bt * S);
}

Test(search_time, spans_ago)
{
	cr_assert_eq(at("5 min ago"), NOW - 300 * S);
	cr_assert_eq(at("5min ago"), NOW - 300 * S);
	cr_assert_eq(at("3 hours ago"), NOW - 3 * 3600 * S);
	cr_assert_eq(at("1 week ago"), NOW - 7 * 86400 * S);
	cr_assert_eq(at("-2h"), NOW - 2 * 3600 * S);
	cr_assert_eq(at("90s"), NOW - 90 * S);
	cr_assert_eq(at("recent"), NOW - 600 * S);
}

Test(search_time, not_times)
{
	static const char *const bad[] = { "yesterday-ish", "5x", "5 min later", "ago",
					   "2026-13-40", "25:99", "5 min ago ago", "", "-",
					   "this-weekend", "08:40 UTC UTC", "UTC", "2026-12-07 CET" };
	int64_t ns;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(audit_time_arg(bad[i], NOW, &ns), -1, "'%s'", bad[i]);
}
