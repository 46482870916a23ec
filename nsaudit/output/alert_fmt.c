// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * alert_fmt.c - an alert's fields, in their one order, for every output
 * (the log, trace's JSON, the sinks' objects): record_fields() hands an
 * alert here. The actor's own fields (pid, comm, exe...) are those of the
 * record it is about, so that search --pid/--comm find alerts too.
 */
#include <string.h>

#include "nstype.h"
#include "alert_fmt.h"

static void str(struct audit_fields *f, const char *k, const char *s)
{
	audit_f_str(f, k, s, strlen(s));
}

void alert_fields(struct audit_fields *f, const struct nsaudit_event *e,
		  const struct rule_alert *a, const char *container, const char *time,
		  size_t time_len)
{
	const char *type = nstype_name(e->ns_type);

	audit_f_str(f, "time", time, time_len);
	str(f, "op", "alert");
	str(f, "rule", a->rule);
	str(f, "severity", rule_severity_name(a->severity));
	str(f, "summary", a->summary);
	str(f, "actor_container", a->actor);
	if (a->actor_name[0])
		str(f, "actor_container_name", a->actor_name);
	str(f, "target_container", a->target[0] ? a->target : "none");
	if (a->target_name[0])
		str(f, "target_container_name", a->target_name);
	if (a->about_seq)
		audit_f_u64(f, "about_seq", a->about_seq);
	if (a->about_kseq)
		audit_f_u64(f, "about_kseq", a->about_kseq);
	if (a->holder[0])
		str(f, "holder", a->holder);
	if (e->pid) {
		audit_f_u64(f, "pid", e->pid);
		audit_f_u64(f, "uid", e->uid);
		audit_f_str(f, "comm", e->comm, sizeof(e->comm));
		if (a->exe)
			audit_f_str(f, "exe", a->exe, 4096);
	}
	/* the type also without the inode (a refused open of /proc/1/ns/ipc
	 * whose namespace nobody could read): search --type finds it */
	if (type)
		str(f, "ns_type", type);
	if (type && e->ns_inum) {
		audit_f_u64(f, "ns_inum", e->ns_inum);
		/* the kernel's id where it has one: inodes are reused */
		if (e->ns_id)
			audit_f_u64(f, "ns_id", e->ns_id);
	}
	if (e->result < 0)
		str(f, "error", strerrorname_np(-e->result) ?: "E?");
	if (container)
		audit_f_str(f, "container", container, 4096);
	str(f, "probe", "user");
}

static const char *const sev_names[] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

const char *rule_severity_name(int sev)
{
	return sev >= 0 && sev <= RULE_SEV_DEBUG ? sev_names[sev] : "?";
}

int rule_severity_parse(const char *s)
{
	int i;

	for (i = 0; i <= RULE_SEV_DEBUG; i++)
		if (!strcmp(s, sev_names[i]))
			return i;
	if (!strcmp(s, "error"))
		return RULE_SEV_ERR;
	if (!strcmp(s, "warn"))
		return RULE_SEV_WARNING;
	if (!strcmp(s, "critical"))
		return RULE_SEV_CRIT;
	if (!strcmp(s, "emergency"))
		return RULE_SEV_EMERG;
	if (s[0] >= '0' && s[0] <= '7' && !s[1])
		return s[0] - '0';
	return -1;
}
