/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * facts.h - what the rules decide on, filled from one record in one place
 * (facts_fill): who acted (host or which container), on whose namespace
 * (the host's, which container's), with which executable, trusted or not.
 * Predicates never read the record's raw fields for these: when the record
 * itself carries better facts (the actor's own namespaces and containers,
 * docs/attribution.md), only facts.c changes.
 */
#ifndef NSAUDIT_RULES_FACTS_H
#define NSAUDIT_RULES_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "enrich/containers.h"
#include "nsaudit.h"
#include "output/record_fmt.h"

struct nsnames;

struct rule_facts {
	const struct nsaudit_event *e;
	const struct event_extra *x;
	uint64_t seq;			/* the record's as written */
	int64_t now_ns;			/* CLOCK_MONOTONIC when evaluated */
	/* the actor */
	uint32_t actor_pidns, actor_mntns; /* 0: not known */
	bool actor_host;		/* its pid and mnt ns are the host's */
	const char *actor_ctr;		/* its container's id, NULL: none known */
	const char *actor_ctr_name;	/* and name, NULL: none */
	bool trusted;			/* a runtime's or sandbox's own binary */
	/* the namespace acted on */
	bool has_target;		/* the record names a namespace */
	bool target_host;		/* it is the host's */
	const char *target_ctr;		/* the container that owns it, NULL: none */
	const char *target_ctr_name;
	bool target_own;		/* the actor's container runs in it too */
	/* a namespace entered or pinned (setns, open, nsfd, mount) */
	bool enters, pins;
};

struct facts_ctx;

struct facts_ctx *facts_new(void);
void facts_free(struct facts_ctx *fx);
void facts_set_names(struct facts_ctx *fx, struct nsnames *names);
struct nsnames *facts_names(struct facts_ctx *fx);

/* The facts of one record; strings valid until the next call. */
void facts_fill(struct facts_ctx *fx, const struct nsaudit_event *e, const struct event_extra *x,
		uint64_t seq, struct rule_facts *f);

/* --- trust.c: runtimes and sandboxes by executable identity ------------- */

/* Trust an executable file (stat'ed from the host's root now). 0 or -errno. */
int facts_trust_exe(struct facts_ctx *fx, const char *path);
/* The built-in list of runtimes and sandboxes (those that exist). */
void facts_trust_defaults(struct facts_ctx *fx);
/*
 * Whether the actor is a trusted binary: its executable's identity (the
 * record's dev/ino, else /proc/PID/exe) is one trusted, or it is a
 * runtime's copy of itself in a memfd (runc and crun re-execute from one)
 * whose parent chain reaches that runtime. A host process, or any process
 * in the host's mount namespace, is trusted by that alone. A container's
 * process away from the host's mount namespace (away) only when every step up to a trusted binary run in the host's
 * mount and pid namespaces is the runtime's own (a fork, or a re-exec from
 * a memfd copy): runc's and crun's children. Never by name.
 */
bool facts_trusted(struct facts_ctx *fx, const struct nsaudit_event *e, bool away);

/*
 * Whether pid is a runtime's work: it, or a process above it, runs a
 * trusted binary (or a runtime's memfd copy). For waiting on a teardown,
 * never for trust.
 */
bool facts_runtime_pid(struct facts_ctx *fx, uint32_t pid);

/* kernel dev_t (MAJOR << 20 | MINOR, what BPF reads) of a stat st_dev */
uint32_t facts_kdev(uint64_t st_dev);

#endif
