/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * record_fmt.h - the fields of a kernel record, enriched, in their one
 * order, written straight into a line (the recorder's log, trace's JSON)
 * or into a json-c object (sinks, the text renderer): audit/fields.h.
 */
#ifndef NSAUDIT_RECORD_FMT_H
#define NSAUDIT_RECORD_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "event_extra.h"
#include "fields.h"
#include "nsaudit.h"

struct host_id;

/* A record as the tracer hands it on: the kernel's and what user space added. */
struct enriched_event {
	const struct nsaudit_event *e;
	const struct event_extra *x;
};

/* Every field after "seq": time, op, result, ..., probe. */
void record_fields(struct audit_fields *f, const struct nsaudit_event *e,
		   const struct event_extra *x);

/*
 * From now on every record of this process ends with the host's identity
 * ("host", "machine_id", "boot_id": output/host_id.h); h must outlive the
 * records. NULL: none (the default, as in the unit tests' golden lines).
 */
void record_set_host(const struct host_id *h);
/* Drop the spans kept from the last record (record_fmt.c, record_span.c): the next
 * is formatted afresh. For tests; nothing else needs it. */
void record_fmt_forget(void);
const struct host_id *record_host(void);

/* The same for a const struct enriched_event * (an audit_fields_fn). */
void record_fields_of(struct audit_fields *f, const void *rec);

/* The record as one JSON line ending in '\n' (trace --format json). */
void record_json_line(struct sbuf *b, const struct nsaudit_event *e, const struct event_extra *x);

/* RFC 3339 UTC with nanoseconds: 2026-12-03T08:40:00.123456789Z (years 0-9999). */
#define RFC3339_LEN 31	/* with the NUL */
void format_rfc3339(int64_t realtime_ns, char *buf, size_t len);

#endif
