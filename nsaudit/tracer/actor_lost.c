// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* actor_lost.c - lost calls per actor, from the kernel's actor_lost map. */
#include <string.h>
#include <bpf/bpf.h>

#include "actor_lost.h"

size_t actor_lost_pass(int map_fd, int epoch_fd, struct actor_loss *out, size_t max)
{
	struct nsaudit_actor_lost_key key, next;
	uint32_t zero = 0, cur = 0, idle;
	size_t n = 0, i, taken = 0;
	void *prev = NULL;

	if (map_fd < 0 || epoch_fd < 0 || bpf_map_lookup_elem(epoch_fd, &zero, &cur))
		return 0;
	idle = (cur & 1) ^ 1;
	/* keys first: deleting while walking would restart the walk */
	while (n < max && !bpf_map_get_next_key(map_fd, prev, &next)) {
		if (next.epoch == idle)
			out[n++].k = next;
		key = next;
		prev = &key;
	}
	for (i = 0; i < n; i++) {
		if (bpf_map_lookup_and_delete_elem(map_fd, &out[i].k, &out[i].v))
			continue;	/* cannot happen: nothing else deletes */
		if (out[i].v.count)
			out[taken++] = out[i];
	}
	bpf_map_update_elem(epoch_fd, &zero, &idle, BPF_ANY);
	return taken;
}

void actor_lost_pending(int map_fd, uint64_t *pending, unsigned int n)
{
	struct nsaudit_actor_lost_key key, next;
	struct nsaudit_actor_lost_val v;
	void *prev = NULL;

	memset(pending, 0, n * sizeof(*pending));
	while (map_fd >= 0 && !bpf_map_get_next_key(map_fd, prev, &next)) {
		if (next.reason < n && !bpf_map_lookup_elem(map_fd, &next, &v))
			pending[next.reason] += v.count;
		key = next;
		prev = &key;
	}
}

void actor_lost_record(struct nsaudit_event *e, const struct actor_loss *a, unsigned int reason,
		       uint64_t n, uint64_t ts_boot_ns)
{
	memset(e, 0, sizeof(*e));
	e->ts_boot_ns = ts_boot_ns;
	e->op = NSAUDIT_OP_LOST;
	e->ns_type = NSAUDIT_NS_UNKNOWN;
	e->fd = -1;
	e->probe = NSAUDIT_PROBE_USER;
	e->lost_reason = reason;
	e->count = n;
	if (a) {
		e->pid = a->k.pid;
		e->uid = a->k.uid;
		e->ns_refs = a->k.op;
		memcpy(e->comm, a->v.comm, sizeof(e->comm));
		e->comm[sizeof(e->comm) - 1] = '\0';
	}
}
