// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* record_fmt.c - a record's fields, in order, for every output. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "alert_fmt.h"
#include "host_id.h"
#include "nstype.h"
#include "record_fmt.h"
#include "record_span.h"

/* Names and paths user space adds are cut at this many bytes. */
#define NAME_MAX_BYTES 4096

/*
 * "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" for realtime_ns into out (31 bytes with
 * the NUL). Records come in bursts within the same second: the calendar
 * part is computed once per second, not per record.
 */
static size_t rfc3339(int64_t realtime_ns, char out[RFC3339_LEN])
{
	static _Thread_local int64_t cached_sec = INT64_MIN;
	static _Thread_local char cached[20];
	int64_t sec = realtime_ns / 1000000000;
	long nsec = (long)(realtime_ns % 1000000000);
	int i;

	if (nsec < 0) {
		sec--;
		nsec += 1000000000;
	}
	if (sec != cached_sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		gmtime_r(&t, &tm);
		snprintf(cached, sizeof(cached), "%04d-%02d-%02dT%02d:%02d:%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
			 tm.tm_sec);
		cached_sec = sec;
	}
	memcpy(out, cached, 19);
	out[19] = '.';
	for (i = 28; i >= 20; i--) {
		out[i] = (char)('0' + nsec % 10);
		nsec /= 10;
	}
	out[29] = 'Z';
	out[30] = '\0';
	return 30;
}

void format_rfc3339(int64_t realtime_ns, char *buf, size_t len)
{
	char ts[RFC3339_LEN];

	rfc3339(realtime_ns, ts);
	snprintf(buf, len, "%s", ts);
}

static void name(struct audit_fields *f, const char *k, const char *s, size_t maxlen)
{
	audit_f_str(f, k, s, maxlen < NAME_MAX_BYTES ? maxlen : NAME_MAX_BYTES);
}

static void str(struct audit_fields *f, const char *k, const char *s)
{
	audit_f_str(f, k, s, strlen(s));
}

/* A namespace of the actor: inode, and ns_id where the kernel has one. */
static void actor_ns(struct audit_fields *f, const char *k, const char *kid, uint32_t inum,
		     uint64_t id)
{
	if (!inum)
		return;
	audit_f_u64(f, k, inum);
	if (id)
		audit_f_u64(f, kid, id);
}

/*
 * Who acted, as the kernel saw it at the call (docs/attribution.md): the
 * executable's file (device "major:minor" as stat(1) %Hd:%Ld prints it,
 * inode), the mount namespace its path is relative to, and the actor's own
 * namespaces before the call changed them.
 */
static void actor_fields(struct audit_fields *f, const struct nsaudit_event *e,
			 const struct event_extra *x)
{
	char dev[24];
	size_t n;

	if (e->exe_ino) {
		/* "%u:%u" without printf: this is every record's (perf: ~5 % of
		 * the recorder's CPU went to vfprintf for it) */
		n = audit_fields_dec(dev, e->exe_dev >> 20);
		dev[n++] = ':';
		n += audit_fields_dec(dev + n, e->exe_dev & 0xfffff);
		audit_f_str(f, "exe_dev", dev, n);
		audit_f_u64(f, "exe_ino", e->exe_ino);
	}
	actor_ns(f, "exe_mntns", "exe_mntns_id", x->exe_mntns, x->exe_mntns_id);
	actor_ns(f, "actor_mntns", "actor_mntns_id", e->actor_mntns, e->actor_mntns_id);
	actor_ns(f, "actor_pidns", "actor_pidns_id", e->actor_pidns, e->actor_pidns_id);
	actor_ns(f, "actor_userns", "actor_userns_id", e->actor_userns, e->actor_userns_id);
	actor_ns(f, "actor_cgroupns", "actor_cgroupns_id", e->actor_cgroupns,
		 e->actor_cgroupns_id);
	/* the kernel side's word on a runtime's own process, where it has one */
	if (e->lineage & NSAUDIT_LINEAGE_RUNTIME)
		audit_f_str(f, "lineage", "runtime", 7);
	else if (e->lineage & NSAUDIT_LINEAGE_CONTAINED)
		audit_f_str(f, "lineage", "container", 9);
	else if (e->lineage & NSAUDIT_LINEAGE_FOLLOWED)
		audit_f_str(f, "lineage", "other", 5);
}

