// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer.c - the BPF side's user-space half, opened and closed: load the
 * skeleton (or reuse its pins), choose the hooks, attach, learn who was
 * there before us (the snapshot). Its options, hooks, draining, losses and
 * pins are tracer_*.c's; tracer_impl.h is the state they share.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "actor_lost.h"
#include "attribution.h"
#include "probe/bpf_log.h"
#include "clock.h"
#include "enrich/enrich.h"
#include "output/record_fmt.h"
#include "probe/kfeatures.h"
#include "enrich/nsnames.h"
#include "nstype.h"
#include "pin_sweep.h"
#include "prog_misses.h"
#include "ringbuf_reader.h"
#include "rules/rules.h"
#include "enrich/runtime_state.h"
#include "tracer.h"
#include "nsaudit.skel.h"
#include "tracer_impl.h"
#include "log_budget.h"

static const char *const phase_names[TRACER_PHASES] = {
	[PH_NAMES] = "names", [PH_OPEN] = "open", [PH_LOAD] = "load",
	[PH_ATTACH] = "attach", [PH_SNAPSHOT] = "snapshot", [PH_RING] = "ring",
};

/* Phase ph ended now; *since: when it began, moved on to now. */
static void phase_end(struct tracer *t, enum tracer_phase ph, int64_t *since)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);

	t->phase_ms10[ph] += (now - *since) / 100000;
	*since = now;
}

int64_t tracer_startup(const struct tracer *t, char *buf, size_t len)
{
	int64_t sum = 0;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < TRACER_PHASES; i++) {
		sum += t->phase_ms10[i];
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s %lld.%lld", i ? ", " : "",
					      phase_names[i], (long long)(t->phase_ms10[i] / 10),
					      (long long)(t->phase_ms10[i] % 10));
	}
	return sum;
}

/* Learn the processes (and their mount namespaces) that predate us. */
static void snapshot(struct tracer *t)
{
	struct nsaudit_task_snap s;
	int fd;

	if (!t->skel || !t->skel->links.snapshot_tasks)
		return;
	fd = bpf_iter_create(bpf_link__fd(t->skel->links.snapshot_tasks));
	if (fd < 0)
		return;
	while (read(fd, &s, sizeof(s)) == sizeof(s))
		enrich_note_task(t->en, &s);
	close(fd);
	enrich_scan_mounts(t->en);
}

/*
 * Show the open programs one nsfs file, so that they learn its file
 * operations and tell every later open apart with one compare
 * (open_is_nsfs() in bpf/nsaudit/nsfile.bpf.h). This process's own open is
 * not recorded: prime_tgid says whose it is. Without /proc the first nsfs
 * open on the machine teaches them instead.
 */
static void prime_open_check(struct tracer *t)
{
	int fd;

	t->skel->bss->prime_tgid = getpid();
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	t->skel->bss->prime_tgid = 0;
}

/*
 * A fresh object: the filters into .rodata, the hooks for this kernel,
 * load, attach, pin (record), and the start-up snapshot. 0, or -1 with err.
 */
