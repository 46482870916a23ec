// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * A unix syslog receiver that closes with datagrams still queued on its
 * socket (rsyslogd restarted under load): the kernel drops them unread,
 * after send() returned for each. The sink sends them again to the
 * receiver that comes back (nsaudit/output/sink_unread.c); what the
 * receiver had read, and a later send proved it had, is not sent again.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "output/sink.h"
#include "output/sink_impl.h"

static struct json_object *rec(const char *comm)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "time", json_object_new_string("2026-12-03T08:42:42.564957870Z"));
	json_object_object_add(o, "op", json_object_new_string("unshare"));
	json_object_object_add(o, "result", json_object_new_int(0));
	json_object_object_add(o, "comm", json_object_new_string(comm));
	return o;
}

static void emit(struct sink *s, const char *comm)
{
	struct json_object *o = rec(comm);

	sink_emit(s, o);
	json_object_put(o);
}

/* until the sink's writer has sent n messages (send() returned) */
static void wait_sent(struct sink *s, uint64_t n)
{
	struct sink_stats st;
	int i;

	for (i = 0; i < 500; i++) {
		sink_get_stats(s, &st);
		if (st.sent >= n)
			return;
		usleep(10 * 1000);
	}
	cr_assert_fail("the writer sent %llu of %llu", (unsigned long long)st.sent,
		       (unsigned long long)n);
}

static int receiver(const struct sockaddr_un *un)
{
	struct timeval tv = { .tv_sec = 3 };
	int rx = socket(AF_UNIX, SOCK_DGRAM, 0);

	cr_assert_geq(rx, 0);
	cr_assert_eq(bind(rx, (const struct sockaddr *)un, sizeof(*un)), 0);
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return rx;
}

/* the comm="..." values of what rx receives until one holds last (or 3 s
 * pass), in order, space-separated, into got */
static void receive_until(int rx, const char *last, char *got, size_t len)
{
	char buf[4096], want[64], *c;
	ssize_t n;

	got[0] = '\0';
	snprintf(want, sizeof(want), "comm=\"%s\"", last);
	for (;;) {
		n = recv(rx, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			return;
		buf[n] = '\0';
		c = strstr(buf, "comm=\"");
		if (c)
			snprintf(got + strlen(got), len - strlen(got), "%s%.*s", got[0] ? " " : "",
				 (int)strcspn(c + 6, "\""), c + 6);
		if (strstr(buf, want))
			return;
	}
}

Test(sink_unread, datagrams_a_closing_receiver_dropped_are_sent_again, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	char err[256], dir[] = "/tmp/nsaudit-unread-XXXXXX", got[512], buf[4096];
	struct sink_stats st;
	struct sink_spec sp;
	struct sink *s;
	int rx;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = receiver(&un);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 64, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	emit(s, "u1");
	emit(s, "u2");
	emit(s, "u3");
	wait_sent(s, 3);
	/* the receiver reads one and stops: the kernel drops u2 and u3 */
	cr_assert_gt(recv(rx, buf, sizeof(buf), 0), 0);
	cr_assert_not_null(strstr(buf, "comm=\"u1\""));
	close(rx);
	unlink(un.sun_path);
	rx = receiver(&un);
	emit(s, "u4");
	receive_until(rx, "u4", got, sizeof(got));
	sink_get_stats(s, &st);
	/* u1 too: read after the last send, which nothing proved */
	cr_expect(!strcmp(got, "u1 u2 u3 u4") || !strcmp(got, "u2 u3 u4"),
		  "what the new receiver got, in order: %s", got);
	cr_expect_eq(st.lost, 0, "nothing lost: %llu", (unsigned long long)st.lost);
	sink_close(s, 1000);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/*
 * What the receiver read is not kept for long: of 30 messages, each read
 * before the next is sent, a restarted receiver gets again only the last
 * few (the kernel counts a datagram with its buffer, several times the
 * length of a short one, and the sink counts lengths: it keeps more than
 * were unread, never fewer).
 */
Test(sink_unread, what_the_receiver_read_is_not_sent_again, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	char err[256], dir[] = "/tmp/nsaudit-unread-XXXXXX", got[512], name[16];
	struct sink_spec sp;
	struct sink *s;
	int rx, i, again = 0;
	char *p;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = receiver(&un);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 64, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	for (i = 1; i <= 30; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		emit(s, name);
		wait_sent(s, i);
		receive_until(rx, name, got, sizeof(got));
		cr_assert_str_eq(got, name);
	}
	close(rx);
	unlink(un.sun_path);
	rx = receiver(&un);
	emit(s, "r31");
	receive_until(rx, "r31", got, sizeof(got));
	for (p = got; (p = strchr(p, 'r')); p++)
		again++;
	again--;	/* r31 */
	cr_expect(strstr(got, "r30 r31"), "the last one read, unproven, came again: %s", got);
	cr_expect(again <= 12 && strncmp(got, "r1", 2) && strncmp(got, "r2 ", 3),
		  "only the last few came again: %s", got);
	sink_close(s, 1000);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}

/*
 * The sink's own "lost" message (how many it could not send) is kept like
 * any other: dropped unread by a receiver that closed, it comes again.
 */
Test(sink_unread, a_lost_message_dropped_unread_is_sent_again, .timeout = 60)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	char err[256], dir[] = "/tmp/nsaudit-unread-XXXXXX", buf[4096];
	struct sink_spec sp;
	struct sink *s;
	bool told = false;
	ssize_t n;
	int rx;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/log", dir);
	rx = receiver(&un);
	snprintf(err, sizeof(err), "syslog:unix:%s", un.sun_path);
	cr_assert_eq(sink_parse(err, &sp, err, sizeof(err)), 0);
	s = sink_open(&sp, 64, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	/* two records it could not send (as a full queue counts them) */
	__atomic_store_n(&s->lost, 2, __ATOMIC_RELAXED);
	emit(s, "l1");		/* the lost message goes first, then l1 */
	wait_sent(s, 1);
	close(rx);		/* neither read */
	unlink(un.sun_path);
	rx = receiver(&un);
	emit(s, "l2");
	for (;;) {
		n = recv(rx, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = '\0';
		told |= strstr(buf, "op=\"lost\"") && strstr(buf, "count=\"2\"");
		if (strstr(buf, "comm=\"l2\""))
			break;
	}
	cr_expect(told, "the new receiver was told of the 2 lost");
	sink_close(s, 1000);
	close(rx);
	unlink(un.sun_path);
	rmdir(dir);
}
