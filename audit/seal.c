// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* seal.c - forward-secure sealing keys: derivation, evolution, key files. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "seal.h"
#include "regfile.h"
#include "io.h"

static void kdf(const uint8_t key[AUDIT_KEY_LEN], const void *msg, size_t len,
		uint8_t out[AUDIT_KEY_LEN])
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, key, AUDIT_KEY_LEN, AUDIT_KEY_LEN);
	crypto_generichash_update(&st, msg, len);
	crypto_generichash_final(&st, out, AUDIT_KEY_LEN);
	sodium_memzero(&st, sizeof(st));
}

void audit_seal_key_id(const uint8_t seed[AUDIT_KEY_LEN], char out[AUDIT_KEY_ID_HEX + 1])
{
	static const char label[] = "nsaudit seal key id v2";
	uint8_t h[AUDIT_KEY_LEN];

	kdf(seed, label, sizeof(label) - 1, h);
	audit_hex(h, AUDIT_KEY_ID_HEX / 2, out);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void audit_seal_k0(const uint8_t seed[AUDIT_KEY_LEN], int64_t t0, uint64_t interval,
		   uint8_t out[AUDIT_KEY_LEN])
{
	static const char label[] = "nsaudit epoch0 v2";
	uint8_t msg[sizeof(label) - 1 + 16];

	memcpy(msg, label, sizeof(label) - 1);
	put_le64(msg + sizeof(label) - 1, (uint64_t)t0);
	put_le64(msg + sizeof(label) - 1 + 8, interval);
	kdf(seed, msg, sizeof(msg), out);
}

void audit_seal_evolve_key(uint8_t key[AUDIT_KEY_LEN])
{
	static const char label[] = "nsaudit evolve v2";
	uint8_t next[AUDIT_KEY_LEN];

	kdf(key, label, sizeof(label) - 1, next);
	memcpy(key, next, AUDIT_KEY_LEN);
	sodium_memzero(next, sizeof(next));
}

uint64_t audit_seal_epoch_at(const struct audit_seal *s, int64_t t)
{
	if (!s->sealing || !s->scheduled || !s->interval || t < s->t0)
		return s->epoch;
	return (uint64_t)(t - s->t0) / s->interval;
}

void audit_seal_schedule(struct audit_seal *s, int64_t t0, uint64_t interval)
{
	uint8_t k0[AUDIT_KEY_LEN];

	audit_seal_k0(s->key, t0, interval, k0);
	memcpy(s->key, k0, sizeof(k0));
	sodium_memzero(k0, sizeof(k0));
	s->t0 = t0;
	s->interval = interval;
	s->epoch = 0;
	s->scheduled = true;
}

void audit_seal_evolve_to(struct audit_seal *s, uint64_t e)
{
	if (!s->sealing || !s->scheduled)
		return;
	while (s->epoch < e) {
		audit_seal_evolve_key(s->key);
		s->epoch++;
	}
}

void audit_seal_wipe(struct audit_seal *s)
{
	sodium_memzero(s, sizeof(*s));
}

/* --- key files ----------------------------------------------------------------- */

/* A key file must be the caller's (or root's) and nobody else's to read or
 * change: otherwise someone else may know or have replaced the key. */
static int check_private(const char *path, const struct stat *stp, char *err, size_t errlen)
{
	struct stat st = *stp;

	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(err, errlen,
			 "key %.200s: owned by uid %u, not by this user (uid %u) or root: "
			 "someone else could have replaced it",
			 path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -1;
	}
	if (st.st_mode & 077) {
		snprintf(err, errlen, "key %.200s: mode %04o lets others %s it (chmod 600 %.200s)",
			 path, (unsigned int)(st.st_mode & 07777),
			 (st.st_mode & 022) ? "change" : "read", path);
		return -1;
	}
	return 0;
}

/* A small file into buf; st its status. Only regular files. */
static int read_small(const char *path, char *buf, size_t cap, struct stat *st, char *err,
		      size_t errlen)
{
	ssize_t n;
	int fd = audit_open_regular(AT_FDCWD, path, O_RDONLY, 0);

	if (fd < 0) {
		snprintf(err, errlen, "key %.200s: %s", path, audit_regfile_why(errno));
		return -1;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "key %.200s: not a regular file", path);
		close(fd);
		return -1;
	}
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "key %.200s: %s", path, strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	return (int)n;
}

