// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* mountinfo.c - /proc/PID/mountinfo lines (see mountinfo.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"
#include "nstype.h"

/* Copy one space-separated mountinfo field, decoding \NNN octal escapes. */
static const char *field(const char *s, char *out, size_t outlen)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 < outlen)
			out[n++] = c;
	}
	if (outlen)
		out[n] = '\0';
	return s;
}

int mountinfo_parse_line(const char *line, struct mountinfo_line *out)
{
	char tmp[64], *end;
	const char *s = line;
	unsigned long id;
	int i;

	memset(out, 0, sizeof(*out));
	s = field(s, tmp, sizeof(tmp));
	errno = 0;
	id = strtoul(tmp, &end, 10);
	if (!tmp[0] || *end || errno || id > UINT32_MAX)
		return -1;
	out->mount_id = (uint32_t)id;
	s = field(s, tmp, sizeof(tmp)); /* parent id */
	s = field(s, tmp, sizeof(tmp)); /* major:minor */
	if (!strchr(tmp, ':'))
		return -1;
	s = field(s, out->root, sizeof(out->root));
	s = field(s, out->path, sizeof(out->path));
	if (!out->root[0] || out->path[0] != '/')
		return -1;
	/* mount options, then optional fields up to the "-" separator */
	for (i = 0;; i++) {
		s = field(s, tmp, sizeof(tmp));
		if (!tmp[0])
			return -1;
		if (i > 0 && !strcmp(tmp, "-"))
			break;
	}
	field(s, out->fstype, sizeof(out->fstype));
	return out->fstype[0] ? 0 : -1;
}

int nsfs_root_parse(const char *root, int *type, uint32_t *inum)
{
	char name[32], *end;
	const char *colon = strchr(root, ':');
	unsigned long v;
	size_t n;

	if (!colon || (size_t)(colon - root) >= sizeof(name) || colon[1] != '[')
		return -1;
	memcpy(name, root, colon - root);
	name[colon - root] = '\0';
	*type = nstype_from_name(name);
	if (*type < 0)
		return -1;
	errno = 0;
	v = strtoul(colon + 2, &end, 10);
	n = strlen(root);
	if (errno || end == colon + 2 || end != root + n - 1 || *end != ']' || !v || v > UINT32_MAX)
		return -1;
	*inum = (uint32_t)v;
	return 0;
}

bool mountinfo_nsfs_line(const char *line, char *mnt, size_t mntlen, int *type, uint32_t *inum)
{
	struct mountinfo_line ml;

	if (mountinfo_parse_line(line, &ml) || strcmp(ml.fstype, "nsfs") ||
	    nsfs_root_parse(ml.root, type, inum))
		return false;
	snprintf(mnt, mntlen, "%s", ml.path);
	return true;
}
