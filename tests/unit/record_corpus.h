/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * record_corpus.h - a fixed corpus of enriched kernel records covering
 * every field and its absence, every op, probe and via, errors, unknown
 * enum values, extreme numbers and untrusted strings with quotes,
 * backslashes, newlines, control bytes and multi-byte UTF-8. The formatter
 * test compares its lines with the ones the json-c formatter wrote for the
 * same records (record_fmt_golden.h), byte for byte.
 */
#ifndef NSAUDIT_TEST_RECORD_CORPUS_H
#define NSAUDIT_TEST_RECORD_CORPUS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nsaudit.h"
#include "output/record_fmt.h"

#define CORPUS_N 48

/* Record i of the corpus: e, and x whose strings point into bufs. */
struct corpus_bufs {
	char exe[5000], cgroup[300], name[300], old[300];
};

static inline void corpus_record(int i, struct nsaudit_event *e, struct event_extra *x,
				 struct corpus_bufs *b)
{
	static const char *const names[] = {
		"blue", "container:0123456789ab", "host", "/run/netns/a\"b", "back\\slash",
		"new\nline", "tab\there", "ctl\x01\x1f", "caf\xc3\xa9", "\xf0\x9f\x98\x80 emoji",
		"\xe2\x80\xa8sep", "", "x\n{\"seq\":5}",
	};
	static const char *const comms[] = {
		"ip", "nsbench", "exactly15bytes_", "sp ace", "q\"uote", "b\\s", "n\nl",
		"\x1b[31mred", "caf\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87", "", "a\rb",
	};
	/* the ops the golden files were made with: 1..10 named, 11 then
	 * NSAUDIT_OP_MAX ("unknown"); ops added since keep that 11 unknown */
	const int ops = 12;
	static const uint32_t vias[] = { 0, 1, 2, 3, 4, NSAUDIT_VIA_PIDFD_GETFD, NSAUDIT_VIA_HANDLE };
	size_t k;

	memset(e, 0, sizeof(*e));
	memset(x, 0, sizeof(*x));
	memset(b, 0, sizeof(*b));
	e->op = (uint32_t)(1 + i % (ops - 1));
	if (i == 45 || e->op == 11)
		e->op = 99;
	e->ns_type = (uint32_t)(i % 9 == 8 ? NSAUDIT_NS_UNKNOWN : i % 8);
	e->ns_inum = 4026531840u + (uint32_t)i * 7919u;
	e->old_inum = i % 5 ? 4026531840u : 0xffffffffu;
	e->ns_id = i % 3 ? 3 + (uint64_t)i : 0;
	e->old_ns_id = i % 4 ? 0x7fffffffffffffffull - (uint64_t)i : 0;
	e->flags = (uint32_t)(i * 5) & (NSAUDIT_F_HAS_NS | NSAUDIT_F_HAS_OLD |
					NSAUDIT_F_FOR_CHILDREN | NSAUDIT_F_NEW_MOUNT_API);
	if (i % 7 == 0)
		e->flags |= NSAUDIT_F_HAS_NS | NSAUDIT_F_HAS_OLD;
	static const int32_t results[] = { 0, 0, -1, -13, -22, 5, -4095, 0, -9999, 3 };
	e->result = results[i % 10];
	e->pid = i == 40 ? 0xffffffffu : 1000u + (uint32_t)i;
	e->tid = e->pid + (uint32_t)(i % 3);
	e->ppid = i ? 1 : 0;
	e->uid = i % 4 ? 0 : 65534;
	e->euid = e->uid;
	e->auid = i % 2 ? 4294967295u : 1000;
	e->cgroup_id = i == 41 ? 0xffffffffffffffffull : 4000 + (uint64_t)i;
	e->count = i == 42 ? 0xfffffffffffffff0ull : (uint64_t)i * 1000;
	e->arg = (uint64_t)i * 123456789;
	e->kseq = i % 6 ? (uint64_t)i * 31 : 0;
	e->target_pid = i % 4 == 1 ? 4242 : (i % 4 == 2 ? -3 : 0);
	e->fd = i % 3 == 0 ? -1 : i % 11;
	/* the probe values record_fmt_golden.h was made with: 0-9 and one
	 * out of range (then 10, NSAUDIT_PROBE_MAX before tp_btf/ns_change) */
	e->probe = (uint32_t)(i % 11 == 10 ? NSAUDIT_PROBE_MAX : i % 11);
	e->via = i % 3 ? (uint32_t)(i % (NSAUDIT_VIA_MAX + 1)) : vias[i % 7];
	e->ns_refs = i % 2 ? (uint32_t)i : 0;
	k = strlen(comms[i % 12]);
	memcpy(e->comm, comms[i % 12], k < sizeof(e->comm) ? k : sizeof(e->comm) - 1);
	if (i % 4 == 3) {
		snprintf(e->path, sizeof(e->path), "/proc/%d/ns/%s%s", 100 + i,
			 i % 8 == 3 ? "net" : "pid_for_children", i % 16 == 7 ? "\n\"x\\" : "");
	} else if (i == 44) {
		memset(e->path, 'p', sizeof(e->path) - 1); /* the longest path */
		e->path[0] = '/';
	}
	x->seq = (uint64_t)i + 1;
	if (i == 0 || i == 1 || i == 2) /* the epoch, the last ns int64 holds, before the epoch */
		x->realtime_ns = i == 0 ? 0 : (i == 1 ? INT64_MAX : -1);
	else
		x->realtime_ns = 1796286000123456789LL + (int64_t)i * 1000000007LL;
	if (i % 5 != 4) {
		if (i == 43) { /* longer than any name is kept */
			memset(b->exe, 'e', sizeof(b->exe) - 1);
			b->exe[0] = '/';
		} else {
			snprintf(b->exe, sizeof(b->exe), "/usr/bin/%s", names[i % 13]);
		}
		x->exe = b->exe;
	}
	if (i % 3 != 2) {
		snprintf(b->cgroup, sizeof(b->cgroup), "/system.slice/%s.scope", names[(i + 5) % 13]);
		x->cgroup = b->cgroup;
	}
	if (i % 2) {
		snprintf(b->name, sizeof(b->name), "%s", names[i % 13]);
		x->ns_name = b->name;
	}
	if (i % 3 == 1) {
		snprintf(b->old, sizeof(b->old), "%s", names[(i + 3) % 13]);
		x->old_name = b->old;
	}
	if (i % 8 == 6) { /* coalesced */
		e->repeat = 1000 + (uint32_t)i;
		e->ts_boot_ns = 5000000000ull;
		e->last_ts_boot_ns = e->ts_boot_ns + (uint64_t)i * 12345678;
	}
	if (i % 11 == 5) {
		snprintf(e->src_path, sizeof(e->src_path), "/run/netns/src\n%d", i);
		e->flags |= NSAUDIT_F_MOVE;
	}
	if (i % 7 == 3)
		e->mnt_ns_inum = 4026531841u;
	/* the reasons golden was made with: 0-3 and one out of range (then 4,
	 * NSAUDIT_LOST_MAX before log_budget) */
	e->lost_reason = (uint32_t)(i % 5 == 4 ? 99 : i % 5);
	if (i % 6 == 5) { /* the container the record is about */
		x->container = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
		if (i % 12 == 5)
			x->container_name = names[(i + 7) % 13];
	}
	if (i % 9 == 4)
		x->unresolved = "mount point gone before it was read";
	if (i % 10 == 9)
		x->cause = "synthesised: \"quoted\" cause";
}

#endif
