// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_json_plain.c - the one reader's short way through a plain line.
 *
 * Every line search's prefilter rejects and every record verify's fast
 * path takes is first checked to be one the full reader accepts
 * (audit_json_check, codec_json_read.c). That walk decodes each string
 * into a buffer, keeps each key in a set under a keyed hash and converts
 * each number with strtoull: ~2 us for a kernel record, five to ten times
 * what the search or the MAC costs around it (a search matching nothing
 * fell from 4.4 M to 0.45 M records/s when it came in).
 *
 * Nearly every line is plain: every byte of its body printable ASCII, no
 * backslash. Then each string ends at the next '"' and is its own value,
 * and the whole reading is the structure alone. This walk accepts a line
 * only when it is plain and flat -- members "key":value, the value a
 * string, an integer in its one spelling within int64 (uint64 when not
 * negative), true, false or null -- "seq" first with a positive integer,
 * no key twice, and "mac" only last (64 members and 8 KiB at most). The full reader accepts every such line and reads the same
 * seq (tests/unit/test_audit_reader.c compares the two on mutated
 * records). Anything else is not refused here but left to the full walk,
 * which decides and says why.
 */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h> /* AVX2 for the functions that ask for it (target) */
#define HAVE_AVX2_PATH 1
#endif

#include "codec.h"
#include "codec_impl.h"

#define PLAIN_MEMBERS AUDIT_FLAT_FIELDS /* more: the full walk (also flat's limit) */
#define PLAIN_WORDS 128	   /* a body of 8 KiB at most (longer: the full walk) */

typedef uint8_t v16 __attribute__((vector_size(16)));

/* Scalar: the bytes s[from..n) into *m (bits from % 64 on); false if one
 * is not plain. For lines shorter than a vector. */
static bool quote_bits_bytes(const char *s, size_t from, size_t n, uint64_t *m, uint64_t *d)
{
	size_t j;

	for (j = from; j < n; j++) {
		unsigned char c = (unsigned char)s[j];

		if (c < 0x20 || c > 0x7e || c == '\\')
			return false;
		*m |= (uint64_t)(c == '"') << (j % 64);
		*d |= (uint64_t)(c >= '0' && c <= '9') << (j % 64);
	}
	return true;
}

/*
 * The positions of the '"' of s[0..n) as bits (bit i of qm[i / 64]), and
 * whether every byte is 0x20..0x7e and none a backslash (false: not
 * plain). Sixteen bytes at a time (32 with AVX2, below): the quotes are
 * found in one pass over the line, so that the walk jumps from one to the
 * next without a scan whose end it waits for. The last part of a line
 * longer than a vector is read as the vector that ends with it, the bytes
 * seen already masked off (not a byte at a time).
 */
static bool quote_bits_sse(const char *s, size_t n, uint64_t *qm, uint64_t *dm)
{
	v16 bad = { 0 }, v;
	size_t i, r;
	uint64_t m = 0, d = 0, lo, hi, q, b, g;

	for (i = 0; i + 16 <= n; i += 16) {
		memcpy(&v, s + i, 16);
		/* (v - 0x20) wraps below 0x20: one unsigned compare for both ends */
		bad |= (v16)((v16)(v - 0x20) > 0x5e) | (v16)(v == '\\');
#ifdef __SSE2__
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8((__m128i)(v == '"')) << (i % 64);
		d |= (uint64_t)(uint16_t)_mm_movemask_epi8((__m128i)((v16)(v - '0') < 10))
		     << (i % 64);
#else
		for (size_t j = 0; j < 16; j++) {
			m |= (uint64_t)(s[i + j] == '"') << ((i + j) % 64);
			d |= (uint64_t)((uint8_t)(s[i + j] - '0') < 10) << ((i + j) % 64);
		}
#endif
		if (i % 64 == 48) { /* a word full: kept in a register till then */
			qm[i / 64] = m;
			dm[i / 64] = d;
			m = d = 0;
		}
	}
	memcpy(&lo, &bad, 8);
	memcpy(&hi, (const char *)&bad + 8, 8);
	if (lo | hi)
		return false;
	r = n - i;
	if (r && n >= 16) {
		/* the 16 bytes ending at n: the last r are new; i % 64 + r < 64 */
		memcpy(&v, s + n - 16, 16);
#ifdef __SSE2__
		q = (uint16_t)_mm_movemask_epi8((__m128i)(v == '"'));
		g = (uint16_t)_mm_movemask_epi8((__m128i)((v16)(v - '0') < 10));
		b = (uint16_t)_mm_movemask_epi8(
			(__m128i)((v16)((v16)(v - 0x20) > 0x5e) | (v16)(v == '\\')));
#else
		q = g = b = 0;
		for (size_t j = 0; j < 16; j++) {
			q |= (uint64_t)(v[j] == '"') << j;
			g |= (uint64_t)((uint8_t)(v[j] - '0') < 10) << j;
			b |= (uint64_t)((uint8_t)(v[j] - 0x20) > 0x5e || v[j] == '\\') << j;
		}
#endif
		if (b >> (16 - r))
			return false;
		m |= q >> (16 - r) << (i % 64);
		d |= g >> (16 - r) << (i % 64);
	} else if (!quote_bits_bytes(s, i, n, &m, &d)) {
		return false;
	}
	if (n % 64) {
		qm[n / 64] = m;
		dm[n / 64] = d;
	}
	return true;
}

