// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pin_sweep.c - run the kernel side's sweep_pins iterator: the bind-mount
 * pins that left their mount namespace without an umount call the tracer
 * saw (the namespace died, a lazy or propagated umount). Each is handed
 * to the caller once and forgotten by the kernel side.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "pin_sweep.h"

int pin_sweep(int link_fd, int map_fd, void (*fn)(void *ctx, const struct nsaudit_pin *pin),
	      void *ctx)
{
	struct nsaudit_pin_gone g;
	int fd, n = 0;

	if (link_fd < 0 || map_fd < 0)
		return 0;
	fd = bpf_iter_create(link_fd);
	if (fd < 0)
		return -errno;
	while (read(fd, &g, sizeof(g)) == sizeof(g)) {
		/* first forget it: a pin is reported once */
		bpf_map_delete_elem(map_fd, &g.key);
		fn(ctx, &g.pin);
		n++;
	}
	close(fd);
	return n;
}
