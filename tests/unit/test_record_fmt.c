// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_record_fmt.c - the direct formatter writes, byte for byte, what the
 * json-c formatter wrote (trace JSON, log JSON, log audit, MACs included),
 * and hostile bytes follow the one escaping policy of audit/README.md.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "codec.h"
#include "fields.h"
#include "record_corpus.h"
#include "output/host_id.h"
#include "output/record_fmt.h"
#include "record_fmt_golden.h"

/* Record i as a log line in fmt, chained on *prev (updated). */
static void log_line(struct sbuf *b, enum audit_format fmt, int i, uint8_t prev[AUDIT_MAC_LEN])
{
	struct nsaudit_event e;
	struct event_extra x;
	struct corpus_bufs bufs;
	struct audit_fields f;
	uint8_t mac[AUDIT_MAC_LEN];

	corpus_record(i, &e, &x, &bufs);
	b->len = 0;
	audit_line_begin(b, fmt, (uint64_t)i + 1, x.realtime_ns);
	audit_fields_line(&f, b, fmt);
	record_fields(&f, &e, &x);
	cr_assert_eq(audit_line_end(b, 0, fmt, golden_key, prev, mac), 0);
	memcpy(prev, mac, AUDIT_MAC_LEN);
}

Test(record_fmt, trace_json_lines_are_the_json_c_ones)
{
	struct sbuf b = { 0 };
	int i;

	for (i = 0; i < CORPUS_N; i++) {
		struct nsaudit_event e;
		struct event_extra x;
		struct corpus_bufs bufs;

		corpus_record(i, &e, &x, &bufs);
		b.len = 0;
		record_json_line(&b, &e, &x);
		cr_assert_str_eq(b.p, golden_trace[i], "record %d", i);
	}
	sb_free(&b);
}

Test(record_fmt, log_lines_are_the_json_c_ones_with_their_macs)
{
	enum audit_format fmts[2] = { AUDIT_FMT_JSON, AUDIT_FMT_AUDIT };
	const char *const *golden[2] = { golden_log_json, golden_log_audit };
	struct sbuf b = { 0 };
	int i, k;

	for (k = 0; k < 2; k++) {
		uint8_t prev[AUDIT_MAC_LEN] = { 0 };

		for (i = 0; i < CORPUS_N; i++) {
			log_line(&b, fmts[k], i, prev);
			cr_assert_str_eq(b.p, golden[k][i], "format %d, record %d", k, i);
		}
	}
	sb_free(&b);
}

/* The object form (sinks, text) encodes to the same lines as well. */
Test(record_fmt, object_form_encodes_to_the_same_lines)
{
	uint8_t prev[AUDIT_MAC_LEN] = { 0 }, mac[AUDIT_MAC_LEN];
	struct sbuf b = { 0 };
	int i;

	for (i = 0; i < CORPUS_N; i++) {
		struct nsaudit_event e;
		struct event_extra x;
		struct corpus_bufs bufs;
		struct audit_fields f;
		struct json_object *o = json_object_new_object();

		corpus_record(i, &e, &x, &bufs);
		json_object_object_add(o, "seq", json_object_new_uint64(x.seq));
		audit_fields_object(&f, o);
		record_fields(&f, &e, &x);
		cr_assert_eq(audit_encode(AUDIT_FMT_JSON, o, (uint64_t)i + 1, golden_key, prev, &b,
					  mac), 0);
		memcpy(prev, mac, sizeof(mac));
		cr_assert_str_eq(b.p, golden_log_json[i], "record %d", i);
		json_object_put(o);
	}
	sb_free(&b);
}

/* The comm of a record as trace prints it in JSON, and parsed back. */
static char *trace_comm(const char *comm, size_t n, struct sbuf *line)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { .seq = 1 };

	e.op = NSAUDIT_OP_UNSHARE;
	e.ns_type = NSAUDIT_NS_UTS;
	e.fd = -1;
	memcpy(e.comm, comm, n);
	line->len = 0;
	record_json_line(line, &e, &x);
	return strstr(line->p, "\"comm\":");
}

