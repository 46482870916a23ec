// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_report.c - the verifier's findings: every one is kept with its
 * segment, line and seq (the first AUDIT_VERIFY_FINDINGS in full, the rest
 * counted), so that one problem never hides another, and a crash tail is
 * told apart from tampering.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "verify_impl.h"

/* Names from the log (key_id, field names) are untrusted: a report stays
 * one line, without terminal escapes. */
static void clean(char *p)
{
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

int walk_find(struct walk *w, bool crash, const char *seg, uint64_t line, uint64_t seq,
	      const char *fmt, ...)
{
	struct audit_verify *v = w->v;
	struct audit_finding *f;
	va_list ap;

	v->nfindings++;
	if (!crash) {
		v->ntamper++;
		w->bad = true;
	}
	if (v->nfindings <= AUDIT_VERIFY_FINDINGS) {
		f = &v->findings[v->nfindings - 1];
		if (line)
			snprintf(f->where, sizeof(f->where), "%s line %" PRIu64, seg, line);
		else
			snprintf(f->where, sizeof(f->where), "%s", seg);
		f->seq = seq;
		f->crash = crash;
		va_start(ap, fmt);
		vsnprintf(f->what, sizeof(f->what), fmt, ap);
		va_end(ap);
		clean(f->what);
		clean(f->where);
	}
	/* the headline: the first tampering, else the first crash tail */
	if ((!crash && v->ntamper == 1) || v->nfindings == 1) {
		if (line)
			snprintf(v->where, sizeof(v->where), "%s line %" PRIu64, seg, line);
		else
			snprintf(v->where, sizeof(v->where), "%s", seg);
		v->bad_seq = seq;
		va_start(ap, fmt);
		vsnprintf(v->what, sizeof(v->what), fmt, ap);
		va_end(ap);
		clean(v->what);
		clean(v->where);
	}
	return -1;
}

bool walk_is_log(const struct audit_rec *r, const char *action)
{
	const char *op, *a;

	/* a light record is never the log's own (verify_light.c): asked of
	 * each record several times, it was a sixth of verify's time */
	if (!r->obj && !r->flat)
		return false;
	op = audit_rec_str(r, "op", NULL);
	a = audit_rec_str(r, "action", NULL);
	return op && a && !strcmp(op, "log") && !strcmp(a, action);
}

int64_t walk_slack_ns(const struct walk *w)
{
	int64_t half = w->interval * 1000000000ll / 2;

	return half < WALK_SLACK_MAX_NS ? half : WALK_SLACK_MAX_NS;
}

int64_t walk_epoch_start_ns(const struct walk *w, uint64_t e)
{
	return (w->t0 + (int64_t)e * w->interval) * 1000000000ll;
}

void walk_fmt_time(int64_t ns, char *out, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
