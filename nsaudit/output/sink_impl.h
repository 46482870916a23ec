/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * sink_impl.h - one open sink, shared by sink.c (queue and writer thread)
 * and sink_transport.c (sockets and the audit netlink). Not a public API:
 * sink.h is.
 */
#ifndef NSAUDIT_SINK_IMPL_H
#define NSAUDIT_SINK_IMPL_H

#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sink.h"

/* --- message formats ----------------------------------------------------- */
/*
 * The RFC 5424 message for a record: <PRI>1 TIMESTAMP HOSTNAME nsaudit
 * PROCID MSGID [nsaudit@32473 k="v" ...] text. PRI is authpriv.notice
 * (authpriv.warning for failures and losses). SD-PARAM values escape '"',
 * '\' and ']'; control bytes and bytes that are not UTF-8 become U+FFFD,
 * with the exact bytes in KEY_hex.
 * mkey (may be NULL) ends the SD element as sink_run="..." sink_seq="N": what a
 * collector deduplicates by (packaging/rsyslog/nsaudit-relp-dedup).
 * A malloc'd string (no trailing newline), *len its length.
 */
struct sink_msg_key {
	const char *run;	/* 16 hex digits, random per sink and start */
	uint64_t seq;		/* 1, 2, ... per message of that sink */
};
char *syslog_format(struct json_object *rec, const char *hostname, int pid,
		    const struct sink_msg_key *mkey, const char *doc, size_t *len);
/*
 * rec as the JSON document fmt names (SINK_FMT_JSON: the flat record;
 * OCSF; ECS), one line without its newline, NUL-terminated, malloc'd;
 * NULL on ENOMEM. syslog_format() with doc: MSG is doc, and the structured
 * data holds only op, host, machine_id, boot_id and the key.
 */
char *sink_doc(struct json_object *rec, enum sink_fmt fmt, size_t *len);
/* Append an SD-PARAM value with RFC 5424 escaping. */
void sd_escape(const char *in, size_t n, char *out, size_t outlen);

/*
 * The text of an AUDIT_USER message for a record: key=value pairs, strings
 * through audit_encode_nv_string (quoted, or hex when they hold spaces,
 * quotes or control bytes), the actor's pid/uid/auid/exe renamed
 * actor_pid/... so they do not collide with the fields auditd adds, and
 * result as "exit" (the audit name of a syscall's return value).
 * *success: the operation succeeded. malloc'd.
 */
char *audit_format(struct json_object *rec, bool *success);

struct sink_msg {
	char *data;
	size_t len;
	bool success;
	uint64_t anchor_n;	/* an anchor's number (n); 0: a record */
};

/*
 * sink_journal.c: the journal entry for a record as "KEY=value" strings,
 * each ending in a NUL (MESSAGE, PRIORITY, MESSAGE_ID, NSAUDIT_OP, ...;
 * MESSAGE is doc when not NULL, else the readable line),
 * malloc'd; journal_send() hands them to sd_journal_sendv(). 0 or -errno;
 * journal_probe(): whether journald's socket is there (0) or not.
 */
char *journal_format(struct json_object *rec, const char *doc, size_t *len);
int journal_send(const struct sink_msg *m);
int journal_probe(void);

/* --- one open sink -------------------------------------------------------- */

#define SEND_TIMEOUT_S 2		/* a send that takes longer fails (counted) */

struct sink {
	struct sink_spec sp;
	char hostname[256];
	int pid;
	int fd;				/* socket, or the audit netlink fd */
	struct addrinfo *ai;		/* udp/tcp: resolved address */
	bool connected;
	int64_t retry_ns;
	pthread_t thread;
	bool thread_ok, thread_failed;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* writer: work to do or closing */
	pthread_cond_t idle;		/* close: queue drained */
	struct sink_msg *q;
	size_t qcap, qhead, qlen;
	/* the log's anchors: a lane of their own, sent before any record and
	 * never dropped behind records (a full lane drops its oldest: a newer
	 * anchor names a later head of the same chain) */
	struct sink_msg aq[SINK_ANCHOR_QUEUE];
	size_t aqhead, aqlen;
	uint64_t anchors_superseded;
	/* anchors this sink lost (lane full, a send that failed for good) that
	 * the log has not been told of yet: how many, lowest and highest n */
	uint64_t anc_lost, anc_lost_first, anc_lost_last;
	bool closing, busy;
	int64_t deadline_ns;		/* closing: give up after this */
	uint64_t queued, sent, lost, lost_told, lost_reported;
	int64_t reported_ns;
	int last_errno;
	/* syslog: every message's (run, seq), so that a receiver that gets
	 * one twice (RELP resends what it had not acknowledged) can tell */
	char run[17];
	uint64_t msg_seq;
	/* file: when the path was last compared with the open file (rotated
	 * or removed: opened again) */
	int64_t file_checked_ns;
	/* unix syslog: sent, and maybe not yet read by the receiver (a ring,
	 * oldest first; sink_unread.c), uread of them seen read */
	struct sink_msg *unread;
	size_t uhead, ulen, uread;
};

/* more than a receiver's socket queues (net.unix.max_dgram_qlen: 10, or
 * 512 as systemd sets it), each counted by its length alone */
#define SINK_UNREAD_MAX 2048

/* sink_transport.c, called on the writer thread: 0 or -errno */
int transport_connect(struct sink *s);
int transport_send(struct sink *s, const struct sink_msg *m);
/* whether a send error means the connection is gone (reconnect) */
bool reconnect_on(int err);

/* sink_unread.c, on the writer thread. unread_sent: m was sent (its data
 * is kept, or freed); unread_again (lock held): the receiver went away,
 * what it may not have read goes first in the queues again; unread_free:
 * at close. */
void unread_sent(struct sink *s, struct sink_msg *m);
void unread_again(struct sink *s);
void unread_free(struct sink *s);
/* sink.c, lock held: anchor n (0: a record) is lost, the log will be told */
void anchor_lost(struct sink *s, uint64_t n);

#endif
