/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * seal.h - forward-secure sealing keys (the idea of journald's FSS, built
 * from libsodium's keyed BLAKE2b).
 *
 *   seed S        32 random bytes; printed once by "nsaudit keygen" as the
 *                 verification key ("nsaudit-vk2-<64 hex>"), kept off the host
 *   K(0)          BLAKE2b(key S, "nsaudit epoch0 v2" || t0 || interval)
 *   K(e+1)        BLAKE2b(key K(e), "nsaudit evolve v2")    (one way)
 *   epoch e       wall clock [t0 + e*interval, t0 + (e+1)*interval)
 *
 * The schedule (t0, interval) is fixed by the first "nsaudit record" that
 * uses a fresh state (--seal-interval) and is bound into K(0): a log that
 * claims another schedule does not verify. The recorder holds only K(e):
 * when an epoch ends it writes a seal record MAC'd with K(e), evolves and
 * erases K(e) from memory and from the state file. Whoever takes the host
 * at time T therefore cannot MAC anything as an epoch before T's.
 *
 * The state file (FILE of "nsaudit keygen FILE", "--key FILE"), one line,
 * mode 0600, replaced atomically:
 *   nsaudit-seal v2 key_id=HEX16 epoch=E t0=T interval=I key=HEX64
 * with t0=0 interval=0 and key=S before its first use. A v1 key file (64
 * hex digits) is a static MAC key: no evolution (format version 1).
 */
#ifndef NSAUDIT_AUDIT_SEAL_H
#define NSAUDIT_AUDIT_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain.h"

#define AUDIT_SEAL_DEFAULT_INTERVAL (15 * 60) /* seconds */
#define AUDIT_SEAL_MAX_INTERVAL	    (366ll * 24 * 3600)
#define AUDIT_VK_PREFIX		    "nsaudit-vk2-"
#define AUDIT_VK_LEN		    (sizeof(AUDIT_VK_PREFIX) - 1 + AUDIT_MAC_HEX)

struct audit_seal {
	bool sealing;	/* false: a v1 static key, used for every record */
	bool scheduled; /* t0/interval fixed; key is K(epoch) (else: the seed) */
	uint8_t key[AUDIT_KEY_LEN];
	uint64_t epoch;
	int64_t t0;	   /* seconds since the Unix epoch */
	uint64_t interval; /* seconds */
	char key_id[AUDIT_KEY_ID_HEX + 1];
};

/* The public fingerprint of a seed (key_id in headers and state). */
void audit_seal_key_id(const uint8_t seed[AUDIT_KEY_LEN], char out[AUDIT_KEY_ID_HEX + 1]);
/* K(0) of a seed and schedule. */
void audit_seal_k0(const uint8_t seed[AUDIT_KEY_LEN], int64_t t0, uint64_t interval,
		   uint8_t out[AUDIT_KEY_LEN]);
/* K(e+1) from K(e), in place (the old value is overwritten). */
void audit_seal_evolve_key(uint8_t key[AUDIT_KEY_LEN]);

/* The epoch a time (seconds) falls in; 0 before t0. */
uint64_t audit_seal_epoch_at(const struct audit_seal *s, int64_t t);
/* Fix the schedule of a fresh state: key becomes K(0), the seed is erased. */
void audit_seal_schedule(struct audit_seal *s, int64_t t0, uint64_t interval);
/* Evolve to epoch e (>= s->epoch), erasing every key on the way. */
void audit_seal_evolve_to(struct audit_seal *s, uint64_t e);
void audit_seal_wipe(struct audit_seal *s);

/* Write a fresh random key (64 hex digits and a newline) to path, mode 0600.
 * Refuses an existing file unless force. 0 or -1 with err. */
int audit_key_generate(const char *path, bool force, char *err, size_t errlen);
/* Load a key file written by audit_key_generate. 0 or -1 with err. */
int audit_key_load(const char *path, uint8_t key[AUDIT_KEY_LEN], char *err, size_t errlen);
/*
 * Key files. Load accepts a v2 state or a v1 static key; the file must be
 * a regular file owned by the caller (or root) that no one else may read or
 * write (mode 0600 or stricter). 0, or -1 with err.
 */
int audit_seal_load(const char *path, struct audit_seal *s, char *err, size_t errlen);
/* Write s to path atomically: temp file in the same directory, fsync,
 * rename (replace: any existing file; else fail with EEXIST), fsync dir. */
int audit_seal_save(const char *path, const struct audit_seal *s, bool replace, char *err,
		    size_t errlen);
/* keygen: a fresh seed into path (mode 0600, atomically); vk receives the
 * verification key string. */
int audit_seal_keygen(const char *path, bool force, char vk[AUDIT_VK_LEN + 1], char *err,
		      size_t errlen);
/* A verification key as printed by keygen, or the name of a file holding
 * one. 0, or -1 with err. */
int audit_vk_parse(const char *arg, uint8_t seed[AUDIT_KEY_LEN], char *err, size_t errlen);

/*
 * Keys for verifying: epoch keys from the seed (every epoch), or from a
 * state (epochs from its own on: older ones were erased), or one static
 * key. audit_keyring_get() fills out with K(e); -1 when e is older than
 * what the ring can derive (or the schedule is not known yet).
 */
struct audit_keyring {
	int kind; /* AUDIT_KR_* */
	uint8_t seed[AUDIT_KEY_LEN];
	uint8_t base[AUDIT_KEY_LEN];
	uint64_t base_epoch;
	bool have_base;
	uint8_t cur[AUDIT_KEY_LEN];
	uint64_t cur_epoch;
	bool have_cur;
	int64_t t0;
	uint64_t interval;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	/* K(base_epoch + i * AUDIT_KR_STRIDE) for i < nckpt, kept as the
	 * ring derives forward: any epoch is then at most a stride of
	 * evolutions away, whatever order hostile lines ask in */
	uint8_t (*ckpt)[AUDIT_KEY_LEN];
	size_t nckpt, capckpt;
	uint64_t evolved; /* evolutions done (bounded work: tests count it) */
};
#define AUDIT_KR_STRIDE 256
/* How far past the clock's epoch a log's key may be: each clean stop seals
 * its epoch early (log.c: closing ends the key), so a recorder stopped and
 * started again within one epoch is one epoch ahead per stop. */
#define AUDIT_KR_AHEAD 1024
enum { AUDIT_KR_STATIC, AUDIT_KR_SEED, AUDIT_KR_STATE };

void audit_keyring_from_seed(struct audit_keyring *kr, const uint8_t seed[AUDIT_KEY_LEN]);
void audit_keyring_from_seal(struct audit_keyring *kr, const struct audit_seal *s);
/* A seed ring learns the schedule from the log (bound into K(0), so a
 * wrong one only makes every MAC fail). Ignored once known. */
void audit_keyring_schedule(struct audit_keyring *kr, int64_t t0, uint64_t interval);
int audit_keyring_get(struct audit_keyring *kr, uint64_t e, uint8_t out[AUDIT_KEY_LEN]);
/* Erases every key the ring holds and frees its checkpoints. */
void audit_keyring_wipe(struct audit_keyring *kr);

/* "15m", "2s", "900", "1h": seconds (1 .. one year). 0 or -1. */
int audit_parse_duration(const char *s, uint64_t *secs);

#endif
