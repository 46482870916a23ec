// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_pins.c - "record" survives its own crash: its links and rings
 * pinned in bpffs, a restarted recorder reusing them (same filters only)
 * and resuming after what its predecessor wrote, and "nsaudit detach".
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "actor_lost.h"
#include "array.h"
#include "enrich/enrich.h"
#include "ringbuf_reader.h"
#include "tracer_impl.h"

int tbpf_pin_path(char *buf, size_t len, const char *dir, const char *name)
{
	return snprintf(buf, len, "%s/%s", dir, name) >= (int)len ? -ENAMETOOLONG : 0;
}

/*
 * Every map a recorder pins, by its name in the pin dir: the one list that
 * pinning, reuse and detach (tracer_unpin) go by. Besides these, a pin
 * dir holds the links, "link_" and the program's name.
 */
struct pinned_map {
	const char *name;	/* in the pin dir */
	size_t map;		/* where the skeleton has it */
	ssize_t fd;		/* where a reusing recorder keeps its fd; NO_FD: itself */
	bool required;		/* reuse cannot go on without it */
};
#define NO_FD -1
#define MAP(m) offsetof(struct nsaudit_bpf, maps.m)
#define FD(f) (ssize_t)offsetof(struct tracer_bpf, f)
static const struct pinned_map pinned_maps[] = {
	{ "events", MAP(events), FD(ring_fd), true },
	{ "rare", MAP(rare), FD(rare_fd), true },
	{ "counters", MAP(bss), FD(bss_fd), true },
	/* the filters the programs were loaded with, checked on reuse */
	{ "config", MAP(rodata), NO_FD, true },
	/* optional: pins of an older nsaudit have no exe map (exe from /proc) */
	{ "exe_paths", MAP(exe_paths), NO_FD, false },
	/* optional: pins of an older nsaudit count losses per reason only */
	{ "actor_lost", MAP(actor_lost), FD(actor_lost_fd), false },
	{ "lost_epoch", MAP(lost_epoch), FD(lost_epoch_fd), false },
	{ "pin_mounts", MAP(pin_mounts), FD(pins_fd), false },
};

/* The links a reusing recorder drives itself (every other one it only
 * holds, pin_owner.c). */
static const struct {
	const char *name;
	ssize_t fd;
} pinned_links[] = {
	/* optional: a recorder started with --no-coalesce pinned no flusher */
	{ "link_flush_held", FD(flush_link_fd) },
	/* optional: pins of an older nsaudit have no pin sweep */
	{ "link_sweep_pins", FD(sweep_link_fd) },
};

static int *bpf_fd(struct tracer_bpf *b, ssize_t off)
{
	return (int *)((char *)b + off);
}

/* The pinned object name in t's pin dir, opened: its fd, or -1. */
static int pinned_get(struct tracer *t, const char *name)
{
	char path[512];

	if (tbpf_pin_path(path, sizeof(path), t->o.pin_dir, name))
		return -1;
	return bpf_obj_get(path);
}

uint64_t tbpf_link_name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ull;
	return h;
}

/* One link pinned as DIR/NAME, and counted in the manifest (.bss). */
static int pin_link(struct tracer *t, struct bpf_link *link, const char *name, uint32_t *n,
		    uint64_t *sum)
{
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", t->o.pin_dir, name);
	rc = bpf_link__pin(link, path);
	if (!rc) {
		(*n)++;
		*sum += tbpf_link_name_hash(name);
	}
	return rc;
}

/*
 * Pin the ring, the counters and every link, so that the programs keep
 * running and the ring keeps filling while no recorder is alive. How many
 * links and which (a sum of their names' hashes) goes into .bss, pinned
 * with it: a recorder reusing the pins checks that all are still there.
 */
