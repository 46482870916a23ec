// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * libFuzzer: hostile bytes as comm and path must always give one line of
 * valid JSON that parses back, and a text line without a raw newline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enrich.h"
#include "event_json.h"
#include "mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { 0 };
	struct json_object *o, *back;
	char mnt[256], *buf = NULL, *line;
	size_t n = 0, half = size / 2;
	uint32_t inum;
	int type;
	FILE *f;

	e.op = NSAUDIT_OP_OPEN;
	e.ns_type = NSAUDIT_NS_NET;
	e.fd = 3;
	memcpy(e.comm, data, half < sizeof(e.comm) - 1 ? half : sizeof(e.comm) - 1);
	memcpy(e.path, data + half,
	       size - half < sizeof(e.path) - 1 ? size - half : sizeof(e.path) - 1);
	o = event_to_json(&e, &x);
	line = strdup(record_to_json_line(o));
	if (strchr(line, '\n'))
		abort();
	back = json_tokener_parse(line);
	if (!back)
		abort();
	json_object_put(back);
	f = open_memstream(&buf, &n);
	record_print_text(f, o, true);
	fclose(f);
	if (strchr(buf, '\n') != buf + n - 1)
		abort();
	free(buf);
	free(line);
	json_object_put(o);

	/* and the same bytes as a mountinfo line */
	line = malloc(size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum);
	proc_ns_path_pid(line, 1);
	free(line);
	return 0;
}
