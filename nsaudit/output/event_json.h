/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * event_json.h - a kernel record, enriched, as a flat json-c object, and the
 * readable one-line text form of such an object.
 */
#ifndef NSAUDIT_EVENT_JSON_H
#define NSAUDIT_EVENT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "nsaudit.h"
#include "record_fmt.h"

/*
 * A new json-c object for the record: "seq", then record_fields() in their
 * order, strings holding the exact bytes (each output escapes them its own
 * way). For the sinks and the text renderer; the log and trace's JSON are
 * written without one (record_fmt.h). NULL only on ENOMEM.
 */
struct json_object *event_to_json(const struct nsaudit_event *e, const struct event_extra *x);

/* One readable line (with newline), lsns vocabulary: net:[4026531833]. */
void record_print_text(FILE *f, struct json_object *rec, bool colour);

#endif