int tbpf_pin_all(struct tracer *t, char *err, size_t errlen)
{
	char path[512], name[256];
	struct statfs sfs;
	uint64_t sum = 0;
	uint32_t n = 0;
	int i, rc = 0;

	if (mkdir(t->o.pin_dir, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", t->o.pin_dir, strerror(errno));
		return -errno;
	}
	/* Only a bpf file system can hold pins; never clean up anywhere else. */
	if (statfs(t->o.pin_dir, &sfs) || (unsigned long)sfs.f_type != BPF_FS_MAGIC) {
		snprintf(err, errlen, "--pin-dir %s: not a directory in a bpf file system "
			 "(use one under /sys/fs/bpf)", t->o.pin_dir);
		rmdir(t->o.pin_dir);	/* only if we just made it, i.e. empty */
		return -ENOTDIR;
	}
	for (i = 0; i < (int)ARRAY_SIZE(pinned_maps); i++) {
		const struct pinned_map *m = &pinned_maps[i];

		if (tbpf_pin_path(path, sizeof(path), t->o.pin_dir, m->name) ||
		    (rc = bpf_map__pin(*(struct bpf_map **)((char *)t->bpf.skel + m->map), path)))
			goto fail;
	}
	for (i = 0; i < t->bpf.skel->skeleton->prog_cnt; i++) {
		struct bpf_link *link = *t->bpf.skel->skeleton->progs[i].link;
		struct bpf_program *prog = *t->bpf.skel->skeleton->progs[i].prog;

		/* the snapshot iterator runs once at start: nothing to keep */
		if (!link || prog == t->bpf.skel->progs.snapshot_tasks)
			continue;
		snprintf(name, sizeof(name), "link_%s", bpf_program__name(prog));
		rc = pin_link(t, link, name, &n, &sum);
		if (rc)
			goto fail;
	}
	for (i = 0; i < OPEN_SIBLINGS; i++) {
		if (!t->bpf.open_links[i])
			continue;
		snprintf(name, sizeof(name), "link_tp_exit_%s", open_siblings[i].name);
		rc = pin_link(t, t->bpf.open_links[i], name, &n, &sum);
		if (rc)
			goto fail;
	}
	t->bpf.skel->bss->pinned_links_sum = sum;
	t->bpf.skel->bss->pinned_links = n;
	return 0;
fail:
	snprintf(err, errlen, "pinning in %s: %s", t->o.pin_dir, strerror(errno ?: -rc));
	tracer_unpin(t->o.pin_dir);
	return -1;
}

/*
 * Reuse programs a previous recorder left pinned: no reload, no gap. Only
 * if they were loaded with the same filters: a recorder asked for other
 * records must not silently get the old ones.
 */
int tbpf_reuse_pins(struct tracer *t, char *err, size_t errlen)
{
	struct nsaudit_bpf__rodata cfg;
	bool missing = false;
	uint32_t zero = 0;
	size_t i;
	int cfg_fd;

	for (i = 0; i < ARRAY_SIZE(pinned_maps); i++)
		if (pinned_maps[i].fd != NO_FD)
			*bpf_fd(&t->bpf, pinned_maps[i].fd) = pinned_get(t, pinned_maps[i].name);
	for (i = 0; i < ARRAY_SIZE(pinned_links); i++)
		*bpf_fd(&t->bpf, pinned_links[i].fd) = pinned_get(t, pinned_links[i].name);
	cfg_fd = pinned_get(t, "config");
	for (i = 0; i < ARRAY_SIZE(pinned_maps); i++)
		if (pinned_maps[i].required && pinned_maps[i].fd != NO_FD &&
		    *bpf_fd(&t->bpf, pinned_maps[i].fd) < 0)
			missing = true;
	if (missing || cfg_fd < 0 || bpf_map_lookup_elem(cfg_fd, &zero, &cfg)) {
		snprintf(err, errlen, "%s holds incomplete pinned state (%s); "
			 "remove it with 'nsaudit detach'", t->o.pin_dir, strerror(errno));
		if (cfg_fd >= 0)
			close(cfg_fd);
		return -1;
	}
	close(cfg_fd);
	enrich_set_exe_map(t->en, pinned_get(t, "exe_paths"), true);
	if (cfg.filter_tgid != t->o.pid || cfg.type_mask != t->o.type_mask ||
	    cfg.op_mask != (t->o.op_mask | (1u << NSAUDIT_OP_LOST)) ||
	    cfg.coalesce != !t->o.no_coalesce) {
		snprintf(err, errlen, "the programs pinned in %s were loaded with other filters "
			 "(--pid/--type/--op/--no-coalesce); restart with the same ones to drain them, or "
			 "remove them with 'nsaudit detach'", t->o.pin_dir);
		return -1;
	}
	t->bpf.reused = true;
	snprintf(t->bpf.hooks, sizeof(t->bpf.hooks), "pinned in %s: %s", t->o.pin_dir,
		 "tracepoint/syscalls raw_tp/sched_process_fork raw_tp/sched_process_exec");
	return 0;
}

/* What tbpf_reuse_pins() opened, closed (a fresh load's fds are the
 * skeleton's). */
void tbpf_close_reused(struct tracer_bpf *b)
{
	size_t i;
	int *fd;

	for (i = 0; i < ARRAY_SIZE(pinned_maps); i++) {
		if (pinned_maps[i].fd == NO_FD)
			continue;
		fd = bpf_fd(b, pinned_maps[i].fd);
		if (*fd >= 0)
			close(*fd);
	}
	for (i = 0; i < ARRAY_SIZE(pinned_links); i++) {
		fd = bpf_fd(b, pinned_links[i].fd);
		if (*fd >= 0)
			close(*fd);
	}
}

/*
 * The kernel's counters (.bss), mapped: user space adds the calls the
 * log budget refused with the atomic adds the programs use. NULL if the
 * map cannot be mapped (then such calls are reported from memory, lost
 * with a crashed recorder).
 */
struct nsaudit_bpf__bss *tbpf_counters(struct tracer_bpf *b)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	void *p;

	if (b->skel)
		return b->skel->bss;
	if (b->bss_mmap)
		return b->bss_mmap;
	if (bpf_obj_get_info_by_fd(b->bss_fd, &info, &len) ||
	    !(info.map_flags & BPF_F_MMAPABLE) || info.value_size < sizeof(*b->skel->bss))
		return NULL;
	p = mmap(NULL, info.value_size, PROT_READ | PROT_WRITE, MAP_SHARED, b->bss_fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	b->bss_mmap = p;
	b->bss_mmap_len = info.value_size;
	return p;
}

void tracer_resume(struct tracer *t, const uint64_t *kseqs, size_t n, uint64_t lost_total)
{
	if (n > RESUME_MAX)
		n = RESUME_MAX;
	memcpy(t->stream.resume_kseq, kseqs, n * sizeof(*kseqs));
	t->stream.nresume = n;
	t->stream.resume_end = ringbuf_reader_producer(&t->stream.rb);
	t->stream.resume_end_rare = ringbuf_reader_producer(&t->stream.rb_rare);
	ledger_resume_lost(t, lost_total);
}

bool tracer_reused_pins(const struct tracer *t)
{
	return t->bpf.reused;
}

/* The names tbpf_pin_all() creates; nothing else in a pin dir is ours. */
static bool our_pin(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pinned_maps); i++)
		if (!strcmp(name, pinned_maps[i].name))
			return true;
	return !strncmp(name, "link_", 5);
}

int tracer_unpin(const char *pin_dir)
{
	char path[512];
	struct dirent *d;
	struct statfs sfs;
	DIR *dir = opendir(pin_dir);
	int rc = 0;

	if (!dir)
		return -errno;
	/* A mistyped --pin-dir must never cost anyone their files. */
	if (fstatfs(dirfd(dir), &sfs) || (unsigned long)sfs.f_type != BPF_FS_MAGIC) {
		closedir(dir);
		return -EMEDIUMTYPE;
	}
	/* unlinking a pinned link detaches it once no fd holds it */
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !our_pin(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", pin_dir, d->d_name);
		if (unlink(path) && !rc)
			rc = -errno;
	}
	closedir(dir);
	if (rmdir(pin_dir) && !rc)
		rc = -errno;
	return rc;
}