#ifdef HAVE_AVX2_PATH
typedef uint8_t v32 __attribute__((vector_size(32)));

/* quote_bits_sse, 32 bytes at a time, for CPUs with AVX2 (checked once
 * at run time: the binary runs on any x86-64) */
__attribute__((target("avx2"))) static bool quote_bits_avx2(const char *s, size_t n,
							     uint64_t *qm, uint64_t *dm)
{
	v32 bad = { 0 }, v;
	size_t i, r;
	uint64_t m = 0, d = 0, q, b, g;

	for (i = 0; i + 32 <= n; i += 32) {
		memcpy(&v, s + i, 32);
		bad |= (v32)((v32)(v - 0x20) > 0x5e) | (v32)(v == '\\');
		m |= (uint64_t)(uint32_t)_mm256_movemask_epi8((__m256i)(v == '"')) << (i % 64);
		d |= (uint64_t)(uint32_t)_mm256_movemask_epi8((__m256i)((v32)(v - '0') < 10))
		     << (i % 64);
		if (i % 64 == 32) {
			qm[i / 64] = m;
			dm[i / 64] = d;
			m = d = 0;
		}
	}
	if (_mm256_movemask_epi8((__m256i)bad))
		return false;
	r = n - i;
	if (r && n >= 32) {
		/* the 32 bytes ending at n: the last r are new; i % 64 + r < 64 */
		memcpy(&v, s + n - 32, 32);
		q = (uint32_t)_mm256_movemask_epi8((__m256i)(v == '"'));
		g = (uint32_t)_mm256_movemask_epi8((__m256i)((v32)(v - '0') < 10));
		b = (uint32_t)_mm256_movemask_epi8(
			(__m256i)((v32)((v32)(v - 0x20) > 0x5e) | (v32)(v == '\\')));
		if (b >> (32 - r))
			return false;
		m |= q >> (32 - r) << (i % 64);
		d |= g >> (32 - r) << (i % 64);
	} else if (!quote_bits_bytes(s, i, n, &m, &d)) {
		return false;
	}
	if (n % 64) {
		qm[n / 64] = m;
		dm[n / 64] = d;
	}
	return true;
}
#endif

int codec_json_plain_bits(const char *s, size_t n, uint64_t *qm, uint64_t *dm, int how)
{
	uint64_t m = 0, d = 0;

	switch (how) {
	case 0: /* a word at a time */
		for (size_t i = 0; i < n; i += 64) {
			m = d = 0;
			if (!quote_bits_bytes(s + i, 0, n - i < 64 ? n - i : 64, &m, &d))
				return 0;
			qm[i / 64] = m;
			dm[i / 64] = d;
		}
		return 1;
	case 1:
		return quote_bits_sse(s, n, qm, dm);
#ifdef HAVE_AVX2_PATH
	case 2:
		if (__builtin_cpu_supports("avx2"))
			return quote_bits_avx2(s, n, qm, dm);
#endif
	}
	return -1;
}

