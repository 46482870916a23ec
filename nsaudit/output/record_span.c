// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * record_span.c - a record's body ("op" ... "cause"), kept from one record
 * to the next.
 *
 * Under a flood the records of one actor differ only in seq, time, kseq
 * and ns_refs (and the MAC): every field between "op" and "cause" is the
 * same bytes as the last record's. Those were ~60 % of a record's
 * formatting (perf: 13 fields of ~16 formatted per record besides the
 * actor's span). So the last body written (per thread) is kept with
 * everything it was made from: the kernel's record whole but the fields
 * formatted outside the body (ts_boot_ns, last_ts_boot_ns, repeat, kseq,
 * ns_refs), every scalar of the user-space part and the bytes of every
 * string it points to, and the format. A record whose inputs are all the
 * same bytes gets the same body without formatting it again; anything
 * else is formatted afresh and kept. Lost records (whose body reads
 * ns_refs) are always formatted afresh. tests/unit/test_record_fmt.c
 * changes every byte of the kernel's record and every field of the
 * user-space part in turn and checks the body against one made afresh.
 */
#include <stddef.h>
#include <string.h>

#include "event_extra.h"
#include "fields.h"
#include "nsaudit.h"
#include "record_span.h"

/* Bodies and strings longer than these are formatted every time. */
#define BODY_SPAN_MAX 2048
#define BODY_STR_MAX  256

/*
 * The strings of struct event_extra, all of them: the key is every field.
 * Its size as laid out today (17 strings and the alert; seq, realtime_ns,
 * exe_mntns, exe_mntns_id, exe_cut, maker_pid, maker_uid, created_seq:
 * 56 bytes with their padding, on LP64) makes whoever adds a field look
 * here.
 */
#define BODY_NSTR 17
_Static_assert(sizeof(void *) != 8 || sizeof(struct event_extra) == 18 * 8 + 56,
	       "struct event_extra changed: the kept body's key must name every field");

static void strs_of(const struct event_extra *x, const char *s[BODY_NSTR])
{
	s[0] = x->exe, s[1] = x->cgroup, s[2] = x->ns_name, s[3] = x->old_name;
	s[4] = x->container, s[5] = x->container_name, s[6] = x->ns_container;
	s[7] = x->ns_container_name, s[8] = x->pod, s[9] = x->pod_namespace;
	s[10] = x->actor_container, s[11] = x->actor_container_name, s[12] = x->actor_pod;
	s[13] = x->actor_pod_namespace, s[14] = x->unresolved, s[15] = x->cause;
	s[16] = x->maker_comm;
}

struct body_cache {
	bool valid;
	uint32_t fmt;
	struct nsaudit_event e;
	/* the user-space part's scalars (seq and realtime_ns are outside) */
	uint32_t exe_mntns, maker_pid, maker_uid;
	uint64_t exe_mntns_id, created_seq;
	bool exe_cut;
	uint32_t len[BODY_NSTR]; /* UINT32_MAX: NULL */
	char str[BODY_NSTR][BODY_STR_MAX];
	size_t span_len;
	char span[BODY_SPAN_MAX];
};

static _Thread_local struct body_cache body_cache;

/* e and c->e the same bytes but for the fields formatted outside the body:
 * ts_boot_ns, last_ts_boot_ns, repeat, kseq (the first four) and ns_refs */
static bool same_event(const struct nsaudit_event *a, const struct nsaudit_event *b)
{
	const size_t head = offsetof(struct nsaudit_event, cgroup_id),
		     refs = offsetof(struct nsaudit_event, ns_refs),
		     rest = refs + sizeof(a->ns_refs);

	_Static_assert(offsetof(struct nsaudit_event, kseq) < offsetof(struct nsaudit_event,
								      cgroup_id),
		       "the fields outside the body lead the record");
	return !memcmp((const char *)a + head, (const char *)b + head, refs - head) &&
	       !memcmp((const char *)a + rest, (const char *)b + rest, sizeof(*a) - rest);
}

static bool hit(const struct body_cache *c, enum audit_format fmt, const struct nsaudit_event *e,
		const struct event_extra *x, const char *s[BODY_NSTR])
{
	size_t n;
	int i;

	if (!c->valid || c->fmt != fmt || c->exe_mntns != x->exe_mntns ||
	    c->exe_mntns_id != x->exe_mntns_id || c->exe_cut != x->exe_cut ||
	    c->maker_pid != x->maker_pid || c->maker_uid != x->maker_uid ||
	    c->created_seq != x->created_seq || !same_event(e, &c->e))
		return false;
	for (i = 0; i < BODY_NSTR; i++) {
		if (!s[i] || c->len[i] == UINT32_MAX) {
			if (s[i] || c->len[i] != UINT32_MAX)
				return false;
			continue;
		}
		/* the kept bytes, then its end: strncmp stops at a shorter
		 * string's NUL, so s[i][n] is within the string */
		n = c->len[i];
		if (strncmp(s[i], c->str[i], n) || s[i][n])
			return false;
	}
	return true;
}

static void keep(struct body_cache *c, enum audit_format fmt, const struct nsaudit_event *e,
		 const struct event_extra *x, const char *s[BODY_NSTR], const char *span,
		 size_t span_len)
{
	size_t n;
	int i;

	c->valid = false;
	if (span_len > sizeof(c->span))
		return;
	for (i = 0; i < BODY_NSTR; i++) {
		if (!s[i]) {
			c->len[i] = UINT32_MAX;
			continue;
		}
		n = strnlen(s[i], BODY_STR_MAX);
		if (n == BODY_STR_MAX)
			return; /* too long to keep: formatted every time */
		memcpy(c->str[i], s[i], n);
		c->len[i] = (uint32_t)n;
	}
	c->fmt = fmt;
	memcpy(&c->e, e, sizeof(*e));
	c->exe_mntns = x->exe_mntns, c->exe_mntns_id = x->exe_mntns_id;
	c->exe_cut = x->exe_cut;
	c->maker_pid = x->maker_pid, c->maker_uid = x->maker_uid;
	c->created_seq = x->created_seq;
	memcpy(c->span, span, span_len);
	c->span_len = span_len;
	c->valid = true;
}

void record_body_span(struct audit_fields *f, const struct nsaudit_event *e,
		      const struct event_extra *x, record_body_fn fresh)
{
	struct body_cache *c = &body_cache;
	const char *s[BODY_NSTR];
	size_t start;
	char *p;

	if (f->obj || e->op == NSAUDIT_OP_LOST || x->alert) {
		fresh(f, e, x);
		return;
	}
	strs_of(x, s);
	if (hit(c, f->fmt, e, x, s)) {
		p = audit_fields_room(f->b, c->span_len);
		if (!p)
			return;
		memcpy(p, c->span, c->span_len);
		f->b->len += c->span_len;
		p[c->span_len] = '\0';
		return;
	}
	start = f->b->len;
	fresh(f, e, x);
	if (f->b->oom) {
		c->valid = false;
		return;
	}
	keep(c, f->fmt, e, x, s, f->b->p + start, f->b->len - start);
}

void record_body_forget(void)
{
	body_cache.valid = false;
}
