/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders_model.h - the namespace table "nsaudit holders" builds, shared by
 * its parts: holders_model.c (model and reference accounting), holders_json.c and
 * holders_text.c (output), cmd_holders.c (the command). Not a public API:
 * holders_lib.h is.
 */
#ifndef NSAUDIT_HOLDERS_MODEL_H
#define NSAUDIT_HOLDERS_MODEL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "holders_lib.h"

struct nsnames;

/* How many task lines a namespace shows in --all text output. */
#define ALL_TASK_LINES 5

enum acct {
	ACCT_NSPROXY,
	ACCT_DENTRY,
	ACCT_SOCKET,
	ACCT_PID,
	ACCT_CRED,
	ACCT_CHILD,
	ACCT_MAX,
};

extern const char *const acct_names[ACCT_MAX];

struct ns_ent {
	int type;
	uint32_t inum;
	bool known;	     /* k was read by BPF */
	struct holders_ns k; /* last record naming it */
	long acct[ACCT_MAX];
	bool printed;
};

struct model {
	struct holders_scan scan;
	struct holders_mounts mounts;
	struct nsnames *names; /* ip netns name, bind path, container:ID, host */
	struct ns_ent *ns;
	size_t nns, capns;
	pid_t self;
};

/* holders_model.c: the model */
int type_of_flag(uint32_t flag);
int slot_type(int slot);
struct ns_ent *ns_find(struct model *m, int type, uint32_t inum);
bool is_ours(const struct model *m, pid_t pid);
/* references the holders found explain (the rest is unattributed) */
long explained(const struct ns_ent *e);
/* how an nsfs fd was opened: a short word, and a sentence in buf */
const char *fd_via(const struct holders_file *f, char *buf, size_t len);
/*
 * Scan everything and build the namespace table, sorted. 0, or -1 with err
 * (m must then still be freed with model_free).
 */
int model_load(struct model *m, char *err, size_t errlen);
void model_free(struct model *m);

/* holders_json.c: one namespace as a JSON object */
json_object *ns_json(const struct model *m, const struct ns_ent *e);

/* holders_text.c: one namespace with its holders, the --all tree, notes */
void print_ns(const struct model *m, struct ns_ent *e, const char *indent, bool all);
void print_tree(struct model *m, struct ns_ent *u, int depth);
void print_notes(const struct model *m, FILE *f);

#endif
