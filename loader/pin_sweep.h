/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* pin_sweep.h - pins that left without an umount call (bpf/pins.bpf.h). */
#ifndef NSAUDIT_PIN_SWEEP_H
#define NSAUDIT_PIN_SWEEP_H

#include "pins.h"

/*
 * One pass of the sweep_pins iterator (link_fd) over pin_mounts (map_fd):
 * fn for each pin no longer attached, whose key is deleted. Returns how
 * many, or -errno.
 */
int pin_sweep(int link_fd, int map_fd, void (*fn)(void *ctx, const struct nsaudit_pin *pin),
	      void *ctx);

#endif
