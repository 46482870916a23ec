/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * bpf_log.h - libbpf's messages. With --verbose everything but debug output
 * goes to stderr as it comes; without it, warnings (the verifier's log of a
 * program that did not load among them) are kept and shown only when
 * loading fails, so a failure explains itself without a second run.
 */
#ifndef NSAUDIT_BPF_LOG_H
#define NSAUDIT_BPF_LOG_H

#include <stdbool.h>

/* Route libbpf's messages here; forgets what was kept so far. */
void bpf_log_setup(bool verbose);
/*
 * A load or attach failed with -err: print the kept warnings on stderr and
 * forget them. Nothing for EPERM, which only says we are unprivileged (the
 * caller's one-line error says so).
 */
void bpf_log_show(int err);

#endif
