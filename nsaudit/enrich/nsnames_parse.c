// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsnames_parse.c - the parsers of what names come from: a /proc ns link
 * ("net:[4026531833]"), an ip netns path, and a container id in a cgroup
 * path or a /proc/PID/cgroup file (docker, podman, containerd, CRI-O,
 * kubepods, LXC). No state: nsnames_scan.c and nsnames.c call them.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsnames_impl.h"
#include "nstype.h"
#include "clock.h"
#include "enrich.h"
#include "mountinfo.h"
#include "array.h"

/* --- parsers ------------------------------------------------------------ */

bool ns_link_parse(const char *link, int *type, uint32_t *inum)
{
	char tname[24], *end;
	const char *lb = strchr(link, ':');
	unsigned long v;

	if (!lb || lb - link >= (long)sizeof(tname) || lb[1] != '[')
		return false;
	memcpy(tname, link, lb - link);
	tname[lb - link] = '\0';
	/* pid_for_children and time_for_children name the same types */
	if ((end = strstr(tname, "_for_children")))
		*end = '\0';
	errno = 0;
	v = strtoul(lb + 2, &end, 10);
	if (errno || end == lb + 2 || strcmp(end, "]") || v == 0 || v > UINT32_MAX)
		return false;
	*type = nstype_from_name(tname);
	*inum = (uint32_t)v;
	return *type >= 0;
}

const char *netns_name_from_path(const char *path)
{
	const char *name;

	if (strncmp(path, NETNS_DIR "/", sizeof(NETNS_DIR)))
		return NULL;
	name = path + sizeof(NETNS_DIR);
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return NULL;
	return name;
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool component_id(const char *c, size_t n, char *id, size_t len)
{
	static const char *const prefixes[] = { "docker-", "libpod-", "cri-containerd-", "crio-" };
	static const char *const not_containers[] = { "libpod-conmon-", "crio-conmon-" };
	const char *rest;
	size_t i, pl, rn;

	if (n > 6 && !memcmp(c + n - 6, ".scope", 6))
		n -= 6;
	for (i = 0; i < ARRAY_SIZE(not_containers); i++)
		if (n >= strlen(not_containers[i]) &&
		    !memcmp(c, not_containers[i], strlen(not_containers[i])))
			return false;
	rest = NULL;
	rn = 0;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		pl = strlen(prefixes[i]);
		if (n > pl && !memcmp(c, prefixes[i], pl)) {
			rest = c + pl;
			rn = n - pl;
			if (rn < 12 || rn > 64 || !all_hex(rest, rn))
				rest = NULL;
			break;
		}
	}
	if (!rest && n == 64 && all_hex(c, 64)) {	/* cgroupfs drivers */
		rest = c;
		rn = 64;
	}
	if (!rest && n > 12 && !memcmp(c, "lxc.payload.", 12)) {
		rest = c + 12;
		rn = n - 12;
	}
	if (!rest || rn + 1 > len)
		return false;
	memcpy(id, rest, rn);
	id[rn] = '\0';
	return true;
}

/* the component before start (its parent directory) is name */
static bool parent_is(const char *path, const char *start, const char *name)
{
	size_t n = strlen(name);

	return start - path >= (ptrdiff_t)n + 1 && !memcmp(start - n - 1, name, n) &&
	       (start - n - 1 == path || start[-n - 2] == '/');
}

/*
 * podman's cgroupfs layout: /libpod_parent/POD/libpod-ID for a pod's
 * container, /libpod_parent/POD/conmon for the pod's conmon processes and
 * the runtimes they run (on the host, in no container). A pod's id is no
 * container's and conmon's cgroup names none.
 */
bool cgroup_container_id(const char *cgpath, char *id, size_t len)
{
	const char *end = cgpath + strlen(cgpath), *start, *last;
	bool pod, conmon = false;

	while (end > cgpath && (end[-1] == '\n' || end[-1] == '/'))
		end--;
	last = end;
	while (end > cgpath) {
		start = end;
		while (start > cgpath && start[-1] != '/')
			start--;
		pod = end - start == 64 && all_hex(start, 64) &&
		      parent_is(cgpath, start, "libpod_parent");
		if (pod && conmon)
			return false;
		if (end > start && !pod && component_id(start, end - start, id, len))
			return true;
		conmon = end == last && end - start == 6 && !memcmp(start, "conmon", 6);
		end = start;
		while (end > cgpath && end[-1] == '/')
			end--;
	}
	return false;
}

bool cgroup_file_best_path(FILE *f, char *path, size_t len)
{
	char line[PATH_MAX + 64], id[CONTAINER_ID_LEN];
	bool v2 = false, v1 = false;
	const char *p;

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* "0::/path" (v2) or "N:controllers:/path" (v1) */
		p = strchr(line, ':');
		if (!p || !(p = strchr(p + 1, ':')))
			continue;
		p++;
		if (strlen(p) + 1 > len)
			continue;
		if (!strncmp(line, "0::", 3)) {
			if (cgroup_container_id(p, id, sizeof(id))) {
				strcpy(path, p);
				return true;
			}
			if (!v1) {
				strcpy(path, p);
				v2 = true;
			}
		} else if (!v1 && cgroup_container_id(p, id, sizeof(id))) {
			strcpy(path, p);
			v1 = true;
		}
	}
	return v1 || v2;
}

bool cgroup_file_container_id(FILE *f, char *id, size_t len)
{
	char path[PATH_MAX + 64];

	return cgroup_file_best_path(f, path, sizeof(path)) && cgroup_container_id(path, id, len);
}