int audit_seal_load(const char *path, struct audit_seal *s, char *err, size_t errlen)
{
	char buf[512], idhex[AUDIT_KEY_ID_HEX + 1], keyhex[AUDIT_MAC_HEX + 1];
	struct stat fst;
	int n, end = 0;
	int64_t t0;
	uint64_t epoch, interval;
	size_t len;

	memset(s, 0, sizeof(*s));
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	n = read_small(path, buf, sizeof(buf), &fst, err, errlen);
	if (n < 0)
		return -1;
	len = (size_t)n;
	if (!strncmp(buf, "nsaudit-seal v2 ", 16)) {
		if (sscanf(buf,
			   "nsaudit-seal v2 key_id=%16[0-9a-f] epoch=%" SCNu64 " t0=%" SCNd64
			   " interval=%" SCNu64 " key=%64[0-9a-f]\n%n",
			   idhex, &epoch, &t0, &interval, keyhex, &end) != 5 ||
		    (size_t)end != len || strlen(idhex) != AUDIT_KEY_ID_HEX ||
		    audit_unhex(keyhex, strlen(keyhex), s->key, AUDIT_KEY_LEN) ||
		    (interval && (t0 <= 0 || interval > AUDIT_SEAL_MAX_INTERVAL)) ||
		    (!interval && (t0 || epoch))) {
			sodium_memzero(buf, sizeof(buf));
			sodium_memzero(keyhex, sizeof(keyhex));
			audit_seal_wipe(s);
			snprintf(err, errlen, "key %.200s: not a key (a damaged sealing state)",
				 path);
			return -1;
		}
		sodium_memzero(buf, sizeof(buf));
		sodium_memzero(keyhex, sizeof(keyhex));
		if (check_private(path, &fst, err, errlen)) {
			audit_seal_wipe(s);
			return -1;
		}
		s->sealing = true;
		s->scheduled = interval != 0;
		s->epoch = epoch;
		s->t0 = t0;
		s->interval = interval;
		memcpy(s->key_id, idhex, sizeof(idhex));
		return 0;
	}
	/* v1: 64 hex digits, a static MAC key */
	if (len && buf[len - 1] == '\n')
		len--;
	if (audit_unhex(buf, len, s->key, AUDIT_KEY_LEN)) {
		sodium_memzero(buf, sizeof(buf));
		snprintf(err, errlen,
			 "key %.200s: not a key (want a sealing state or 64 lowercase hex "
			 "digits, as written by 'nsaudit keygen')",
			 path);
		return -1;
	}
	sodium_memzero(buf, sizeof(buf));
	if (check_private(path, &fst, err, errlen)) {
		audit_seal_wipe(s);
		return -1;
	}
	audit_key_id(s->key, s->key_id);
	return 0;
}

