// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sink.c - one sink: a bounded queue filled on the caller's thread and a
 * writer thread that sends it, counting and reporting what is lost.
 * Transports are in sink_transport.c, --sink parsing and the set of sinks
 * a command holds in sink_opts.c, message formats in sink_syslog.c and
 * sink_audit.c.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <time.h>
#include <unistd.h>
#include <libaudit.h>

#include "clock.h"
#include "sink.h"
#include "sink_impl.h"

#define RETRY_NS 1000000000LL		/* a receiver that is down: retried every 1 s */
#define REPORT_NS 10000000000LL		/* loss lines on stderr at most every 10 s */

static const char *sink_name(const struct sink *s)
{
	return s->sp.spec;
}

/* A run id no earlier start of this sink, and no other host, uses. */
static int sink_new_run(char *out, size_t len)
{
	uint8_t b[8];
	size_t i;

	if (getrandom(b, sizeof(b), 0) != sizeof(b) || len < 2 * sizeof(b) + 1)
		return -1;
	for (i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}


static void report(struct sink *s, bool final)
{
	uint64_t lost = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	int64_t now = now_ns();

	/* the closing line always, when anything was lost: a "so far" line
	 * that happened to come last is not the count in all */
	if (final ? !lost : lost == s->lost_reported || now - s->reported_ns < REPORT_NS)
		return;
	fprintf(stderr, "nsaudit: sink %s: %llu records lost%s", sink_name(s),
		(unsigned long long)lost, final ? " in all" : " so far");
	if (s->last_errno)
		fprintf(stderr, " (last error: %s)", strerror(s->last_errno));
	fputc('\n', stderr);
	s->lost_reported = lost;
	s->reported_ns = now;
}

/*
 * The message for rec. The log's anchors keep the sink's own form whatever
 * ",format=" says: "verify --anchor" reads their text from syslog.
 */
static char *format_for(struct sink *s, struct json_object *rec, bool anchor, size_t *len,
			bool *success)
{
	struct sink_msg_key key = { .run = s->run };
	enum sink_fmt fmt = s->sp.fmt;
	char *m, *doc = NULL;
	size_t dlen;

	*success = true;
	if (s->sp.kind == SINK_FILE)
		fmt = fmt ?: SINK_FMT_JSON;
	else if (anchor)
		fmt = SINK_FMT_NATIVE;
	if (fmt) {
		doc = sink_doc(rec, fmt, &dlen);
		if (!doc)
			return NULL;
	}
	if (s->sp.kind == SINK_FILE) {	/* the document and its newline */
		doc[dlen] = '\n';
		*len = dlen + 1;
		return doc;
	}
	if (s->sp.kind == SINK_AUDIT) {
		m = audit_format(rec, success);
		if (m)
			*len = strlen(m);
		return m;
	}
	if (s->sp.kind == SINK_JOURNAL) {
		m = journal_format(rec, doc, len);
		free(doc);
		return m;
	}
	/* numbered before it is queued: a message dropped for a full queue
	 * leaves a gap, as one that failed to send does (both are counted) */
	key.seq = __atomic_add_fetch(&s->msg_seq, 1, __ATOMIC_RELAXED);
	m = syslog_format(rec, s->hostname, s->pid, &key, doc, len);
	free(doc);
	return m;
}

/* The sink's own "lost" message, so the receiver knows too. */
static bool lost_message(struct sink *s, uint64_t count, struct sink_msg *m)
{
	struct json_object *rec = json_object_new_object();
	struct timespec ts;
	char t[64];

	if (!rec)
		return false;
	ts = ns_to_timespec(realtime_ns());
	{
		struct tm tm;

		gmtime_r(&ts.tv_sec, &tm);
		snprintf(t, sizeof(t), "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec);
	}
	json_object_object_add(rec, "time", json_object_new_string(t));
	json_object_object_add(rec, "op", json_object_new_string("lost"));
	json_object_object_add(rec, "result", json_object_new_int(0));
	json_object_object_add(rec, "count", json_object_new_uint64(count));
	json_object_object_add(rec, "reason", json_object_new_string("sink"));
	json_object_object_add(rec, "sink", json_object_new_string(s->sp.spec));
	json_object_object_add(rec, "probe", json_object_new_string("sink"));
	m->data = format_for(s, rec, false, &m->len, &m->success);
	json_object_put(rec);
	return m->data != NULL;
}

/* Lock held: wait up to 100 ms for more work or for closing. */
static void wait_briefly(struct sink *s)
{
	struct timespec until;

	until = ns_to_timespec(realtime_ns() + 100 * NSEC_PER_MSEC);
	pthread_cond_timedwait(&s->cond, &s->lock, &until);
}

/* Lock held (dropped while connecting): true once connected. */
static bool try_connect(struct sink *s)
{
	int rc;

	s->busy = true;
	pthread_mutex_unlock(&s->lock);
	rc = transport_connect(s);
	pthread_mutex_lock(&s->lock);
	s->busy = false;
	if (rc) {
		s->last_errno = -rc;
		s->retry_ns = now_ns() + RETRY_NS;
		return false;
	}
	s->connected = true;
	return true;
}

/* Lock not held: tell the receiver of losses it has not been told of. */
static void tell_lost(struct sink *s)
{
	uint64_t lost = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	struct sink_msg lm = { 0 };

	if (lost <= s->lost_told || !lost_message(s, lost - s->lost_told, &lm))
		return;
	if (transport_send(s, &lm)) {
		free(lm.data);
		return;
	}
	s->lost_told = lost;
	unread_sent(s, &lm);	/* it may go unread too: kept like any message */
}

/* Lock not held: send m (once more on a fresh connection); 0 or -errno.
 * On a failure m is the caller's still (it may go again). */
static int send_one(struct sink *s, struct sink_msg *m)
{
	int rc;

	tell_lost(s);
	rc = transport_send(s, m);
	/* once more on a fresh connection; not past messages the receiver
	 * that went away may have dropped unread: they go first */
	if (rc && reconnect_on(rc) && !s->ulen) {
		if (!transport_connect(s))
			rc = transport_send(s, m);
	}
	if (!rc)
		unread_sent(s, m);
	report(s, false);
	return rc;
}

/* Lock held: anchor n (0: unnumbered) is lost; the log is told
 * (sink_take_anchor_losses), so that verify can tell a loss from a deletion. */
void anchor_lost(struct sink *s, uint64_t n)
{
	if (!n)
		return;
	if (!s->anc_lost || n < s->anc_lost_first)
		s->anc_lost_first = n;
	if (n > s->anc_lost_last)
		s->anc_lost_last = n;
	s->anc_lost++;
}

/*
 * An anchor the receiver did not take because it went away (a restarted
 * syslog daemon): first in its lane again, sent when the sink reconnects.
 * The anchors are a chain: one lost is a gap verify must call a deletion
 * or a loss. 0 requeued; -1 (the lane is full of newer ones) it is lost.
 */
static int anchor_again(struct sink *s, struct sink_msg *m, int rc)
{
	if (!reconnect_on(rc) || s->aqlen == SINK_ANCHOR_QUEUE) {
		free(m->data);
		return -1;
	}
	s->aqhead = (s->aqhead + SINK_ANCHOR_QUEUE - 1) % SINK_ANCHOR_QUEUE;
	s->aq[s->aqhead] = *m;
	s->aqlen++;
	s->connected = false;
	s->retry_ns = now_ns() + RETRY_NS;
	return 0;
}

/*
 * A record the receiver did not take because it went away (a syslog daemon
 * restarting: its socket gone or refusing): first in the queue again, sent
 * when the sink reconnects, as an anchor is. Its bytes hold its dedup key,
 * so a collector knows it if it had come after all. 0 requeued; -1 the
 * queue filled up meanwhile, or the error was not the receiver going away:
 * it is lost (and counted).
 */
static int record_again(struct sink *s, struct sink_msg *m, int rc)
{
	if (!reconnect_on(rc) || s->qlen == s->qcap) {
		free(m->data);
		return -1;
	}
	s->qhead = (s->qhead + s->qcap - 1) % s->qcap;
	s->q[s->qhead] = *m;
	s->qlen++;
	s->connected = false;
	s->retry_ns = now_ns() + RETRY_NS;
	return 0;
}

static void *writer(void *arg)
{
	struct sink *s = arg;
	struct sink_msg m;
	bool anchor, requeued;
	int rc;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->qlen && !s->aqlen && !s->closing)
			pthread_cond_wait(&s->cond, &s->lock);
		if ((!s->qlen && !s->aqlen) || (s->closing && now_ns() > s->deadline_ns))
			break;
		/* a receiver that is down: keep queueing until it comes back */
		if (!s->connected) {
			if (now_ns() < s->retry_ns)
				wait_briefly(s);
			else
				try_connect(s);
			continue;
		}
		anchor = s->aqlen > 0;
		if (anchor) { /* anchors first: their lag is one send */
			m = s->aq[s->aqhead];
			s->aqhead = (s->aqhead + 1) % SINK_ANCHOR_QUEUE;
			s->aqlen--;
		} else {
			m = s->q[s->qhead];
			s->qhead = (s->qhead + 1) % s->qcap;
			s->qlen--;
		}
		s->busy = true;
		pthread_mutex_unlock(&s->lock);

		rc = send_one(s, &m);

		pthread_mutex_lock(&s->lock);
		s->busy = false;
		if (rc)
			s->last_errno = -rc;
		requeued = rc && !(anchor ? anchor_again(s, &m, rc) : record_again(s, &m, rc));
		if (rc && reconnect_on(rc))
			unread_again(s);	/* ahead of m: they came before it */
		if (requeued)
			continue;
		if (rc) {
			__atomic_add_fetch(&s->lost, 1, __ATOMIC_RELAXED);
			if (anchor)
				anchor_lost(s, m.anchor_n);
			if (reconnect_on(rc)) {
				s->connected = false;
				s->retry_ns = now_ns() + RETRY_NS;
			}
		} else {
			s->sent++;
		}
		if (!s->qlen && !s->aqlen)
			pthread_cond_broadcast(&s->idle);
	}
	/* closing: the receiver learns of losses it has not been told of yet */
	if (s->connected && now_ns() <= s->deadline_ns) {
		pthread_mutex_unlock(&s->lock);
		tell_lost(s);
		pthread_mutex_lock(&s->lock);
	}
	pthread_cond_broadcast(&s->idle);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void start_writer(struct sink *s)
{
	sigset_t all, old;
	int rc;

	/* signals stay with the command's main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&s->thread, NULL, writer, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		s->thread_failed = true;
		fprintf(stderr, "nsaudit: sink %s: starting its writer: %s; its records are lost\n",
			sink_name(s), strerror(rc));
		return;
	}
	s->thread_ok = true;
}

struct sink *sink_open(const struct sink_spec *sp, size_t queue_len, char *err, size_t errlen)
{
	struct sink *s = calloc(1, sizeof(*s));
	struct addrinfo hints = { 0 };
	int rc;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->sp = *sp;
	s->fd = -1;
	s->pid = getpid();
	s->qcap = queue_len ? queue_len : SINK_QUEUE_DEFAULT;
	s->q = calloc(s->qcap, sizeof(*s->q));
	if (sp->kind == SINK_SYSLOG_UNIX)
		s->unread = calloc(SINK_UNREAD_MAX, sizeof(*s->unread));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_cond_init(&s->idle, NULL);
	if (!s->q || (sp->kind == SINK_SYSLOG_UNIX && !s->unread)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		strcpy(s->hostname, "-");
	if (sink_new_run(s->run, sizeof(s->run))) {
		snprintf(err, errlen, "--sink %s: getrandom: %s", sp->spec, strerror(errno));
		goto fail;
	}
	switch (sp->kind) {
	case SINK_AUDIT:
		s->fd = audit_open();
		if (s->fd < 0) {
			snprintf(err, errlen, "--sink audit: audit_open: %s%s", strerror(errno),
				 errno == EPROTONOSUPPORT ? " (kernel built without audit)" : "");
			goto fail;
		}
		/* AUDIT_GET needs CAP_AUDIT_CONTROL: only a warning if it fails */
		if (audit_is_enabled(s->fd) == 0)
			fprintf(stderr, "nsaudit: sink audit: kernel auditing is disabled, the "
				"kernel drops USER messages (enable it: auditctl -e 1)\n");
		break;
	case SINK_JOURNAL:
		if (journal_probe() == -EPROTONOSUPPORT) {
			snprintf(err, errlen, "--sink journal: this binary is built without "
				 "libsystemd (nsaudit-static); use --sink syslog");
			goto fail;
		}
		break;
	case SINK_SYSLOG_UDP:
	case SINK_SYSLOG_TCP:
		hints.ai_socktype = sp->kind == SINK_SYSLOG_UDP ? SOCK_DGRAM : SOCK_STREAM;
		rc = getaddrinfo(sp->host, sp->port, &hints, &s->ai);
		if (rc) {
			snprintf(err, errlen, "--sink %s: %s: %s", sp->spec, sp->host, gai_strerror(rc));
			goto fail;
		}
		break;
	default:
		break;
	}
	/* connect now, to say at once when nobody listens; retried later */
	rc = transport_connect(s);
	if (rc)
		fprintf(stderr, "nsaudit: sink %s: %s; retrying every second, queueing up "
			"to %zu records\n", sp->spec, strerror(-rc), s->qcap);
	else
		s->connected = true;
	/* the writer starts with the first record: after the caller dropped
	 * its capabilities (they are per thread), and in the thread that
	 * consumes records, so it inherits exactly what that one keeps */
	return s;
fail:
	sink_close(s, 0);
	return NULL;
}

