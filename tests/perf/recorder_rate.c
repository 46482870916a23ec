// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * recorder_rate - how many records per second the recorder's user-space
 * half can write, without the kernel side: N synthetic setns records go
 * through what tracer.c does per record (enrichment, names) and then the
 * real formatter, log append, chained MAC and writes, into a log on disk.
 *
 *   recorder_rate [-n N] [-b BATCH] [-d DIR] [-f json|audit] [-s none|batch]
 *                 [-p fields|object|trace] [-r] [-a] [-m MAXSIZE] [-k KEEP] [-P]
 *
 * -b: records per drained batch (audit_log_flush after each, as the
 * recorder does after each drain of the ring; the default is what one
 * drain holds at most); records are committed (written) every 256, as the
 * recorder commits each chunk it reads. -p fields: what "nsaudit record"
 * does, formatted straight into the log's batch (audit_log_append_fields);
 * object: a json-c object per record through audit_log_append (the way
 * every record went before, and still the log's own records do); trace:
 * "nsaudit trace --format json" into a file in DIR. -r: the detection
 * rules (nsaudit/rules/) evaluate every record, as they do by default in
 * trace and record (the bench's rules_ns_per_record is the difference
 * between runs with and without). Prints one key=value
 * line: records, wall and CPU seconds, records/s (wall) and CPU ns per
 * record. -a appends to the log in DIR instead of starting it anew, -m and
 * -k are record's --max-size and --keep: the bench builds a log of many
 * segments and weeks (under faketime) with them, to time search over it.
 *
 * -P: where a record's CPU goes, each part apart (the bench's recorder_*_ns
 * rows): after the run, the same records again in passes that each stop
 * one step further -- the synthetic record alone (synth: the harness's own
 * cost), + enrichment (the look-ups tracer_drain.c does: exe, cgroup,
 * names, clock, and the attribution to containers), + formatting (the
 * line, without a MAC), + the chained MAC (the log's own kind, with its
 * key), over a quarter of the records, each pass three times (the least
 * counts). Each part is the CPU of its pass minus the one before; "write"
 * is the run's CPU per record minus the MAC pass (the batch, the log's
 * bookkeeping, write(2)) and minus the rules. What the real recorder does
 * besides (reading the rings, the drain loop, the group fsync) is the
 * bench's recorder_part_drain_ns: its CPU per record less this total.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chain.h"
#include "enrich/enrich.h"
#include "output/event_json.h"
#include "codec.h"
#include "fields.h"
#include "log.h"
#include "enrich/nsnames.h"
#include "rules/rules.h"
#include "tracer/attribution.h"

/* an alert goes into the log like any record (none for these records) */
static struct audit_log *alert_log;
static uint64_t alerts;

static int append_alert(void *ctx, const struct rule_alert *a, const struct nsaudit_event *e)
{
	struct event_extra x = { .alert = a };
	struct enriched_event r = { e, &x };

	alerts++;
	return audit_log_append_fields(alert_log, 0, record_fields_of, &r);
}

static int64_t ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void synth(struct nsaudit_event *e, uint64_t i);

/*
 * The rules' own CPU per record, apart from the rest (the machine is
 * shared: the difference of two whole runs is mostly noise): the same
 * records enriched twice, once evaluated, once not; CPU time of each.
 */
static int64_t rules_cpu_ns(struct rules *rules, struct enrich *en, struct nsnames *names,
			    uint64_t n)
{
	int64_t t[2] = { 0, 0 }, c;
	uint64_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		c = ns_of(CLOCK_PROCESS_CPUTIME_ID);
		for (i = 0; i < n; i++) {
			struct nsaudit_event e;
			struct event_extra x = { 0 };

			synth(&e, i);
			enrich_complete(en, &e);
			x.seq = i + 1;
			x.cgroup = enrich_cgroup(en, e.pid, e.comm, e.cgroup_id);
			nsnames_for_event(names, &e, x.cgroup, &x.ns_name, &x.old_name);
			if (pass)
				rules_eval(rules, &e, &x, x.seq, append_alert, NULL);
		}
		t[pass] = ns_of(CLOCK_PROCESS_CPUTIME_ID) - c;
	}
	return t[1] > t[0] ? t[1] - t[0] : 0;
}

/* A setns record as the bench's driver makes them, of this process. */
static uint32_t self, parent, netns;

