/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ringbuf_reader.h - a consumer of one BPF ring buffer map that gives the
 * ring its space back only when told to.
 *
 * Why not libbpf's ring_buffer__consume(): libbpf 1.1 advances the ring's
 * consumer position as soon as its callback returns, so a record lives
 * only in the reader's memory from then until it is written. The recorder
 * keeps its rings pinned so that a restarted recorder continues where a
 * killed one stopped; with libbpf's consumer, a SIGKILL between the
 * callback and the log write lost whatever had been taken out of the ring,
 * without a lost record. Here the reader walks the records in place (no
 * copy: pointers into the mapping stay valid until released), and moves
 * the consumer position only in ringbuf_reader_release(), which the tracer
 * calls after the records were handed to write(2). Newer libbpf has
 * ring__consume_n() and friends but still no deferred release.
 *
 * The mapping is the kernel's ring buffer layout (linux/bpf.h,
 * kernel/bpf/ringbuf.c): page 0 the consumer position (read-write), page 1
 * the producer position, then the data area mapped twice in a row (read
 * only) so that a record wrapping past the end is contiguous. Each record
 * starts with an 8-byte header: a 32-bit length with BPF_RINGBUF_BUSY_BIT
 * (reserved, not yet submitted) and BPF_RINGBUF_DISCARD_BIT, and the
 * record's page offset; records are 8-byte aligned.
 */
#ifndef NSAUDIT_RINGBUF_READER_H
#define NSAUDIT_RINGBUF_READER_H

#include <stddef.h>
#include <stdint.h>

struct ringbuf_reader {
	int map_fd;
	size_t page;			   /* page size */
	size_t size;			   /* data area: a power of two */
	unsigned long *consumer_pos;	   /* page 0 of the map, shared, read-write */
	const unsigned long *producer_pos; /* page 1, read-only */
	const char *data;		   /* 2 * size bytes after it */
	unsigned long pos;		   /* walked up to here, not yet released */
	unsigned long prod;		   /* the producer position last read */
	unsigned long fetched;		   /* prefetched up to here */
};

/* Map the ring of map_fd (a BPF_MAP_TYPE_RINGBUF); 0 or -errno. */
int ringbuf_reader_open(struct ringbuf_reader *r, int map_fd);
void ringbuf_reader_close(struct ringbuf_reader *r);

/*
 * The next submitted record after the walk position: 1 with *data and *len
 * (valid until ringbuf_reader_release()), 0 when there is none yet (caught
 * up with the producer, or the next one is still being written). Discarded
 * records are stepped over.
 */
int ringbuf_reader_next(struct ringbuf_reader *r, const void **data, uint32_t *len);

/* Give the ring the space of everything walked so far. */
void ringbuf_reader_release(struct ringbuf_reader *r);

/* Where the producer is now (a position to compare with released()). */
unsigned long ringbuf_reader_producer(const struct ringbuf_reader *r);
/* Where the ring's space is given back up to. */
unsigned long ringbuf_reader_released(const struct ringbuf_reader *r);

#endif
