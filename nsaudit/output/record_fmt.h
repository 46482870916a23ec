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

#include "fields.h"
#include "nsaudit.h"

struct rule_alert;
struct host_id;

/* What user space adds to a kernel record (see enrich.h). */
struct event_extra {
	uint64_t seq;
	int64_t realtime_ns;	/* wall-clock time of the event */
	const char *exe;	/* NULL if unknown */
	const char *cgroup;	/* NULL if unknown */
	const char *ns_name;	/* NULL if unnamed */
	const char *old_name;
	uint32_t exe_mntns;	/* the mount namespace exe is relative to (0: unknown) */
	uint64_t exe_mntns_id;
	bool exe_cut;		/* exe holds the first bytes of a longer path */
	const char *container;	/* the container the record is about (id), or NULL */
	const char *container_name; /* its name (podman's, docker's ...), or NULL */
	const char *ns_container; /* the owner of ns_inum: "host", a container id, or NULL */
	const char *ns_container_name;
	const char *pod;	/* kubernetes pod name and namespace of it, or NULL */
	const char *pod_namespace;
	/* the actor's own container, from its namespaces at the call ("host"
	 * for the host's), and its name; NULL: not known */
	const char *actor_container;
	const char *actor_container_name;
	const char *actor_pod;
	const char *actor_pod_namespace;
	const char *unresolved;	/* what enrichment could not complete, and why */
	const char *cause;	/* a record user space made: what happened */
	/* a record user space made about a pin: who made the pin (the mount
	 * call's caller, from the kernel side); maker_comm NULL: not known */
	const char *maker_comm;
	uint32_t maker_pid;
	uint32_t maker_uid;
	/* a mount that names a namespace whose creation record came out
	 * without a name (ip netns add: unshare, then the bind mount): that
	 * record's seq in the log, linking the name to it; 0: none */
	uint64_t created_seq;
	const struct rule_alert *alert; /* an alert ("op":"alert", nsaudit/rules/)
					 * about the record e: e's actor fields */
};

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
