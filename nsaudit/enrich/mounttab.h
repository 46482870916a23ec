/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * mounttab.h - the nsfs bind mounts (pins) user space knows of, keyed by
 * mount namespace and path: two containers can pin different namespaces
 * at the same path (/run/netns/x in each), and an umount only removes the
 * pin in the caller's mount namespace.
 *
 * How pins change:
 *   mount MS_BIND of an nsfs file      a new pin            mounttab_add
 *   mount MS_BIND|MS_REMOUNT           nothing (flags only) -
 *   mount MS_MOVE, move_mount of an    the pin moves (and the pins mounted
 *     attached mount                   below it)            mounttab_move
 *   umount                             the pin goes         mounttab_remove
 *   unshare/clone CLONE_NEWNS          the new namespace starts with a
 *                                      copy of its parent's pins
 *                                                           mounttab_copy_ns
 *   the mount namespace dies           its pins go          mounttab_drop_ns
 */
#ifndef NSAUDIT_MOUNTTAB_H
#define NSAUDIT_MOUNTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "posindex.h"

struct mount_pin {
	uint32_t mntns; /* the mount namespace the mount is in */
	char *path;
	int type; /* the pinned namespace */
	uint32_t inum;
	bool copied; /* came with a new mount namespace (no record
		      * made it): none is made when it goes either */
	uint32_t mnt_id; /* the mount's id (mountinfo, or the kernel side's
			  * record); 0: not known */
	uint64_t mnt_unique; /* exact pins: never reused (mnt_id_unique, or
			      * the kernel side's serial); the key then */
	bool exact; /* the kernel side tracks this mount (bpf/nsaudit/pins.bpf.h):
		     * its umount and its vanishing are reported from there,
		     * never guessed here */
	bool cut; /* path is the first bytes of a longer one (the record's
		   * room): shown, never matched by path (it may be another
		   * mount's whole path) */
};

struct mounttab {
	struct mount_pin *v;
	size_t n, cap;
	struct posindex by_path, by_id;	/* find()'s and find_id()'s, over v */
};

void mounttab_init(struct mounttab *m);
void mounttab_free(struct mounttab *m);

/* Add or update the pin at (mntns, path). false on allocation failure. */
bool mounttab_add(struct mounttab *m, uint32_t mntns, const char *path, int type, uint32_t inum);
/*
 * Add the pin with mount id mnt_id in mntns, or update it (a move: its path
 * changes). mnt_unique != 0: an exact pin (known from the kernel side),
 * keyed by it. false on allocation failure.
 */
bool mounttab_add_id(struct mounttab *m, uint32_t mntns, const char *path, int type,
		     uint32_t inum, uint32_t mnt_id, uint64_t mnt_unique);
/* Remove the pin with mount id mnt_id in mntns, or (mnt_unique != 0) the
 * exact pin mnt_unique (*path: the path, to free; or NULL). false if there
 * was none. */
bool mounttab_remove_id(struct mounttab *m, uint32_t mntns, uint32_t mnt_id, uint64_t mnt_unique,
			int *type, uint32_t *inum, char **path);
/* The pin (mntns, mnt_id, mnt_unique) has a cut path (struct mount_pin). */
void mounttab_mark_cut(struct mounttab *m, uint32_t mntns, uint32_t mnt_id, uint64_t mnt_unique);
/* The pin (mntns, mnt_id) came with its mount namespace (struct mount_pin). */
void mounttab_mark_copied(struct mounttab *m, uint32_t mntns, uint32_t mnt_id);
/* The pin at (mntns, path), or NULL. */
const struct mount_pin *mounttab_find(const struct mounttab *m, uint32_t mntns, const char *path);
/*
 * Remove the pin at (mntns, path) into *out (type, inum; the caller gets no
 * path). false if there was none.
 */
bool mounttab_remove(struct mounttab *m, uint32_t mntns, const char *path, int *type,
		     uint32_t *inum);
/*
 * A mount moved from src to dst in mntns: the pin at src (if any) is now at
 * dst, and so are pins below src ("src/..." -> "dst/..."). Returns whether
 * src itself was a pin (then *type, *inum name it); *below counts the
 * pins that moved with it.
 */
bool mounttab_move(struct mounttab *m, uint32_t mntns, const char *src, const char *dst, int *type,
		   uint32_t *inum, size_t *below);
/* A new mount namespace copied from another: it has the same pins. */
void mounttab_copy_ns(struct mounttab *m, uint32_t from, uint32_t to);
/* Pins of mntns, for each: fn(ctx, pin) (copied ones too: fn decides);
 * then they are removed. Returns how many. */
size_t mounttab_drop_ns(struct mounttab *m, uint32_t mntns,
			void (*fn)(void *ctx, const struct mount_pin *p), void *ctx);
/* Whether any pin is in mntns. */
bool mounttab_has_ns(const struct mounttab *m, uint32_t mntns);

#endif
