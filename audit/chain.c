// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chain.c - the chained record MAC, key ids and hex. Key files are
 * seal.c's, the state dotfile state.c's: both use this, never the other
 * way round.
 */
#include <string.h>

#include <sodium.h>

#include "chain.h"

/* a byte's two digits at once: every record's MAC is written through here */
#define HEX2(i) "0123456789abcdef"[(i) >> 4], "0123456789abcdef"[(i) & 15]
#define HEX2x4(i) HEX2(i), HEX2((i) + 1), HEX2((i) + 2), HEX2((i) + 3)
#define HEX2x16(i) HEX2x4(i), HEX2x4((i) + 4), HEX2x4((i) + 8), HEX2x4((i) + 12)
#define HEX2x64(i) HEX2x16(i), HEX2x16((i) + 16), HEX2x16((i) + 32), HEX2x16((i) + 48)
static const char hexpair[512] = { HEX2x64(0), HEX2x64(64), HEX2x64(128), HEX2x64(192) };

void audit_hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		memcpy(out + 2 * i, hexpair + 2 * b[i], 2);
	out[2 * n] = '\0';
}

/* lowercase hex digit values plus one, 0 for any other byte: a table, as
 * every record's MAC goes through here when a search or verify reads it */
static const int8_t hexvals[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

static int hexval(char c)
{
	return hexvals[(unsigned char)c] - 1;
}

int audit_unhex(const char *s, size_t slen, uint8_t *out, size_t n)
{
	size_t i;
	int bad = 0;

	if (slen != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		bad |= hi | lo; /* negative once any is not a digit */
		out[i] = (uint8_t)((unsigned int)hi << 4 | (unsigned int)lo);
	}
	return bad < 0 ? -1 : 0;
}

bool audit_is_hex(const char *s, size_t n)
{
	typedef uint8_t v16 __attribute__((vector_size(16)));
	v16 v, bad = { 0 };
	uint64_t lo, hi;
	size_t i;

	for (i = 0; i + 16 <= n; i += 16) {
		memcpy(&v, s + i, 16);
		/* neither 0-9 nor a-f: both differences out of range (unsigned) */
		bad |= (v16)((v16)(v - '0') > 9) & (v16)((v16)(v - 'a') > 5);
	}
	memcpy(&lo, &bad, 8);
	memcpy(&hi, (const char *)&bad + 8, 8);
	if (lo | hi)
		return false;
	for (; i < n; i++)
		if (hexval(s[i]) < 0)
			return false;
	return true;
}

void audit_key_id(const uint8_t key[AUDIT_KEY_LEN], char out[AUDIT_KEY_ID_HEX + 1])
{
	static const char label[] = "nsaudit key id v1";
	uint8_t h[crypto_generichash_BYTES_MIN];

	crypto_generichash(h, sizeof(h), (const uint8_t *)label, sizeof(label) - 1, key,
			   AUDIT_KEY_LEN);
	audit_hex(h, AUDIT_KEY_ID_HEX / 2, out);
}

void audit_mac_st(crypto_generichash_state *st, const uint8_t key[AUDIT_KEY_LEN],
		  const uint8_t prev[AUDIT_MAC_LEN], const void *body, size_t len,
		  uint8_t out[AUDIT_MAC_LEN])
{
	crypto_generichash_init(st, key, AUDIT_KEY_LEN, AUDIT_MAC_LEN);
	crypto_generichash_update(st, prev, AUDIT_MAC_LEN);
	crypto_generichash_update(st, body, len);
	crypto_generichash_final(st, out, AUDIT_MAC_LEN);
	/* the state was initialised from the key: nothing of it may stay */
	sodium_memzero(st, sizeof(*st));
}

void audit_mac(const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
	       const void *body, size_t len, uint8_t out[AUDIT_MAC_LEN])
{
	crypto_generichash_state st;

	audit_mac_st(&st, key, prev, body, len, out);
}

/* --- the record MAC, v3: one-time Poly1305 keys from ChaCha20 (chain.h) --- */

void audit_chain_wipe(struct audit_chain *c)
{
	sodium_memzero(c, sizeof(*c));
}

void audit_chain_init(struct audit_chain *c, unsigned int kind, const uint8_t key[AUDIT_KEY_LEN],
		      const uint8_t *run)
{
	static const char label[] = "nsaudit record mac v3";

	audit_chain_wipe(c);
	c->kind = kind;
	if (kind == AUDIT_MAC_POLY1305)
		/* a key of its own for the record MAC, bound to its purpose:
		 * the epoch key also MACs the state file (BLAKE2b) */
		crypto_generichash(c->key, sizeof(c->key), (const uint8_t *)label,
				   sizeof(label) - 1, key, AUDIT_KEY_LEN);
	else
		memcpy(c->key, key, AUDIT_KEY_LEN);
	memcpy(c->base, key, AUDIT_KEY_LEN);
	if (run)
		memcpy(c->run, run, AUDIT_RUN_LEN);
}

void audit_chain_use(struct audit_chain *c, unsigned int kind, const uint8_t key[AUDIT_KEY_LEN])
{
	uint8_t run[AUDIT_RUN_LEN];

	if (c->kind == kind && !memcmp(c->base, key, AUDIT_KEY_LEN))
		return;
	memcpy(run, c->run, sizeof(run));
	audit_chain_init(c, kind, key, run);
}

void audit_chain_set_run(struct audit_chain *c, const uint8_t run[AUDIT_RUN_LEN])
{
	if (!memcmp(c->run, run, AUDIT_RUN_LEN))
		return;
	memcpy(c->run, run, AUDIT_RUN_LEN);
	sodium_memzero(c->ks, sizeof(c->ks));
	c->ks_n = 0;
}

/* The one-time key of seq: 32 bytes at keystream offset 32*seq. The window
 * holds AUDIT_KS_RECORDS of them, aligned, made with one ChaCha20 call. */
static const uint8_t *onetime_key(struct audit_chain *c, uint64_t seq)
{
	uint64_t s0 = seq - seq % AUDIT_KS_RECORDS;

	if (!c->ks_n || c->ks_seq0 != s0) {
		memset(c->ks, 0, sizeof(c->ks));
		crypto_stream_chacha20_xor_ic(c->ks, c->ks, sizeof(c->ks), c->run, s0 / 2, c->key);
		c->ks_seq0 = s0;
		c->ks_n = AUDIT_KS_RECORDS;
	}
	return c->ks + 32 * (seq - s0);
}

void audit_chain_mac(struct audit_chain *c, uint64_t seq, const uint8_t *prev, const void *body,
		     size_t len, uint8_t out[AUDIT_MAC_LEN])
{
	crypto_onetimeauth_state st;

	if (c->kind != AUDIT_MAC_POLY1305) {
		audit_mac(c->key, prev, body, len, out);
		return;
	}
	crypto_onetimeauth_init(&st, onetime_key(c, seq));
	crypto_onetimeauth_update(&st, prev, AUDIT_TAG_LEN);
	crypto_onetimeauth_update(&st, body, len);
	crypto_onetimeauth_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}