Test(record_fmt, hostile_comm_one_policy)
{
	static const struct {
		const char *in, *json;
	} cases[] = {
		{ "a\"b\nc\\d\x01\xff", "\"comm\":\"a\\\"b\\nc\\\\d\\u0001\\u00ff\"," },
		{ "bs\b ff\f", "\"comm\":\"bs\\u0008 ff\\u000c\"," },
		{ "del\x7f", "\"comm\":\"del\\u007f\"," },
		{ "\xc0\xaf", "\"comm\":\"\\u00c0\\u00af\"," },		/* overlong '/' */
		{ "\xed\xa0\x80", "\"comm\":\"\\u00ed\\u00a0\\u0080\"," }, /* surrogate */
		{ "caf\xc3\xa9", "\"comm\":\"caf\xc3\xa9\"," },		/* valid: kept */
		{ "cut\xe4\xb8", "\"comm\":\"cut\\u00e4\\u00b8\"," },	/* a cut sequence */
	};
	struct sbuf line = { 0 };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = trace_comm(cases[i].in, strlen(cases[i].in), &line);
		struct json_object *back;

		cr_assert_not_null(got);
		cr_assert_eq(strncmp(got, cases[i].json, strlen(cases[i].json)), 0,
			     "case %zu: %s", i, line.p);
		cr_assert_eq(memchr(line.p, '\n', line.len), line.p + line.len - 1, "one line");
		back = json_tokener_parse(line.p);
		cr_assert_not_null(back, "valid JSON: %s", line.p);
		cr_assert_null(json_object_object_get(back, "comm_hex"), "no second policy");
		json_object_put(back);
	}
	sb_free(&line);
}

/* A log line with hostile names gives back the exact bytes to nsaudit's reader. */
Test(record_fmt, hostile_names_round_trip_through_the_log)
{
	static const uint8_t zero[AUDIT_MAC_LEN];
	const char comm[] = "x\n{\"seq\":9}\xff", path[] = "/run/netns/\x01\xfe\"\\\n";
	enum audit_format fmts[2] = { AUDIT_FMT_JSON, AUDIT_FMT_AUDIT };
	int k;

	for (k = 0; k < 2; k++) {
		struct nsaudit_event e = { 0 };
		struct event_extra x = { .ns_name = "n\xc3\x28" };
		uint8_t mac[AUDIT_MAC_LEN];
		struct audit_fields f;
		struct sbuf b = { 0 };
		struct audit_rec r;
		const char *s;
		size_t n;
		char err[200];

		e.op = NSAUDIT_OP_MOUNT;
		e.ns_type = NSAUDIT_NS_NET;
		e.flags = NSAUDIT_F_HAS_NS;
		e.fd = -1;
		memcpy(e.comm, comm, sizeof(comm) - 1);
		memcpy(e.path, path, sizeof(path));
		audit_line_begin(&b, fmts[k], 5, 0);
		audit_fields_line(&f, &b, fmts[k]);
		record_fields(&f, &e, &x);
		cr_assert_eq(audit_line_end(&b, 0, fmts[k], golden_key, zero, mac), 0);
		cr_assert_eq(memchr(b.p, '\n', b.len), b.p + b.len - 1, "one line");
		cr_assert_eq(audit_rec_parse(b.p, b.len - 1, &r, err, sizeof(err)), 0, "%s", err);
		s = audit_rec_str(&r, "comm", &n);
		cr_assert(s && n == sizeof(comm) - 1 && !memcmp(s, comm, n), "comm: %s", b.p);
		s = audit_rec_str(&r, "path", &n);
		cr_assert(s && n == sizeof(path) - 1 && !memcmp(s, path, n), "path: %s", b.p);
		s = audit_rec_str(&r, "ns_name", &n);
		cr_assert(s && n == 3 && !memcmp(s, "n\xc3\x28", 3), "ns_name: %s", b.p);
		cr_assert_null(audit_rec_str(&r, "comm_hex", NULL));
		audit_rec_free(&r);
		sb_free(&b);
	}
}

/* With a host set, every record ends with it, in JSON, audit and objects
 * alike, and the log's parser reads it back as the same strings. */
Test(record_fmt, host_identity_ends_every_record)
{
	static const struct host_id h = {
		.name = "db-7", .machine_id = "0123456789abcdef0123456789abcdef",
		.boot_id = "01234567-89ab-cdef-0123-456789abcdef",
	};
	enum audit_format fmts[2] = { AUDIT_FMT_JSON, AUDIT_FMT_AUDIT };
	struct sbuf b = { 0 };
	int i, k;

	record_set_host(&h);
	for (k = 0; k < 2; k++) {
		uint8_t prev[AUDIT_MAC_LEN] = { 0 };

		for (i = 0; i < CORPUS_N; i++) {
			struct audit_rec r = { 0 };
			char err[128];
			size_t n;

			log_line(&b, fmts[k], i, prev);
			cr_assert_eq(audit_rec_parse(b.p, b.len - 1, &r, err, sizeof(err)), 0,
				     "format %d, record %d: %s", k, i, err);
			cr_assert_str_eq(audit_rec_str(&r, "host", &n), "db-7");
			cr_assert_str_eq(audit_rec_str(&r, "machine_id", &n), h.machine_id);
			cr_assert_str_eq(audit_rec_str(&r, "boot_id", &n), h.boot_id);
			audit_rec_free(&r);
		}
	}
	record_set_host(NULL);
	sb_free(&b);
}

