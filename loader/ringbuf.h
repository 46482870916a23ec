/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ringbuf.h - drain a BPF ring buffer in batches, releasing the space only
 * once the caller has committed what it read.
 *
 * libbpf's ring_buffer__consume() gives each record back to the kernel as
 * soon as its callback returns. A recorder that writes whole batches
 * (one write(2) for hundreds of records) must not: if it is killed with a
 * batch formatted but not yet written, the records would be gone from the
 * ring and from the log. Here the consumer position moves only in
 * ringbuf_release(), after the batch is in the file; a recorder restarted
 * on the pinned ring reads the rest again (and skips by kseq what was
 * written, see tracer_resume()).
 */
#ifndef NSAUDIT_RINGBUF_H
#define NSAUDIT_RINGBUF_H

#include <stddef.h>

struct ringbuf;

/* Called per record, data valid until ringbuf_release(). */
typedef void (*ringbuf_fn)(void *ctx, const void *data, size_t len);

/* Map the ring of map_fd (not owned). NULL with errno on failure. */
struct ringbuf *ringbuf_new(int map_fd);
void ringbuf_free(struct ringbuf *r);

/* Wait up to timeout_ms for the kernel's wakeup; 0, or -errno (-EINTR too). */
int ringbuf_wait(struct ringbuf *r, int timeout_ms);

/*
 * Hand up to max committed records after what was read before to fn,
 * without releasing them. Returns how many ring entries were read
 * (discarded ones included); fewer than max means the ring is empty now.
 */
size_t ringbuf_read(struct ringbuf *r, size_t max, ringbuf_fn fn, void *ctx);

/* Bytes of the data area. */
size_t ringbuf_size(const struct ringbuf *r);

/* Give everything read so far back to the kernel. */
void ringbuf_release(struct ringbuf *r);

#endif