/* Who acted: pid ... cgroup_id, in this order, every field from key_of()'s
 * inputs alone. */
static void actor_span_fields(struct audit_fields *f, const struct nsaudit_event *e,
			      const struct event_extra *x)
{
	audit_f_u64(f, "pid", e->pid);
	audit_f_u64(f, "tid", e->tid);
	audit_f_u64(f, "ppid", e->ppid);
	audit_f_u64(f, "uid", e->uid);
	audit_f_u64(f, "euid", e->euid);
	audit_f_u64(f, "auid", e->auid);
	name(f, "comm", e->comm, sizeof(e->comm));
	if (x->exe)
		name(f, "exe", x->exe, NAME_MAX_BYTES);
	/* longer than the exec's record held, and no longer in /proc */
	if (x->exe && x->exe_cut)
		audit_f_bool(f, "exe_cut", true);
	actor_fields(f, e, x);
	if (x->cgroup)
		name(f, "cgroup", x->cgroup, NAME_MAX_BYTES);
	audit_f_u64(f, "cgroup_id", e->cgroup_id);
}

/*
 * The actor's span is ~40 % of a record's bytes and the same for every
 * record of a process as long as nothing of it changes: a flood is one
 * actor. So the last span written (per thread, per format) is kept with
 * everything it was made from, and a record whose inputs are the same
 * bytes gets the same bytes without formatting them again (perf: the
 * formatter was a third of the recorder's CPU). The key is every input of
 * actor_span_fields(), compared whole; tests/unit/test_record_fmt.c
 * changes every byte of a record in turn and checks the span against one
 * made afresh.
 */
struct actor_key {
	uint32_t fmt, pid, tid, ppid, uid, euid, auid, exe_dev, exe_mntns;
	uint32_t actor_mntns, actor_pidns, actor_userns, actor_cgroupns, lineage, exe_cut;
	char comm[NSAUDIT_COMM_LEN];
	uint64_t exe_ino, exe_mntns_id, actor_mntns_id, actor_pidns_id, actor_userns_id,
		 actor_cgroupns_id, cgroup_id;
	uint32_t exe_len, cgroup_len; /* UINT32_MAX: none */
};

/* Spans and strings longer than these are formatted every time. */
#define ACTOR_SPAN_MAX 1024
#define ACTOR_STR_MAX 256

struct actor_cache {
	struct actor_key k;
	bool valid;
	char exe[ACTOR_STR_MAX], cgroup[ACTOR_STR_MAX];
	size_t len;
	char span[ACTOR_SPAN_MAX];
};

static _Thread_local struct actor_cache actor_cache;

static void key_of(struct actor_key *k, enum audit_format fmt, const struct nsaudit_event *e,
		   const struct event_extra *x)
{
	memset(k, 0, sizeof(*k)); /* the padding too: compared with memcmp */
	k->fmt = fmt;
	k->pid = e->pid, k->tid = e->tid, k->ppid = e->ppid;
	k->uid = e->uid, k->euid = e->euid, k->auid = e->auid;
	memcpy(k->comm, e->comm, sizeof(k->comm));
	k->exe_dev = e->exe_dev, k->exe_ino = e->exe_ino;
	k->exe_mntns = x->exe_mntns, k->exe_mntns_id = x->exe_mntns_id;
	k->exe_cut = x->exe && x->exe_cut;
	k->actor_mntns = e->actor_mntns, k->actor_mntns_id = e->actor_mntns_id;
	k->actor_pidns = e->actor_pidns, k->actor_pidns_id = e->actor_pidns_id;
	k->actor_userns = e->actor_userns, k->actor_userns_id = e->actor_userns_id;
	k->actor_cgroupns = e->actor_cgroupns, k->actor_cgroupns_id = e->actor_cgroupns_id;
	k->cgroup_id = e->cgroup_id;
	k->lineage = e->lineage & (NSAUDIT_LINEAGE_RUNTIME | NSAUDIT_LINEAGE_CONTAINED |
				   NSAUDIT_LINEAGE_FOLLOWED);
	k->exe_len = x->exe ? (uint32_t)strnlen(x->exe, ACTOR_STR_MAX) : UINT32_MAX;
	k->cgroup_len = x->cgroup ? (uint32_t)strnlen(x->cgroup, ACTOR_STR_MAX) : UINT32_MAX;
}