/* exe_dev is "%u:%u" of the kernel's dev_t (major >> 20, minor & 0xfffff),
 * written without printf: the same bytes as printf for every shape. */
Test(record_fmt, exe_dev_as_printf_writes_it)
{
	static const uint32_t devs[] = { 0, 1, 0xfffff, 0x100000, (8u << 20) | 1,
					 (259u << 20) | 65535, 0xfff00000u, 0xffffffffu };
	size_t i;

	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		struct nsaudit_event e;
		struct event_extra x = { 0 };
		struct sbuf b = { 0 };
		char want[64];

		memset(&e, 0, sizeof(e));
		e.op = NSAUDIT_OP_SETNS;
		e.pid = e.tid = 42;
		e.exe_ino = 1234;
		e.exe_dev = devs[i];
		snprintf(want, sizeof(want), ",\"exe_dev\":\"%u:%u\",\"exe_ino\":1234,",
			 devs[i] >> 20, devs[i] & 0xfffff);
		record_json_line(&b, &e, &x);
		cr_assert(!b.oom);
		cr_assert(strstr(b.p, want), "dev %#x: want %s in %s", devs[i], want, b.p);
		sb_free(&b);
	}
}

/* Record e, x formatted in fmt into b (emptied first). */
static void fields_line(struct sbuf *b, enum audit_format fmt, const struct nsaudit_event *e,
			const struct event_extra *x)
{
	struct audit_fields f;

	b->len = 0;
	audit_line_begin(b, fmt, 1, x->realtime_ns);
	audit_fields_line(&f, b, fmt);
	record_fields(&f, e, x);
	cr_assert(!b->oom);
}

/*
 * The actor's span is kept from one record to the next (record_fmt.c):
 * whatever changes between two records, the second must come out as it
 * does afresh. Every corpus record is the first of a pair, the second the
 * same with one byte changed anywhere in the kernel's record, or in its
 * exe or cgroup string, or a string gone; both formats.
 */
Test(record_fmt, kept_actor_span_is_what_a_fresh_one_would_be)
{
	static struct corpus_bufs bufs, bufs2;
	unsigned int seed = 48;
	struct sbuf hot = { 0 }, cold = { 0 };
	int i, m, fmt, hits = 0;

	for (fmt = 0; fmt < 2; fmt++) {
		enum audit_format af = fmt ? AUDIT_FMT_AUDIT : AUDIT_FMT_JSON;

		for (i = 0; i < CORPUS_N; i++) {
			for (m = 0; m < 150; m++) {
				struct nsaudit_event e, e2;
				struct event_extra x, x2;
				unsigned int r = (unsigned int)rand_r(&seed);

				corpus_record(i, &e, &x, &bufs);
				if (r & 16) { /* every actor field there: ids print with an inode */
					e.exe_ino = e.exe_ino ?: 77, e.exe_dev = e.exe_dev ?: 0x800001;
					x.exe_mntns = x.exe_mntns ?: 4026531841u;
					x.exe_mntns_id = x.exe_mntns_id ?: 5;
					e.actor_mntns = e.actor_mntns ?: 4026531842u;
					e.actor_mntns_id = e.actor_mntns_id ?: 6;
					e.actor_pidns = e.actor_pidns ?: 4026531843u;
					e.actor_pidns_id = e.actor_pidns_id ?: 7;
					e.actor_userns = e.actor_userns ?: 4026531844u;
					e.actor_userns_id = e.actor_userns_id ?: 8;
					e.actor_cgroupns = e.actor_cgroupns ?: 4026531845u;
					e.actor_cgroupns_id = e.actor_cgroupns_id ?: 9;
				}
				e2 = e, x2 = x, bufs2 = bufs;
				/* x2's strings: the copies, so that changing them
				 * leaves the first record's alone */
				if (x.exe >= bufs.exe && x.exe < bufs.exe + sizeof(bufs.exe))
					x2.exe = bufs2.exe + (x.exe - bufs.exe);
				if (x.cgroup >= bufs.cgroup &&
				    x.cgroup < bufs.cgroup + sizeof(bufs.cgroup))
					x2.cgroup = bufs2.cgroup + (x.cgroup - bufs.cgroup);
				switch (r % 8) {
				case 0: /* the same record: a hit */
					break;
				case 1:
					if (x2.exe && *x2.exe)
						((char *)x2.exe)[r / 8 % strlen(x2.exe)] ^= 1 << (r / 64 % 8);
					else
						x2.exe = "/usr/bin/other";
					break;
				case 2:
					if (x2.cgroup && *x2.cgroup)
						((char *)x2.cgroup)[r / 8 % strlen(x2.cgroup)] ^= 1;
					else
						x2.cgroup = "/other.slice";
					break;
				case 3:
					x2.exe = NULL;
					x2.cgroup = r & 8 ? NULL : x2.cgroup;
					break;
				case 4:
					if (r & (1u << 30))
						x2.exe_cut = !x2.exe_cut;
					else if (r & 8)
						x2.exe_mntns ^= 1u << (r / 16 % 32);
					else
						x2.exe_mntns_id ^= 1ull << (r / 16 % 64);
					break;
				default: /* one byte of the kernel's record */
					((unsigned char *)&e2)[r / 8 % sizeof(e2)] ^= (unsigned char)(1 + r / 2048 % 255);
				}
				record_fmt_forget();
				/* keeps the first's span; now and then in the other format */
				fields_line(&hot, r % 8 == 0 && r & 32 ? AUDIT_FMT_JSON + AUDIT_FMT_AUDIT - af : af,
					    &e, &x);
				fields_line(&hot, af, &e2, &x2);
				record_fmt_forget();
				fields_line(&cold, af, &e2, &x2);
				cr_assert(hot.len == cold.len && !memcmp(hot.p, cold.p, cold.len),
					  "fmt %d record %d change %u:\n kept  %.*s\n fresh %.*s", fmt, i,
					  r % 8, (int)hot.len, hot.p, (int)cold.len, cold.p);
				hits += r % 8 == 0;
			}
		}
	}
	cr_assert_gt(hits, 0);
	sb_free(&hot);
	sb_free(&cold);
}