static bool quote_bits(const char *s, size_t n, uint64_t *qm, uint64_t *dm)
{
#ifdef HAVE_AVX2_PATH
	if (__builtin_cpu_supports("avx2")) /* a bit libgcc set at start */
		return quote_bits_avx2(s, n, qm, dm);
#endif
	return quote_bits_sse(s, n, qm, dm);
}

/*
 * The quotes marked in qm[0..words), one after another (no list made
 * first: the walk takes each as it needs it); end once there are none.
 */
struct quotes {
	const uint64_t *qm;
	uint64_t m;	/* the current word's quotes not taken yet */
	size_t w, words;
	long end;
};

static inline long quote_next(struct quotes *q)
{
	long at;

	while (!q->m) {
		if (++q->w >= q->words)
			return q->end;
		q->m = q->qm[q->w];
	}
	at = (long)(q->w * 64 + (size_t)__builtin_ctzll(q->m));
	q->m &= q->m - 1;
	return at;
}

/* The keys of the line's members, in order. */
struct plain_keys {
	const char *k[PLAIN_MEMBERS];
	uint32_t len[PLAIN_MEMBERS];
	size_t n;
};

/*
 * Whether no key is there twice, by a 512-bit filter of their hashes: a
 * hit walks the keys before it, and a line whose keys make those walks
 * long is left to the full walk (false), so no line costs more than
 * linear here. Each key has 8 readable bytes from its start.
 */
static bool keys_hashed_unique(const struct plain_keys *ks)
{
	uint64_t seen[8] = { 0 }, w, t, bit;
	size_t i, j, compared = 0;
	unsigned int h;

	for (i = 0; i < ks->n; i++) {
		memcpy(&w, ks->k[i], 8);
		if (ks->len[i] < 8) {
			w &= (1ull << (8 * ks->len[i])) - 1;
		} else {
			memcpy(&t, ks->k[i] + ks->len[i] - 8, 8);
			w ^= t * 0xff51afd7ed558ccdull;
		}
		h = (unsigned int)(((w + ks->len[i]) * 0x9e3779b97f4a7c15ull) >> 55);
		bit = 1ull << (h & 63);
		if (seen[h >> 6] & bit) {
			for (j = 0; j < i; j++)
				if (ks->len[j] == ks->len[i] && !memcmp(ks->k[j], ks->k[i], ks->len[i]))
					return false;
			compared += i;
			if (compared > 8 * PLAIN_MEMBERS)
				return false;
		}
		seen[h >> 6] |= bit;
	}
	return true;
}

/*
 * The key lists of lines found to have no key twice, a few per thread
 * (verify reads on two): records of one kind have the same keys in the
 * same order, so a line whose keys are one of these lists, byte for byte,
 * has none twice either, found without hashing.
 */
#define SHAPES 8
#define SHAPE_KEYS 64
#define SHAPE_BYTES 1024

struct shape {
	uint32_t n;
	uint16_t off[SHAPE_KEYS], len[SHAPE_KEYS];
	char keys[SHAPE_BYTES + 8]; /* 8 readable bytes after each key */
	/* each key's first 8 bytes (masked to its length) and, 9 to 16 bytes
	 * long, its last 8: a key of the walk compared in a word or two */
	uint64_t mask[SHAPE_KEYS], head[SHAPE_KEYS], last[SHAPE_KEYS];
};

static __thread struct shape shapes[SHAPES];
static __thread unsigned int shape_next;
/* the one a line matched last: the next line's keys are compared with it
 * as the walk finds them (the same kind of record, most of the time) */
static __thread const struct shape *shape_last;

/* the mask of a key's first n bytes in a word read from its start */
static inline uint64_t key_mask(size_t n)
{
	if (n >= 8)
		return ~0ull;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (1ull << (8 * n)) - 1;
#else
	return ~((1ull << (8 * (8 - n))) - 1);
#endif
}

/* Is key k[0..n) (8 readable bytes) the shape's key i? */
static inline bool shape_key_is(const struct shape *sh, size_t i, const char *k, size_t n)
{
	uint64_t x;

	if (sh->len[i] != n)
		return false;
	memcpy(&x, k, 8);
	if ((x & sh->mask[i]) != sh->head[i])
		return false;
	if (n <= 8)
		return true;
	if (n <= 16) {
		memcpy(&x, k + n - 8, 8);
		return x == sh->last[i];
	}
	return !memcmp(sh->keys + sh->off[i], k, n);
}

