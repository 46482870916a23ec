/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * chain.h - key ids, the chained record MAC and hex (key files: seal.h; the
 * state dotfile: state.h).
 *
 * Two record MACs, by log format version (audit/README.md, "The chain"):
 *
 * v1, v2 (AUDIT_MAC_BLAKE2B): MAC(n) = BLAKE2b-256 keyed with the 32-byte
 * key K over MAC(n-1) || the record's bytes as written before its mac
 * field; MAC(0) is 32 zero bytes.
 *
 * v3 (AUDIT_MAC_POLY1305), a Wegman-Carter MAC per record:
 *   R        = BLAKE2b-256(key K, "nsaudit record mac v3")
 *   k(s)     = the 32 bytes at offset 32*s of ChaCha20 (original, 64-bit
 *              nonce and block counter) under R with nonce = the run id
 *   MAC(n)   = Poly1305 with one-time key k(seq of n) over
 *              MAC(n-1) || the record's bytes before its mac field
 *   MAC(0)   = 16 zero bytes
 * The run id is 8 random bytes drawn by every recorder start (and after a
 * failed write): the segment header and the first record of a run carry
 * it ("run"), so that no (K, run, seq) ever MACs two different records.
 *
 * The chain runs across segments.
 */
#ifndef NSAUDIT_AUDIT_CHAIN_H
#define NSAUDIT_AUDIT_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AUDIT_KEY_LEN	 32
#define AUDIT_MAC_LEN	 32 /* the longest chain value (v1/v2); room for either */
#define AUDIT_MAC_HEX	 (2 * AUDIT_MAC_LEN)
#define AUDIT_TAG_LEN	 16 /* v3: a Poly1305 tag */
#define AUDIT_RUN_LEN	 8
#define AUDIT_RUN_HEX	 (2 * AUDIT_RUN_LEN)
#define AUDIT_KEY_ID_HEX 16

/* A short public fingerprint of the key, stored in segment headers so that
 * verify can say "wrong key" rather than "changed record". */
void audit_key_id(const uint8_t key[AUDIT_KEY_LEN], char out[AUDIT_KEY_ID_HEX + 1]);

void audit_mac(const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
	       const void *body, size_t len, uint8_t out[AUDIT_MAC_LEN]);
/* The same with the caller's hash state, which holds key material while in
 * use and is wiped before returning (exposed for the unit tests). */
struct crypto_generichash_blake2b_state;
void audit_mac_st(struct crypto_generichash_blake2b_state *st, const uint8_t key[AUDIT_KEY_LEN],
		  const uint8_t prev[AUDIT_MAC_LEN], const void *body, size_t len,
		  uint8_t out[AUDIT_MAC_LEN]);

/*
 * A record MAC context: the kind of MAC, its key (v1/v2: K itself; v3: the
 * derived R), the run id and, for v3, a window of ChaCha20 keystream (the
 * one-time keys of AUDIT_KS_RECORDS consecutive seqs, made with one call).
 * Holds key material: audit_chain_wipe() it when the key goes (an epoch
 * ends) or the context is dropped.
 */
enum { AUDIT_MAC_BLAKE2B = 1, AUDIT_MAC_POLY1305 = 3 };
#define AUDIT_KS_RECORDS 64
struct audit_chain {
	unsigned int kind;
	uint8_t key[AUDIT_KEY_LEN];
	uint8_t base[AUDIT_KEY_LEN]; /* the key it was made from (audit_chain_use) */
	uint8_t run[AUDIT_RUN_LEN];
	uint64_t ks_seq0;  /* seq whose one-time key is at ks[0] */
	unsigned int ks_n; /* valid one-time keys in ks (0: none) */
	uint8_t ks[AUDIT_KS_RECORDS * 32];
};

/* kind AUDIT_MAC_BLAKE2B or AUDIT_MAC_POLY1305 with the (epoch's or static)
 * key; run may be NULL (v1/v2, or not known yet: all zeros). Wipes what c
 * held before. */
void audit_chain_init(struct audit_chain *c, unsigned int kind, const uint8_t key[AUDIT_KEY_LEN],
		      const uint8_t *run);
/* audit_chain_init() unless c already MACs with kind and key; the run id
 * stays (the verifier's and the recovery scan's per-record call). */
void audit_chain_use(struct audit_chain *c, unsigned int kind, const uint8_t key[AUDIT_KEY_LEN]);
/* A new run id (v3): the keystream window is dropped. */
void audit_chain_set_run(struct audit_chain *c, const uint8_t run[AUDIT_RUN_LEN]);
void audit_chain_wipe(struct audit_chain *c);
/* Bytes of a MAC of this kind: 32 (BLAKE2b) or 16 (Poly1305). */
static inline size_t audit_chain_maclen(unsigned int kind)
{
	return kind == AUDIT_MAC_POLY1305 ? AUDIT_TAG_LEN : AUDIT_MAC_LEN;
}
/* MAC of the record with this seq: prev is the previous record's MAC (of
 * audit_chain_maclen bytes), out receives this one's. */
void audit_chain_mac(struct audit_chain *c, uint64_t seq, const uint8_t *prev, const void *body,
		     size_t len, uint8_t out[AUDIT_MAC_LEN]);
/* The MAC kind of a log format version (1, 2: BLAKE2b; 3: Poly1305). */
static inline unsigned int audit_mac_kind(unsigned int log_version)
{
	return log_version >= 3 ? AUDIT_MAC_POLY1305 : AUDIT_MAC_BLAKE2B;
}
/* The log format version new logs are written in. */
#define AUDIT_LOG_VERSION 3

/* Lowercase hex; unhex accepts exactly 2*n lowercase hex digits. */
void audit_hex(const uint8_t *b, size_t n, char *out);
int audit_unhex(const char *s, size_t slen, uint8_t *out, size_t n);
/* Whether s[0..n) is all lowercase hex digits (what unhex accepts, with
 * nothing decoded: 16 bytes at a time). */
bool audit_is_hex(const char *s, size_t n);

#endif
