// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* tracer_ring_fill.c - how full the rings are, for --metrics-file. */
#include "tracer_impl.h"

bool tracer_ring_fill(const struct tracer *t, int i, uint64_t *used, uint64_t *size)
{
	const struct tracer_stream *s = &t->stream;
	const struct ringbuf_reader *r = i == 0 ? &s->rb : i == 1 ? &s->rb_rare : NULL;

	if (!r || !r->size)
		return false;
	*size = r->size;
	*used = ringbuf_reader_producer(r) - ringbuf_reader_released(r);
	return true;
}
