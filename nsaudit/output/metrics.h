/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * metrics.h - what a running trace or recorder has done, in the Prometheus
 * text exposition format, written atomically (a temporary file renamed
 * over PATH) for node_exporter's textfile collector (--metrics-file):
 *
 *   nsaudit_records_total                 records written (alerts, losses too)
 *   nsaudit_lost_total{reason}            calls lost, by reason (ring, budget, sink...)
 *   nsaudit_alerts_total{rule}            alerts, by rule
 *   nsaudit_ring_used_bytes{ring}, nsaudit_ring_size_bytes{ring}
 *   nsaudit_sink_queue_depth{sink}, nsaudit_sink_lost_total{sink}
 *   nsaudit_anchor_lag_records            records not yet under an anchor (record)
 *   nsaudit_anchor_age_seconds            since the last anchor left (record)
 *   nsaudit_seal_age_seconds              since the last seal (record)
 *   nsaudit_last_write_timestamp_seconds  when this file was written
 *
 * Every series carries the host's machine_id (node_exporter adds no host
 * label of its own to textfile metrics).
 */
#ifndef NSAUDIT_OUTPUT_METRICS_H
#define NSAUDIT_OUTPUT_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "nsaudit.h"
#include "optab.h"
#include "record_fmt.h"

#define METRICS_LABELS_MAX 32
#define METRICS_SINKS_MAX 4

struct metrics_count {
	char label[64];
	uint64_t n;
};

struct metrics {
	const char *path;		/* NULL: no metrics */
	int64_t interval_ns;
	int64_t next_ns;		/* CLOCK_MONOTONIC */
	uint64_t records;
	struct metrics_count lost[METRICS_LABELS_MAX];
	struct metrics_count alerts[METRICS_LABELS_MAX];
	/* gauges the command fills before metrics_tick() */
	struct {
		const char *name;
		uint64_t used, size;
	} ring[2];
	struct {
		const char *name;
		uint64_t depth, lost;
	} sink[METRICS_SINKS_MAX];
	int nsinks;
	bool log;			/* a recorder: the anchor and seal gauges mean something */
	uint64_t written_seq, anchored_seq;
	int64_t anchor_ns, seal_ns;	/* CLOCK_REALTIME of the last ones (0: none yet) */
	int64_t start_ns;
	int last_errno;			/* the last write's failure, said once */
};

/* --metrics-file PATH, --metrics-interval DURATION as rows of a command's
 * option table (optab.h; both return METRICS_OPT), and applied by long
 * name: 1 done, 0 not ours, -1 with err. */
#define METRICS_OPT 0x1a0
extern const struct optab metrics_optab[];
int metrics_set_opt(struct metrics *m, const char *name, const char *val, char *err,
		    size_t errlen);

/* Count one record as the tracer hands it on. */
void metrics_count(struct metrics *m, const struct nsaudit_event *e, const struct event_extra *x);

/* Time for a new file (the interval passed)? Then the caller fills the
 * gauges and calls metrics_write. */
bool metrics_due(struct metrics *m);
/* Write the file now (atomically); 0 or -errno (said once on stderr). */
int metrics_write(struct metrics *m);

#endif
