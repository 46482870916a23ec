/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * sink.h - send every record, besides the command's own output, to the log
 * pipelines a site already runs:
 *
 *   --sink syslog[:ADDRESS]  RFC 5424 messages with the record as
 *                            structured data [nsaudit@32473 op="setns" ...]
 *                            ADDRESS: unix:PATH (default unix:/dev/log),
 *                            udp:HOST:PORT, tcp:HOST:PORT (RFC 6587
 *                            octet-counting framing)
 *   --sink audit             the kernel audit trail, through libaudit, as
 *                            AUDIT_USER messages (auditd, ausearch -m USER)
 *   --sink journal           systemd-journald, through libsystemd: every
 *                            field its own NSAUDIT_KEY journal field
 *   --sink file:PATH         JSON lines appended to PATH (0600)
 *   ...,format=json|ocsf|ecs the record as that JSON document (the flat
 *                            record, OCSF 1.8.0, ECS 8.17): a file sink's
 *                            lines, syslog's MSG, the journal's MESSAGE
 *
 * A sink never blocks its caller (the ring-buffer consumer of "nsaudit
 * trace" or "nsaudit record"): the record is formatted on the caller's
 * thread into a bounded queue, and a writer thread per sink sends it.
 * When the queue is full, or the receiver is down long enough to fill it,
 * records are dropped and counted: the sink sends a "lost" message with
 * the count once it can, and a line goes to stderr.
 *
 * Usage, for any subcommand:
 *   struct sinks sk = { 0 };
 *   sinks_set_opt(&sk, "sink", optarg, err, len);  per --sink (getopt_long)
 *   sinks_open(&sk, err, len);        before dropping capabilities
 *   sinks_emit(&sk, rec);             per record (rec is only read)
 *   sinks_close(&sk);                 flushes for up to 2 s, reports losses
 */
#ifndef NSAUDIT_SINK_H
#define NSAUDIT_SINK_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <json-c/json.h>

#include "optab.h"

#define SINKS_MAX 4
#define SINK_QUEUE_DEFAULT 8192		/* records */
#define SINK_ANCHOR_QUEUE 1024		/* anchors, in a lane of their own: at
					 * one a second, a receiver down for
					 * 17 min loses none */
#define SINK_FLUSH_MS 2000

enum sink_kind { SINK_SYSLOG_UNIX, SINK_SYSLOG_UDP, SINK_SYSLOG_TCP, SINK_AUDIT, SINK_JOURNAL,
		 SINK_FILE };

/* ",format=": what a record's message holds. NATIVE: the sink's own form
 * (syslog: the readable line; journal: the readable line; file: json). */
enum sink_fmt { SINK_FMT_NATIVE, SINK_FMT_JSON, SINK_FMT_OCSF, SINK_FMT_ECS };

/* A parsed --sink value. */
struct sink_spec {
	enum sink_kind kind;
	char spec[300];			/* as given, for messages */
	char path[108];			/* unix: socket path */
	char host[256];			/* udp/tcp */
	char port[16];
	char file[256];			/* file: where */
	enum sink_fmt fmt;
};

struct sink;

struct sinks {
	struct sink_spec specs[SINKS_MAX];
	struct sink *s[SINKS_MAX];
	int n;
};

/* Parse "syslog", "syslog:unix:/dev/log", "syslog:udp:127.0.0.1:514",
 * "syslog:tcp:[::1]:6514", "audit", "journal", "file:/PATH", each but audit
 * with an optional ",format=json|ocsf|ecs". 0, or -1 with a reason in err. */
int sink_parse(const char *spec, struct sink_spec *out, char *err, size_t errlen);

/* Open one sink: resolve, connect (a receiver that is down is retried in
 * the background), start its writer. queue_len 0: the default. */
struct sink *sink_open(const struct sink_spec *sp, size_t queue_len, char *err, size_t errlen);
/* Queue one record. Never blocks; a full queue counts the record lost. */
void sink_emit(struct sink *s, struct json_object *rec);
/* Queue one of the log's anchors in the anchor lane: sent before any
 * queued record, never dropped for records (its lag is one send, not the
 * record queue's length). Never blocks. */
void sink_emit_anchor(struct sink *s, struct json_object *anchor);
struct sink_stats {
	uint64_t queued;	/* accepted into the queue */
	uint64_t sent;		/* handed to the receiver */
	uint64_t lost;		/* dropped: queue full, receiver down, send failed */
	uint64_t depth;		/* in the queue now */
};
void sink_get_stats(struct sink *s, struct sink_stats *st);
/*
 * For tracer_add_loss_source(): the records sink ctx dropped so far, and
 * why. Those lost records go to the command's own output; the sink is
 * not sent them (it sends its own "lost" message once it can).
 */
uint64_t sink_loss_source(void *ctx, char *what, size_t len);
/*
 * The log's anchors this sink lost since the last call (its lane full of
 * newer ones while the receiver was down, a send that failed for good):
 * how many (0: none), the lowest and highest number (n) among them, and
 * the sink's spec. The recorder writes them into the log, so that verify
 * calls the gap a loss the log admitted, not a deletion.
 */
uint64_t sink_take_anchor_losses(struct sink *s, uint64_t *first, uint64_t *last,
				 const char **spec);
/* Send what is queued (for up to timeout_ms), stop, report losses, free. */
void sink_close(struct sink *s, int timeout_ms);

/* --sink as a row of a command's option table (optab.h), and applied by
 * its long name: 1 done, 0 not ours, -1 bad (err). */
#define SINK_OPT_SINK 0x140
extern const struct optab sink_optab[];
int sinks_set_opt(struct sinks *set, const char *name, const char *val, char *err, size_t errlen);
/* "--sink SPEC" at argv[0]: 1 consumed (*used = 2), 0 not ours, -1 bad. */
int sinks_parse_opt(struct sinks *set, int argc, char **argv, int *used, char *err,
		    size_t errlen);
int sinks_open(struct sinks *set, char *err, size_t errlen);
void sinks_emit(struct sinks *set, struct json_object *rec);
/* The log's anchor to every sink, in their anchor lanes (sink_emit_anchor). */
void sinks_emit_anchor(struct sinks *set, struct json_object *anchor);
void sinks_close(struct sinks *set);

/* The message formats (sink_syslog.c, sink_audit.c) and struct sink are in
 * sink_impl.h. */
#endif
