// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* The --rules YAML file: what it changes, and errors with their line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules_impl.h"

#define CTR_A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static int count(void *ctx, const struct rule_alert *a, const struct nsaudit_event *e)
{
	(*(int *)ctx)++;
	return 0;
}

/* a container process entering the host's net namespace */
static void escape(struct nsaudit_event *e, struct event_extra *x, uint32_t pid)
{
	memset(e, 0, sizeof(*e));
	memset(x, 0, sizeof(*x));
	e->pid = e->tid = pid;
	e->actor_pidns = 0xf0000100u;
	e->actor_mntns = 0xf0000101u;
	e->op = NSAUDIT_OP_SETNS;
	e->ns_type = NSAUDIT_NS_NET;
	e->ns_inum = 0xeffffff9u;
	e->flags = NSAUDIT_F_HAS_NS;
	e->uid = 1000;
	snprintf(e->comm, sizeof(e->comm), "nsenter");
	x->actor_container = CTR_A;
	x->actor_container_name = "web";
}

static int load(struct rules *r, const char *yaml, char *err, size_t len)
{
	return rules_load_string(r, yaml, "rules.yaml", err, len);
}

Test(rules_yaml, tune_builtin_rules)
{
	struct rules *r = rules_new();
	char err[256];

	cr_assert_eq(load(r,
			  "rules:\n"
			  "  - id: userns-privilege\n"
			  "    enabled: false\n"
			  "  - id: container-escape\n"
			  "    severity: alert\n",
			  err, sizeof(err)),
		     0, "%s", err);
	cr_assert_not(rules_enabled(r, "userns-privilege"));
	cr_assert(rules_enabled(r, "container-escape"));
	cr_assert_eq(rules_severity(r, "container-escape"), RULE_SEV_ALERT);
	cr_assert_eq(rules_severity(r, "cross-container"), RULE_SEV_ERR);
	rules_free(r);
}

Test(rules_yaml, exceptions_by_container_uid_exe)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	char err[256];
	int n = 0;

	cr_assert_eq(load(r,
			  "rules:\n"
			  "  - id: container-escape\n"
			  "    exceptions:\n"
			  "      - container: web\n"
			  "      - exe: /opt/agent\n"
			  "        uid: 0\n",
			  err, sizeof(err)),
		     0, "%s", err);
	escape(&e, &x, 999999);
	cr_assert_eq(rules_eval(r, &e, &x, 1, count, &n), 0, "by the container's name");
	x.actor_container_name = "db";
	x.exe = "/opt/agent";
	cr_assert_eq(rules_eval(r, &e, &x, 2, count, &n), 1, "uid 1000 is not the exception's");
	e.uid = 0;
	e.pid = 999998;
	cr_assert_eq(rules_eval(r, &e, &x, 3, count, &n), 0, "both of exe and uid");
	rules_free(r);
}

Test(rules_yaml, own_rule_over_fields_and_predicates)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	char err[256];
	int n = 0;

	cr_assert_eq(load(r,
			  "rules:\n"
			  "  - id: container-escape\n"
			  "    enabled: false\n"
			  "  - id: net-by-user\n"
			  "    summary: a user entered the host's network\n"
			  "    severity: notice\n"
			  "    match: {op: setns, ns_type: net, uid: 1000, host: true,\n"
			  "            actor_container: web, same_container: false}\n",
			  err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(rules_severity(r, "net-by-user"), RULE_SEV_NOTICE);
	escape(&e, &x, 999999);
	cr_assert_eq(rules_eval(r, &e, &x, 1, count, &n), 1);
	e.ns_type = NSAUDIT_NS_UTS;
	e.pid = 999998;
	cr_assert_eq(rules_eval(r, &e, &x, 2, count, &n), 0);
	rules_free(r);
}

/* each bad file: the error names its line */
static void bad(const char *yaml, const char *want)
{
	struct rules *r = rules_new();
	char err[256] = "";

	cr_assert_eq(load(r, yaml, err, sizeof(err)), -1, "accepted: %s", yaml);
	cr_assert(strstr(err, want), "got '%s', want '%s'", err, want);
	/* nothing half-applied */
	cr_assert(rules_enabled(r, "container-escape"));
	cr_assert_eq(rules_severity(r, "container-escape"), RULE_SEV_CRIT);
	rules_free(r);
}

Test(rules_yaml, errors_with_line_numbers)
{
	bad("rules:\n  - id: container-escape\n    severity: loud\n",
	    "rules.yaml:3: severity 'loud'");
	bad("rules:\n  - id: container-escape\n    enabled: false\n    colour: red\n",
	    "rules.yaml:4: rule 'container-escape': unknown or not allowed key 'colour'");
	bad("rules:\n  - id: mine\n    summary: x\n", "rules.yaml:2: rule 'mine' is not built in");
	bad("rules:\n  - id: mine\n    summary: x\n    match: {op: fly}\n",
	    "rules.yaml:4: op: unknown operation 'fly'");
	bad("rules:\n  - id: container-escape\n    severity: crit\n  - enabled: false\n",
	    "rules.yaml:4: a rule needs an 'id'");
	bad("rules: [\n  - id: x\n", "rules.yaml:");
	bad("rulez:\n  - id: container-escape\n", "rules.yaml:1: unknown key 'rulez'");
	bad("rules:\n  - id: container-escape\n    exceptions:\n      - color: blue\n",
	    "rules.yaml:4: unknown condition 'color'");
	bad("rules:\n  - id: container-escape\n    severity: alert\n    exceptions:\n"
	    "      - uid: many\n",
	    "rules.yaml:5: 'uid': 'many' is not a number");
	bad("rules:\n  - id: Bad Id\n", "rules.yaml:2: rule id 'Bad Id'");
	bad("trusted_exes: [relative/runc]\n", "rules.yaml:1: trusted_exes");
}

Test(rules_yaml, empty_file_keeps_defaults)
{
	struct rules *r = rules_new();
	char err[256];

	cr_assert_eq(load(r, "", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(load(r, "# nothing\n", err, sizeof(err)), 0, "%s", err);
	cr_assert(rules_enabled(r, "persistence"));
	rules_free(r);
}