static int load_fresh(struct tracer *t, char *err, size_t errlen)
{
	int64_t since = clock_ns(CLOCK_MONOTONIC);
	int rc;

	t->skel = nsaudit_bpf__open();
	if (!t->skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		return -1;
	}
	bpf_map__set_max_entries(t->skel->maps.events, t->o.ring_size);
	t->skel->rodata->filter_tgid = t->o.pid;
	t->skel->rodata->op_mask = t->o.op_mask | (1u << NSAUDIT_OP_LOST);
	t->skel->rodata->type_mask = t->o.type_mask;
	t->skel->rodata->wakeup_bytes = t->o.ring_size / 4;
	t->skel->rodata->rare_wakeup_bytes =
		bpf_map__max_entries(t->skel->maps.rare) / 4;
	t->skel->rodata->coalesce = !t->o.no_coalesce;
	/* past half of a ring, only actors with budget left (issue 32) */
	t->skel->rodata->main_budget_bytes = t->o.ring_size / 2;
	t->skel->rodata->rare_budget_bytes = bpf_map__max_entries(t->skel->maps.rare) / 2;
	/* exe keys must not be kernel addresses: mixed with a per-load secret */
	if (getrandom((void *)&t->skel->rodata->exe_key_salt,
		      sizeof(t->skel->rodata->exe_key_salt), 0) !=
	    sizeof(t->skel->rodata->exe_key_salt))
		t->skel->rodata->exe_key_salt = (uint64_t)getpid() << 32 | (uint64_t)time(NULL);
	/* a pinned recorder is restarted as another process: trace it too */
	t->skel->rodata->self_tgid = t->o.pin_dir ? 0 : getpid();
	choose_hooks(t);
	phase_end(t, PH_OPEN, &since);
	rc = tracer_load_programs(t);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "loading BPF programs: %s%s", strerror(-rc),
			 rc == -EPERM ? " (run as root, or with CAP_BPF and CAP_PERFMON)" : "");
		return -1;
	}
	phase_end(t, PH_LOAD, &since);
	rc = nsaudit_bpf__attach(t->skel);
	if (!rc)
		rc = open_siblings_attach(t);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "attaching BPF programs: %s", strerror(-rc));
		return -1;
	}
	prime_open_check(t);
	if (t->o.pin_dir && pin_all(t, err, errlen))
		return -1;
	t->ring_fd = bpf_map__fd(t->skel->maps.events);
	t->rare_fd = bpf_map__fd(t->skel->maps.rare);
	t->bss_fd = bpf_map__fd(t->skel->maps.bss);
	t->actor_lost_fd = bpf_map__fd(t->skel->maps.actor_lost);
	t->lost_epoch_fd = bpf_map__fd(t->skel->maps.lost_epoch);
	if (t->skel->links.flush_held)
		t->flush_link_fd = bpf_link__fd(t->skel->links.flush_held);
	if (t->skel->links.sweep_pins)
		t->sweep_link_fd = bpf_link__fd(t->skel->links.sweep_pins);
	for (int i = 0; i < t->skel->skeleton->prog_cnt; i++) {
		struct bpf_program *prog = *t->skel->skeleton->progs[i].prog;

		prog_misses_add(&t->misses, bpf_program__fd(prog), bpf_program__name(prog));
	}
	t->pins_fd = bpf_map__fd(t->skel->maps.pin_mounts);
	enrich_set_exe_map(t->en, bpf_map__fd(t->skel->maps.exe_paths), false);
	phase_end(t, PH_ATTACH, &since);
	snapshot(t);
	phase_end(t, PH_SNAPSHOT, &since);
	if (t->skel->links.snapshot_tasks)
		enrich_set_task_iter(t->en, bpf_link__fd(t->skel->links.snapshot_tasks));
	/* what the load parsed (vmlinux BTF) is freed: give it back */
	malloc_trim(0);
	return 0;
}

