/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* pin_sweep.h - pins that left without an umount call (bpf/nsaudit/pins.bpf.h). */
#ifndef NSAUDIT_PIN_SWEEP_H
#define NSAUDIT_PIN_SWEEP_H

#include <stdint.h>

#include "pins.h"

/*
 * One pass of the sweep_pins iterator (link_fd): fn for each pin no longer
 * attached (the kernel side keeps it until pin_forget). Returns how many,
 * or -errno.
 */
int pin_sweep(int link_fd, void (*fn)(void *ctx, const struct nsaudit_pin_gone *g), void *ctx);
/* The kernel side forgets the pin with this key (pin_mounts, map_fd). */
void pin_forget(int map_fd, uint64_t key);

#endif
