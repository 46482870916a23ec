// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* privs.c - capability drop after attach, with libcap-ng. */
#include <stdio.h>
#include <stdlib.h>
#include <cap-ng.h>

#include "privs.h"
#include "array.h"

/* Kept: readlink /proc/PID/exe and /proc/PID/mountinfo of any process need
 * ptrace read access; cgroup and netns directories may be 0700; the audit
 * sink writes AUDIT_USER messages. Everything else (CAP_SYS_ADMIN, CAP_BPF,
 * CAP_PERFMON, CAP_NET_ADMIN, CAP_DAC_OVERRIDE...) goes. */
static const int keep[] = { CAP_SYS_PTRACE, CAP_DAC_READ_SEARCH, CAP_AUDIT_WRITE };

int drop_privileges(bool verbose, char *err, size_t errlen)
{
	size_t i;

	if (capng_get_caps_process() < 0) {
		snprintf(err, errlen, "reading capabilities failed");
		return -1;
	}
	if (capng_have_capabilities(CAPNG_SELECT_CAPS) == CAPNG_NONE)
		return 0;	/* nothing to drop */
	capng_clear(CAPNG_SELECT_BOTH);
	for (i = 0; i < ARRAY_SIZE(keep); i++)
		capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED, keep[i]);
	if (capng_apply(CAPNG_SELECT_BOTH) < 0) {
		snprintf(err, errlen, "dropping capabilities failed");
		return -1;
	}
	if (verbose) {
		char *left = capng_print_caps_text(CAPNG_PRINT_BUFFER, CAPNG_EFFECTIVE);

		fprintf(stderr, "nsaudit: dropped capabilities; keeping only: %s\n",
			left ? left : "?");
		free(left);
	}
	return 0;
}
