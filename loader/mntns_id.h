/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* mntns_id.h - whether a mount namespace lives, by its 64-bit id. */
#ifndef NSAUDIT_MNTNS_ID_H
#define NSAUDIT_MNTNS_ID_H

#include <stdint.h>

/*
 * 1: the mount namespace with this 64-bit id (6.18 ns_id) exists; 0: it
 * does not (any more); -1: cannot tell (id 0, a kernel without listmount
 * by namespace id). An fd or a bind mount that holds it keeps it alive.
 */
int mntns_id_alive(uint64_t id);

#endif