/* len bytes of s (no string: UINT32_MAX) as kept, and s ends there */
static bool same_str(const char *kept, const char *s, uint32_t len)
{
	return len == UINT32_MAX || !memcmp(kept, s, len);
}

static void actor_span(struct audit_fields *f, const struct nsaudit_event *e,
		       const struct event_extra *x)
{
	struct actor_cache *c = &actor_cache;
	struct actor_key k;
	size_t start;
	char *p;

	if (f->obj) {
		actor_span_fields(f, e, x);
		return;
	}
	key_of(&k, f->fmt, e, x);
	if (c->valid && !memcmp(&k, &c->k, sizeof(k)) && same_str(c->exe, x->exe, k.exe_len) &&
	    same_str(c->cgroup, x->cgroup, k.cgroup_len)) {
		p = audit_fields_room(f->b, c->len);
		if (!p)
			return;
		memcpy(p, c->span, c->len);
		f->b->len += c->len;
		p[c->len] = '\0';
		return;
	}
	start = f->b->len;
	actor_span_fields(f, e, x);
	/* kept only when whole: strings within ACTOR_STR_MAX (strnlen stopped
	 * at their end, not at the bound), the span within ACTOR_SPAN_MAX */
	c->valid = !f->b->oom && f->b->len - start <= ACTOR_SPAN_MAX &&
		   (k.exe_len == UINT32_MAX || k.exe_len < ACTOR_STR_MAX) &&
		   (k.cgroup_len == UINT32_MAX || k.cgroup_len < ACTOR_STR_MAX);
	if (!c->valid)
		return;
	c->k = k;
	c->len = f->b->len - start;
	memcpy(c->span, f->b->p + start, c->len);
	if (x->exe)
		memcpy(c->exe, x->exe, k.exe_len);
	if (x->cgroup)
		memcpy(c->cgroup, x->cgroup, k.cgroup_len);
}

/* The containers: the record's, the namespace's owner, the actor's. */
static void container_fields(struct audit_fields *f, const struct event_extra *x)
{
	if (x->container)
		name(f, "container", x->container, NAME_MAX_BYTES);
	if (x->container_name)
		name(f, "container_name", x->container_name, NAME_MAX_BYTES);
	if (x->ns_container)
		name(f, "ns_container", x->ns_container, NAME_MAX_BYTES);
	if (x->ns_container_name)
		name(f, "ns_container_name", x->ns_container_name, NAME_MAX_BYTES);
	if (x->pod)
		name(f, "pod", x->pod, NAME_MAX_BYTES);
	if (x->pod_namespace)
		name(f, "pod_namespace", x->pod_namespace, NAME_MAX_BYTES);
	if (x->actor_container)
		name(f, "actor_container", x->actor_container, NAME_MAX_BYTES);
	if (x->actor_container_name)
		name(f, "actor_container_name", x->actor_container_name, NAME_MAX_BYTES);
	if (x->actor_pod)
		name(f, "actor_pod", x->actor_pod, NAME_MAX_BYTES);
	if (x->actor_pod_namespace)
		name(f, "actor_pod_namespace", x->actor_pod_namespace, NAME_MAX_BYTES);
}

