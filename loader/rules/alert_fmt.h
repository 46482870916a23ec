/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* alert_fmt.h - an alert record's fields (record_fmt.c calls it). */
#ifndef NSAUDIT_RULES_ALERT_FMT_H
#define NSAUDIT_RULES_ALERT_FMT_H

#include <stddef.h>

#include "fields.h"
#include "output/record_fmt.h"
#include "rules.h"

/* Every field after "seq" of the alert x->alert about record e. */
void alert_fields(struct audit_fields *f, const struct nsaudit_event *e,
		  const struct event_extra *x, const char *time, size_t time_len);

#endif
