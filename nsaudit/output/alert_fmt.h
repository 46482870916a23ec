/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * alert_fmt.h - an alert record: its shape (what a rule fills in), its
 * severities, and its fields for every output (record_fmt.c calls
 * alert_fields). The rules make alerts (nsaudit/rules/); outputs write them.
 */
#ifndef NSAUDIT_OUTPUT_ALERT_FMT_H
#define NSAUDIT_OUTPUT_ALERT_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "fields.h"
#include "enrich/containers.h"
#include "nsaudit.h"

/* syslog's levels (RFC 5424 severities), the scale of "severity" */
enum rule_severity {
	RULE_SEV_EMERG = 0,
	RULE_SEV_ALERT,
	RULE_SEV_CRIT,
	RULE_SEV_ERR,
	RULE_SEV_WARNING,
	RULE_SEV_NOTICE,
	RULE_SEV_INFO,
	RULE_SEV_DEBUG,
};

const char *rule_severity_name(int sev);

/* "crit", "warning", ... (also "error", "warn", "0".."7"); -1 if none */
int rule_severity_parse(const char *s);

#define RULE_ID_LEN 64
#define RULE_SUMMARY_LEN 384
#define RULE_HOLDER_LEN 192

/* One alert: the record "op":"alert" (alert_fmt.c writes its fields). */
struct rule_alert {
	char rule[RULE_ID_LEN];		  /* stable id: container-escape, ... */
	int severity;			  /* enum rule_severity */
	char summary[RULE_SUMMARY_LEN];	  /* one line a person can act on */
	char actor[CONTAINER_ID_LEN];	  /* container id, "host", or "pid:[N]" */
	char actor_name[CONTAINER_NAME_LEN]; /* its name, "" if none */
	char target[CONTAINER_ID_LEN];	  /* owner of the namespace: id, "host", "" */
	char target_name[CONTAINER_NAME_LEN];
	uint64_t about_seq;		  /* the record it is about (0: none) */
	uint64_t about_kseq;
	char holder[RULE_HOLDER_LEN];	  /* persistence: what still holds it */
	const char *exe;		  /* the actor's executable, or NULL */
};

/* Every field after "seq" of alert a about record e, whose container
 * (NULL: none) is the record's. */
void alert_fields(struct audit_fields *f, const struct nsaudit_event *e,
		  const struct rule_alert *a, const char *container, const char *time,
		  size_t time_len);

#endif