/*
 * A namespace's death (op freed): the stage (last_ref: its count went to 0
 * as holder let go; released: the kernel freed it; let_go: a holder went
 * before the last, ns_refs left) and the holder.
 */
static void freed_fields(struct audit_fields *f, const struct nsaudit_event *e)
{
	static const char *const stages[] = {
		[NSAUDIT_FREED_LAST_REF] = "last_ref", [NSAUDIT_FREED_RELEASED] = "released",
		[NSAUDIT_FREED_CLEANUP] = "cleanup", [NSAUDIT_FREED_LET_GO] = "let_go",
	};
	static const char *const holders[] = {
		[NSAUDIT_FREED_BY_KERNEL] = "kernel", [NSAUDIT_FREED_BY_TASK] = "task",
		[NSAUDIT_FREED_BY_NSFS] = "nsfs", [NSAUDIT_FREED_BY_OWNER] = "owner_work",
		[NSAUDIT_FREED_BY_FD] = "fd", [NSAUDIT_FREED_BY_SOCKET] = "socket",
		[NSAUDIT_FREED_BY_CHILD] = "child", [NSAUDIT_FREED_BY_MOUNT] = "mount",
	};
	unsigned int stage = e->arg & 0xff, holder = (e->arg >> 8) & 0xff;

	if (stage < sizeof(stages) / sizeof(stages[0]) && stages[stage])
		str(f, "stage", stages[stage]);
	if (holder < sizeof(holders) / sizeof(holders[0]))
		str(f, "holder", holders[holder]);
}

/* The namespace the record is about, and the one left. */
static void ns_fields(struct audit_fields *f, const struct nsaudit_event *e,
		      const struct event_extra *x, const char *type)
{
	if (type)
		str(f, "ns_type", type);
	if (e->flags & NSAUDIT_F_HAS_NS) {
		audit_f_u64(f, "ns_inum", e->ns_inum);
		if (e->ns_id)
			audit_f_u64(f, "ns_id", e->ns_id);
	}
	if (x->ns_name)
		name(f, "ns_name", x->ns_name, NAME_MAX_BYTES);
	if (e->flags & NSAUDIT_F_HAS_OLD) {
		audit_f_u64(f, "old_inum", e->old_inum);
		if (e->old_ns_id)
			audit_f_u64(f, "old_ns_id", e->old_ns_id);
		if (x->old_name)
			name(f, "old_name", x->old_name, NAME_MAX_BYTES);
	}
	if (x->created_seq)
		audit_f_u64(f, "created_seq", x->created_seq);
	if (e->flags & NSAUDIT_F_FOR_CHILDREN)
		audit_f_bool(f, "for_children", true);
}

/*
 * Who made the call: the actor; on a record nsaudit inferred (no call),
 * origin says so and only the pin's maker is named, where known.
 */
static void who_fields(struct audit_fields *f, const struct nsaudit_event *e,
		       const struct event_extra *x)
{
	if (e->op == NSAUDIT_OP_LOST)
		return;
	/* freed seen where no holder runs (an RCU callback, a worker that
	 * is not the holder): no actor, never a wrong one */
	if (e->flags & NSAUDIT_F_NO_ACTOR)
		return;
	if (e->flags & NSAUDIT_F_INFERRED) {
		/*
		 * nsaudit's inference (a pin whose mount namespace died), not
		 * a call: no actor. The uid is the pin's maker's, where the
		 * kernel side saw the mount; nothing when it did not.
		 */
		str(f, "origin", "inferred");
		if (x->maker_comm) {
			audit_f_u64(f, "uid", x->maker_uid);
			audit_f_u64(f, "maker_pid", x->maker_pid);
			name(f, "maker_comm", x->maker_comm, 16);
		}
		return;
	}
	actor_span(f, e, x);
}

static const struct host_id *host;

void record_set_host(const struct host_id *h)
{
	host = h;
}

const struct host_id *record_host(void)
{
	return host;
}