static bool shape_is(const struct shape *sh, const struct plain_keys *ks)
{
	size_t i;

	if (sh->n != ks->n)
		return false;
	for (i = 0; i < ks->n; i++)
		if (!shape_key_is(sh, i, ks->k[i], ks->len[i]))
			return false;
	return true;
}

static void shape_keep(const struct plain_keys *ks)
{
	struct shape *sh = &shapes[shape_next++ % SHAPES];
	size_t i, off = 0;

	if (ks->n > SHAPE_KEYS)
		return;
	for (i = 0; i < ks->n; i++) {
		if (off + ks->len[i] > SHAPE_BYTES) {
			sh->n = 0;
			return;
		}
		memcpy(sh->keys + off, ks->k[i], ks->len[i]);
		sh->off[i] = (uint16_t)off;
		sh->len[i] = (uint16_t)ks->len[i];
		sh->mask[i] = key_mask(ks->len[i]);
		memcpy(&sh->head[i], ks->k[i], 8);
		sh->head[i] &= sh->mask[i];
		sh->last[i] = 0;
		if (ks->len[i] > 8)
			memcpy(&sh->last[i], ks->k[i] + ks->len[i] - 8, 8);
		off += ks->len[i];
	}
	sh->n = (uint32_t)ks->n;
	shape_last = sh;
}

/*
 * The first ks->n keys of a line, which were the shape's, into ks as a
 * copy (kbuf, SHAPE_BYTES + 8 bytes) once the line's next key is not:
 * keys_unique then sees them all (and may keep them as a shape, in any
 * slot, this one too: hence a copy, not the shape's bytes).
 */
static void shape_keys_so_far(const struct shape *sh, struct plain_keys *ks, char *kbuf)
{
	size_t i, off;

	off = ks->n ? (size_t)sh->off[ks->n - 1] + sh->len[ks->n - 1] : 0;
	memcpy(kbuf, sh->keys, off + 8);
	for (i = 0; i < ks->n; i++) {
		ks->k[i] = kbuf + sh->off[i];
		ks->len[i] = sh->len[i];
	}
}

/* Whether no key of the line is there twice. */
static bool keys_unique(const struct plain_keys *ks)
{
	size_t i;

	for (i = 0; i < SHAPES; i++)
		if (shape_is(&shapes[i], ks)) {
			shape_last = &shapes[i];
			return true;
		}
	if (!keys_hashed_unique(ks))
		return false;
	shape_keep(ks);
	return true;
}

/*
 * Whether the bytes at..at+n (1 <= n <= 20) of the line are all digits:
 * their bits in dm (quote_bits) all set. n < 64, so they lie in one word
 * or two, and the second is there whenever they reach into it.
 */
static inline __attribute__((always_inline)) bool all_digits(const uint64_t *dm, size_t at,
									size_t n)
{
	size_t w = at / 64, b = at % 64;
	uint64_t x = dm[w] >> b, want = (1ull << n) - 1;

	if (b + n > 64)
		x |= dm[w + 1] << (64 - b);
	return (x & want) == want;
}

/*
 * A value that is not a string, line[at..at+n): true, false, null, or an
 * integer in its one spelling (no leading zero, no -0) within what the
 * parser takes: int64, or uint64 when not negative. dm: the line's digits.
 */
static bool plain_scalar(const char *line, const uint64_t *dm, size_t at, size_t n)
{
	const char *v = line + at;
	size_t neg, dl;

	/* the usual one first: a count or an id, 1 to 19 digits (below 2^64) */
	if (n <= 19 && all_digits(dm, at, n))
		return *v != '0' || n == 1;
	neg = *v == '-';
	dl = n - neg;
	switch (*v) {
	case 't':
		return n == 4 && !memcmp(v, "true", 4);
	case 'f':
		return n == 5 && !memcmp(v, "false", 5);
	case 'n':
		return n == 4 && !memcmp(v, "null", 4);
	}
	if (n <= neg || dl > 20 || !all_digits(dm, at + neg, dl))
		return false;
	if (v[neg] == '0')
		return n == 1; /* 0; never 0123 or -0 */
	/* the longest: compared with the limit, digit by digit */
	if (neg)
		return dl < 19 || (dl == 19 && memcmp(v + 1, "9223372036854775808", 19) <= 0);
	return dl < 20 || memcmp(v, "18446744073709551615", 20) <= 0;
}

