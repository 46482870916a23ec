// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* codec_time.c - RFC 3339 timestamps: the "time" field, read and written. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "clock.h"

static int digits(const char **s, int n, int *out)
{
	int v = 0;

	while (n--) {
		if (!isdigit((unsigned char)**s))
			return -1;
		v = v * 10 + (*(*s)++ - '0');
	}
	*out = v;
	return 0;
}

int audit_time_parse(const char *s, int64_t *ns)
{
	int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0;
	int64_t frac = 0, scale = 100000000;
	struct tm tm = {0};
	time_t t;

	if (!s || digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) || *s++ != '-' ||
	    digits(&s, 2, &d) || (*s != 'T' && *s != 't' && *s != ' '))
		return -1;
	s++;
	if (digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi) || *s++ != ':' ||
	    digits(&s, 2, &sec))
		return -1;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		for (; isdigit((unsigned char)*s); s++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (digits(&s, 2, &oh) || *s++ != ':' || digits(&s, 2, &om) || oh > 23 || om > 59)
			return -1;
	} else {
		return -1;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	t -= sign * (oh * 3600 + om * 60);
	/* nanoseconds since 1970 in 64 bits end in 2262: a later (or a much
	 * earlier) time is no time a record can carry */
	if (t > INT64_MAX / 1000000000 || t < INT64_MIN / 1000000000 ||
	    (t == INT64_MAX / 1000000000 && frac > INT64_MAX % 1000000000))
		return -1;
	*ns = (int64_t)t * 1000000000 + frac;
	return 0;
}

void audit_time_now(char buf[40])
{
	struct timespec ts;
	struct tm tm;

	ts = ns_to_timespec(realtime_ns());
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 40, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), 12, ".%09uZ", (unsigned int)(ts.tv_nsec % 1000000000));
}
