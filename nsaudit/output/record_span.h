/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * record_span.h - a record's body kept from one record to the next
 * (record_span.c), for record_fmt.c.
 */
#ifndef NSAUDIT_RECORD_SPAN_H
#define NSAUDIT_RECORD_SPAN_H

#include "event_extra.h"
#include "fields.h"
#include "nsaudit.h"

/* Formats a record's body ("op" ... "cause") afresh. */
typedef void (*record_body_fn)(struct audit_fields *f, const struct nsaudit_event *e,
			       const struct event_extra *x);

/* The body of e, x into f: the last one's bytes when all its inputs are
 * the same, else fresh(f, e, x), kept for the next. */
void record_body_span(struct audit_fields *f, const struct nsaudit_event *e,
		      const struct event_extra *x, record_body_fn fresh);
/* The next body is formatted afresh (record_fmt_forget). */
void record_body_forget(void);

#endif
