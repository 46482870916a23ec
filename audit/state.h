/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * state.h - the state dotfile (AUDIT_STATE_FILE in the log directory): the
 * last record known to be on stable storage, MAC'd with the key of its
 * epoch (seal.h) by the record MAC's primitive (chain.h). It sits above
 * both, so that chain.c and seal.c need not include each other.
 */
#ifndef NSAUDIT_AUDIT_STATE_H
#define NSAUDIT_AUDIT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain.h"
#include "seal.h"

#define AUDIT_STATE_FILE ".nsaudit-state"

/*
 * The state dotfile remembers the last record known to be on stable storage,
 * MAC'd with the key. Without it, cutting the tail of a log (records and its
 * closing record) would be indistinguishable from a log that simply ended.
 */
struct audit_state {
	uint64_t seq;	      /* last record on disk (0: none yet) */
	unsigned int segment; /* segment holding it */
	uint8_t mac[AUDIT_MAC_LEN];
	size_t mac_len; /* 32 (BLAKE2b log) or 16 (Poly1305, format version 3) */
	bool clean; /* it is a closing record */
	/* version 2 (sealing): the epoch whose key MACs this line (the named
	 * record's, or the next one when it is a seal), what the restart path
	 * needs, and the log's identity */
	unsigned int version;
	uint64_t epoch;
	uint64_t lost_total; /* the kernel's lost counter last written */
	char log_id[AUDIT_KEY_ID_HEX + 1];
	/* the newest anchor sent (anchor.h): its number and amac, so that a
	 * restart chains its anchors on (0: none sent, or an older state) */
	uint64_t anchor_n;
	uint8_t anchor_amac[AUDIT_TAG_LEN];
};

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
/* The two halves of audit_state_save: the MAC'd line (its length), and
 * writing a line (another thread may write what this one formatted). */
#define AUDIT_STATE_LINE_MAX 512
int audit_state_format(const uint8_t key[AUDIT_KEY_LEN], const struct audit_state *st,
		       char buf[AUDIT_STATE_LINE_MAX]);
int audit_state_write(int dirfd, const char *line, size_t len, bool sync);

#endif
