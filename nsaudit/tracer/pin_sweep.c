// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pin_sweep.c - run the kernel side's sweep_pins iterator: the bind-mount
 * pins that left their mount namespace without an umount call the tracer
 * saw (the namespace died, a lazy or propagated umount). The caller
 * decides when one is reported and forgotten (pin_forget): an umount in
 * flight has detached its mount before its exit looks (namespace_unlock
 * waits for an RCU grace period in between).
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "pin_sweep.h"

int pin_sweep(int link_fd, void (*fn)(void *ctx, const struct nsaudit_pin_gone *g), void *ctx)
{
	struct nsaudit_pin_gone g;
	int fd, n = 0;

	if (link_fd < 0)
		return 0;
	fd = bpf_iter_create(link_fd);
	if (fd < 0)
		return -errno;
	while (read(fd, &g, sizeof(g)) == sizeof(g)) {
		fn(ctx, &g);
		n++;
	}
	close(fd);
	return n;
}

void pin_forget(int map_fd, uint64_t key)
{
	if (map_fd >= 0)
		bpf_map_delete_elem(map_fd, &key);
}