static int fsync_parent(const char *path)
{
	char copy[PATH_MAX];
	int fd, rc;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Write text to path atomically, mode 0600. */
static int save_text(const char *path, const char *text, bool replace, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	struct stat lst;
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%.200s: name too long", path);
		return -1;
	}
	if (replace && !lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
		snprintf(err, errlen, "%.200s: a symbolic link: not replaced (remove it first)",
			 path);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
		return -1;
	}
	if (fchmod(fd, 0600) || write_all(fd, text, strlen(text)) || fsync(fd)) {
		e = errno;
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "%.200s: %s", path, strerror(e));
		return -1;
	}
	close(fd);
	if (replace ? rename(tmp, path)
		    : renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE)) {
		e = errno;
		unlink(tmp);
		if (e == EEXIST)
			snprintf(err, errlen, "%.200s: exists (use --force to replace it)", path);
		else
			snprintf(err, errlen, "%.200s: %s", path, strerror(e));
		return -1;
	}
	if (fsync_parent(path)) {
		snprintf(err, errlen, "%.200s: fsync of its directory: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int audit_seal_save(const char *path, const struct audit_seal *s, bool replace, char *err,
		    size_t errlen)
{
	char text[256], keyhex[AUDIT_MAC_HEX + 1];
	int rc;

	audit_hex(s->key, AUDIT_KEY_LEN, keyhex);
	if (s->sealing)
		snprintf(text, sizeof(text),
			 "nsaudit-seal v2 key_id=%s epoch=%" PRIu64 " t0=%" PRId64
			 " interval=%" PRIu64 " key=%s\n",
			 s->key_id, s->scheduled ? s->epoch : 0, s->scheduled ? s->t0 : 0,
			 s->scheduled ? s->interval : 0, keyhex);
	else
		snprintf(text, sizeof(text), "%s\n", keyhex);
	rc = save_text(path, text, replace, err, errlen);
	sodium_memzero(text, sizeof(text));
	sodium_memzero(keyhex, sizeof(keyhex));
	return rc;
}

int audit_seal_keygen(const char *path, bool force, char vk[AUDIT_VK_LEN + 1], char *err,
		      size_t errlen)
{
	struct audit_seal s = {.sealing = true};
	char hex[AUDIT_MAC_HEX + 1];
	int rc;

	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	randombytes_buf(s.key, sizeof(s.key));
	audit_seal_key_id(s.key, s.key_id);
	rc = audit_seal_save(path, &s, force, err, errlen);
	if (!rc) {
		audit_hex(s.key, AUDIT_KEY_LEN, hex);
		snprintf(vk, AUDIT_VK_LEN + 1, "%s%s", AUDIT_VK_PREFIX, hex);
		sodium_memzero(hex, sizeof(hex));
	}
	audit_seal_wipe(&s);
	return rc;
}

static int vk_text(const char *s, size_t n, uint8_t seed[AUDIT_KEY_LEN])
{
	size_t plen = sizeof(AUDIT_VK_PREFIX) - 1;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	if (n == AUDIT_VK_LEN && !memcmp(s, AUDIT_VK_PREFIX, plen))
		return audit_unhex(s + plen, n - plen, seed, AUDIT_KEY_LEN);
	return -1;
}

int audit_vk_parse(const char *arg, uint8_t seed[AUDIT_KEY_LEN], char *err, size_t errlen)
{
	struct stat st;
	char buf[256];
	int n;

	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	if (!vk_text(arg, strlen(arg), seed))
		return 0;
	if (!strncmp(arg, AUDIT_VK_PREFIX, sizeof(AUDIT_VK_PREFIX) - 1)) {
		snprintf(err, errlen, "verification key: malformed (want %s and 64 hex digits)",
			 AUDIT_VK_PREFIX);
		return -1;
	}
	n = read_small(arg, buf, sizeof(buf), &st, err, errlen);
	if (n < 0) {
		snprintf(err, errlen,
			 "verification key '%.100s': neither a key as printed by 'nsaudit "
			 "keygen' nor a readable file holding one",
			 arg);
		return -1;
	}
	if (vk_text(buf, (size_t)n, seed)) {
		sodium_memzero(buf, sizeof(buf));
		snprintf(err, errlen,
			 "verification key file %.200s: does not hold a key as printed by "
			 "'nsaudit keygen' (%s...)",
			 arg, AUDIT_VK_PREFIX);
		return -1;
	}
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

/* --- keyrings for verifying --------------------------------------------------- */

void audit_keyring_from_seed(struct audit_keyring *kr, const uint8_t seed[AUDIT_KEY_LEN])
{
	memset(kr, 0, sizeof(*kr));
	kr->kind = AUDIT_KR_SEED;
	memcpy(kr->seed, seed, AUDIT_KEY_LEN);
	audit_seal_key_id(seed, kr->key_id);
}

void audit_keyring_from_seal(struct audit_keyring *kr, const struct audit_seal *s)
{
	memset(kr, 0, sizeof(*kr));
	memcpy(kr->key_id, s->key_id, sizeof(kr->key_id));
	if (!s->sealing) {
		kr->kind = AUDIT_KR_STATIC;
		memcpy(kr->base, s->key, AUDIT_KEY_LEN);
		kr->have_base = true;
		return;
	}
	if (!s->scheduled) { /* never used: it still is the seed */
		audit_keyring_from_seed(kr, s->key);
		return;
	}
	kr->kind = AUDIT_KR_STATE;
	memcpy(kr->base, s->key, AUDIT_KEY_LEN);
	kr->base_epoch = s->epoch;
	kr->have_base = true;
	kr->t0 = s->t0;
	kr->interval = s->interval;
}

void audit_keyring_schedule(struct audit_keyring *kr, int64_t t0, uint64_t interval)
{
	if (kr->kind != AUDIT_KR_SEED || kr->have_base || !interval)
		return;
	audit_seal_k0(kr->seed, t0, interval, kr->base);
	kr->base_epoch = 0;
	kr->have_base = true;
	kr->t0 = t0;
	kr->interval = interval;
}

/* One step forward, a checkpoint kept at each stride. -1: out of memory. */
static int ring_step(struct audit_keyring *kr)
{
	uint64_t i;

	audit_seal_evolve_key(kr->cur);
	kr->cur_epoch++;
	kr->evolved++;
	if ((kr->cur_epoch - kr->base_epoch) % AUDIT_KR_STRIDE)
		return 0;
	i = (kr->cur_epoch - kr->base_epoch) / AUDIT_KR_STRIDE;
	if (i < kr->nckpt)
		return 0;
	if (kr->nckpt == kr->capckpt) {
		size_t cap = kr->capckpt ? kr->capckpt * 2 : 64;
		uint8_t(*n)[AUDIT_KEY_LEN] = malloc(cap * AUDIT_KEY_LEN);

		if (!n)
			return -1;
		if (kr->ckpt) {
			memcpy(n, kr->ckpt, kr->nckpt * AUDIT_KEY_LEN);
			sodium_memzero(kr->ckpt, kr->capckpt * AUDIT_KEY_LEN);
			free(kr->ckpt);
		}
		kr->ckpt = n;
		kr->capckpt = cap;
	}
	memcpy(kr->ckpt[kr->nckpt++], kr->cur, AUDIT_KEY_LEN);
	return 0;
}

int audit_keyring_get(struct audit_keyring *kr, uint64_t e, uint8_t out[AUDIT_KEY_LEN])
{
	uint64_t i;

	if (!kr->have_base)
		return -1;
	if (kr->kind == AUDIT_KR_STATIC) {
		memcpy(out, kr->base, AUDIT_KEY_LEN);
		return 0;
	}
	if (e < kr->base_epoch)
		return -1;
	/* an epoch a line claims is checked before any key is derived: a
	 * hostile number must not make us spin for ever, nor stand for an
	 * epoch no recorder can have reached yet (now + one, and one more
	 * per clean stop within an epoch: closing seals early) */
	if (e - kr->base_epoch > 100000000ull)
		return -1;
	if (kr->interval && kr->t0 > 0) {
		int64_t now = (int64_t)time(NULL);

		if (now >= kr->t0 &&
		    e > (uint64_t)(now - kr->t0) / kr->interval + 1 + AUDIT_KR_AHEAD)
			return -1;
	}
	if (!kr->nckpt) {
		kr->ckpt = malloc(64 * AUDIT_KEY_LEN);
		if (!kr->ckpt)
			return -1;
		kr->capckpt = 64;
		memcpy(kr->ckpt[kr->nckpt++], kr->base, AUDIT_KEY_LEN);
	}
	/* from the nearest key at or below e: cur, or a checkpoint */
	if (!kr->have_cur || kr->cur_epoch > e ||
	    e - kr->cur_epoch >= AUDIT_KR_STRIDE) {
		i = (e - kr->base_epoch) / AUDIT_KR_STRIDE;
		if (i >= kr->nckpt)
			i = kr->nckpt - 1;
		if (!kr->have_cur || kr->cur_epoch > e ||
		    kr->cur_epoch < kr->base_epoch + i * AUDIT_KR_STRIDE) {
			memcpy(kr->cur, kr->ckpt[i], AUDIT_KEY_LEN);
			kr->cur_epoch = kr->base_epoch + i * AUDIT_KR_STRIDE;
			kr->have_cur = true;
		}
	}
	while (kr->cur_epoch < e)
		if (ring_step(kr))
			return -1;
	memcpy(out, kr->cur, AUDIT_KEY_LEN);
	return 0;
}

void audit_keyring_wipe(struct audit_keyring *kr)
{
	if (kr->ckpt) {
		sodium_memzero(kr->ckpt, kr->capckpt * AUDIT_KEY_LEN);
		free(kr->ckpt);
	}
	sodium_memzero(kr, sizeof(*kr));
}

int audit_parse_duration(const char *s, uint64_t *secs)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		switch (*end) {
		case 's':
			mult = 1;
			break;
		case 'm':
			mult = 60;
			break;
		case 'h':
			mult = 3600;
			break;
		case 'd':
			mult = 86400;
			break;
		default:
			return -1;
		}
		if (end[1] && strcmp(end + 1, "in") && strcmp(end + 1, "ec"))
			return -1;
	}
	if (!v || v > AUDIT_SEAL_MAX_INTERVAL / mult)
		return -1;
	*secs = v * mult;
	return 0;
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
