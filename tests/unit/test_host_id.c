// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* host_id: the device type as the host says it, and only for its records. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/host_id.h"

static struct host_id load_with_machine_info(const char *text)
{
	char path[] = "/tmp/nsaudit-mi-XXXXXX";
	struct host_id h;
	const char *why;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	setenv("NSAUDIT_MACHINE_INFO_FILE", path, 1);
	host_id_load(&h, &why);
	unsetenv("NSAUDIT_MACHINE_INFO_FILE");
	unlink(path);
	return h;
}

Test(host_id, chassis_from_machine_info)
{
	struct host_id h = load_with_machine_info("PRETTY_HOSTNAME=x\nCHASSIS=\"laptop\"\n");

	cr_assert_eq(h.type_id, 3);
	cr_assert_str_eq(h.type, "Laptop");
	cr_assert_str_eq(h.type_from, "machine-info");
	h = load_with_machine_info("CHASSIS=vm\n");
	cr_assert_eq(h.type_id, 6);
	h = load_with_machine_info("CHASSIS=container\n");
	cr_assert_eq(h.type_id, 99);
	cr_assert_str_eq(h.type, "Other");
}

/* a CHASSIS nobody defined is not taken: what the CPU or firmware says is */
Test(host_id, unknown_chassis_falls_through)
{
	struct host_id h = load_with_machine_info("CHASSIS=toaster\n");

	cr_assert(!h.type_from || strcmp(h.type_from, "machine-info"));
	cr_assert(h.type_id >= 0 && h.type_id <= 7);
	cr_assert_str_eq(h.type, h.type_id ? h.type : "Unknown");
}

Test(host_id, local_only_for_its_own_machine_id)
{
	struct host_id h = { .machine_id = "0123456789abcdef0123456789abcdef" };

	cr_assert(host_id_is_local(&h, "0123456789abcdef0123456789abcdef"));
	cr_assert_not(host_id_is_local(&h, "fedcba9876543210fedcba9876543210"));
	cr_assert_not(host_id_is_local(&h, NULL));
	h.machine_id[0] = '\0';
	cr_assert_not(host_id_is_local(&h, ""));
}
