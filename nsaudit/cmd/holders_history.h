/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders_history.h - the log-backed views of "nsaudit holders"
 * (cmd_holders_history.c): --history and --leaks. Each returns the exit
 * status.
 */
#ifndef NSAUDIT_HOLDERS_HISTORY_H
#define NSAUDIT_HOLDERS_HISTORY_H

#include <stdbool.h>

struct nsspec;

/* NS's holders over time from the log in dir, and how it ended; json:
 * one {"history": ...} object. */
int holders_history(const char *dir, const struct nsspec *spec, bool json);
/* Namespaces alive now at least older seconds after their creator and
 * their names were gone, per the log in dir, with their holders; json:
 * one {"leak": ...} line each, then {"leaks": ...} with the counts. */
int holders_leaks(const char *dir, double older, bool json);

#endif
