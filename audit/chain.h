/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * chain.h - keys, the chained record MAC and the state dotfile.
 *
 * MAC(n) = BLAKE2b-256 keyed with the 32-byte key (libsodium
 * crypto_generichash) over MAC(n-1) || the record's bytes as written before
 * its mac field. MAC(0) is 32 zero bytes. The chain runs across segments.
 */
#ifndef NSAUDIT_AUDIT_CHAIN_H
#define NSAUDIT_AUDIT_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AUDIT_KEY_LEN	 32
#define AUDIT_MAC_LEN	 32
#define AUDIT_MAC_HEX	 (2 * AUDIT_MAC_LEN)
#define AUDIT_KEY_ID_HEX 16
#define AUDIT_STATE_FILE ".nsaudit-state"

/* Write a fresh random key (64 hex digits and a newline) to path, mode 0600.
 * Refuses an existing file unless force. 0 or -1 with err. */
int audit_key_generate(const char *path, bool force, char *err, size_t errlen);
/* Load a key file written by audit_key_generate. 0 or -1 with err. */
int audit_key_load(const char *path, uint8_t key[AUDIT_KEY_LEN], char *err, size_t errlen);
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

/* Lowercase hex; unhex accepts exactly 2*n lowercase hex digits. */
void audit_hex(const uint8_t *b, size_t n, char *out);
int audit_unhex(const char *s, size_t slen, uint8_t *out, size_t n);

/*
 * The state dotfile remembers the last record known to be on stable storage,
 * MAC'd with the key. Without it, cutting the tail of a log (records and its
 * closing record) would be indistinguishable from a log that simply ended.
 */
struct audit_state {
	uint64_t seq;	      /* last record on disk (0: none yet) */
	unsigned int segment; /* segment holding it */
	uint8_t mac[AUDIT_MAC_LEN];
	bool clean; /* it is a closing record */
	/* version 2 (sealing): the epoch whose key MACs this line (the named
	 * record's, or the next one when it is a seal), what the restart path
	 * needs, and the log's identity */
	unsigned int version;
	uint64_t epoch;
	uint64_t lost_total; /* the kernel's lost counter last written */
	char log_id[AUDIT_KEY_ID_HEX + 1];
};

struct audit_keyring;
/*
 * 1 loaded and its MAC verified, 2 loaded but its epoch is older than what
 * kr can derive (not verifiable here), 0 absent, -1 unreadable, damaged or
 * forged (err says which).
 */
int audit_state_load(int dirfd, struct audit_keyring *kr, struct audit_state *st, char *err,
		     size_t errlen);
/* Atomically replace (tmp + rename); fsync file and dir when sync. key is
 * the key of st->epoch (version 2) or the static key (version 1). */
int audit_state_save(int dirfd, const uint8_t key[AUDIT_KEY_LEN], const struct audit_state *st,
		     bool sync);

#endif
