// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * death.c - how a namespace's death is told in a timeline: ns_free (the
 * patched kernel) or the stages of op freed (stock kernels,
 * bpf/nsaudit/freed.bpf.c) with the holder that let go last, and how long
 * it lived and how long after its last name was removed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "codec.h"
#include "death.h"
#include "nstype.h"

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/*
 * Holder child (user): "child user namespace user:[N] ns_id=I (freed at
 * T)": the child whose free work put it (old_inum, old_ns_id); T is the
 * record's own time, the same pass of that work.
 */
static void print_child(FILE *out, json_object *r)
{
	const char *t = jstr(r, "time"), *hms;
	json_object *v;
	char lab[48];

	fputs("child user namespace ", out);
	if (json_object_object_get_ex(r, "old_inum", &v) && json_object_is_type(v, json_type_int)) {
		nstype_label(lab, sizeof(lab), NSAUDIT_NS_USER, (uint32_t)json_object_get_int64(v));
		fputs(lab, out);
	} else {
		fputs("(not named)", out);
	}
	if (json_object_object_get_ex(r, "old_ns_id", &v) && json_object_is_type(v, json_type_int))
		fprintf(out, " ns_id=%" PRId64, json_object_get_int64(v));
	hms = t ? strchr(t, 'T') : NULL;
	if (hms && strlen(hms + 1) < 32 && strspn(hms + 1, "0123456789:.Z") == strlen(hms + 1))
		fprintf(out, " (freed at %s, in the same free work)", hms + 1);
}

/*
 * A death: ns_free from the patched kernel, or a stage of op freed (stock
 * kernels, bpf/nsaudit/freed.bpf.c) with the holder that let go last.
 */
bool lt_print_freed(FILE *out, json_object *r)
{
	const char *op = jstr(r, "op"), *stage = jstr(r, "stage"), *holder = jstr(r, "holder");

	if (!op || strcmp(op, "freed") || !stage) {
		fputs("(ns_free from the kernel)", out);
		return false;
	}
	if (!strcmp(stage, "cleanup")) {
		fputs("(cleanup_net began taking it apart)", out);
		return false;
	}
	if (!strcmp(stage, "released")) {
		fputs("(the kernel freed its memory)", out);
		return false;
	}
	fputs("(its last reference went: ", out);
	if (holder && !strcmp(holder, "task"))
		fputs("the last task holding it exited, exec'd or moved away", out);
	else if (holder && !strcmp(holder, "fd"))
		fputs("its last nsfs fd was closed", out);
	else if (holder && !strcmp(holder, "nsfs"))
		fputs("its last nsfs file or bind mount went, who released it is not known", out);
	else if (holder && !strcmp(holder, "mount"))
		fputs("its last bind mount was removed, by the umount of the actor", out);
	else if (holder && !strcmp(holder, "owner_work")) {
		/* the worker that ran the free is no holder: none is named */
		fputs("its free work ran after its last holder let go: a task's credentials, a "
		      "namespace it owned or its nsfs file, not told which)", out);
		return false;
	}
	else if (holder && !strcmp(holder, "socket"))
		fputs("a socket in it was freed (UNIX, TCP or UDP; after its close, or a TCP "
		      "socket's last timer)", out);
	else if (holder && !strcmp(holder, "child")) {
		/* the worker that ran the free is no holder: named is the child */
		fputs("a child user namespace that held it was freed) its last holder: ", out);
		print_child(out, r);
		return false;
	} else
		/* holder kernel: cleanup_net started, no holder was seen going */
		fputs("last holder: cannot tell: one nsaudit does not follow (a netlink or packet "
		      "socket, a device), or a bind mount's umount or a task's exit whose put queued "
		      "no cleanup of its own (another net namespace was waiting for it)", out);
	fputc(')', out);
	return jstr(r, "comm") != NULL;
}

/*
 * A holder went and the namespace lived on (op freed's let_go): a task's
 * nsproxy (exit, exec, setns or unshare away; the actor is the last task
 * that shared it), or its nsfs dentry (all its fds closed and its bind
 * mounts gone; after a grace period, no actor), with the count left.
 */
