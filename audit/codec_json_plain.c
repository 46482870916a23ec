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

#include "codec.h"
#include "codec_impl.h"

#define PLAIN_MEMBERS AUDIT_FLAT_FIELDS /* more: the full walk (also flat's limit) */
#define PLAIN_WORDS 128	   /* a body of 8 KiB at most (longer: the full walk) */
#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

typedef uint8_t v16 __attribute__((vector_size(16)));

/*
 * The positions of the '"' of s[0..n) as bits (bit i of qm[i / 64]), and
 * whether every byte is 0x20..0x7e and none a backslash (false: not
 * plain). Sixteen bytes at a time: the quotes are found in one pass over
 * the line, so that the walk below jumps from one to the next without a
 * scan whose end it waits for.
 */
static bool quote_bits(const char *s, size_t n, uint64_t *qm)
{
	v16 bad = { 0 }, v;
	size_t i, j;
	uint64_t m = 0, lo, hi;

	for (i = 0; i + 16 <= n; i += 16) {
		memcpy(&v, s + i, 16);
		/* (v - 0x20) wraps below 0x20: one unsigned compare for both ends */
		bad |= (v16)((v16)(v - 0x20) > 0x5e) | (v16)(v == '\\');
#ifdef __SSE2__
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8((__m128i)(v == '"')) << (i % 64);
#else
		for (j = 0; j < 16; j++)
			m |= (uint64_t)(s[i + j] == '"') << ((i + j) % 64);
#endif
		if (i % 64 == 48) { /* a word full: kept in a register till then */
			qm[i / 64] = m;
			m = 0;
		}
	}
	memcpy(&lo, &bad, 8);
	memcpy(&hi, (const char *)&bad + 8, 8);
	if (lo | hi)
		return false;
	for (j = i; j < n; j++) {
		unsigned char c = (unsigned char)s[j];

		if (c < 0x20 || c > 0x7e || c == '\\')
			return false;
		m |= (uint64_t)(c == '"') << (j % 64);
	}
	if (n % 64)
		qm[n / 64] = m;
	return true;
}

/* The offsets of the quotes marked in qm[0..words), in order: how many. */
static size_t quote_list(const uint64_t *qm, size_t words, uint32_t *at)
{
	size_t w, n = 0;

	for (w = 0; w < words; w++)
		for (uint64_t m = qm[w]; m; m &= m - 1)
			at[n++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(m));
	return n;
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
};

static __thread struct shape shapes[SHAPES];
static __thread unsigned int shape_next;

/* a[0..n) == b[0..n), both with 8 readable bytes */
static inline bool key_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	if (n > 8)
		return !memcmp(a, b, n);
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return !((x ^ y) & (n == 8 ? ~0ull : (1ull << (8 * n)) - 1));
#else
	return !((x ^ y) & (n == 8 ? ~0ull : ~((1ull << (8 * (8 - n))) - 1)));
#endif
}

static bool shape_is(const struct shape *sh, const struct plain_keys *ks)
{
	size_t i;

	if (sh->n != ks->n)
		return false;
	for (i = 0; i < ks->n; i++)
		if (sh->len[i] != ks->len[i] || !key_eq(sh->keys + sh->off[i], ks->k[i], ks->len[i]))
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
		off += ks->len[i];
	}
	sh->n = (uint32_t)ks->n;
}

/* Whether no key of the line is there twice. */
static bool keys_unique(const struct plain_keys *ks)
{
	size_t i;

	for (i = 0; i < SHAPES; i++)
		if (shape_is(&shapes[i], ks))
			return true;
	if (!keys_hashed_unique(ks))
		return false;
	shape_keep(ks);
	return true;
}

/*
 * Whether d[0..n) (1 <= n <= 24, plain bytes, 24 readable) are all
 * digits, 8 at a time: on plain bytes (< 0x7f) adding 0x50 sets a byte's
 * high bit from '0' up and adding 0x46 from ':' up, with no carry out.
 */
static bool all_digits(const char *d, size_t n)
{
	uint64_t w, nd = 0;
	size_t i;

	for (i = 0; i < n; i += 8) {
		memcpy(&w, d + i, 8);
		w = ~((w + ONES * 0x50) & ~(w + ONES * 0x46)) & HIGH; /* not a digit */
		if (n - i < 8)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			w &= (1ull << (8 * (n - i))) - 1;
#else
			w &= ~((1ull << (8 * (8 - (n - i)))) - 1);
#endif
		nd |= w;
	}
	return !nd;
}

/*
 * A value that is not a string, v[0..n): true, false, null, or an integer
 * in its one spelling (no leading zero, no -0) within what the parser
 * takes: int64, or uint64 when not negative.
 */
static bool plain_scalar(const char *v, size_t n)
{
	size_t neg = *v == '-', dl = n - neg;

	switch (*v) {
	case 't':
		return n == 4 && !memcmp(v, "true", 4);
	case 'f':
		return n == 5 && !memcmp(v, "false", 5);
	case 'n':
		return n == 4 && !memcmp(v, "null", 4);
	}
	if (n <= neg || dl > 20 || !all_digits(v + neg, dl))
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
	uint32_t at[PLAIN_WORDS * 64 + 1];
	uint64_t qm[PLAIN_WORDS];
	struct plain_keys ks;
	struct audit_rec r;
	size_t tail, blen, nq, i = 0;
	long m = 1, k, kq, v, e;

	if (len < 2 || len > AUDIT_MAX_LINE || line[0] != '{' ||
	    codec_json_mac_tail(line, len, &r, &tail))
		return -1;
	blen = len - tail; /* the body, up to the ',' of ,"mac":", hex and "} after */
	if (blen > PLAIN_WORDS * 64 || !quote_bits(line, blen, qm))
		return -1;
	nq = quote_list(qm, (blen + 63) / 64, at);
	at[nq] = (uint32_t)blen + 1; /* past the last: the ',' before it is the body's end */
	ks.n = 0;
	*seq = 0;
	for (;;) { /* "key":value at m, then ',' or the MAC at blen */
		if (i + 2 > nq || at[i] != m)
			return -1;
		k = m + 1;
		kq = at[i + 1];
		i += 2;
		if (kq == k || line[kq + 1] != ':' || ks.n == PLAIN_MEMBERS ||
		    (kq - k == 3 && !memcmp(line + k, "mac", 3)))
			return -1;
		ks.k[ks.n] = line + k;
		ks.len[ks.n++] = (uint32_t)(kq - k);
		v = kq + 2;
		if (line[v] == '"') {
			if (i + 2 > nq || at[i] != v)
				return -1;
			e = at[i + 1] + 1;
			i += 2;
		} else {
			/* up to the ',' before the next member's quote, or the body's end */
			e = at[i] - 1;
			if (e <= v || !plain_scalar(line + v, (size_t)(e - v)))
				return -1;
			if (ks.n == 1 && !(*seq = first_seq(line, k, v, e)))
				return -1;
		}
		if (ks.n == 1 && !*seq)
			return -1; /* "seq" first, a number */
		if (e == (long)blen)
			return i == nq && keys_unique(&ks) ? 0 : -1;
		if (line[e] != ',')
			return -1;
		m = e + 1;
	}
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
