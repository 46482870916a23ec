// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_batch.c - the recorder's fast path: records formatted straight into
 * a batch buffer (audit/fields.h, no object tree), chained and MAC'd there,
 * and written with one write(2) per batch (audit_log_commit).
 *
 * Only the common case is done here: a segment open, nothing owed (header,
 * drop, missing, a full-disk count), no rotation due. Everything else goes
 * the per-record way (alog_emit() in log_rotate.c, with the full-disk policies),
 * so the bytes on disk are those of that path in every case: the batch is
 * written first, and the record is made into an object with the same
 * fields. A batch whose write fails is cut off the segment again, the chain
 * is wound back to where the batch began, and its records go through alog_emit()
 * one by one, as they would have without batching.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "codec.h"
#include "fields.h"
#include "log.h"
#include "log_impl.h"

/* Write the batch before it grows past this (records are ~500 bytes). */
#define BATCH_BYTES (1u << 20)

/* The per-record way for one record: its fields as an object, then alog_emit(). */
static int emit_fields(struct audit_log *l, audit_fields_fn fn, const void *ctx)
{
	struct json_object *o = json_object_new_object();
	struct audit_fields f;
	int rc;

	if (!o) {
		alog_seterr(l, "out of memory");
		return -1;
	}
	json_object_object_add(o, "seq", json_object_new_uint64(0));
	audit_fields_object(&f, o);
	fn(&f, ctx);
	rc = alog_emit(l, o);
	json_object_put(o);
	return rc;
}

/*
 * The batch could not be written (a full disk, a hard error): alog_write_line()
 * left the segment as it was before it. Wind the chain back and give each
 * record to alog_emit(), which applies --on-full per record. The lines are
 * ours, so parsing them back gives the records exactly.
 */
static int replay(struct audit_log *l, char *p, size_t len)
{
	char err[160];
	int rc = 0;

	l->seq = l->batch_seq0;
	memcpy(l->mac, l->batch_mac0, sizeof(l->mac));
	while (len && !rc) {
		char *nl = memchr(p, '\n', len);
		size_t n = nl ? (size_t)(nl - p) : len;
		struct audit_rec r;

		if (audit_rec_parse(p, n, &r, err, sizeof(err))) {
			/* cannot happen: our own line */
			alog_seterr(l, "replaying a batch: %s", err);
			return -1;
		}
		rc = alog_emit(l, r.obj);
		audit_rec_free(&r);
		p += n + (nl ? 1 : 0);
		len -= n + (nl ? 1 : 0);
	}
	return rc;
}

int audit_log_commit(struct audit_log *l)
{
	struct sbuf b = l->batch;
	uint64_t n = l->batch_n;
	int rc;

	if (!b.len)
		return 0;
	/* the buffer is reused: keep it, empty, whatever happens below */
	l->batch.len = 0;
	l->batch_n = 0;
	rc = alog_write_line(l, b.p, b.len);
	if (!rc) {
		l->seg_size += b.len;
		l->seg_records += n;
		l->dirty = true;
		return 0;
	}
	if (rc != -ENOSPC && rc != -EDQUOT)
		alog_seterr(l, "writing segment %u: %s", l->segno, strerror(-rc));
	/* alog_emit() never appends to the batch: its bytes stay put meanwhile */
	return replay(l, b.p, b.len);
}

int audit_log_append_fields(struct audit_log *l, int64_t time_ns, audit_fields_fn fn,
			    const void *ctx)
{
	uint8_t mac[AUDIT_MAC_LEN];
	struct audit_fields f;
	size_t start = l->batch.len;

	/* anything owed or unusual: the per-record way, after the batch */
	if (l->fd < 0 || l->stopped || l->suspended || l->nheld || l->need_header ||
	    l->pending_drop || l->pending_moved || l->run_pending ||
	    l->o.sync == AUDIT_SYNC_EVERY) {
		if (audit_log_commit(l))
			return -1;
		return emit_fields(l, fn, ctx);
	}
	if (!l->batch_n) {
		l->batch_seq0 = l->seq;
		memcpy(l->batch_mac0, l->mac, sizeof(l->mac));
	}
	audit_line_begin(&l->batch, l->o.format, l->seq, time_ns);
	audit_fields_line(&f, &l->batch, l->o.format);
	fn(&f, ctx);
	if (audit_line_end_chain(&l->batch, start, l->o.format, &l->chain, l->seq, l->mac, mac)) {
		alog_seterr(l, "record %" PRIu64 ": %s", l->seq,
			    l->batch.oom ? "out of memory" : "longer than the 1 MiB line limit");
		l->batch.len = start; /* the records before it are whole */
		l->batch.oom = false;
		return -1;
	}
	/* past --max-size: a new segment first, the per-record way (as alog_write_rec) */
	if (l->seg_records + l->batch_n > (l->seg_base ? l->seg_base : 1) &&
	    l->seg_size + l->batch.len > l->o.max_size) {
		l->batch.len = start;
		if (audit_log_commit(l))
			return -1;
		return emit_fields(l, fn, ctx);
	}
	l->seq++;
	memcpy(l->mac, mac, sizeof(mac));
	l->batch_n++;
	if (l->batch.len >= BATCH_BYTES)
		return audit_log_commit(l);
	return 0;
}