bool lt_print_let_go(FILE *out, json_object *r)
{
	const char *holder = jstr(r, "holder");
	json_object *v;
	int64_t refs = -1;

	if (json_object_object_get_ex(r, "ns_refs", &v) && json_object_is_type(v, json_type_int))
		refs = json_object_get_int64(v);
	if (holder && !strcmp(holder, "task"))
		fputs("a task holding it exited, exec'd or moved away", out);
	else if (holder && !strcmp(holder, "nsfs"))
		fputs("its nsfs file went: its last fd was closed, its last bind mount removed", out);
	else if (holder && !strcmp(holder, "socket"))
		fputs("a socket in it was freed", out);
	else if (holder && !strcmp(holder, "child")) {
		fputs("its ", out);
		print_child(out, r);
		fputs(" let go of it", out);
	} else
		fputs("a holder went", out);
	if (refs >= 0)
		fprintf(out, "; %" PRId64 " reference%s left", refs, refs == 1 ? "" : "s");
	return jstr(r, "comm") != NULL && !(holder && !strcmp(holder, "child"));
}

/* "; the kernel freed it in pid=N (comm), the context of the last put" */
void lt_print_freed_in(FILE *out, json_object *r)
{
	json_object *v;
	const char *comm = jstr(r, "comm");

	fputs("; the kernel freed it in", out);
	if (json_object_object_get_ex(r, "pid", &v) && json_object_is_type(v, json_type_int))
		fprintf(out, " pid=%" PRId64, json_object_get_int64(v));
	if (comm) {
		fputs(" (", out);
		audit_text_escape(out, comm, strlen(comm));
		fputc(')', out);
	}
	fputs(", the context of its last put", out);
}

double lt_rec_time(json_object *rec)
{
	const char *t = jstr(rec, "time");
	struct tm tm = { 0 };
	const char *rest;

	if (!t || !(rest = strptime(t, "%Y-%m-%dT%H:%M:%S", &tm)))
		return -1;
	return (double)timegm(&tm) + (*rest == '.' ? strtod(rest, NULL) : 0);
}

/*
 * After a death seen (ns_free, op freed): how long it lived, and how long
 * after its last name (bind mount) was removed, where the log has them.
 */
void lt_print_death_spans(FILE *out, const struct lt_timeline *tl, const struct lt_inc *c)
{
	double freed = -1, born = -1, unnamed = -1;
	bool stages = false, last_ref = false;
	json_object *freed_in = NULL;	/* a released record with an actor */
	size_t j;

	for (j = c->first; j <= c->last && j < tl->nev; j++) {
		const struct lt_event *e = &tl->ev[j];
		const char *stage = jstr(e->rec, "stage");

		if (e->inc != (size_t)(c - tl->inc))
			continue;
		if (e->kind == LT_FREED && stage) {
			stages = true;
			last_ref |= !strcmp(stage, "last_ref");
			if (!strcmp(stage, "released") && jstr(e->rec, "comm"))
				freed_in = e->rec;
		}
		if (e->kind == LT_FREED && freed < 0)
			freed = lt_rec_time(e->rec);
		else if (e->kind == LT_CREATED && born < 0)
			born = lt_rec_time(e->rec);
		else if (e->kind == LT_UNPINNED)
			unnamed = lt_rec_time(e->rec);
	}
	if (freed < 0)
		return;
	/* op freed saw it go, but not its last reference */
	if (stages && !last_ref) {
		fputs("last holder: cannot tell (no last_ref: a mount namespace's last bind mount "
		      "not removed by an umount that let it go at once, or its last fd, a pid "
		      "namespace's last struct pid, a holder whose memory went after the "
		      "namespace's, or a holder nsaudit does not follow let go)", out);
		/* the kernel freed it in the context of its last put */
		if (freed_in)
			lt_print_freed_in(out, freed_in);
		fputc('\n', out);
	}
	if (born >= 0)
		fprintf(out, "lived %.3f s", freed - born);
	if (unnamed >= 0 && unnamed <= freed)
		fprintf(out, "%s%.3f s after its last name was removed", born >= 0 ? "; died " : "died ",
			freed - unnamed);
	if (born >= 0 || (unnamed >= 0 && unnamed <= freed))
		fputc('\n', out);
}

