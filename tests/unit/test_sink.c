// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Sinks: spec parsing, RFC 5424 and audit formatting, losses never block. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "output/sink.h"
#include "output/sink_impl.h" /* the counters of struct sink, the message formats */

static struct json_object *record(const char *comm)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "seq", json_object_new_int(7));
	json_object_object_add(o, "time", json_object_new_string("2026-12-03T08:42:42.564957870Z"));
	json_object_object_add(o, "op", json_object_new_string("setns"));
	json_object_object_add(o, "result", json_object_new_int(-22));
	json_object_object_add(o, "error", json_object_new_string("EINVAL"));
	json_object_object_add(o, "ns_type", json_object_new_string("net"));
	json_object_object_add(o, "ns_inum", json_object_new_int64(4026532289));
	json_object_object_add(o, "ns_name", json_object_new_string("blue"));
	json_object_object_add(o, "pid", json_object_new_int(1234));
	json_object_object_add(o, "uid", json_object_new_int(0));
	json_object_object_add(o, "comm", json_object_new_string(comm));
	json_object_object_add(o, "exe", json_object_new_string("/usr/bin/ip"));
	json_object_object_add(o, "for_children", json_object_new_boolean(1));
	return o;
}

Test(sink, parse_specs)
{
	struct sink_spec sp;
	char err[256];

	cr_assert_eq(sink_parse("syslog", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_SYSLOG_UNIX);
	cr_assert_str_eq(sp.path, "/dev/log");
	cr_assert_eq(sink_parse("syslog:unix:/tmp/x.sock", &sp, err, sizeof(err)), 0);
	cr_assert_str_eq(sp.path, "/tmp/x.sock");
	cr_assert_eq(sink_parse("syslog:udp:127.0.0.1:514", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_SYSLOG_UDP);
	cr_assert_str_eq(sp.host, "127.0.0.1");
	cr_assert_str_eq(sp.port, "514");
	cr_assert_eq(sink_parse("syslog:tcp:[::1]:6514", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_SYSLOG_TCP);
	cr_assert_str_eq(sp.host, "::1");
	cr_assert_eq(sink_parse("audit", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_AUDIT);
	cr_assert_eq(sink_parse("journal", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_JOURNAL);

	cr_assert_eq(sink_parse("file", &sp, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not syslog[:ADDRESS], audit, journal or file:PATH"));

	/* file sinks and ",format=": the last ",format=" is the format */
	cr_assert_eq(sink_parse("file:/var/log/a,format=x.jsonl", &sp, err, sizeof(err)), -1);
	cr_assert(strstr(err, "format is json, ocsf or ecs"), "%s", err);
	cr_assert_eq(sink_parse("file:/var/log/a,format=x,format=ocsf", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_FILE);
	cr_assert_str_eq(sp.file, "/var/log/a,format=x");
	cr_assert_eq(sp.fmt, SINK_FMT_OCSF);
	cr_assert_eq(sink_parse("file:/x.jsonl", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.fmt, SINK_FMT_NATIVE);
	cr_assert_eq(sink_parse("syslog:tcp:[::1]:6514,format=ecs", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.kind, SINK_SYSLOG_TCP);
	cr_assert_str_eq(sp.port, "6514");
	cr_assert_eq(sp.fmt, SINK_FMT_ECS);
	cr_assert_eq(sink_parse("journal,format=json", &sp, err, sizeof(err)), 0);
	cr_assert_eq(sp.fmt, SINK_FMT_JSON);
	cr_assert_eq(sink_parse("audit,format=ocsf", &sp, err, sizeof(err)), -1);
	cr_assert(strstr(err, "audit messages are key=value"), "%s", err);
	cr_assert_eq(sink_parse("file:relative", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("journal:x", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:unix:relative", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:udp:127.0.0.1", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:udp:127.0.0.1:0", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:tcp:host:65536", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:tcp::514", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslog:sctp:h:1", &sp, err, sizeof(err)), -1);
	cr_assert_eq(sink_parse("syslogx", &sp, err, sizeof(err)), -1);
}

Test(sink, parse_opts)
{
	struct sinks set = { 0 };
	char *argv[] = { "--sink", "audit", "--sink=syslog", "--pid", "1" }, err[256];
	int used;

	cr_assert_eq(sinks_parse_opt(&set, 5, argv, &used, err, sizeof(err)), 1);
	cr_assert_eq(used, 2);
	cr_assert_eq(sinks_parse_opt(&set, 3, argv + 2, &used, err, sizeof(err)), 1);
	cr_assert_eq(used, 1);
	cr_assert_eq(sinks_parse_opt(&set, 2, argv + 3, &used, err, sizeof(err)), 0);
	cr_assert_eq(sinks_parse_opt(&set, 1, argv, &used, err, sizeof(err)), -1);
	cr_assert_eq(set.n, 2);
}

Test(sink, sd_escaping)
{
	char out[64];

	sd_escape("a\"b\\c]d[e", 9, out, sizeof(out));
	cr_assert_str_eq(out, "a\\\"b\\\\c\\]d[e");
	sd_escape("]]]]]]]]", 8, out, 8);	/* never overflows, never splits a pair */
	cr_assert_str_eq(out, "\\]\\]\\]");
}

Test(sink, rfc5424_message)
{
	struct json_object *o = record("i\"p]\\");
	size_t len;
	char *m = syslog_format(o, "box1", 42, NULL, NULL, &len);

	cr_assert_not_null(m);
	cr_assert_eq(strlen(m), len);
	/* authpriv (10) * 8 + warning (4): the setns failed */
	cr_assert(!strncmp(m, "<84>1 2026-12-03T08:42:42.564957Z box1 nsaudit 42 setns [nsaudit@32473 ",
			    strlen("<84>1 2026-12-03T08:42:42.564957Z box1 nsaudit 42 setns "
				   "[nsaudit@32473 ")), "%s", m);
	cr_assert(strstr(m, " op=\"setns\" "));
	cr_assert(strstr(m, " ns_inum=\"4026532289\" "));
	cr_assert(strstr(m, " ns_name=\"blue\" "));
	cr_assert(strstr(m, " comm=\"i\\\"p\\]\\\\\" "), "%s", m);
	cr_assert(strstr(m, " for_children=\"true\""));
	/* the SD element ends before the readable text, which has no time */
	cr_assert(strstr(m, "\"] setns   net:[4026532289] \"blue\" "), "%s", m);
	cr_assert_null(strchr(m, '\n'));
	free(m);
	json_object_put(o);
}

/* The dedup key a collector reads: last in the SD element, side by side. */
Test(sink, rfc5424_dedup_key)
{
	struct json_object *o = record("sink_run=\"ffffffffffffffff\" sink_seq=\"1\"");
	struct sink_msg_key key = { .run = "0123456789abcdef", .seq = 18446744073709551615ULL };
	size_t len;
	char *m = syslog_format(o, "h", 1, &key, NULL, &len);

	cr_assert_not_null(m);
	cr_assert(strstr(m, " sink_run=\"0123456789abcdef\" sink_seq=\"18446744073709551615\"] "),
		  "%s", m);
	/* a value that spells a key stays escaped: one real key per message */
	cr_assert_null(strstr(m, " sink_run=\"ffff"), "%s", m);
	free(m);
	json_object_put(o);
}

Test(sink, rfc5424_control_bytes)
{
	struct json_object *o = record("a\nb");
	size_t len;
	char *m;

	json_object_object_add(o, "result", json_object_new_int(0));
	m = syslog_format(o, "host with space", 1, NULL, NULL, &len);
	cr_assert(!strncmp(m, "<85>1 ", 6), "%s", m);	/* notice */
	cr_assert(strstr(m, " host_with_space nsaudit "));
	cr_assert(strstr(m, " comm=\"a\xef\xbf\xbd" "b\" comm_hex=\"610a62\""), "%s", m);
	cr_assert_null(strchr(m, '\n'));
	free(m);
	json_object_put(o);
}

/* Bytes that are not UTF-8 (the record holds the exact bytes): the same. */
Test(sink, rfc5424_invalid_utf8)
{
	struct json_object *o = record("caf\xc3\xa9\xff");
	size_t len;
	char *m;

	json_object_object_add(o, "result", json_object_new_int(0));
	m = syslog_format(o, "h", 1, NULL, NULL, &len);
	cr_assert(strstr(m, " comm=\"caf\xc3\xa9\xef\xbf\xbd\" comm_hex=\"636166c3a9ff\""), "%s", m);
	free(m);
	json_object_put(o);
}

Test(sink, audit_message)
{
	struct json_object *o = record("evil name\"");
	bool ok = true;
	char *m = audit_format(o, &ok);

	cr_assert_not_null(m);
	cr_assert_not(ok, "result -22 is a failure");
	cr_assert(!strncmp(m, "seq=7 time=\"2026-12-03T08:42:42.564957870Z\" op=\"setns\" exit=-22 ",
			   60), "%s", m);
	cr_assert(strstr(m, " ns_name=\"blue\""));
	/* auditd adds its own pid/uid/exe: the actor's are renamed */
	cr_assert(strstr(m, " actor_pid=1234 actor_uid=0 "), "%s", m);
	cr_assert(strstr(m, " actor_exe=\"/usr/bin/ip\""));
	cr_assert_null(strstr(m, " pid="));
	/* a space or a quote: hex, the auditd way */
	cr_assert(strstr(m, " comm=6576696C206E616D6522"), "%s", m);
	free(m);
	json_object_put(o);
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A receiver that never reads: the sink drops and counts, the caller goes on. */
Test(sink, slow_receiver_never_blocks, .timeout = 30)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct sink_spec sp;
	uint64_t queued, lost;
	struct sink *s;
	struct json_object *o = record("x");
	char err[256], dir[] = "/tmp/nsaudit-sink-XXXXXX";
	int rx, i, n = 3000;
	int64_t t0;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	t0 = mono_ms();
	for (i = 0; i < n; i++)
		sink_emit(s, o);
	cr_assert_lt(mono_ms() - t0, 1000, "emitting must not wait for the receiver");
	pthread_mutex_lock(&s->lock);
	queued = s->queued;
	lost = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&s->lock);
	cr_assert_gt(lost, 0);
	cr_assert_eq(queued + lost, (uint64_t)n, "every record is queued or counted lost");
	sink_close(s, 0);
	json_object_put(o);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/* An alert (nsaudit/rules/) goes out with its rule's severity. */
Test(sink, syslog_alert_severity)
{
	struct json_object *o = json_object_new_object();
	size_t len;
	char *m;

	json_object_object_add(o, "seq", json_object_new_int64(9));
	json_object_object_add(o, "time", json_object_new_string("2026-12-06T10:00:00.000000001Z"));
	json_object_object_add(o, "op", json_object_new_string("alert"));
	json_object_object_add(o, "rule", json_object_new_string("container-escape"));
	json_object_object_add(o, "severity", json_object_new_string("crit"));
	json_object_object_add(o, "summary", json_object_new_string("container web: escaped"));
	m = syslog_format(o, "h", 1, NULL, NULL, &len);
	cr_assert(m);
	/* authpriv (10) * 8 + crit (2) */
	cr_assert(!strncmp(m, "<82>1 ", 6), "%.40s", m);
	cr_assert(strstr(m, " alert ["), "msgid alert: %s", m);
	cr_assert(strstr(m, "rule=\"container-escape\""), "%s", m);
	free(m);
	json_object_object_add(o, "severity", json_object_new_string("info"));
	m = syslog_format(o, "h", 1, NULL, NULL, &len);
	cr_assert(!strncmp(m, "<86>1 ", 6), "%.40s", m);
	free(m);
	json_object_put(o);
}

/* A journal entry: NUL-separated KEY=value, every record field as
 * NSAUDIT_KEY with its exact bytes (a newline in a name included). */
Test(sink, journal_entry_fields)
{
	struct json_object *rec = json_object_new_object();
	const char *want[] = { "NSAUDIT_OP=setns", "NSAUDIT_NS_ID=4100", "NSAUDIT_COMM=a\nb",
			       "PRIORITY=4", "SYSLOG_IDENTIFIER=nsaudit",
			       "MESSAGE_ID=0fba002e14ef44feb695cb980f3b4451" };
	size_t len, i, n = 0;
	char *m, *p;

	json_object_object_add(rec, "op", json_object_new_string("setns"));
	json_object_object_add(rec, "result", json_object_new_int(-1));
	json_object_object_add(rec, "ns_id", json_object_new_uint64(4100));
	json_object_object_add(rec, "comm", json_object_new_string("a\nb"));
	m = journal_format(rec, NULL, &len);
	cr_assert(m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool found = false;

		for (p = m; p < m + len; p += strlen(p) + 1)
			found |= !strcmp(p, want[i]);
		cr_assert(found, "%s", want[i]);
	}
	for (p = m; p < m + len; p += strlen(p) + 1)
		n++;
	cr_assert_eq(n, 5 + 4, "MESSAGE, PRIORITY, identifier, facility, id + 4 fields");
	free(m);
	json_object_put(rec);
}

/* An anchor record as the log makes it (v2 fields), naming seq. */
static struct json_object *anchor_rec(int seq)
{
	static const char hex[] = "00112233445566778899aabbccddeeff";
	struct json_object *a = json_object_new_object();

	json_object_object_add(a, "op", json_object_new_string("log"));
	json_object_object_add(a, "action", json_object_new_string("anchor"));
	json_object_object_add(a, "log_id", json_object_new_string("0123456789abcdef"));
	json_object_object_add(a, "key_id", json_object_new_string("fedcba9876543210"));
	json_object_object_add(a, "seq", json_object_new_int(seq));
	json_object_object_add(a, "segment", json_object_new_int(1));
	json_object_object_add(a, "epoch", json_object_new_int(0));
	json_object_object_add(a, "first_segment", json_object_new_int(1));
	json_object_object_add(a, "mac", json_object_new_string(hex));
	json_object_object_add(a, "why", json_object_new_string("commit"));
	json_object_object_add(a, "amac", json_object_new_string(hex));
	json_object_object_add(a, "n", json_object_new_int(seq));
	return a;
}

/*
 * Issue 40: the log's anchors never wait behind records. A receiver that
 * does not read, a record queue full (records counted lost): an anchor is
 * still queued (never lost for records), and once the receiver reads, it
 * arrives before the records that were queued ahead of it.
 */
Test(sink, anchors_overtake_a_full_record_queue, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct json_object *o = record("x"), *a = anchor_rec(4242);
	char err[256], dir[] = "/tmp/nsaudit-sink-XXXXXX", buf[2048];
	uint64_t lost_before, lost_after;
	int rx, i, after = 0, seen = 0;
	struct sink_spec sp;
	struct sink *s;
	ssize_t n;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	for (i = 0; i < 3000; i++)
		sink_emit(s, o);
	lost_before = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	cr_assert_gt(lost_before, 0, "the record queue is full");
	sink_emit_anchor(s, a);
	lost_after = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	cr_assert_eq(lost_after, lost_before, "an anchor is never lost for records");
	/* the receiver reads: the anchor comes before the queued records */
	while (!seen || after < 8) {
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		n = recv(rx, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = '\0';
		if (strstr(buf, "nsaudit-anchor log_id=0123456789abcdef"))
			seen = 1;
		else if (seen)
			after++;
	}
	cr_assert(seen, "the anchor arrived");
	cr_assert_geq(after, 8, "records queued before the anchor went after it (%d)", after);
	sink_close(s, 0);
	json_object_put(o);
	json_object_put(a);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/*
 * Issue 40: the anchors are a chain, so an anchor a receiver did not take
 * because it went away (a syslog daemon restarted) is sent again when it
 * is back, never counted lost like a record.
 */
Test(sink, an_anchor_waits_for_a_receiver_that_went_away, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct json_object *a = anchor_rec(77);
	char err[256], dir[] = "/tmp/nsaudit-sink-XXXXXX", buf[2048];
	struct timeval tv = { .tv_sec = 5 };
	struct sink_spec sp;
	struct sink *s;
	int rx, i;
	ssize_t n;
	bool seen = false;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	/* the receiver goes away; the anchor is sent meanwhile */
	close(rx);
	unlink(un.sun_path);
	sink_emit_anchor(s, a);
	usleep(300 * 1000);
	/* ... and comes back */
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (i = 0; i < 10 && !seen; i++) {
		n = recv(rx, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = '\0';
		seen = strstr(buf, "nsaudit-anchor log_id=0123456789abcdef") != NULL;
	}
	cr_assert(seen, "the anchor arrived once the receiver was back");
	sink_close(s, 0);
	json_object_put(a);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/*
 * Issue 43: a record in hand when the receiver went away (a syslog daemon
 * restarting: its socket gone) waits in the queue like an anchor and is
 * sent when the receiver is back; before, it was counted lost at once (one
 * record per restart of a host's rsyslogd, seen in the fleet test).
 */
Test(sink, a_record_waits_for_a_receiver_that_went_away, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct json_object *r = record("rwait");
	char err[256], dir[] = "/tmp/nsaudit-sink-XXXXXX", buf[4096];
	struct timeval tv = { .tv_sec = 5 };
	struct sink_stats st;
	struct sink_spec sp;
	struct sink *s;
	int rx, i;
	ssize_t n;
	bool seen = false;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	/* the receiver goes away; the record is sent meanwhile */
	close(rx);
	unlink(un.sun_path);
	sink_emit(s, r);
	usleep(300 * 1000);
	/* ... and comes back */
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (i = 0; i < 10 && !seen; i++) {
		n = recv(rx, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = '\0';
		seen = strstr(buf, "comm=\"rwait\"") != NULL;
	}
	sink_get_stats(s, &st);
	cr_expect(seen, "the record arrived once the receiver was back");
	cr_expect_eq(st.lost, 0, "nothing lost: %llu", (unsigned long long)st.lost);
	sink_close(s, 0);
	json_object_put(r);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/* how many lines of path hold needle, waiting up to 5 s for at least want */
static int lines_with(const char *path, const char *needle, int want)
{
	char line[8192];
	int i, n = 0;
	FILE *f;

	for (i = 0; i < 100; i++) {
		n = 0;
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			n += strstr(line, needle) != NULL;
		if (f)
			fclose(f);
		if (n >= want)
			break;
		usleep(50 * 1000);
	}
	return n;
}

/*
 * Issue 43: a file sink follows its path. logrotate moves the file and
 * makes a new one (or the old one is compressed and removed): a sink that
 * kept writing its first file wrote where no shipper reads, or into a
 * removed file, silently. Now it opens the path again within a second.
 */
Test(sink, a_file_sink_follows_its_path_across_rotation, .timeout = 60)
{
	struct json_object *a = record("rotA"), *b = record("rotB"), *c = record("rotC");
	char err[512], dir[] = "/tmp/nsaudit-sink-XXXXXX", path[256], moved[300];
	struct sink_spec sp;
	struct sink *s;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.jsonl", dir);
	snprintf(moved, sizeof(moved), "%s.1", path);
	snprintf(err, sizeof(err), "file:%s", path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0, "%s", err);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	sink_emit(s, a);
	cr_assert_eq(lines_with(path, "\"rotA\"", 1), 1);
	/* rotated: moved, a new file made by the rotator */
	cr_assert_eq(rename(path, moved), 0);
	close(open(path, O_WRONLY | O_CREAT | O_EXCL, 0600));
	usleep(1100 * 1000);
	sink_emit(s, b);
	cr_expect_eq(lines_with(path, "\"rotB\"", 1), 1, "the next record is in the new file");
	cr_expect_eq(lines_with(moved, "\"rotB\"", 0), 0, "not in the moved one");
	/* removed: made again */
	cr_assert_eq(unlink(path), 0);
	usleep(1100 * 1000);
	sink_emit(s, c);
	cr_expect_eq(lines_with(path, "\"rotC\"", 1), 1, "a removed file is made again");
	sink_close(s, 1000);
	json_object_put(a);
	json_object_put(b);
	json_object_put(c);
	unlink(path);
	unlink(moved);
	rmdir(dir);
}

/*
 * Issue 40: anchors a sink loses (its lane full of newer ones while the
 * receiver is down) are counted by number for the log to say so
 * (sink_take_anchor_losses: the recorder writes an anchors_lost record),
 * the oldest first; the newest heads are kept.
 */
Test(sink, anchors_lost_from_a_full_lane_are_told_by_number, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	char err[256], dir[] = "/tmp/nsaudit-sink-XXXXXX";
	uint64_t n, first, last;
	struct sink_spec sp;
	const char *spec;
	struct sink *s;
	int rx, i;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(rx, (struct sockaddr *)&un, sizeof(un)), 0);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 16, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	close(rx);	/* the receiver is gone for all of them */
	unlink(un.sun_path);
	cr_assert_eq(sink_take_anchor_losses(s, &first, &last, &spec), 0, "none lost yet");
	for (i = 1; i <= SINK_ANCHOR_QUEUE + 5; i++) {
		struct json_object *a = anchor_rec(i);

		sink_emit_anchor(s, a);
		json_object_put(a);
	}
	n = sink_take_anchor_losses(s, &first, &last, &spec);
	/* five superseded, and perhaps the one the writer held when the lane
	 * filled up behind it */
	cr_expect(n >= 5 && n <= 6, "%" PRIu64 " anchors lost", n);
	cr_expect_eq(first, 1, "the oldest go first");
	cr_expect(last >= 5 && last <= 6, "up to anchor %" PRIu64, last);
	cr_expect_str_eq(spec, sp.spec);
	cr_expect_eq(sink_take_anchor_losses(s, &first, &last, &spec), 0, "told once");
	sink_close(s, 0);
	rmdir(dir);
}