/* The host's fields are kept too: a host identity changed in place (one
 * byte of each field, a field emptied) comes out as it does afresh. */
Test(record_fmt, kept_host_fields_follow_the_identity)
{
	static struct host_id h = {
		.name = "db-7", .machine_id = "0123456789abcdef0123456789abcdef",
		.boot_id = "01234567-89ab-cdef-0123-456789abcdef",
	};
	static struct corpus_bufs bufs;
	struct sbuf hot = { 0 }, cold = { 0 };
	struct nsaudit_event e;
	struct event_extra x;
	int fmt, k;

	corpus_record(1, &e, &x, &bufs);
	record_set_host(&h);
	for (fmt = 0; fmt < 2; fmt++) {
		enum audit_format af = fmt ? AUDIT_FMT_AUDIT : AUDIT_FMT_JSON;

		for (k = 0; k < 7; k++) {
			struct host_id keep = h;

			record_fmt_forget();
			/* k 0: kept in the other format */
			fields_line(&hot, k ? af : AUDIT_FMT_JSON + AUDIT_FMT_AUDIT - af, &e, &x);
			switch (k) {
			case 0: break;
			case 1: h.name[0] ^= 1; break;
			case 2: h.machine_id[31] = 'e'; break;
			case 3: h.boot_id[0] = 'f'; break;
			case 4: h.name[0] = '\0'; break;
			case 5: h.machine_id[0] = '\0'; break;
			default: h.boot_id[0] = '\0';
			}
			fields_line(&hot, af, &e, &x);
			record_fmt_forget();
			fields_line(&cold, af, &e, &x);
			cr_assert(hot.len == cold.len && !memcmp(hot.p, cold.p, cold.len),
				  "fmt %d change %d:\n kept  %.*s\n fresh %.*s", fmt, k, (int)hot.len,
				  hot.p, (int)cold.len, cold.p);
			h = keep;
		}
	}
	record_set_host(NULL);
	sb_free(&hot);
	sb_free(&cold);
}

/* A call a seccomp filter refused says so, right after its errno; no other
 * record carries the field. */
Test(record_fmt, seccomp_refusal_is_said_after_the_errno)
{
	struct sbuf b = { 0 };
	struct nsaudit_event e;
	struct event_extra x;
	struct corpus_bufs bufs;

	corpus_record(0, &e, &x, &bufs);
	e.op = NSAUDIT_OP_UNSHARE;
	e.result = -1;
	record_json_line(&b, &e, &x);
	cr_assert_null(strstr(b.p, "refused_by"), "%s", b.p);
	e.flags |= NSAUDIT_F_SECCOMP;
	b.len = 0;
	record_json_line(&b, &e, &x);
	cr_assert_not_null(strstr(b.p, "\"result\":-1,\"error\":\"EPERM\",\"refused_by\":\"seccomp\","),
			   "%s", b.p);
	sb_free(&b);
}

