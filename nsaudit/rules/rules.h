/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * rules.h - detections: every record the tracer hands on is evaluated by
 * the rules (built-in ones, tuned or extended by a --rules YAML file), and
 * each match becomes an alert, itself a record ("op":"alert") that goes
 * wherever records go (stdout, the log, the sinks). docs/rules.md says
 * what each rule means.
 *
 * The room, one job per file:
 *   engine.c      evaluation, de-duplication, exceptions, the alert made
 *   builtin.c     the built-in rules (ids, severities, what they match)
 *   facts.c       the one mapping from a record to the facts rules use
 *   trust.c       runtimes by executable identity and process tree
 *   predicates.c  conditions of one's own rules and of exceptions
 *   persist.c     namespaces left pinned after their owner went
 *   config.c      the --rules YAML file (libyaml)
 *   alert_fmt.c   an alert's fields, in order, for every output
 */
#ifndef NSAUDIT_RULES_H
#define NSAUDIT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "enrich/containers.h"
#include "nsaudit.h"
#include "output/record_fmt.h"
#include "output/alert_fmt.h"

struct rules;
struct nsnames;

/* Built-in rules with their default settings. NULL on ENOMEM. */
struct rules *rules_new(void);
void rules_free(struct rules *r);

/*
 * Tune and extend from a YAML file (docs/rules.md). 0, or -1 with one line
 * naming the file and line in err; nothing is half-applied on error.
 */
int rules_load_file(struct rules *r, const char *path, char *err, size_t errlen);
/* The same from a string (unit tests); name is used in messages. */
int rules_load_string(struct rules *r, const char *yaml, const char *name, char *err,
		      size_t errlen);

/* Where namespace owners and containers are looked up (the tracer's). */
void rules_set_names(struct rules *r, struct nsnames *names);

/*
 * The trusted runtimes' executables by identity (inode, kernel dev_t), for
 * the kernel side to follow their lineage (bpf/nsaudit/lineage.bpf.h):
 * fn(ctx, ino, dev) for each.
 */
void rules_runtime_exes(const struct rules *r, void (*fn)(void *ctx, uint64_t ino, uint32_t dev),
			void *ctx);
/* The kernel side could not mark some runtime's process (no memory): a
 * record's lineage without NSAUDIT_LINEAGE_RUNTIME is no answer then. */
void rules_lineage_lost(struct rules *r);

/* Called with each alert; returns <0 to stop. */
typedef int (*rules_emit_fn)(void *ctx, const struct rule_alert *a, const struct nsaudit_event *e);

/*
 * Evaluate one record (seq: the one it was written with). Calls emit for
 * each alert. Returns the number of alerts, or <0 when emit failed.
 */
int rules_eval(struct rules *r, const struct nsaudit_event *e, const struct event_extra *x,
	       uint64_t seq, rules_emit_fn emit, void *ctx);
/* Time-driven checks (pins left behind); call every batch. */
int rules_tick(struct rules *r, rules_emit_fn emit, void *ctx);

/* Whether a rule id is known (built-in or from the file), and its state. */
bool rules_enabled(const struct rules *r, const char *id);
int rules_severity(const struct rules *r, const char *id);

/* Number of built-in rules and their ids (docs, --help). */
extern const char rules_help[];

#endif
