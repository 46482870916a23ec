// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer.c - the BPF side's user-space half, opened and closed: load the
 * skeleton (or reuse its pins), choose the hooks, attach, learn who was
 * there before us (the snapshot). Its options, hooks, draining, losses and
 * pins are tracer_*.c's; tracer_impl.h composes the three objects they
 * own (the BPF owner, the record stream, the loss ledger).
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "actor_lost.h"
#include "clock.h"
#include "enrich/enrich.h"
#include "enrich/nsnames.h"
#include "log_budget.h"
#include "nsaudit.skel.h"
#include "probe/bpf_log.h"
#include "probe/kfeatures.h"
#include "prog_misses.h"
#include "ringbuf_reader.h"
#include "rules/rules.h"
#include "tracer.h"
#include "tracer_impl.h"

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

	if (!t->bpf.skel || !t->bpf.skel->links.snapshot_tasks)
		return;
	fd = bpf_iter_create(bpf_link__fd(t->bpf.skel->links.snapshot_tasks));
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
 * not recorded: prime_tgid says whose it is (in a pid namespace of its own
 * it cannot say, and the open is recorded rather than another process's
 * muted). Without /proc the first nsfs open on the machine teaches them
 * instead.
 */
static void prime_open_check(struct tracer_bpf *b)
{
	int fd;

	b->skel->bss->prime_tgid = tracer_kernel_pid();
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	/* op freed: a UNIX socket of each kind, whose free names its cache
	 * where it is merged into another (freed_caches.bpf.h) */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		close(fd);
	b->skel->bss->prime_tgid = 0;
}

/*
 * A fresh object: the filters into .rodata, the hooks for this kernel,
 * load, attach, pin (record), and the start-up snapshot. 0, or -1 with err.
 */
static int load_fresh(struct tracer *t, char *err, size_t errlen)
{
	int64_t since = clock_ns(CLOCK_MONOTONIC);
	int rc;

	t->bpf.skel = nsaudit_bpf__open();
	if (!t->bpf.skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		return -1;
	}
	bpf_map__set_max_entries(t->bpf.skel->maps.events, t->o.ring_size);
	t->bpf.skel->rodata->filter_tgid = t->o.pid;
	t->bpf.skel->rodata->op_mask = t->o.op_mask | (1u << NSAUDIT_OP_LOST);
	t->bpf.skel->rodata->type_mask = t->o.type_mask;
	t->bpf.skel->rodata->wakeup_bytes = t->o.ring_size / 4;
	t->bpf.skel->rodata->rare_wakeup_bytes = bpf_map__max_entries(t->bpf.skel->maps.rare) / 4;
	t->bpf.skel->rodata->coalesce = !t->o.no_coalesce;
	/* past half of a ring, only actors with budget left (issue 32) */
	t->bpf.skel->rodata->main_budget_bytes = t->o.ring_size / 2;
	t->bpf.skel->rodata->rare_budget_bytes = bpf_map__max_entries(t->bpf.skel->maps.rare) / 2;
	/* exe keys must not be kernel addresses: mixed with a per-load secret */
	if (getrandom((void *)&t->bpf.skel->rodata->exe_key_salt,
		      sizeof(t->bpf.skel->rodata->exe_key_salt),
		      0) != sizeof(t->bpf.skel->rodata->exe_key_salt))
		t->bpf.skel->rodata->exe_key_salt = (uint64_t)getpid() << 32 | (uint64_t)time(NULL);
	/* a pinned recorder is restarted as another process: trace it too;
	 * in a pid namespace of its own its kernel pid is unknown, and
	 * getpid() would mute another process: traced too */
	t->bpf.skel->rodata->self_tgid = t->o.pin_dir ? 0 : tracer_kernel_pid();
	/* bpf_rdonly_cast: the actor's loads cost the verifier no BTF scans
	 * (current_to_read(), bpf/nsaudit/actor.bpf.h). The kfunc is 6.2's;
	 * that tracepoint programs may call it is checked in 6.12's and
	 * 6.18's sources: before, the trusted pointer as ever */
	t->bpf.skel->rodata->can_rdonly_cast = kernel_at_least(6, 12);
	tracer_lineage_config(t);
	tbpf_choose_hooks(t);
	phase_end(t, PH_OPEN, &since);
	rc = tbpf_load_programs(&t->bpf);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "loading BPF programs: %s%s", strerror(-rc),
			 rc == -EPERM ? " (run as root, or with CAP_BPF and CAP_PERFMON)" : "");
		return -1;
	}
	phase_end(t, PH_LOAD, &since);
	tracer_lineage_fill(t);
	rc = nsaudit_bpf__attach(t->bpf.skel);
	if (!rc)
		rc = tbpf_open_siblings_attach(&t->bpf);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "attaching BPF programs: %s", strerror(-rc));
		return -1;
	}
	prime_open_check(&t->bpf);
	tracer_lineage_begin(t);
	if (t->o.pin_dir && tbpf_pin_all(t, err, errlen))
		return -1;
	t->bpf.ring_fd = bpf_map__fd(t->bpf.skel->maps.events);
	t->bpf.rare_fd = bpf_map__fd(t->bpf.skel->maps.rare);
	t->bpf.bss_fd = bpf_map__fd(t->bpf.skel->maps.bss);
	t->bpf.actor_lost_fd = bpf_map__fd(t->bpf.skel->maps.actor_lost);
	t->bpf.lost_epoch_fd = bpf_map__fd(t->bpf.skel->maps.lost_epoch);
	if (t->bpf.skel->links.flush_held)
		t->bpf.flush_link_fd = bpf_link__fd(t->bpf.skel->links.flush_held);
	if (t->bpf.skel->links.sweep_pins)
		t->bpf.sweep_link_fd = bpf_link__fd(t->bpf.skel->links.sweep_pins);
	for (int i = 0; i < t->bpf.skel->skeleton->prog_cnt; i++) {
		struct bpf_program *prog = *t->bpf.skel->skeleton->progs[i].prog;

		prog_misses_add(&t->ledger.misses, bpf_program__fd(prog), bpf_program__name(prog));
	}
	t->bpf.pins_fd = bpf_map__fd(t->bpf.skel->maps.pin_mounts);
	enrich_set_exe_map(t->en, bpf_map__fd(t->bpf.skel->maps.exe_paths), false);
	phase_end(t, PH_ATTACH, &since);
	snapshot(t);
	/* from now on the iterator only reads (enrich's look-ups) */
	t->bpf.skel->bss->snapshot_taken = 1;
	phase_end(t, PH_SNAPSHOT, &since);
	if (t->bpf.skel->links.snapshot_tasks)
		enrich_set_task_iter(t->en, bpf_link__fd(t->bpf.skel->links.snapshot_tasks));
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
	t->bpf.ring_fd = t->bpf.rare_fd = t->bpf.bss_fd = t->bpf.flush_link_fd =
	    t->stream.epoll_fd = -1;
	t->bpf.actor_lost_fd = t->bpf.lost_epoch_fd = -1;
	t->ledger.losses = calloc(ACTOR_LOST_MAX, sizeof(*t->ledger.losses));
	if (o->log_budget) {
		struct log_budget_rates r = {
			.tgid = o->log_budget / 4, .uid = o->log_budget,
			.reserve = o->log_budget / 8, .parent = o->log_budget / 16 };

		t->stream.budget = log_budget_new(&r);
		if (!t->stream.budget) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	}
	t->bpf.sweep_link_fd = t->bpf.pins_fd = -1;
	t->bpf.pin_lock_fd = -1;
	t->stream.rb.map_fd = t->stream.rb_rare.map_fd = -1;
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
	if (o->pin_dir && tbpf_pin_dir_claim(t, err, errlen))
		goto fail;
	if (o->pin_dir && !tbpf_pin_path(path, sizeof(path), o->pin_dir, "events") &&
	    !access(path, F_OK)) {
		if (tbpf_reuse_pins(t, err, errlen) || tbpf_hold_pinned_links(t, err, errlen))
			goto fail;
		goto ring;
	}
	if (load_fresh(t, err, errlen))
		goto fail;
