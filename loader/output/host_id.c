// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* host_id.c - the host name, machine id and boot id, read once. */
#include <ctype.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host_id.h"

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

const char *host_id_machine_id_path(void)
{
	const char *p = getenv("NSAUDIT_MACHINE_ID_FILE");

	return p && *p == '/' ? p : "/etc/machine-id";
}

/* The first line of path, at most len - 1 bytes, without its newline. */
static size_t first_line(const char *path, char *out, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	out[0] = '\0';
	if (fd < 0)
		return 0;
	n = read(fd, out, len - 1);
	close(fd);
	if (n <= 0)
		return 0;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return strlen(out);
}

/* s has shape's form: a hex digit per 'x', and '-' where shape has one. */
static bool shaped(const char *s, const char *shape)
{
	for (; *shape; s++, shape++) {
		if (*shape == '-' ? *s != '-' : !isxdigit((unsigned char)*s))
			return false;
	}
	return *s == '\0';
}

void host_id_load(struct host_id *h, const char **why)
{
	struct utsname u;
	char buf[64];

	*why = NULL;
	memset(h, 0, sizeof(*h));
	if (!uname(&u))
		snprintf(h->name, sizeof(h->name), "%s", u.nodename);
	if (first_line(host_id_machine_id_path(), buf, sizeof(buf)) &&
	    shaped(buf, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
		memcpy(h->machine_id, buf, HOST_MACHINE_ID_LEN);
	else
		*why = "no machine id (/etc/machine-id missing or not 32 hex digits)";
	if (first_line(BOOT_ID_PATH, buf, sizeof(buf)) &&
	    shaped(buf, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"))
		memcpy(h->boot_id, buf, HOST_BOOT_ID_LEN);
	else
		*why = "no boot id (" BOOT_ID_PATH " unreadable)";
}
