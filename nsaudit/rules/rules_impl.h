/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* rules_impl.h - what the files of nsaudit/rules/ share; not a public API. */
#ifndef NSAUDIT_RULES_IMPL_H
#define NSAUDIT_RULES_IMPL_H

#include "facts.h"
#include "rules.h"

/* --- conditions (predicates.c): of one's own rules and of exceptions --- */

/* A tri-state: not given, must be false, must be true. */
enum cond_bool { COND_ANY = 0, COND_FALSE, COND_TRUE };

#define COND_STR_LEN 256

struct rule_cond {
	int op;			   /* enum nsaudit_op, 0: any */
	int ns_type;		   /* -1: any */
	int result;		   /* COND_ANY, COND_FALSE: failed, COND_TRUE: succeeded */
	int error;		   /* errno the call failed with, 0: any */
	bool has_uid, has_euid;
	uint32_t uid, euid;
	uint32_t ns_inum;	   /* 0: any */
	char comm[NSAUDIT_COMM_LEN];
	char exe[COND_STR_LEN];
	char actor_container[CONTAINER_NAME_LEN]; /* id, 12+ prefix, name, or "host" */
	char target_container[CONTAINER_NAME_LEN];
	char container[CONTAINER_NAME_LEN]; /* either of the two */
	enum cond_bool host;	   /* the namespace acted on is the host's */
	enum cond_bool actor_host; /* the actor runs in the host's pid and mnt ns */
	enum cond_bool same_container;
	enum cond_bool trusted;	   /* the actor is a trusted runtime (trust.c) */
};

void cond_init(struct rule_cond *c);
bool cond_match(const struct rule_cond *c, const struct rule_facts *f);

/* --- rules (builtin.c, engine.c) --------------------------------------- */

struct rule;
/* A built-in rule's test: fills a's summary (and targets) when it fires. */
typedef bool (*rule_match_fn)(struct rules *r, const struct rule *rule,
			      const struct rule_facts *f, struct rule_alert *a);

#define RULE_EXCEPTIONS_MAX 32

struct rule {
	char id[RULE_ID_LEN];
	int severity;
	bool enabled;
	bool builtin;
	rule_match_fn match;	/* built-in; NULL for one's own */
	struct rule_cond cond;	/* one's own: what it matches */
	char summary[RULE_SUMMARY_LEN]; /* one's own: its summary */
	struct rule_cond exc[RULE_EXCEPTIONS_MAX];
	int nexc;
};

#define RULES_MAX 64
#define DEDUP_SLOTS 512

struct dedup_ent {
	uint64_t key;
	int64_t at_ns;
};

struct persist;

struct rules {
	struct rule v[RULES_MAX];
	int n;
	struct facts_ctx *fx;
	struct persist *ps;
	struct dedup_ent dedup[DEDUP_SLOTS];
};

/* builtin.c: the built-in rules into r (defaults). */
void builtin_rules_add(struct rules *r);
/* engine.c */
struct rule *rules_find(struct rules *r, const char *id);
struct rule *rules_add(struct rules *r, const char *id);
/* The alert for rule about f (actor, target, about_seq filled), emitted
 * unless an exception matches or the same one was raised just before. */
int rules_raise(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		struct rule_alert *a, rules_emit_fn emit, void *ctx);

/* --- persistence (persist.c) -------------------------------------------- */

struct persist *persist_new(void);
void persist_free(struct persist *p);
/* Watch what f pins (a container's namespace pinned from outside it; an
 * ip netns name deleted). */
void persist_note(struct persist *p, struct facts_ctx *fx, const struct rule_facts *f);
/* The host's ip netns name an umount record deleted, or NULL. */
const char *persist_netns_deleted(const struct nsaudit_event *e);
/* Namespaces still held once their owner is gone: fills a (rule id,
 * summary, holder); true for each, until none. */
bool persist_next(struct persist *p, struct facts_ctx *fx, int64_t now_ns, struct rule_alert *a);

/* --- the facts' state (facts.c, trust.c) -------------------------------- */

#define ACTOR_SLOTS 1024
#define CGROUP_SLOTS 256
/* longer cgroup paths are looked at each time, not remembered */
#define CGROUP_PATH_LEN 256
#define TRUST_MAX 128

struct actor_ent {
	uint32_t pid;
	uint32_t pidns, mntns;
	int64_t at_ns;
};

struct cgroup_ent {
	uint64_t id;
	/* and the path: on hybrid and v1 layouts it is a v1 controller's
	 * line, and every process in the v2 root shares id 1 */
	char path[CGROUP_PATH_LEN];
	int64_t at_ns;
	char ctr[CONTAINER_ID_LEN];	/* "" : not a container's */
	char name[CONTAINER_NAME_LEN];
};

struct trusted_exe {
	uint64_t ino;
	uint32_t dev;		/* kernel dev_t */
	uint64_t size;		/* a memfd copy of it has the same size */
	char path[COND_STR_LEN];
};

/* a process found trusted, while it runs the same executable (trust.c) */
#define TRUSTED_PROC_SLOTS 256
#define TRUSTED_PROC_TTL_NS (30 * 1000000000LL)

struct trusted_proc {
	uint32_t pid;
	uint32_t dev;
	uint64_t ino;
	int64_t at_ns;
};

struct facts_ctx {
	struct nsnames *names;
	struct actor_ent actors[ACTOR_SLOTS];
	struct cgroup_ent cgroups[CGROUP_SLOTS];
	struct trusted_exe trust[TRUST_MAX];
	int ntrust;
	struct trusted_proc tprocs[TRUSTED_PROC_SLOTS];
	int64_t refreshed_ns;	/* last forced re-read of the runtimes' state */
	bool lineage_lost;	/* the kernel side missed marks (rules_lineage_lost) */
	char actor_id[CONTAINER_ID_LEN], actor_name[CONTAINER_NAME_LEN];
	char target_id[CONTAINER_ID_LEN], target_name[CONTAINER_NAME_LEN];
};

/* Whether (type, inum) is the host's (names, else the kernel's fixed inodes). */
bool facts_host_ns(const struct facts_ctx *fx, int type, uint32_t inum);
/* The inode /proc/PID/ns/TYPE names now (TYPE as /proc spells it); 0: none. */
uint32_t facts_proc_ns(uint32_t pid, const char *type);

#endif