/* The string fields of x, in struct order (record_span.c keeps them all). */
static const char **x_str(struct event_extra *x, int k)
{
	const char **v[] = {
		&x->exe, &x->cgroup, &x->ns_name, &x->old_name, &x->container, &x->container_name,
		&x->ns_container, &x->ns_container_name, &x->pod, &x->pod_namespace,
		&x->actor_container, &x->actor_container_name, &x->actor_pod,
		&x->actor_pod_namespace, &x->unresolved, &x->cause, &x->maker_comm,
	};

	return k < (int)(sizeof(v) / sizeof(v[0])) ? v[k] : NULL;
}

/*
 * A record's body ("op" ... "cause") is kept from one record to the next
 * (record_span.c): a second record whose user-space part differs in any
 * field (each string changed by a byte, cut, lengthened, gone or new;
 * each scalar), or whose kernel record differs only where the body does
 * not look (ts, repeat, kseq, ns_refs), comes out as it does afresh.
 */
Test(record_fmt, kept_body_is_what_a_fresh_one_would_be)
{
	static struct corpus_bufs bufs;
	static char strs[17][320];
	struct sbuf hot = { 0 }, cold = { 0 };
	int i, k, m, fmt, n = 0, same = 0;

	for (fmt = 0; fmt < 2; fmt++) {
		enum audit_format af = fmt ? AUDIT_FMT_AUDIT : AUDIT_FMT_JSON;

		for (i = 0; i < CORPUS_N; i++) {
			for (k = 0; k < 17 + 6 + 4; k++) {
				for (m = 0; m < 5; m++) {
					struct nsaudit_event e, e2;
					struct event_extra x, x2;
					const char **s, *was;

					corpus_record(i, &e, &x, &bufs);
					if (i % 4 == 0) { /* the strings the corpus leaves out */
						x.ns_container = "host", x.actor_container = "host";
						x.maker_comm = "maker", x.pod = "web-0";
						if (i % 8 == 0) /* a pin's record: its maker */
							e.flags |= NSAUDIT_F_INFERRED;
					}
					e2 = e, x2 = x;
					s = x_str(&x2, k);
					if (s) {
						was = *s;
						if (m == 0 || (!was && m < 4)) {
							*s = was ? NULL : "new";
						} else if (m == 4) {
							continue; /* as it was: below */
						} else {
							snprintf(strs[k], sizeof(strs[k]), "%s", was);
							if (m == 1 && *was)
								strs[k][strlen(strs[k]) / 2] ^= 1;
							else if (m == 2 && *was)
								strs[k][strlen(strs[k]) - 1] = '\0';
							else
								strncat(strs[k], "+", sizeof(strs[k]) - strlen(strs[k]) - 1);
							*s = strs[k];
						}
					} else {
						switch (k - 17) {
						case 0: x2.exe_mntns ^= 1u << m; break;
						case 1: x2.exe_mntns_id ^= 1ull << (m * 13); break;
						case 2: x2.exe_cut = !x2.exe_cut; break;
						case 3: x2.maker_pid ^= 1u << m; break;
						case 4: x2.maker_uid ^= 1u << m; break;
						case 5: x2.created_seq ^= 1ull << (m * 13); break;
						/* what the body does not read: a hit */
						case 6: e2.kseq += 1 + (uint64_t)m; same++; break;
						case 7: e2.ts_boot_ns += 1000 * (uint64_t)m; same++; break;
						case 8: e2.ns_refs ^= 1u << m; same++; break;
						default: e2.repeat ^= 1u << m; same++;
						}
					}
					record_fmt_forget();
					fields_line(&hot, af, &e, &x);
					fields_line(&hot, af, &e2, &x2);
					record_fmt_forget();
					fields_line(&cold, af, &e2, &x2);
					cr_assert(hot.len == cold.len && !memcmp(hot.p, cold.p, cold.len),
						  "fmt %d record %d field %d change %d:\n kept  %.*s\n fresh %.*s",
						  fmt, i, k, m, (int)hot.len, hot.p, (int)cold.len, cold.p);
					n++;
				}
			}
		}
	}
	cr_assert_gt(n, 1000);
	cr_assert_gt(same, 100);
	sb_free(&hot);
	sb_free(&cold);
}
