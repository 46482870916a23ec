// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sink_unread.c - what a unix syslog sink sent that its receiver may not
 * have read yet, kept to be sent again.
 *
 * Why: a syslog daemon that stops (a host's rsyslogd restarted) closes its
 * socket, and the kernel drops the datagrams still queued on it. send()
 * had returned for each, nothing tells the sender, and none reaches the
 * daemon: 5 messages in a row lost at one restart of a host's rsyslogd
 * under load (tests/integration/61-fleet-relp.sh), missing at the
 * collector and in the host's own log alike, an anchor among them at
 * times ("anchor N missing" from verify --anchor), and no "lost" record.
 *
 * How: the kernel charges a queued datagram to its sender until the
 * receiver takes it (SIOCOUTQ: the bytes still queued, each datagram with
 * its buffer overhead, so more than its length), and the receiver takes
 * them in order. So the newest messages whose lengths add up to SIOCOUTQ
 * hold every unread one; the older ones were taken. Taken may also mean
 * dropped by a receiver that closed, but the kernel marks it dead before it
 * drops them, and a send to a dead socket fails: a send that succeeds after
 * SIOCOUTQ was read proves those were read. Until then they are kept, and
 * when a send finds the receiver gone they go first in their queues again
 * (oldest first), sent when the sink reconnects. One that had been read
 * after all arrives twice with one sink_run/sink_seq key, which the fleet's
 * collector files apart (docs/fleet.md).
 *
 * Touched by the writer thread only, and by sink_close after it ended; the
 * requeue runs under the sink's lock, as the queues need.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

#include "sink.h"
#include "sink_impl.h"

static struct sink_msg *nth(struct sink *s, size_t i)	/* 0: the oldest */
{
	return &s->unread[(s->uhead + i) % SINK_UNREAD_MAX];
}

static void drop_oldest(struct sink *s)
{
	free(nth(s, 0)->data);
	s->uhead = (s->uhead + 1) % SINK_UNREAD_MAX;
	s->ulen--;
	if (s->uread)
		s->uread--;
}

void unread_sent(struct sink *s, struct sink_msg *m)
{
	size_t k = 0, bytes = 0;
	int q = 0;

	if (!s->unread) {
		free(m->data);
		return;
	}
	/* seen taken before this send, which the receiver took: read */
	while (s->uread)
		drop_oldest(s);
	/* more than any receiver queues (net.unix.max_dgram_qlen) */
	if (s->ulen == SINK_UNREAD_MAX)
		drop_oldest(s);
	*nth(s, s->ulen) = *m;
	s->ulen++;
	if (ioctl(s->fd, SIOCOUTQ, &q) || q < 0)
		q = INT_MAX;	/* cannot tell: keep them all */
	while (k < s->ulen && bytes < (size_t)q)
		bytes += nth(s, s->ulen - 1 - k++)->len;
	s->uread = s->ulen - k;
}

/* Lock held: the receiver is gone; every kept message goes again. */
void unread_again(struct sink *s)
{
	struct sink_msg *m;

	while (s->ulen) {	/* the newest first, each ahead of the rest */
		m = nth(s, --s->ulen);
		if (m->anchor_n && s->aqlen < SINK_ANCHOR_QUEUE) {
			s->aqhead = (s->aqhead + SINK_ANCHOR_QUEUE - 1) % SINK_ANCHOR_QUEUE;
			s->aq[s->aqhead] = *m;
			s->aqlen++;
		} else if (!m->anchor_n && s->qlen < s->qcap) {
			s->qhead = (s->qhead + s->qcap - 1) % s->qcap;
			s->q[s->qhead] = *m;
			s->qlen++;
		} else {	/* no room: lost, and counted */
			free(m->data);
			__atomic_add_fetch(&s->lost, 1, __ATOMIC_RELAXED);
			anchor_lost(s, m->anchor_n);
		}
	}
	s->uhead = s->uread = 0;
}

void unread_free(struct sink *s)
{
	if (!s->unread)
		return;
	while (s->ulen)
		drop_oldest(s);
	free(s->unread);
	s->unread = NULL;
}
