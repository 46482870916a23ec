// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * needle.c - a fixed string looked for in log lines (needle.h).
 *
 * Search's prefilter looks for a needle such as `"comm":"X"` in every line
 * of a log; glibc's memmem took an eighth of a search matching nothing
 * (~45 ns of a 520-byte line). Here a candidate start is a position where
 * two of the needle's bytes, the two least common in a record (a quote is
 * everywhere, a capital or a '=' nearly nowhere), both sit at their
 * offsets: 32 positions at a time with AVX2 (checked at run time), 16 with
 * SSE2, a byte at a time otherwise; only candidates are compared whole.
 * The last positions of a line longer than a vector are taken as the
 * vector that ends with them, those seen already masked off. No byte
 * outside h[0..len) is read.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
#endif

#include "needle.h"

/* How common a byte is in a record, roughly: higher, more common. */
static unsigned int byte_rank(unsigned char c)
{
	static const char letters[] = "etaonisrhldcumfpgwybvkxjqz"; /* most common first */
	const char *l;

	switch (c) {
	case '"':
		return 255;
	case ':':
	case ',':
		return 250;
	case '_':
		return 200;
	case '-':
	case '/':
	case '.':
		return 150;
	}
	if (c >= '0' && c <= '9')
		return 240;
	if (c >= 'a' && c <= 'z' && (l = strchr(letters, c)))
		return 230 - 4 * (unsigned int)(l - letters);
	return 50;
}

void audit_needle_init(struct audit_needle *nd, const char *s, size_t n)
{
	size_t i, a = 0, b = 0;
	unsigned int ra = 256, rb = 256, r;

	for (i = 0; i < n; i++) {
		r = byte_rank((unsigned char)s[i]);
		if (r < ra) {
			b = a, rb = ra;
			a = i, ra = r;
		} else if (r < rb) {
			b = i, rb = r;
		}
	}
	nd->s = s;
	nd->n = n;
	nd->a = a;
	nd->b = n > 1 ? b : a;
	if (n > 1 && nd->b == nd->a) /* every byte as common as the first */
		nd->b = n - 1;
}

/* the needle at h + j (j + n <= len: in bounds) */
static inline bool at(const struct audit_needle *nd, const char *h, size_t j)
{
	return !memcmp(h + j, nd->s, nd->n);
}

/* Positions from..ns-1 (ns = len - n + 1), a byte at a time. */
static const char *find_bytes(const struct audit_needle *nd, const char *h, size_t from,
			      size_t ns)
{
	char ca = nd->s[nd->a], cb = nd->s[nd->b];
	size_t j;

	for (j = from; j < ns; j++)
		if (h[j + nd->a] == ca && h[j + nd->b] == cb && at(nd, h, j))
			return h + j;
	return NULL;
}

/* The candidates of bit mask m (bit k: position base + k), first first. */
static inline const char *first_of(const struct audit_needle *nd, const char *h, size_t base,
				   uint32_t m)
{
	while (m) {
		size_t j = base + (size_t)__builtin_ctz(m);

		if (at(nd, h, j))
			return h + j;
		m &= m - 1;
	}
	return NULL;
}

#ifdef __SSE2__
static const char *find_sse2(const struct audit_needle *nd, const char *h, size_t ns)
{
	const __m128i A = _mm_set1_epi8(nd->s[nd->a]), B = _mm_set1_epi8(nd->s[nd->b]);
	const char *ha = h + nd->a, *hb = h + nd->b, *r;
	size_t i;
	uint32_t m;

	/* bytes read: up to ha + ns - 1 + ... <= h + len - 1 (a, b < n) */
	for (i = 0; i + 16 <= ns; i += 16) {
		m = (uint32_t)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(ha + i)), A),
				      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(hb + i)), B)));
		if (m && (r = first_of(nd, h, i, m)))
			return r;
	}
	if (i == ns)
		return NULL;
	if (ns < 16)
		return find_bytes(nd, h, i, ns);
	/* the 16 positions ending at ns: those from i on are new */
	m = (uint32_t)_mm_movemask_epi8(_mm_and_si128(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(ha + ns - 16)), A),
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(hb + ns - 16)), B)));
	m = m >> (i - (ns - 16)) << (i - (ns - 16));
	return first_of(nd, h, ns - 16, m);
}
#endif

#ifdef HAVE_AVX2_PATH
__attribute__((target("avx2"))) static const char *find_avx2(const struct audit_needle *nd,
							      const char *h, size_t ns)
{
	const __m256i A = _mm256_set1_epi8(nd->s[nd->a]), B = _mm256_set1_epi8(nd->s[nd->b]);
	const char *ha = h + nd->a, *hb = h + nd->b, *r;
	size_t i;
	uint32_t m;

	for (i = 0; i + 32 <= ns; i += 32) {
		m = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(ha + i)), A),
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(hb + i)), B)));
		if (m && (r = first_of(nd, h, i, m)))
			return r;
	}
	if (i == ns)
		return NULL;
	if (ns < 32)
		return find_sse2(nd, h, ns); /* the shorter vectors, from 0 */
	m = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(ha + ns - 32)), A),
		_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(hb + ns - 32)), B)));
	m = m >> (i - (ns - 32)) << (i - (ns - 32));
	return first_of(nd, h, ns - 32, m);
}
#endif

const char *audit_needle_find(const struct audit_needle *nd, const char *h, size_t len)
{
	size_t ns;

	if (!nd->n)
		return h;
	if (nd->n > len)
		return NULL;
	ns = len - nd->n + 1; /* the positions where it may start */
#ifdef HAVE_AVX2_PATH
	if (__builtin_cpu_supports("avx2")) /* a bit libgcc set at start */
		return find_avx2(nd, h, ns);
#endif
#ifdef __SSE2__
	return find_sse2(nd, h, ns);
#else
	return find_bytes(nd, h, 0, ns);
#endif
}

int audit_needle_find_how(const struct audit_needle *nd, const char *h, size_t len, int how,
			  const char **r)
{
	size_t ns = nd->n > len ? 0 : len - nd->n + 1;

	*r = NULL;
	if (!nd->n) {
		*r = h;
		return how >= 0 && how <= 2 ? 0 : -1;
	}
	switch (how) {
	case 0:
		*r = ns ? find_bytes(nd, h, 0, ns) : NULL;
		return 0;
#ifdef __SSE2__
	case 1:
		*r = ns ? find_sse2(nd, h, ns) : NULL;
		return 0;
#endif
#ifdef HAVE_AVX2_PATH
	case 2:
		if (!__builtin_cpu_supports("avx2"))
			return -1;
		*r = ns ? find_avx2(nd, h, ns) : NULL;
		return 0;
#endif
	}
	return -1;
}
