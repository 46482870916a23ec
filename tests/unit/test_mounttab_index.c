// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * The pin table's hash indexes (mounttab.c, common/posindex.c) against a
 * walk of the table itself: after every one of 20,000 random changes
 * (adds, adds by id, moves, copies, deaths, removals, stacked mounts on
 * few paths so keys collide), each look-up answers the first element a
 * walk finds, and a removal by id takes the element a walk names.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enrich/mounttab.h"

#define NNS 3
#define NPATHS 12

static const char *path_of(unsigned int i)
{
	static const char *const p[NPATHS] = {
		"/run/netns/a", "/run/netns/b", "/run/netns/a/x", "/run/netns/b/x",
		"/p",		"/p/q",		"/p/q/r",	  "/m/1",
		"/m/2",		"/m/1/2",	"/x",		  "/y",
	};
	return p[i % NPATHS];
}

static uint32_t ns_of(unsigned int i)
{
	return 4026531840u + i % NNS;
}

static const struct mount_pin *walk_path(const struct mounttab *m, uint32_t ns, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].mntns == ns && !m->v[i].cut && !strcmp(m->v[i].path, path))
			return &m->v[i];
	return NULL;
}

static const struct mount_pin *walk_id(const struct mounttab *m, uint32_t ns, uint32_t id,
				       uint64_t uniq)
{
	for (size_t i = 0; (id || uniq) && i < m->n; i++) {
		const struct mount_pin *p = &m->v[i];

		if (uniq ? p->mnt_unique == uniq
			 : p->mntns == ns && p->mnt_id == id && !p->mnt_unique)
			return p;
	}
	return NULL;
}

static void check_paths(const struct mounttab *m, int step)
{
	for (unsigned int ns = 0; ns < NNS; ns++)
		for (unsigned int pi = 0; pi < NPATHS; pi++)
			cr_assert_eq(mounttab_find(m, ns_of(ns), path_of(pi)),
				     walk_path(m, ns_of(ns), path_of(pi)),
				     "step %d: (%u, %s) found another element than a walk", step,
				     ns_of(ns), path_of(pi));
}

static void remove_by_id(struct mounttab *m, uint32_t ns, uint32_t id, uint64_t uniq, int step)
{
	const struct mount_pin *want = walk_id(m, ns, id, uniq);
	struct mount_pin copy = { 0 };
	size_t n = m->n;
	uint32_t inum;
	char *path;
	int type;

	if (want) {
		copy = *want;
		copy.path = strdup(want->path);
	}
	cr_assert_eq(mounttab_remove_id(m, ns, id, uniq, &type, &inum, &path), want != NULL,
		     "step %d: removal by id disagrees with a walk", step);
	if (want) {
		cr_assert_eq(m->n, n - 1);
		cr_assert_eq(inum, copy.inum, "step %d", step);
		cr_assert_eq(type, copy.type, "step %d", step);
		cr_assert_str_eq(path, copy.path, "step %d", step);
		free(path);
		free(copy.path);
	}
}

static void one_change(struct mounttab *m, unsigned int r, int step)
{
	uint32_t ns = ns_of(r >> 4), inum = 4026532000u + (r >> 8) % 5, id = (r >> 12) % 20;
	uint64_t uniq = (r >> 17) % 3 ? 0 : 1 + (r >> 19) % 10;
	const char *path = path_of(r >> 23);
	size_t below;
	uint32_t oi;
	int type;

	switch (r % 8) {
	case 0:
		mounttab_add(m, ns, path, (int)(r >> 27) % 8, inum);
		break;
	case 1:
	case 2:
		mounttab_add_id(m, ns, path, (int)(r >> 27) % 8, inum, id, uniq);
		break;
	case 3:
		mounttab_move(m, ns, path, path_of((r >> 27) + 1), &type, &oi, &below);
		break;
	case 4:
		mounttab_copy_ns(m, ns, ns_of((r >> 4) + 1));
		break;
	case 5:
		if ((r >> 27) % 4 == 1)
			mounttab_mark_cut(m, ns, id, uniq);
		else if ((r >> 27) % 4 == 0)
			mounttab_drop_ns(m, ns, NULL, NULL);
		else
			mounttab_remove(m, ns, path, &type, &oi);
		break;
	default:
		remove_by_id(m, ns, id, uniq, step);
		break;
	}
}

Test(mounttab_index, every_lookup_answers_what_a_walk_answers)
{
	struct mounttab m;
	unsigned int seed = 4848;

	mounttab_init(&m);
	for (int step = 0; step < 20000; step++) {
		one_change(&m, (unsigned int)rand_r(&seed) * 2654435761u ^ (unsigned int)step, step);
		check_paths(&m, step);
		if (m.n > 400)	/* keep the table small enough to churn */
			mounttab_drop_ns(&m, ns_of(step), NULL, NULL);
	}
	mounttab_free(&m);
}

Test(mounttab_index, ten_thousand_pins_of_one_namespace)
{
	struct mounttab m;
	char path[64];
	uint32_t inum;
	char *got;
	int type;

	mounttab_init(&m);
	for (uint32_t i = 0; i < 10000; i++) {
		snprintf(path, sizeof(path), "/tmp/pins/h%u", i);
		cr_assert(mounttab_add_id(&m, ns_of(0), path, 1, 4026531839u, 100 + i, 0));
	}
	/* seen again (a second mountinfo read): updated, not duplicated */
	for (uint32_t i = 0; i < 10000; i += 7) {
		snprintf(path, sizeof(path), "/tmp/pins/h%u", i);
		cr_assert(mounttab_add_id(&m, ns_of(0), path, 1, 4026531839u, 100 + i, 0));
	}
	cr_assert_eq(m.n, 10000);
	for (uint32_t i = 0; i < 10000; i += 97) {
		snprintf(path, sizeof(path), "/tmp/pins/h%u", i);
		cr_assert_eq(mounttab_find(&m, ns_of(0), path)->mnt_id, 100 + i);
		cr_assert_null(mounttab_find(&m, ns_of(1), path));
	}
	cr_assert(mounttab_remove_id(&m, ns_of(0), 100 + 4321, 0, &type, &inum, &got));
	cr_assert_str_eq(got, "/tmp/pins/h4321");
	free(got);
	cr_assert_null(mounttab_find(&m, ns_of(0), "/tmp/pins/h4321"));
	cr_assert_eq(mounttab_find(&m, ns_of(0), "/tmp/pins/h9999")->mnt_id, 100 + 9999);
	mounttab_free(&m);
}
