// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * state.c - the state dotfile (state.h): format, parse, MAC, load, and its
 * atomic replacement.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "state.h"
#include "regfile.h"
#include "io.h"

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
