// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* chain.c - key files, the chained record MAC and the state dotfile. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "chain.h"
#include "seal.h"
#include "regfile.h"
#include "io.h"

static const char hexdig[] = "0123456789abcdef";

void audit_hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hexdig[b[i] >> 4];
		out[2 * i + 1] = hexdig[b[i] & 15];
	}
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

int audit_key_generate(const char *path, bool force, char *err, size_t errlen)
{
	struct audit_seal s = {0};
	int rc;

	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	randombytes_buf(s.key, sizeof(s.key));
	rc = audit_seal_save(path, &s, force, err, errlen);
	audit_seal_wipe(&s);
	return rc;
}

int audit_key_load(const char *path, uint8_t key[AUDIT_KEY_LEN], char *err, size_t errlen)
{
	struct audit_seal s;

	if (audit_seal_load(path, &s, err, errlen))
		return -1;
	if (s.sealing) {
		audit_seal_wipe(&s);
		snprintf(err, errlen, "key %.200s: a sealing state, not a static key", path);
		return -1;
	}
	memcpy(key, s.key, AUDIT_KEY_LEN);
	audit_seal_wipe(&s);
	return 0;
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

/*
 * v1: "nsaudit-state v1 seq=N segment=K mac=HEX clean=0|1 smac=HEX\n"
 * v2: "nsaudit-state v2 seq=N segment=K mac=HEX epoch=E lost_total=L
 *      log_id=HEX16 [anchor=N:HEX32] clean=0|1 smac=HEX\n"
 *      (anchor: the newest anchor sent, its number and amac)
 * smac is the keyed hash of everything before " smac=" under a label of its
 * own (so a state line can never pass as a record MAC or the other way
 * round), with the static key (v1) or the key of epoch E (v2).
 */
static void state_mac(const uint8_t key[AUDIT_KEY_LEN], const char *text, size_t len,
		      uint8_t out[AUDIT_MAC_LEN])
{
	static const uint8_t label[AUDIT_MAC_LEN] = "nsaudit state v1";

	audit_mac(key, label, text, len, out);
}

static int state_parse(const char *buf, size_t n, struct audit_state *st,
		       uint8_t smac[AUDIT_MAC_LEN])
{
	char machex[AUDIT_MAC_HEX + 1], smachex[AUDIT_MAC_HEX + 1], id[AUDIT_KEY_ID_HEX + 1];
	char ahex[2 * AUDIT_TAG_LEN + 1];
	unsigned int clean;
	int end = 0;

	if (!strncmp(buf, "nsaudit-state v1 ", 17)) {
		st->version = 1;
		if (sscanf(buf,
			   "nsaudit-state v1 seq=%" SCNu64 " segment=%u mac=%64[0-9a-f] clean=%u "
			   "smac=%64[0-9a-f]\n%n",
			   &st->seq, &st->segment, machex, &clean, smachex, &end) != 5)
			return -1;
	} else if (!strncmp(buf, "nsaudit-state v2 ", 17) && strstr(buf, " anchor=")) {
		st->version = 2;
		if (sscanf(buf,
			   "nsaudit-state v2 seq=%" SCNu64
			   " segment=%u mac=%64[0-9a-f] epoch=%" SCNu64 " lost_total=%" SCNu64
			   " log_id=%16[0-9a-f] anchor=%" SCNu64 ":%32[0-9a-f] clean=%u "
			   "smac=%64[0-9a-f]\n%n",
			   &st->seq, &st->segment, machex, &st->epoch, &st->lost_total, id,
			   &st->anchor_n, ahex, &clean, smachex, &end) != 10 ||
		    strlen(id) != AUDIT_KEY_ID_HEX || !st->anchor_n ||
		    audit_unhex(ahex, strlen(ahex), st->anchor_amac, AUDIT_TAG_LEN))
			return -1;
		memcpy(st->log_id, id, sizeof(id));
	} else if (!strncmp(buf, "nsaudit-state v2 ", 17)) {
		st->version = 2;
		if (sscanf(buf,
			   "nsaudit-state v2 seq=%" SCNu64
			   " segment=%u mac=%64[0-9a-f] epoch=%" SCNu64 " lost_total=%" SCNu64
			   " log_id=%16[0-9a-f] clean=%u smac=%64[0-9a-f]\n%n",
			   &st->seq, &st->segment, machex, &st->epoch, &st->lost_total, id, &clean,
			   smachex, &end) != 8 ||
		    strlen(id) != AUDIT_KEY_ID_HEX)
			return -1;
		memcpy(st->log_id, id, sizeof(id));
	} else {
		return -1;
	}
	/* the named record's MAC: 64 hex digits (BLAKE2b) or 32 (Poly1305) */
	st->mac_len = strlen(machex) / 2;
	if ((size_t)end != n || clean > 1 ||
	    (st->mac_len != AUDIT_MAC_LEN && st->mac_len != AUDIT_TAG_LEN) ||
	    audit_unhex(machex, strlen(machex), st->mac, st->mac_len) ||
	    audit_unhex(smachex, strlen(smachex), smac, AUDIT_MAC_LEN))
		return -1;
	st->clean = clean;
	return 0;
}

int audit_state_load(int dirfd, struct audit_keyring *kr, struct audit_state *st, char *err,
		     size_t errlen)
{
	uint8_t smac[AUDIT_MAC_LEN], want[AUDIT_MAC_LEN], key[AUDIT_KEY_LEN];
	char buf[512];
	const char *s;
	int fd;
	ssize_t n;

	memset(st, 0, sizeof(*st));
	fd = audit_open_regular(dirfd, AUDIT_STATE_FILE, O_RDONLY, 0);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", AUDIT_STATE_FILE, audit_regfile_why(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", AUDIT_STATE_FILE, strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	/* a space in a scanf format matches any run of white space, or none:
	 * the line must still hold " smac=" exactly */
	s = strstr(buf, " smac=");
	if (state_parse(buf, (size_t)n, st, smac) || !s) {
		snprintf(err, errlen, "%s: damaged (not a state line)", AUDIT_STATE_FILE);
		return -1;
	}
	if ((st->version == 1) != (kr->kind == AUDIT_KR_STATIC)) {
		snprintf(err, errlen,
			 "%s: wrong key: the state is of format version %u, this is %s",
			 AUDIT_STATE_FILE, st->version,
			 kr->kind == AUDIT_KR_STATIC ? "a static key" : "a sealing key");
		return -1;
	}
	if (audit_keyring_get(kr, st->epoch, key))
		return 2;
	state_mac(key, buf, (size_t)(s - buf), want);
	sodium_memzero(key, sizeof(key));
	if (sodium_memcmp(want, smac, AUDIT_MAC_LEN)) {
		snprintf(err, errlen, "%s: does not verify with this key (wrong key, or edited)",
			 AUDIT_STATE_FILE);
		return -1;
	}
	return 1;
}

int audit_state_format(const uint8_t key[AUDIT_KEY_LEN], const struct audit_state *st,
		       char buf[AUDIT_STATE_LINE_MAX])
{
	char machex[AUDIT_MAC_HEX + 1];
	uint8_t smac[AUDIT_MAC_LEN];
	int len;

	audit_hex(st->mac, st->mac_len ? st->mac_len : AUDIT_MAC_LEN, machex);
	if (st->version >= 2) {
		len = snprintf(buf, AUDIT_STATE_LINE_MAX,
			       "nsaudit-state v2 seq=%" PRIu64 " segment=%u mac=%s epoch=%" PRIu64
			       " lost_total=%" PRIu64 " log_id=%s",
			       st->seq, st->segment, machex, st->epoch, st->lost_total,
			       st->log_id[0] ? st->log_id : "0000000000000000");
		if (st->anchor_n) {
			audit_hex(st->anchor_amac, AUDIT_TAG_LEN, machex);
			len += snprintf(buf + len, AUDIT_STATE_LINE_MAX - (size_t)len,
					" anchor=%" PRIu64 ":%s", st->anchor_n, machex);
		}
		len += snprintf(buf + len, AUDIT_STATE_LINE_MAX - (size_t)len, " clean=%d",
				st->clean ? 1 : 0);
	} else
		len = snprintf(buf, AUDIT_STATE_LINE_MAX,
			       "nsaudit-state v1 seq=%" PRIu64 " segment=%u mac=%s clean=%d",
			       st->seq, st->segment, machex, st->clean ? 1 : 0);
	state_mac(key, buf, (size_t)len, smac);
	audit_hex(smac, AUDIT_MAC_LEN, machex);
	len += snprintf(buf + len, AUDIT_STATE_LINE_MAX - (size_t)len, " smac=%s\n", machex);
	return len;
}

int audit_state_write(int dirfd, const char *line, size_t len, bool sync)
{
	static const char tmp[] = AUDIT_STATE_FILE ".tmp";
	int fd;

	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (write_all(fd, line, len) || (sync && fsync(fd))) {
		int e = errno; /* ENOSPC says "disk full" to the caller */

		close(fd);
		unlinkat(dirfd, tmp, 0);
		errno = e;
		return -1;
	}
	close(fd);
	if (renameat(dirfd, tmp, dirfd, AUDIT_STATE_FILE))
		return -1;
	if (sync && fsync(dirfd))
		return -1;
	return 0;
}

int audit_state_save(int dirfd, const uint8_t key[AUDIT_KEY_LEN], const struct audit_state *st,
		     bool sync)
{
	char buf[AUDIT_STATE_LINE_MAX];
	int len = audit_state_format(key, st, buf);

	return audit_state_write(dirfd, buf, (size_t)len, sync);
}
