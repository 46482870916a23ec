/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer_impl.h - the tracer, composed of three objects with one owner
 * each, and what it keeps itself (the options, the enrichment and names,
 * start-up times):
 *   struct tracer_bpf     tracer_bpf.h: the BPF owner (tracer.c loads,
 *                         tracer_hooks.c, tracer_pins.c, pin_owner.c)
 *   struct tracer_stream  tracer_stream.h: the record stream (tracer_drain.c,
 *                         tracer_filter.c, name_link.c, hearing.c)
 *   struct tracer_ledger  tracer_ledger.h: the loss ledger (tracer_loss.c)
 * tracer.c opens and closes them. Not an API: tracer.h is.
 */
#ifndef NSAUDIT_TRACER_IMPL_H
#define NSAUDIT_TRACER_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracer.h"
#include "tracer_bpf.h"
#include "tracer_ledger.h"
#include "tracer_stream.h"

/* Where start-up goes, in the order tracer_open() does it (tracer_startup()). */
enum tracer_phase {
	PH_NAMES,	/* enrich_new, nsnames_new: /proc, mounts, runtime state */
	PH_OPEN,	/* the skeleton opened, hooks chosen (features probed) */
	PH_LOAD,	/* the verifier */
	PH_ATTACH,	/* attach, prime the open check, pins */
	PH_SNAPSHOT,	/* the task iterator and the mount scan */
	PH_RING,	/* ring buffers mapped, epoll */
	TRACER_PHASES
};

struct tracer {
	struct tracer_opts o;
	int64_t phase_ms10[TRACER_PHASES]; /* tenths of a ms, CLOCK_MONOTONIC */
	struct enrich *en;
	struct nsnames *names;		/* ns_name, old_name */
	struct tracer_bpf bpf;		/* the BPF owner */
	struct tracer_stream stream;	/* the record stream */
	struct tracer_ledger ledger;	/* the loss ledger */
	bool lineage_lost;		/* told the rules (tracer_lineage_check) */
};

/* --container: to the full id of the one container it names now; a
 * prefix several share is an error listing them; none such: waiting for
 * it, said on stderr (stream.container_waiting, stream_container_started) */
int tracer_container_resolve(struct tracer *t, char *err, size_t errlen);
/* Runtime lineage (tracer_lineage.c): .rodata before load, the trusted
 * executables after it, the start after attach; a missed mark, per record. */
void tracer_lineage_config(struct tracer *t);
void tracer_lineage_fill(struct tracer *t);
void tracer_lineage_begin(struct tracer *t);
void tracer_lineage_check(struct tracer *t);

#endif
