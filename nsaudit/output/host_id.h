/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * host_id.h - which machine, and which boot of it, a record comes from:
 * the host name, systemd's machine id (/etc/machine-id) and the kernel's
 * boot id. A fleet's records never mix: two hosts may share a name, never
 * a machine id, and a boot id tells a reboot (kernel sequence numbers and
 * boot-time clocks start again) from a gap.
 *
 * Read once when a command starts (host_id_load) and written into every
 * record by record_fields() once record_set_host() was called: three
 * strings copied per record, no system call.
 */
#ifndef NSAUDIT_OUTPUT_HOST_ID_H
#define NSAUDIT_OUTPUT_HOST_ID_H

#include <stddef.h>

#define HOST_NAME_LEN 256
#define HOST_MACHINE_ID_LEN 33	/* 32 lowercase hex digits */
#define HOST_BOOT_ID_LEN 37	/* 8-4-4-4-12 UUID */

struct host_id {
	char name[HOST_NAME_LEN];		/* uname's nodename */
	char machine_id[HOST_MACHINE_ID_LEN];	/* "" when the host has none */
	char boot_id[HOST_BOOT_ID_LEN];		/* "" when unreadable */
	/* What kind of machine, as the host says (OCSF device.type_id): the
	 * administrator's CHASSIS= in /etc/machine-info, else the CPU's
	 * "hypervisor" flag (a virtual machine), else the firmware's SMBIOS
	 * chassis type; 0 "Unknown" when none says. type_from names which. */
	int type_id;
	const char *type, *type_from;
	/* /etc/os-release (else /usr/lib/os-release) NAME and VERSION_ID,
	 * "" when absent; the kernel's release (uname -r) */
	char os_name[64], os_version[32], kernel[65];
};

/*
 * Fill h from this host. A machine id that is absent or not 32 hex digits
 * is left empty (never invented: the field is then absent); so is a boot
 * id that is not a UUID. Always succeeds; what was missing is said in
 * *why (a static string) or *why is NULL.
 */
void host_id_load(struct host_id *h, const char **why);

/* The machine-id file a test or container may point elsewhere
 * ($NSAUDIT_MACHINE_ID_FILE, else /etc/machine-id). */
const char *host_id_machine_id_path(void);
/* The same for machine-info ($NSAUDIT_MACHINE_INFO_FILE, else
 * /etc/machine-info). */
const char *host_id_machine_info_path(void);

/*
 * h describes the host this process runs on, and rec (a record's
 * machine_id, may be NULL) comes from it: only then may a record be given
 * h's device type and OS (a record read from another machine's log must
 * not borrow this one's).
 */
int host_id_is_local(const struct host_id *h, const char *rec_machine_id);

#endif