static void synth(struct nsaudit_event *e, uint64_t i)
{
	memset(e, 0, sizeof(*e)); /* as tracer_drain.c's process_event() */
	e->ts_boot_ns = (uint64_t)ns_of(CLOCK_BOOTTIME);
	e->op = NSAUDIT_OP_SETNS;
	e->ns_type = NSAUDIT_NS_NET;
	e->ns_inum = e->old_inum = netns; /* setns into its own: what bench/driver does */
	e->ns_id = e->old_ns_id = 3;
	e->flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_HAS_OLD;
	e->pid = e->tid = self;
	e->ppid = parent;
	e->auid = 4294967295u;
	e->fd = 3;
	e->via = NSAUDIT_VIA_PROC;
	e->probe = NSAUDIT_PROBE_TP_SYSCALLS;
	e->kseq = i + 1;
	e->ns_refs = 5;
	e->cgroup_id = 1;
	strcpy(e->comm, "nsbench");
	e->path[0] = '\0';
}

/* What tracer_drain.c's process_event() does for a record before
 * formatting it: the look-ups (exe, cgroup, names, clock) and the
 * attribution (the record's container, the target's, the actor's). */
static bool enrich_one(struct enrich *en, struct nsnames *names, struct nsaudit_event *e,
		       struct event_extra *x, uint64_t i)
{
	const struct container_info *ci;

	if (!enrich_complete(en, e))
		return false;
	x->seq = i + 1;
	x->realtime_ns = enrich_realtime(en, e->ts_boot_ns);
	x->exe = enrich_exe(en, e, &x->exe_mntns, &x->exe_mntns_id, &x->exe_cut);
	x->cgroup = enrich_cgroup(en, e->pid, e->comm, e->cgroup_id);
	nsnames_for_event(names, e, x->cgroup, &x->ns_name, &x->old_name);
	x->unresolved = enrich_unresolved(en, e, x->exe, x->cgroup);
	/* as stream_record_container() */
	ci = nsnames_container(names);
	if (ci) {
		x->container = ci->id;
		x->container_name = ci->name[0] ? ci->name : NULL;
		attribution_pod(ci, x);
	}
	attribution_target(names, e, x);
	attribution_actor(names, e, x);
	return true;
}

/*
 * -P: the CPU ns per record of each pass, cumulative steps (see the top):
 * out[0] synth, [1] + enrich, [2] + format, [3] + MAC.
 */