void sink_emit(struct sink *s, struct json_object *rec)
{
	struct sink_msg m;

	if (!s)
		return;
	if (!s->thread_ok && !s->thread_failed)
		start_writer(s);
	m.data = format_for(s, rec, false, &m.len, &m.success);
	m.anchor_n = 0;
	if (!m.data) {
		__atomic_add_fetch(&s->lost, 1, __ATOMIC_RELAXED);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (s->qlen == s->qcap || s->closing) {
		pthread_mutex_unlock(&s->lock);
		free(m.data);
		__atomic_add_fetch(&s->lost, 1, __ATOMIC_RELAXED);
		return;
	}
	s->q[(s->qhead + s->qlen) % s->qcap] = m;
	s->qlen++;
	s->queued++;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void sink_emit_anchor(struct sink *s, struct json_object *anchor)
{
	struct json_object *n;
	struct sink_msg m;

	if (!s)
		return;
	if (!s->thread_ok && !s->thread_failed)
		start_writer(s);
	m.data = format_for(s, anchor, true, &m.len, &m.success);
	m.anchor_n = json_object_object_get_ex(anchor, "n", &n) ?
		     (uint64_t)json_object_get_int64(n) : 0;
	if (!m.data) {
		__atomic_add_fetch(&s->lost, 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&s->lock);
		anchor_lost(s, m.anchor_n);
		pthread_mutex_unlock(&s->lock);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (s->aqlen == SINK_ANCHOR_QUEUE) { /* superseded by this newer head */
		anchor_lost(s, s->aq[s->aqhead].anchor_n);
		free(s->aq[s->aqhead].data);
		s->aqhead = (s->aqhead + 1) % SINK_ANCHOR_QUEUE;
		s->aqlen--;
		s->anchors_superseded++;
	}
	s->aq[(s->aqhead + s->aqlen) % SINK_ANCHOR_QUEUE] = m;
	s->aqlen++;
	s->queued++;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void sink_get_stats(struct sink *s, struct sink_stats *st)
{
	pthread_mutex_lock(&s->lock);
	st->queued = s->queued;
	st->sent = s->sent;
	st->lost = __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
	st->depth = s->qlen;
	pthread_mutex_unlock(&s->lock);
}

uint64_t sink_take_anchor_losses(struct sink *s, uint64_t *first, uint64_t *last,
				 const char **spec)
{
	uint64_t n;

	pthread_mutex_lock(&s->lock);
	n = s->anc_lost;
	*first = s->anc_lost_first;
	*last = s->anc_lost_last;
	s->anc_lost = s->anc_lost_first = s->anc_lost_last = 0;
	pthread_mutex_unlock(&s->lock);
	*spec = s->sp.spec;
	return n;
}

uint64_t sink_loss_source(void *ctx, char *what, size_t len)
{
	struct sink *s = ctx;
	struct sink_stats st;

	sink_get_stats(s, &st);
	snprintf(what, len, "sink %s: queue full, receiver down or send failed", s->sp.spec);
	return st.lost;
}

void sink_close(struct sink *s, int timeout_ms)
{
	struct timespec until;

	if (!s)
		return;
	if (s->thread_ok) {
		pthread_mutex_lock(&s->lock);
		s->closing = true;
		s->deadline_ns = now_ns() + (int64_t)timeout_ms * 1000000;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
		until = ns_to_timespec(realtime_ns() +
				       (timeout_ms / 1000 + SEND_TIMEOUT_S + 1) * NSEC_PER_SEC);
		/* a send is bounded by SO_SNDTIMEO; past that, leave it behind */
		if (pthread_timedjoin_np(s->thread, NULL, &until)) {
			fprintf(stderr, "nsaudit: sink %s: writer did not finish\n", sink_name(s));
			return;	/* the thread still uses s: leak it rather than crash */
		}
	}
	while (s->qlen) {	/* what the deadline left unsent */
		free(s->q[s->qhead].data);
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
		s->lost++;
	}
	while (s->aqlen) {
		free(s->aq[s->aqhead].data);
		s->aqhead = (s->aqhead + 1) % SINK_ANCHOR_QUEUE;
		s->aqlen--;
		s->lost++;
	}
	unread_free(s);
	if (s->thread_ok)
		report(s, true);
	if (s->sp.kind == SINK_AUDIT && s->fd >= 0)
		audit_close(s->fd);
	else if (s->fd >= 0)
		close(s->fd);
	if (s->ai)
		freeaddrinfo(s->ai);
	free(s->q);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	pthread_cond_destroy(&s->idle);
	free(s);
}
