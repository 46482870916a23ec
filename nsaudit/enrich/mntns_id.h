/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* mntns_id.h - whether a mount namespace lives, by its 64-bit id. */
#ifndef NSAUDIT_MNTNS_ID_H
#define NSAUDIT_MNTNS_ID_H

#include <stdbool.h>
#include <stdint.h>

/*
 * 1: the mount namespace with this 64-bit id (6.18 ns_id) exists; 0: it
 * does not (any more), or it is another namespace and the caller lacks
 * CAP_SYS_ADMIN over it (listmount says ENOENT for both: a recorder that
 * dropped its capabilities can trust only 1); -1: cannot tell (id 0, a
 * kernel without listmount by namespace id). An fd or a bind mount that
 * holds it keeps it alive.
 */
int mntns_id_alive(uint64_t id);

/*
 * Whether any process holds an fd of the mount namespace with inode inum
 * (readlink /proc/PID/fd/N = "mnt:[inum]"): such a namespace lives on with
 * no process in it. For kernels without the 64-bit id (6.1) and pins that
 * predate the tracer.
 */
bool mntns_held_by_fd(uint32_t inum);

#endif