/* Which machine and boot the record comes from: a fleet's never mix. */
static void host_fields_made(struct audit_fields *f)
{
	if (host->name[0])
		name(f, "host", host->name, sizeof(host->name));
	if (host->machine_id[0])
		audit_f_str(f, "machine_id", host->machine_id, HOST_MACHINE_ID_LEN - 1);
	if (host->boot_id[0])
		audit_f_str(f, "boot_id", host->boot_id, HOST_BOOT_ID_LEN - 1);
}

/*
 * The same bytes at the end of every record for as long as the host
 * identity stays: made once per format and kept with the identity they
 * were made from (compared whole, every record).
 */
static _Thread_local struct {
	bool valid;
	enum audit_format fmt;
	struct host_id h;
	size_t len;
	char span[1024];
} host_span;

static void host_fields(struct audit_fields *f)
{
	size_t start;
	char *p;

	if (!host)
		return;
	if (f->obj) {
		host_fields_made(f);
		return;
	}
	if (host_span.valid && host_span.fmt == f->fmt &&
	    !memcmp(&host_span.h, host, sizeof(*host))) {
		p = audit_fields_room(f->b, host_span.len);
		if (!p)
			return;
		memcpy(p, host_span.span, host_span.len);
		f->b->len += host_span.len;
		p[host_span.len] = '\0';
		return;
	}
	start = f->b->len;
	host_fields_made(f);
	host_span.valid = !f->b->oom && f->b->len - start <= sizeof(host_span.span);
	if (!host_span.valid)
		return;
	host_span.fmt = f->fmt;
	host_span.h = *host;
	host_span.len = f->b->len - start;
	memcpy(host_span.span, f->b->p + start, host_span.len);
}

void record_fmt_forget(void)
{
	actor_cache.valid = false;
	record_body_forget();
	host_span.valid = false;
}

/*
 * "op" ... "cause": everything but the fields each record of a flood has
 * its own (seq, time, repeat, kseq, ns_refs) and the host's; kept from
 * one record to the next (record_span.c), so it reads nothing else.
 */
