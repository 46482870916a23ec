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
#define CHASSIS_TYPE_PATH "/sys/class/dmi/id/chassis_type"

const char *host_id_machine_id_path(void)
{
	const char *p = getenv("NSAUDIT_MACHINE_ID_FILE");

	return p && *p == '/' ? p : "/etc/machine-id";
}

const char *host_id_machine_info_path(void)
{
	const char *p = getenv("NSAUDIT_MACHINE_INFO_FILE");

	return p && *p == '/' ? p : "/etc/machine-info";
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

/* KEY=value (value unquoted) from an os-release style file; false if absent. */
static bool env_value(const char *path, const char *key, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[256], *v;
	size_t kl = strlen(key), n;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) || line[kl] != '=')
			continue;
		v = line + kl + 1;
		v[strcspn(v, "\n")] = '\0';
		n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		snprintf(out, len, "%s", v);
		found = true;
	}
	fclose(f);
	return found;
}

/* The CPU says it runs under a hypervisor (x86's "hypervisor" flag). */
static bool cpu_virtual(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL;
	size_t len = 0;
	bool virt = false, seen = false;

	if (!f)
		return false;
	while (!seen && getline(&line, &len, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		seen = true;	/* the first CPU's flags say it for all */
		virt = strstr(line, " hypervisor") != NULL;
	}
	free(line);
	fclose(f);
	return virt;
}

static const char *const type_names[] = { "Unknown", "Server", "Desktop", "Laptop",
					  "Tablet", "Mobile", "Virtual", "IOT" };

static void set_type(struct host_id *h, int id, const char *from)
{
	h->type_id = id;
	h->type = id == 99 ? "Other" : type_names[id];
	h->type_from = from;
}

/* systemd's CHASSIS names (machine-info(5)) as OCSF device types */
static int chassis_type(const char *c)
{
	static const struct { const char *name; int id; } map[] = {
		{ "server", 1 }, { "desktop", 2 }, { "laptop", 3 }, { "convertible", 3 },
		{ "tablet", 4 }, { "handset", 5 }, { "vm", 6 }, { "embedded", 7 },
		{ "container", 99 }, { "watch", 99 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(c, map[i].name))
			return map[i].id;
	return 0;
}

/* SMBIOS chassis types (DSP0134 7.4.1) as OCSF device types */
static int smbios_type(int t)
{
	switch (t) {
	case 3: case 4: case 5: case 6: case 7: case 13: case 15: case 16: case 24: case 35:
	case 36:
		return 2;	/* desktops, towers, all-in-one, mini and stick PCs */
	case 8: case 9: case 10: case 14: case 31: case 32:
		return 3;	/* portable, laptop, notebook, convertible */
	case 17: case 23: case 25: case 28: case 29:
		return 1;	/* server chassis, rack mount, multi-system, blade */
	case 30:
		return 4;
	case 11:
		return 5;	/* hand held */
	case 33: case 34:
		return 7;	/* IoT gateway, embedded PC */
	default:
		return 0;	/* "Other", "Unknown", parts of a chassis */
	}
}

static void device_kind(struct host_id *h)
{
	char buf[64];
	int t;

	if (env_value(host_id_machine_info_path(), "CHASSIS", buf, sizeof(buf)) &&
	    chassis_type(buf)) {
		set_type(h, chassis_type(buf), "machine-info");
		return;
	}
	if (cpu_virtual()) {
		set_type(h, 6, "cpu");
		return;
	}
	if (first_line(CHASSIS_TYPE_PATH, buf, sizeof(buf))) {
		t = smbios_type(atoi(buf));
		if (t) {
			set_type(h, t, "dmi");
			return;
		}
	}
	set_type(h, 0, NULL);
}

int host_id_is_local(const struct host_id *h, const char *rec_machine_id)
{
	return h && rec_machine_id && h->machine_id[0] && !strcmp(h->machine_id, rec_machine_id);
}

void host_id_load(struct host_id *h, const char **why)
{
	struct utsname u;
	char buf[64];

	*why = NULL;
	memset(h, 0, sizeof(*h));
	if (!uname(&u)) {
		snprintf(h->name, sizeof(h->name), "%s", u.nodename);
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	device_kind(h);
	if (!env_value("/etc/os-release", "NAME", h->os_name, sizeof(h->os_name)))
		env_value("/usr/lib/os-release", "NAME", h->os_name, sizeof(h->os_name));
	if (!env_value("/etc/os-release", "VERSION_ID", h->os_version, sizeof(h->os_version)))
		env_value("/usr/lib/os-release", "VERSION_ID", h->os_version,
			  sizeof(h->os_version));
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