static int parts_cpu_ns(struct enrich *en, struct nsnames *names, enum audit_format fmt,
			uint64_t n, double out[4])
{
	static const uint8_t key[AUDIT_KEY_LEN] = { 48 };
	uint8_t prev[AUDIT_MAC_LEN] = { 0 }, mac[AUDIT_MAC_LEN];
	struct audit_chain chain;
	struct sbuf b = { 0 };
	int step;

	audit_chain_init(&chain, audit_mac_kind(AUDIT_LOG_VERSION), key, NULL);
	/* each step three times, the least of them: on a shared machine a
	 * pass now and then takes twice as long (other tenants, caches) */
	for (step = 0; step < 4 * 3; step++) {
		int64_t c = ns_of(CLOCK_PROCESS_CPUTIME_ID);
		double ns;
		uint64_t i;

		for (i = 0; i < n; i++) {
			struct nsaudit_event e;
			struct event_extra x = { 0 };
			struct enriched_event r = { &e, &x };
			struct audit_fields f;
			size_t start;

			synth(&e, i);
			if (step % 4 >= 1 && !enrich_one(en, names, &e, &x, i))
				return -1;
			if (step % 4 < 2)
				continue;
			if (!(i % 256)) /* as the log's batch: written every 256 */
				b.len = 0;
			start = b.len;
			audit_line_begin(&b, fmt, i + 1, x.realtime_ns);
			audit_fields_line(&f, &b, fmt);
			record_fields_of(&f, &r);
			if (step % 4 == 2)
				audit_line_close(&b);
			else if (audit_line_end_chain(&b, start, fmt, &chain, i + 1, prev, mac))
				return -1;
			else
				memcpy(prev, mac, sizeof(prev));
		}
		ns = (double)(ns_of(CLOCK_PROCESS_CPUTIME_ID) - c) / n;
		if (step < 4 || ns < out[step % 4])
			out[step % 4] = ns;
	}
	audit_chain_wipe(&chain);
	sb_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	struct audit_log_opts lo;
	const char *dir = "/tmp/recorder_rate", *path = "fields";
	uint64_t n = 1000000, batch = 64 * 256, i;
	struct sbuf line = { 0 };
	struct enrich *en = enrich_new();
	struct nsnames *names = nsnames_new();
	struct audit_log *l;
	struct rules *rules = NULL;
	FILE *trace = NULL;
	char err[512], cmd[600];
	int64_t w0, c0, w1, c1, rules_ns = 0;
	bool append = false, parts = false;
	double part[4] = { 0 };
	int c;

	audit_log_opts_init(&lo);
	lo.sync = AUDIT_SYNC_BATCH;
	while ((c = getopt(argc, argv, "n:b:d:f:s:p:ram:k:P")) != -1) {
		switch (c) {
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'b': batch = strtoull(optarg, NULL, 10); break;
		case 'd': dir = optarg; break;
		case 'f': lo.format = strcmp(optarg, "audit") ? AUDIT_FMT_JSON : AUDIT_FMT_AUDIT; break;
		case 's': lo.sync = strcmp(optarg, "none") ? AUDIT_SYNC_BATCH : AUDIT_SYNC_NONE; break;
		case 'p': path = optarg; break;
		case 'r': rules = rules_new(); break;
		case 'a': append = true; break;
		case 'm': lo.max_size = strtoull(optarg, NULL, 10); break;
		case 'k': lo.keep = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'P': parts = true; break;
		default:
			fprintf(stderr, "usage: recorder_rate [-n N] [-b BATCH] [-d DIR] "
				"[-f json|audit] [-s none|batch] [-p fields|object|trace] [-r] "
				"[-a] [-m MAXSIZE] [-k KEEP] [-P]\n");
			return 2;
		}
	}
	if (!en || !names || !batch)
		return 1;
	self = (uint32_t)getpid();
	parent = (uint32_t)getppid();
	{
		struct stat st;

		netns = stat("/proc/self/ns/net", &st) ? 4026531840u : (uint32_t)st.st_ino;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!append && system(cmd))
		return 1;
	lo.dir = dir;
	l = audit_log_open(&lo, err, sizeof(err));
	if (!l) {
		fprintf(stderr, "recorder_rate: %s\n", err);
		return 1;
	}
	alert_log = l;
	if (rules)
		rules_set_names(rules, names);
	if (!strcmp(path, "trace")) {
		snprintf(cmd, sizeof(cmd), "%s/trace.json", dir);
		trace = fopen(cmd, "w");
		if (!trace)
			return 1;
	}
	w0 = ns_of(CLOCK_MONOTONIC);
	c0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		struct nsaudit_event e;
		struct event_extra x = { 0 };
		struct json_object *rec;

		synth(&e, i);
		/* what tracer.c's handle_event does per record */
		if (!enrich_one(en, names, &e, &x, i))
			return 1;
		if (trace) {
			line.len = 0;
			record_json_line(&line, &e, &x);
			fwrite(line.p, 1, line.len, trace);
		} else if (!strcmp(path, "object")) {
			rec = event_to_json(&e, &x);
			if (audit_log_append(l, rec) < 0) {
				fprintf(stderr, "recorder_rate: %s\n", audit_log_error(l));
				return 1;
			}
			json_object_put(rec);
		} else {
			struct enriched_event r = { &e, &x };

			if (audit_log_append_fields(l, x.realtime_ns, record_fields_of, &r) < 0 ||
			    ((i + 1) % 256 == 0 && audit_log_commit(l) < 0)) {
				fprintf(stderr, "recorder_rate: %s\n", audit_log_error(l));
				return 1;
			}
		}
		if (rules && rules_eval(rules, &e, &x, x.seq, append_alert, NULL) < 0)
			return 1;
		if ((i + 1) % batch == 0) {
			if (trace)
				fflush(trace);
			else if (audit_log_flush(l) < 0)
				return 1;
		}
	}
	if (trace)
		fclose(trace);
	audit_log_flush(l);
	w1 = ns_of(CLOCK_MONOTONIC);
	c1 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	if (rules)
		rules_ns = rules_cpu_ns(rules, en, names, n);
	if (parts && parts_cpu_ns(en, names, lo.format, n / 4 ? n / 4 : 1, part))
		return 1;
	audit_log_close(l);
	printf("path=%s rules=%s alerts=%llu format=%s sync=%s batch=%llu records=%llu wall_s=%.3f "
	       "cpu_s=%.3f records_per_s=%.0f cpu_ns_per_record=%.0f rules_ns_per_record=%.0f",
	       path, rules ? "on" : "off", (unsigned long long)alerts, lo.format == AUDIT_FMT_AUDIT ? "audit" : "json",
	       lo.sync == AUDIT_SYNC_NONE ? "none" : "batch", (unsigned long long)batch,
	       (unsigned long long)n, (w1 - w0) / 1e9, (c1 - c0) / 1e9, n * 1e9 / (w1 - w0),
	       (double)(c1 - c0) / n, (double)rules_ns / n);
	if (parts) /* each step's own CPU, the run's rest as "write" */
		printf(" part_synth_ns=%.0f part_enrich_ns=%.0f part_format_ns=%.0f part_mac_ns=%.0f "
		       "part_write_ns=%.0f",
		       part[0], part[1] - part[0], part[2] - part[1], part[3] - part[2],
		       (double)(c1 - c0) / n - part[3] - (double)rules_ns / n);
	putchar('\n');
	enrich_free(en);
	rules_free(rules);
	nsnames_free(names);
	sb_free(&line);
	return 0;
}