/* "seq":N first, N a positive integer: N, else 0 */
static uint64_t first_seq(const char *line, long k, long v, long e)
{
	uint64_t n = 0;

	if (k != 2 || memcmp(line + 2, "seq\"", 4) || v >= e || line[v] < '1' || line[v] > '9')
		return 0;
	for (; v < e; v++)
		n = n * 10 + (uint64_t)(line[v] - '0');
	return n;
}

int codec_json_plain_check(const char *line, size_t len, uint64_t *seq)
{
	uint64_t qm[PLAIN_WORDS], dm[PLAIN_WORDS];
	struct quotes qs;
	struct plain_keys ks;
	const struct shape *sh = shape_last; /* while every key so far is its */
	char kbuf[SHAPE_BYTES + 8];
	size_t tail, blen;
	long m = 1, k, kq, v, e, q, end;

	if (len < 2 || len > AUDIT_MAX_LINE || line[0] != '{' ||
	    codec_json_mac_tail(line, len, NULL, &tail))
		return -1;
	blen = len - tail; /* the body, up to the ',' of ,"mac":", hex and "} after */
	if (blen > PLAIN_WORDS * 64 || !quote_bits(line, blen, qm, dm))
		return -1;
	/* past the last quote: the ',' before it is the body's end */
	end = (long)blen + 1;
	qs = (struct quotes){ .qm = qm, .m = qm[0], .words = (blen + 63) / 64, .end = end };
	q = quote_next(&qs); /* the next quote not taken: a member's key opens there */
	ks.n = 0;
	*seq = 0;
	for (;;) { /* "key":value at m, then ',' or the MAC at blen */
		if (q != m)
			return -1;
		k = m + 1;
		kq = quote_next(&qs);
		if (kq == end || line[kq + 1] != ':')
			return -1;
		/* the shape's key: not empty, not "mac", none twice (the shape is
		 * a line's that passed), so nothing else to look at or keep */
		if (sh && ks.n < sh->n && shape_key_is(sh, ks.n, line + k, (size_t)(kq - k))) {
			ks.n++;
		} else {
			if (sh) /* the keys so far were the shape's */
				shape_keys_so_far(sh, &ks, kbuf);
			sh = NULL;
			if (kq == k || ks.n == PLAIN_MEMBERS ||
			    (kq - k == 3 && !memcmp(line + k, "mac", 3)))
				return -1;
			ks.k[ks.n] = line + k;
			ks.len[ks.n] = (uint32_t)(kq - k);
			ks.n++;
		}
		v = kq + 2;
		if (line[v] == '"') {
			if (v >= (long)blen || quote_next(&qs) != v || (e = quote_next(&qs)) == end)
				return -1;
			e++;
			q = quote_next(&qs);
		} else {
			/* up to the ',' before the next member's quote, or the body's end */
			q = quote_next(&qs);
			e = q - 1;
			if (e <= v || !plain_scalar(line, dm, (size_t)v, (size_t)(e - v)))
				return -1;
			if (ks.n == 1 && !(*seq = first_seq(line, k, v, e)))
				return -1;
		}
		if (ks.n == 1 && !*seq)
			return -1; /* "seq" first, a number */
		if (e == (long)blen) {
			if (q != end)
				return -1;
			if (sh && sh->n == ks.n)
				return 0;
			if (sh) /* the shape's first keys, not all of them */
				shape_keys_so_far(sh, &ks, kbuf);
			return keys_unique(&ks) ? 0 : -1;
		}
		if (line[e] != ',')
			return -1;
		m = e + 1;
	}
}

int audit_json_plain_check(const char *line, size_t len, uint64_t *seq)
{
	return codec_json_plain_check(line, len, seq);
}

int audit_rec_plain(const char *line, size_t len, struct audit_rec *r)
{
	size_t tail;

	memset(r, 0, sizeof(*r));
	if (codec_json_plain_check(line, len, &r->seq) || codec_json_mac_tail(line, len, r, &tail))
		return -1;
	r->raw = line;
	r->fmt = AUDIT_FMT_JSON;
	return 0;
}
