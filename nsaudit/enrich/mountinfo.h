/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * mountinfo.h - the one parser of /proc/PID/mountinfo lines, for the
 * recorder's mount table (enrich.c, nsnames.c) and for holders.
 */
#ifndef NSAUDIT_MOUNTINFO_H
#define NSAUDIT_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A parsed mountinfo line: what nsaudit needs of it. */
struct mountinfo_line {
	uint32_t mount_id;
	char root[256];	 /* "net:[4026532289]" for nsfs */
	char path[4096]; /* mount point, \NNN escapes decoded */
	char fstype[64];
};

/* Parse one mountinfo line; 0 or -1 if malformed. */
int mountinfo_parse_line(const char *line, struct mountinfo_line *out);
/* "net:[4026532289]" -> type and inode; 0 or -1. */
int nsfs_root_parse(const char *root, int *type, uint32_t *inum);
/* Both at once: true for an nsfs mount, with its mount point (decoded) in
 * mnt and its namespace in *type and *inum. */
bool mountinfo_nsfs_line(const char *line, char *mnt, size_t mntlen, int *type, uint32_t *inum);

#endif
