// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_lineage.c - the user-space half of the kernel side's runtime
 * lineage (bpf/nsaudit/lineage.bpf.h): which executables are trusted
 * runtimes (the rules' set, by inode and dev_t), where the host's
 * namespaces are, from when every new task has been followed, and whether
 * the kernel side missed a mark (then an unmarked record is no answer).
 * Lineage is followed only when rules evaluate records: nothing else
 * reads it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "clock.h"
#include "rules/rules.h"
#include "tracer_impl.h"

static uint32_t proc1_ns(const char *type)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/1/ns/%s", type);
	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/* Before load: on or off, and the host's namespaces where they are not
 * the initial ones (as enrich/nsnames.c takes them: /proc/1's). */
void tracer_lineage_config(struct tracer *t)
{
	t->bpf.skel->rodata->lineage_on = t->o.rules != NULL;
	t->bpf.skel->rodata->host_mntns_inum = proc1_ns("mnt");
	t->bpf.skel->rodata->host_pidns_inum = proc1_ns("pid");
}

static void add_exe(void *ctx, uint64_t ino, uint32_t dev)
{
	struct nsaudit_lineage_key k = { .ino = ino, .dev = dev };
	uint8_t one = 1;

	bpf_map_update_elem(*(int *)ctx, &k, &one, BPF_ANY);
}

/* After load, before attach: the trusted executables. */
void tracer_lineage_fill(struct tracer *t)
{
	int fd = bpf_map__fd(t->bpf.skel->maps.runtime_exes);

	if (t->o.rules && fd >= 0)
		rules_runtime_exes(t->o.rules, add_exe, &fd);
}

/* After attach, before the snapshot: tasks born from now on are followed
 * from their birth (those born between attach and now are too; they
 * only count as not followed, and user space looks at /proc for them). */
void tracer_lineage_begin(struct tracer *t)
{
	if (t->o.rules)
		t->bpf.skel->data->lineage_since = (uint64_t)clock_ns(CLOCK_BOOTTIME);
}

/* Before a batch of records is evaluated (after they were read from the
 * rings): a mark the kernel side could not make. */
void tracer_lineage_check(struct tracer *t)
{
	struct nsaudit_bpf__bss *c;

	if (t->lineage_lost || !t->o.rules)
		return;
	c = tbpf_counters(&t->bpf);
	if (c && !__atomic_load_n(&c->lineage_lost, __ATOMIC_RELAXED))
		return;
	/* unmapped counters say nothing: no unmarked record is taken as an answer */
	t->lineage_lost = true;
	rules_lineage_lost(t->o.rules);
}
