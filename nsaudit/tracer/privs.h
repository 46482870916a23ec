/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* privs.h - give up what is no longer needed once the programs are attached. */
#ifndef NSAUDIT_PRIVS_H
#define NSAUDIT_PRIVS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Drop every capability except the few that reading /proc of other users'
 * processes (exe, cgroup, mountinfo) and writing to the kernel audit trail
 * need. The ring buffer fd stays readable. 0, or -1 with a reason in err.
 */
int drop_privileges(bool verbose, char *err, size_t errlen);

#endif