static void body_fields(struct audit_fields *f, const struct nsaudit_event *e,
			const struct event_extra *x)
{
	const char *type = nstype_name(e->ns_type), *via = via_name(e->via);

	str(f, "op", op_name(e->op) ?: "unknown");
	audit_f_i64(f, "result", e->op == NSAUDIT_OP_OPEN && e->result > 0 ? 0 : e->result);
	if (e->result < 0)
		str(f, "error", strerrorname_np(-e->result) ?: "E?");
	/* the kernel never ran it: a seccomp filter refused it at entry */
	if (e->flags & NSAUDIT_F_SECCOMP)
		str(f, "refused_by", "seccomp");
	ns_fields(f, e, x, type);
	who_fields(f, e, x);
	if (e->flags & NSAUDIT_F_OWNER_UID)
		audit_f_u64(f, "owner_uid", (uint32_t)e->target_pid);
	else if (e->target_pid)
		audit_f_i64(f, "target_pid", e->target_pid);
	if (e->fd >= 0)
		audit_f_i64(f, "fd", e->fd);
	if (via)
		str(f, "via", via);
	if (e->path[0])
		name(f, "path", e->path, sizeof(e->path));
	/* longer than the record's room: what is there is its start only */
	if (e->flags & NSAUDIT_F_PATH_CUT)
		audit_f_bool(f, "path_cut", true);
	if (e->src_path[0])
		name(f, "src_path", e->src_path, sizeof(e->src_path));
	if (e->flags & NSAUDIT_F_SRC_PATH_CUT)
		audit_f_bool(f, "src_path_cut", true);
	if (e->flags & NSAUDIT_F_MOVE)
		audit_f_bool(f, "move", true);
	if (e->mnt_ns_inum)
		audit_f_u64(f, "mnt_ns", e->mnt_ns_inum);
	if (e->mnt_ns_id)
		audit_f_u64(f, "mnt_ns_id", e->mnt_ns_id);
	/* the pin's mount, from the kernel's mount tree (bpf/nsaudit/pins.bpf.h) */
	if (e->flags & NSAUDIT_F_PIN_EXACT) {
		audit_f_u64(f, "mnt_id", e->mnt_id);
		if (e->mnt_unique && !(e->mnt_unique & (1ULL << 63)))
			audit_f_u64(f, "mnt_unique_id", e->mnt_unique);
	}
	if ((e->op == NSAUDIT_OP_NSFD || e->op == NSAUDIT_OP_QUERY) && e->arg &&
	    e->probe == NSAUDIT_PROBE_TP_SYSCALLS && e->via != NSAUDIT_VIA_PIDFD_GETFD &&
	    e->via != NSAUDIT_VIA_HANDLE)
		audit_f_u64(f, "ioctl", e->arg);
	if (e->op == NSAUDIT_OP_FREED)
		freed_fields(f, e);
	if (e->op == NSAUDIT_OP_LOST && e->pid) {
		/* whose calls were lost (issue 32): the flooder's or root's */
		audit_f_u64(f, "pid", e->pid);
		audit_f_u64(f, "uid", e->uid);
		name(f, "comm", e->comm, sizeof(e->comm));
		if (op_name(e->ns_refs))
			str(f, "lost_op", op_name(e->ns_refs));
	}
	if (e->op == NSAUDIT_OP_LOST) {
		str(f, "reason", lost_reason_name(e->lost_reason) ?: "?");
		audit_f_u64(f, "count", e->count);
		/* the kernel's running count, which a restarted recorder resumes
		 * from; a sink's own running count is not that */
		if (e->lost_reason != NSAUDIT_LOST_SINK && e->lost_reason != NSAUDIT_LOST_RECURSION)
			audit_f_u64(f, "lost_total", e->arg);
	}
	/* a thread other than the leader: a setns or unshare changed that
	 * thread's namespaces only */
	if (e->op != NSAUDIT_OP_LOST && e->tid && e->tid != e->pid)
		audit_f_bool(f, "thread", true);
	container_fields(f, x);
	if (x->unresolved)
		str(f, "unresolved", x->unresolved);
	if (x->cause)
		str(f, "cause", x->cause);
}

void record_fields(struct audit_fields *f, const struct nsaudit_event *e,
		   const struct event_extra *x)
{
	char ts[RFC3339_LEN];

	if (x->alert) {		/* a detection (nsaudit/rules/): its own fields */
		alert_fields(f, e, x->alert, x->container, ts, rfc3339(x->realtime_ns, ts));
		host_fields(f);
		return;
	}
	audit_f_str(f, "time", ts, rfc3339(x->realtime_ns, ts));
	if (e->repeat > 1) {
		/* coalesced: repeat identical calls, the first at time */
		audit_f_u64(f, "repeat", e->repeat);
		audit_f_str(f, "last_time", ts,
			    /* unsigned: a hostile or damaged record's times wrap,
			     * they never overflow */
			    rfc3339((int64_t)((uint64_t)x->realtime_ns +
					      (e->last_ts_boot_ns - e->ts_boot_ns)), ts));
	}
	record_body_span(f, e, x, body_fields);
	if (e->kseq)
		audit_f_u64(f, "kseq", e->kseq);
	if (e->ns_refs && e->op != NSAUDIT_OP_LOST)
		audit_f_u64(f, "ns_refs", e->ns_refs);
	str(f, "probe", probe_name(e->probe) ?: "unknown");
	host_fields(f);
}

void record_fields_of(struct audit_fields *f, const void *rec)
{
	const struct enriched_event *r = rec;

	record_fields(f, r->e, r->x);
}

void record_json_line(struct sbuf *b, const struct nsaudit_event *e, const struct event_extra *x)
{
	struct audit_fields f;

	audit_line_begin(b, AUDIT_FMT_JSON, x->seq, x->realtime_ns);
	audit_fields_line(&f, b, AUDIT_FMT_JSON);
	record_fields(&f, e, x);
	audit_line_close(b);
}
