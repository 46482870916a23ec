// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * ringbuf.c - a BPF ring buffer read in batches (see ringbuf.h). The
 * layout is the kernel's (kernel/bpf/ringbuf.c) as libbpf maps it: one
 * read-write page with the consumer position, then a read-only page with
 * the producer position followed by the data area mapped twice, so that a
 * record that wraps around is still contiguous.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "ringbuf.h"

struct ringbuf {
	unsigned long *consumer_pos; /* the kernel's view of what we are done with */
	unsigned long *producer_pos;
	unsigned char *data;
	size_t mask, data_sz, page_sz;
	unsigned long read_pos; /* read by us, not yet released */
	int epoll_fd;
};

struct ringbuf *ringbuf_new(int map_fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	struct epoll_event ev = { .events = EPOLLIN };
	struct ringbuf *r;
	void *p;
	int e;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(map_fd, &info, &len))
		return NULL;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->epoll_fd = -1;
	r->page_sz = (size_t)sysconf(_SC_PAGESIZE);
	r->data_sz = info.max_entries;
	r->mask = info.max_entries - 1;
	p = mmap(NULL, r->page_sz, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	r->consumer_pos = p;
	p = mmap(NULL, r->page_sz + 2 * r->data_sz, PROT_READ, MAP_SHARED, map_fd,
		 (off_t)r->page_sz);
	if (p == MAP_FAILED)
		goto fail;
	r->producer_pos = p;
	r->data = (unsigned char *)p + r->page_sz;
	r->read_pos = __atomic_load_n(r->consumer_pos, __ATOMIC_ACQUIRE);
	r->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epoll_fd < 0 || epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, map_fd, &ev))
		goto fail;
	return r;
fail:
	e = errno;
	ringbuf_free(r);
	errno = e;
	return NULL;
}

void ringbuf_free(struct ringbuf *r)
{
	if (!r)
		return;
	if (r->consumer_pos)
		munmap(r->consumer_pos, r->page_sz);
	if (r->producer_pos)
		munmap(r->producer_pos, r->page_sz + 2 * r->data_sz);
	if (r->epoll_fd >= 0)
		close(r->epoll_fd);
	free(r);
}

int ringbuf_wait(struct ringbuf *r, int timeout_ms)
{
	struct epoll_event ev;

	return epoll_wait(r->epoll_fd, &ev, 1, timeout_ms) < 0 ? -errno : 0;
}

size_t ringbuf_read(struct ringbuf *r, size_t max, ringbuf_fn fn, void *ctx)
{
	unsigned long pos = r->read_pos, prod;
	size_t n = 0;

	prod = __atomic_load_n(r->producer_pos, __ATOMIC_ACQUIRE);
	while (n < max && pos < prod) {
		const __u32 *hdr = (const __u32 *)(r->data + (pos & r->mask));
		__u32 len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);

		if (len & BPF_RINGBUF_BUSY_BIT)
			break;	/* reserved, not yet submitted: later */
		pos += ((len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT)) +
			BPF_RINGBUF_HDR_SZ + 7) / 8 * 8;
		if (!(len & BPF_RINGBUF_DISCARD_BIT))
			fn(ctx, (const unsigned char *)hdr + BPF_RINGBUF_HDR_SZ, len);
		n++;
		if (pos >= prod)	/* the producer may have moved on meanwhile */
			prod = __atomic_load_n(r->producer_pos, __ATOMIC_ACQUIRE);
	}
	r->read_pos = pos;
	return n;
}

size_t ringbuf_size(const struct ringbuf *r)
{
	return r->data_sz;
}

void ringbuf_release(struct ringbuf *r)
{
	__atomic_store_n(r->consumer_pos, r->read_pos, __ATOMIC_RELEASE);
}