ring:
	since = clock_ns(CLOCK_MONOTONIC);
	rc = ringbuf_reader_open(&t->stream.rb, t->bpf.ring_fd);
	if (!rc)
		rc = ringbuf_reader_open(&t->stream.rb_rare, t->bpf.rare_fd);
	if (rc) {
		snprintf(err, errlen, "ring buffer: %s", strerror(-rc));
		goto fail;
	}
	t->stream.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (t->stream.epoll_fd < 0 ||
	    epoll_ctl(t->stream.epoll_fd, EPOLL_CTL_ADD, t->bpf.ring_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 0 }) ||
	    epoll_ctl(t->stream.epoll_fd, EPOLL_CTL_ADD, t->bpf.rare_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 1 })) {
		snprintf(err, errlen, "ring buffer wakeups: %s", strerror(errno));
		goto fail;
	}
	phase_end(t, PH_RING, &since);
	if (o->verbose)
		fprintf(stderr, "nsaudit: hooks: %s\n", t->bpf.hooks);
	return t;
fail:
	tracer_close(t);
	return NULL;
}

const char *tracer_hooks(const struct tracer *t)
{
	return t->bpf.hooks;
}

void tracer_get_stats(const struct tracer *t, struct tracer_stats *s)
{
	*s = t->stream.stats;
}

void tracer_close(struct tracer *t)
{
	if (!t)
		return;
	ringbuf_reader_close(&t->stream.rb);
	ringbuf_reader_close(&t->stream.rb_rare);
	if (t->stream.epoll_fd >= 0)
		close(t->stream.epoll_fd);
	if (t->bpf.skel) {
		for (int i = 0; i < OPEN_SIBLINGS; i++)
			bpf_link__destroy(t->bpf.open_links[i]);
		nsaudit_bpf__destroy(t->bpf.skel);	/* its links first */
		nsaudit_bpf__destroy(t->bpf.halves[0]);
		nsaudit_bpf__destroy(t->bpf.halves[1]);
	} else {
		tbpf_close_reused(&t->bpf);
	}
	if (t->bpf.bss_mmap)
		munmap(t->bpf.bss_mmap, t->bpf.bss_mmap_len);
	tbpf_release_pins(&t->bpf);
	free(t->ledger.losses);
	free(t->ledger.suspects.v);
	log_budget_free(t->stream.budget);
	enrich_free(t->en);
	nsnames_free(t->names);
	free(t);
}
