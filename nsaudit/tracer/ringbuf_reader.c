// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * ringbuf_reader.c - walk a BPF ring buffer in place, release its space
 * later (why this exists instead of libbpf's consumer: ringbuf_reader.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "ringbuf_reader.h"

/* The producer (BPF programs on other CPUs) publishes with release
 * semantics: the header's length, then the position. */
static inline unsigned long load_acquire_ul(const unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline uint32_t load_acquire_u32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

int ringbuf_reader_open(struct ringbuf_reader *r, int map_fd)
{
	struct bpf_map_info info;
	uint32_t info_len = sizeof(info);
	void *p;

	memset(r, 0, sizeof(*r));
	r->map_fd = -1;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(map_fd, &info, &info_len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1)))
		return -EINVAL;
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	r->size = info.max_entries;
	p = mmap(NULL, r->page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->consumer_pos = p;
	/* the producer page and the data area twice, read-only: the kernel
	 * refuses writable mappings of them */
	p = mmap(NULL, r->page + 2 * r->size, PROT_READ, MAP_SHARED, map_fd, (off_t)r->page);
	if (p == MAP_FAILED) {
		int e = errno;

		munmap(r->consumer_pos, r->page);
		r->consumer_pos = NULL;
		return -e;
	}
	r->producer_pos = p;
	r->data = (const char *)p + r->page;
	r->map_fd = map_fd;
	/* a pinned ring continues where the last reader released it */
	r->pos = load_acquire_ul(r->consumer_pos);
	r->prod = r->fetched = r->pos;
	return 0;
}

void ringbuf_reader_close(struct ringbuf_reader *r)
{
	if (r->consumer_pos)
		munmap(r->consumer_pos, r->page);
	if (r->producer_pos)
		munmap((void *)r->producer_pos, r->page + 2 * r->size);
	memset(r, 0, sizeof(*r));
	r->map_fd = -1;
}

/*
 * The records were written by other CPUs: each of their cache lines is a
 * miss here, and walking the headers is a chain of them (each gives the
 * next one's place). Asking for the lines up to RINGBUF_PREFETCH bytes
 * ahead of the walk (never past the producer: those lines are still being
 * written) overlaps the misses; the tracer reads a batch's headers first,
 * so its records are in cache when it copies them (perf: the header and
 * the copy were ~10 % of a flooded recorder's CPU).
 */
#define RINGBUF_PREFETCH 2048
#define CACHE_LINE 64

static void prefetch_ahead(struct ringbuf_reader *r)
{
	unsigned long end = r->pos + RINGBUF_PREFETCH;

	if (end > r->prod)
		end = r->prod;
	if (r->fetched < r->pos)
		r->fetched = r->pos & ~(unsigned long)(CACHE_LINE - 1);
	for (; r->fetched < end; r->fetched += CACHE_LINE)
		__builtin_prefetch(r->data + (r->fetched & (r->size - 1)));
}

int ringbuf_reader_next(struct ringbuf_reader *r, const void **data, uint32_t *len)
{
	if (!r->producer_pos)
		return 0;
	/*
	 * The producer position is read again only once the walk reached the
	 * last one read: its cache line is written by every reservation on
	 * the other CPUs, so reading it per record cost a cache miss each
	 * (perf: ~4 % of a flooded recorder's CPU). Records below a position
	 * once read are reserved; each header's acquire load still says
	 * whether its record was submitted.
	 */
	if (r->pos >= r->prod)
		r->prod = load_acquire_ul(r->producer_pos);
	prefetch_ahead(r);
	while (r->pos < r->prod) {
		const char *hdr = r->data + (r->pos & (r->size - 1));
		uint32_t h = load_acquire_u32((const uint32_t *)hdr);
		uint32_t n = h & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);

		/* reserved and not submitted yet: everything after it waits
		 * (the ring's space is given back in order) */
		if (h & BPF_RINGBUF_BUSY_BIT)
			return 0;
		r->pos += (n + BPF_RINGBUF_HDR_SZ + 7) & ~7ul;
		if (h & BPF_RINGBUF_DISCARD_BIT)
			continue;
		*data = hdr + BPF_RINGBUF_HDR_SZ;
		*len = n;
		return 1;
	}
	return 0;
}

void ringbuf_reader_release(struct ringbuf_reader *r)
{
	/* the records' bytes were read before the producer may reuse them */
	if (r->consumer_pos && *r->consumer_pos != r->pos)
		__atomic_store_n(r->consumer_pos, r->pos, __ATOMIC_RELEASE);
}

unsigned long ringbuf_reader_producer(const struct ringbuf_reader *r)
{
	return r->producer_pos ? load_acquire_ul(r->producer_pos) : 0;
}

unsigned long ringbuf_reader_released(const struct ringbuf_reader *r)
{
	return r->consumer_pos ? load_acquire_ul(r->consumer_pos) : 0;
}
