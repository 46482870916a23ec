// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* metrics.c - counters and gauges as a Prometheus textfile (metrics.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alert_fmt.h"
#include "clock.h"
#include "host_id.h"
#include "metrics.h"
#include "nstype.h"

#define DEFAULT_INTERVAL_NS (10 * 1000000000LL)

const struct optab metrics_optab[] = {
	{ "metrics-file", METRICS_OPT, "PATH",
	  "write counters and gauges in the Prometheus text\n"
	  "format to PATH (atomically: for node_exporter's\n"
	  "textfile collector, e.g.\n"
	  "/var/lib/prometheus/node-exporter/nsaudit.prom)" },
	{ "metrics-interval", METRICS_OPT, "SECONDS", "how often (default 10)" },
	OPTAB_END,
};

int metrics_set_opt(struct metrics *m, const char *name, const char *val, char *err,
		    size_t errlen)
{
	char *end;
	double s;

	if (!strcmp(name, "metrics-file")) {
		size_t n = strlen(val);

		if (val[0] != '/' || n < 6 || strcmp(val + n - 5, ".prom")) {
			snprintf(err, errlen, "--metrics-file '%.64s': need an absolute path "
				 "ending in .prom (what the textfile collector reads)", val);
			return -1;
		}
		m->path = val;
		return 1;
	}
	if (!strcmp(name, "metrics-interval")) {
		errno = 0;
		s = strtod(val, &end);
		if (errno || end == val || *end || !(s >= 0.1 && s <= 86400)) {
			snprintf(err, errlen, "--metrics-interval '%.32s': need seconds, "
				 "0.1 to 86400", val);
			return -1;
		}
		m->interval_ns = (int64_t)(s * 1e9);
		return 1;
	}
	return 0;
}

static void bump(struct metrics_count *c, const char *label, uint64_t n)
{
	int i;

	for (i = 0; i < METRICS_LABELS_MAX; i++) {
		if (!c[i].label[0])
			snprintf(c[i].label, sizeof(c[i].label), "%s", label);
		if (!strcmp(c[i].label, label)) {
			c[i].n += n;
			return;
		}
	}
	/* more distinct labels than slots (one's own rules): the last one */
	c[METRICS_LABELS_MAX - 1].n += n;
}

void metrics_count(struct metrics *m, const struct nsaudit_event *e, const struct event_extra *x)
{
	if (!m->path)
		return;
	m->records++;
	if (x->alert)
		bump(m->alerts, x->alert->rule, 1);
	else if (e->op == NSAUDIT_OP_LOST)
		bump(m->lost, x->cause && !strncmp(x->cause, "sink ", 5) ? "sink"
			      : lost_reason_name(e->lost_reason) ?: "unknown", e->count);
}

bool metrics_due(struct metrics *m)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);

	if (!m->path || now < m->next_ns)
		return false;
	if (!m->start_ns) {	/* the first time */
		if (!m->interval_ns)
			m->interval_ns = DEFAULT_INTERVAL_NS;
		m->start_ns = clock_ns(CLOCK_REALTIME);
		bump(m->lost, "ring", 0);	/* a series from the start: rate() works */
	}
	m->next_ns = now + m->interval_ns;
	return true;
}

/* A label value: '\', '"' and newline escaped (the exposition format). */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{machine_id="...",k="v"} value */
static void series(FILE *f, const char *name, const char *k, const char *v, const char *mid,
		   double value)
{
	fprintf(f, "%s{machine_id=\"%s\"", name, mid);
	if (k) {
		fprintf(f, ",%s=\"", k);
		label(f, v);
		fputc('"', f);
	}
	fprintf(f, "} %.17g\n", value);
}

static void counts(FILE *f, const char *name, const char *k, const struct metrics_count *c,
		   const char *mid)
{
	int i;

	for (i = 0; i < METRICS_LABELS_MAX && c[i].label[0]; i++)
		series(f, name, k, c[i].label, mid, (double)c[i].n);
}

static double age_s(int64_t then_ns, int64_t now_ns)
{
	return (double)(now_ns - then_ns) / 1e9;
}

static void write_all(FILE *f, const struct metrics *m, const char *mid)
{
	int64_t now = clock_ns(CLOCK_REALTIME);
	int i;

	head(f, "nsaudit_records_total", "counter", "Records written (alerts and losses too).");
	series(f, "nsaudit_records_total", NULL, NULL, mid, (double)m->records);
	head(f, "nsaudit_lost_total", "counter", "Calls lost, by reason.");
	counts(f, "nsaudit_lost_total", "reason", m->lost, mid);
	head(f, "nsaudit_alerts_total", "counter", "Alerts, by rule.");
	counts(f, "nsaudit_alerts_total", "rule", m->alerts, mid);
	head(f, "nsaudit_ring_used_bytes", "gauge", "Bytes in a ring not yet consumed.");
	for (i = 0; i < 2; i++)
		if (m->ring[i].name)
			series(f, "nsaudit_ring_used_bytes", "ring", m->ring[i].name, mid,
			       (double)m->ring[i].used);
	head(f, "nsaudit_ring_size_bytes", "gauge", "Size of a ring.");
	for (i = 0; i < 2; i++)
		if (m->ring[i].name)
			series(f, "nsaudit_ring_size_bytes", "ring", m->ring[i].name, mid,
			       (double)m->ring[i].size);
	head(f, "nsaudit_sink_queue_depth", "gauge", "Records queued for a sink.");
	for (i = 0; i < m->nsinks; i++)
		series(f, "nsaudit_sink_queue_depth", "sink", m->sink[i].name, mid,
		       (double)m->sink[i].depth);
	head(f, "nsaudit_sink_lost_total", "counter", "Records a sink dropped.");
	for (i = 0; i < m->nsinks; i++)
		series(f, "nsaudit_sink_lost_total", "sink", m->sink[i].name, mid,
		       (double)m->sink[i].lost);
	if (m->log) {
		head(f, "nsaudit_anchor_lag_records", "gauge",
		     "Records written since the last anchor left through the sinks.");
		series(f, "nsaudit_anchor_lag_records", NULL, NULL, mid,
		       (double)(m->written_seq > m->anchored_seq
				? m->written_seq - m->anchored_seq : 0));
		head(f, "nsaudit_anchor_age_seconds", "gauge", "Seconds since the last anchor.");
		series(f, "nsaudit_anchor_age_seconds", NULL, NULL, mid,
		       age_s(m->anchor_ns ?: m->start_ns, now));
		head(f, "nsaudit_seal_age_seconds", "gauge",
		     "Seconds since the last seal (since start when none yet).");
		series(f, "nsaudit_seal_age_seconds", NULL, NULL, mid,
		       age_s(m->seal_ns ?: m->start_ns, now));
	}
	head(f, "nsaudit_last_write_timestamp_seconds", "gauge", "When this file was written.");
	series(f, "nsaudit_last_write_timestamp_seconds", NULL, NULL, mid, (double)now / 1e9);
}

int metrics_write(struct metrics *m)
{
	const struct host_id *h = record_host();
	char tmp[4200];
	FILE *f;
	int fd, rc = 0;

	/* the same directory, a name the collector skips (not *.prom) */
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", m->path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	write_all(f, m, h && h->machine_id[0] ? h->machine_id : "unknown");
	if (fflush(f) || fsync(fileno(f)))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, m->path))
		rc = -errno;
	if (rc)
		unlink(tmp);
out:
	if (rc && rc != -m->last_errno)
		fprintf(stderr, "nsaudit: --metrics-file %s: %s\n", m->path, strerror(-rc));
	m->last_errno = rc ? -rc : 0;
	return rc;
}
