/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * record_fmt.h - the fields of a kernel record, enriched, in their one
 * order, written straight into a line (the recorder's log, trace's JSON)
 * or into a json-c object (sinks, the text renderer): audit/fields.h.
 */
#ifndef NSAUDIT_RECORD_FMT_H
#define NSAUDIT_RECORD_FMT_H

#include <stdint.h>

#include "fields.h"
#include "event_json.h"
#include "nsaudit.h"

/* Every field after "seq": time, op, result, ..., probe. */
void record_fields(struct audit_fields *f, const struct nsaudit_event *e,
		   const struct event_extra *x);

/* The record as one JSON line ending in '\n' (trace --format json). */
void record_json_line(struct sbuf *b, const struct nsaudit_event *e, const struct event_extra *x);

#endif
