// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit-writer.c - drive the audit log writer (audit/log.h) without the
 * tracer, for the integration tests of verify, search and keygen:
 *
 *   audit-writer --log-dir DIR [record options] [-n N] [--comm-hex HEX]
 *                [--crash] [--lost N] [--sleep-ms MS]
 *
 * writes N setns events (pid 10000+i, comm "ip" or the bytes of HEX), then
 * closes the log cleanly, or just exits with --crash. --sleep-ms waits
 * between events and runs the sealing timer (audit_log_tick) as the
 * recorder does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "codec.h"
#include "log.h"

int main(int argc, char **argv)
{
	char err[512], comm[256] = "ip";
	size_t comm_len = 2;
	long n = 10, lost = 0, k, sleep_ms = 0;
	bool crash = false;
	struct audit_log_opts o;
	struct audit_log *l;
	int i, used;

	audit_log_opts_init(&o);
	for (i = 1; i < argc; i += used) {
		used = 1;
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			n = atol(argv[i + 1]);
			used = 2;
		} else if (!strcmp(argv[i], "--lost") && i + 1 < argc) {
			lost = atol(argv[i + 1]);
			used = 2;
		} else if (!strcmp(argv[i], "--sleep-ms") && i + 1 < argc) {
			sleep_ms = atol(argv[i + 1]);
			used = 2;
		} else if (!strcmp(argv[i], "--crash")) {
			crash = true;
		} else if (!strcmp(argv[i], "--comm-hex") && i + 1 < argc) {
			const char *h = argv[i + 1];

			for (comm_len = 0;
			     h[2 * comm_len] && h[2 * comm_len + 1] && comm_len < sizeof(comm);
			     comm_len++)
				sscanf(h + 2 * comm_len, "%2hhx", (unsigned char *)&comm[comm_len]);
			used = 2;
		} else if (audit_log_parse_opt(&o, argc - i, argv + i, &used, err, sizeof(err)) !=
			   1) {
			fprintf(stderr, "audit-writer: bad option %s %s\n", argv[i], err);
			return 2;
		}
	}
	l = audit_log_open(&o, err, sizeof(err));
	if (!l) {
		fprintf(stderr, "audit-writer: %s\n", err);
		return 1;
	}
	for (k = 0; k < n; k++) {
		struct json_object *r = json_object_new_object();
		char now[40];

		audit_time_now(now);
		json_object_object_add(r, "time", json_object_new_string(now));
		json_object_object_add(r, "op", json_object_new_string("setns"));
		json_object_object_add(r, "result", json_object_new_int(0));
		json_object_object_add(r, "ns_type", json_object_new_string("net"));
		json_object_object_add(r, "ns_inum", json_object_new_int64(4026532289LL));
		json_object_object_add(r, "old_inum", json_object_new_int64(4026531840LL));
		json_object_object_add(r, "pid", json_object_new_int64(10000 + k));
		json_object_object_add(r, "uid", json_object_new_int(0));
		json_object_object_add(r, "comm", json_object_new_string_len(comm, (int)comm_len));
		json_object_object_add(r, "exe", json_object_new_string("/usr/bin/ip"));
		if (audit_log_append(l, r)) {
			fprintf(stderr, "audit-writer: %s\n", audit_log_error(l));
			return 1;
		}
		json_object_put(r);
		if (sleep_ms) {
			usleep((useconds_t)sleep_ms * 1000);
			audit_log_tick(l);
			audit_log_flush(l);
		}
		if (k % 100 == 99)
			audit_log_flush(l);
	}
	if (lost) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "op", json_object_new_string("lost"));
		json_object_object_add(r, "count", json_object_new_uint64((uint64_t)lost));
		json_object_object_add(r, "why", json_object_new_string("ring buffer full"));
		if (audit_log_append(l, r))
			return 1;
		json_object_put(r);
	}
	audit_log_flush(l);
	if (crash)
		return 0;
	return audit_log_close(l) ? 1 : 0;
}