struct tracer *tracer_open(const struct tracer_opts *o, char *err, size_t errlen)
{
	struct tracer *t = calloc(1, sizeof(*t));
	int64_t since = clock_ns(CLOCK_MONOTONIC);
	char path[512];
	int rc;

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->o = *o;
	t->ring_fd = t->rare_fd = t->bss_fd = t->flush_link_fd = t->epoll_fd = -1;
	t->actor_lost_fd = t->lost_epoch_fd = -1;
	t->losses = calloc(ACTOR_LOST_MAX, sizeof(*t->losses));
	if (o->log_budget) {
		struct log_budget_rates r = {
			.tgid = o->log_budget / 4, .uid = o->log_budget,
			.reserve = o->log_budget / 8, .parent = o->log_budget / 16 };

		t->budget = log_budget_new(&r);
		if (!t->budget) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	}
	t->sweep_link_fd = t->pins_fd = -1;
	t->pin_lock_fd = -1;
	t->rb.map_fd = t->rb_rare.map_fd = -1;
	/*
	 * Big blocks (vmlinux BTF at load, 5+ MiB twice) from mmap, always:
	 * glibc otherwise raises its mmap threshold to the largest block
	 * freed so far (containers.json's read buffer was 16 MiB), puts them
	 * on the heap, and the heap stays resident after they are freed.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
	bpf_log_setup(o->verbose);
	rc = ensure_pseudo_fs();
	if (rc) {
		snprintf(err, errlen, "mounting tracefs/bpffs: %s", strerror(-rc));
		goto fail;
	}
	t->en = enrich_new();
	t->names = nsnames_new();
	if (!t->en || !t->names) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	phase_end(t, PH_NAMES, &since);
	if (o->rules)	/* owners of namespaces, containers: the names' */
		rules_set_names(o->rules, t->names);
	if (tracer_container_resolve(t, err, errlen))
		goto fail;
	if (o->pin_dir && pin_dir_claim(t, err, errlen))
		goto fail;
	if (o->pin_dir && !pin_path(path, sizeof(path), o->pin_dir, "events") &&
	    !access(path, F_OK)) {
		if (reuse_pins(t, err, errlen) || hold_pinned_links(t, err, errlen))
			goto fail;
		goto ring;
	}
	if (load_fresh(t, err, errlen))
		goto fail;
ring:
	since = clock_ns(CLOCK_MONOTONIC);
	rc = ringbuf_reader_open(&t->rb, t->ring_fd);
	if (!rc)
		rc = ringbuf_reader_open(&t->rb_rare, t->rare_fd);
	if (rc) {
		snprintf(err, errlen, "ring buffer: %s", strerror(-rc));
		goto fail;
	}
	t->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (t->epoll_fd < 0 ||
	    epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, t->ring_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 0 }) ||
	    epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, t->rare_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 1 })) {
		snprintf(err, errlen, "ring buffer wakeups: %s", strerror(errno));
		goto fail;
	}
	phase_end(t, PH_RING, &since);
	if (o->verbose)
		fprintf(stderr, "nsaudit: hooks: %s\n", t->hooks);
	return t;
fail:
	tracer_close(t);
	return NULL;
}

const char *tracer_hooks(const struct tracer *t)
{
	return t->hooks;
}

void tracer_get_stats(const struct tracer *t, struct tracer_stats *s)
{
	*s = t->stats;
}

void tracer_close(struct tracer *t)
{
	if (!t)
		return;
	ringbuf_reader_close(&t->rb);
	ringbuf_reader_close(&t->rb_rare);
	if (t->epoll_fd >= 0)
		close(t->epoll_fd);
	if (t->skel) {
		for (int i = 0; i < OPEN_SIBLINGS; i++)
			bpf_link__destroy(t->open_links[i]);
		nsaudit_bpf__destroy(t->skel);	/* its links first */
		nsaudit_bpf__destroy(t->halves[0]);
		nsaudit_bpf__destroy(t->halves[1]);
	} else {
		if (t->ring_fd >= 0)
			close(t->ring_fd);
		if (t->rare_fd >= 0)
			close(t->rare_fd);
		if (t->flush_link_fd >= 0)
			close(t->flush_link_fd);
		if (t->sweep_link_fd >= 0)
			close(t->sweep_link_fd);
		if (t->pins_fd >= 0)
			close(t->pins_fd);
		if (t->bss_fd >= 0)
			close(t->bss_fd);
		if (t->actor_lost_fd >= 0)
			close(t->actor_lost_fd);
		if (t->lost_epoch_fd >= 0)
			close(t->lost_epoch_fd);
	}
	if (t->bss_mmap)
		munmap(t->bss_mmap, t->bss_mmap_len);
	release_pins(t);
	free(t->losses);
	log_budget_free(t->budget);
	enrich_free(t->en);
	nsnames_free(t->names);
	free(t);
}
