// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_verify.c - libFuzzer target for "nsaudit verify" as a whole: the
 * input becomes a log directory (segments and a state file), and
 * audit_verify_dir() -- what cmd_verify runs -- checks it. It must never
 * crash, and with a good directory and key it must answer 0 or 1.
 *
 * Input: one mode byte, then sections separated by the line "--8<--":
 *
 *   mode bit 0   re-MAC: give every line that parses the MAC the chain
 *                wants (and each segment header the chain's prev_mac), so
 *                that mutations get past the MAC check and reach verify's
 *                sequence, segment-gap, drop/missing and tail logic
 *   mode bit 1   write the state file for the last record that parsed
 *                (otherwise the last section is the state file, verbatim,
 *                when there are two sections or more)
 *   mode bits 2-4  the first segment's number minus one (rotated logs)
 *
 * An empty section is a segment number with no file (moved away, dropped).
 * FUZZ_VERIFY_DEBUG=1 prints verify's answer for each input.
 *
 * The key is fixed (KEY_HEX); the seeds in tests/fuzz/seeds/verify are
 * real logs written by "nsaudit record" with that key, rotated, restarted,
 * reopened after SIGHUP, in both formats; the v3-* ones are of format
 * version 3 (Poly1305 chain with run ids: the re-MAC follows the version
 * the first header says and the runs the records say).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chain.h"
#include "codec.h"
#include "segment.h"
#include "state.h"
#include "verify.h"

#define KEY_HEX	 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SEP	 "\n--8<--\n"
#define SEP_LINE "--8<--\n"
#define MAX_SEGS 64

static char dir[64], keypath[128];
static uint8_t key[AUDIT_KEY_LEN];
/* the record MAC of the input's log: BLAKE2b until a header says version 3 */
static unsigned int mac_kind;
static struct audit_chain mac_chain;

static void setup(void)
{
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/nsaudit-fuzz-verify.%d", getpid());
	mkdir(dir, 0700);
	snprintf(keypath, sizeof(keypath), "%s/.key", dir);
	f = fopen(keypath, "w");
	if (!f || fputs(KEY_HEX "\n", f) < 0 || fclose(f))
		abort();
	if (chmod(keypath, 0600)) /* key files must be private */
		abort();
	if (audit_unhex(KEY_HEX, strlen(KEY_HEX), key, sizeof(key)))
		abort();
}

static void clear_dir(int dfd)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, ".key"))
			unlinkat(dfd, de->d_name, 0);
	closedir(d);
}

/* Replace the first hex run equal to old in line[0..len) by new (as long). */
static void patch_hex(char *line, size_t len, const char *old, size_t oldlen, const char *new)
{
	char *p = memmem(line, len, old, oldlen);

	if (p)
		memcpy(p, new, oldlen);
}

/*
 * Re-MAC one segment in place: each line that parses gets the MAC the
 * chain wants; a header line first gets prev_mac = the chain so far.
 * *last_seq is the seq of the last record re-MAC'ed.
 */
static void remac(char *s, size_t n, uint8_t chain[AUDIT_MAC_LEN], uint64_t *last_seq)
{
	char *line = s, *end = s + n, *nl, hex[AUDIT_MAC_HEX + 1], why[64];
	bool first = true;

	for (; line < end; line = nl + 1, first = false) {
		struct audit_rec r;
		uint8_t mac[AUDIT_MAC_LEN], run[AUDIT_RUN_LEN];
		size_t len, at, ml;
		const char *prev;
		size_t plen;
		int64_t lv;

		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		len = (size_t)(nl - line);
		if (audit_rec_parse(line, len, &r, why, sizeof(why)))
			continue;
		if (first && audit_rec_int(&r, "log_version", &lv))
			mac_kind = audit_mac_kind(lv >= 3 ? 3 : 1);
		ml = audit_chain_maclen(mac_kind);
		if (first && (prev = audit_rec_str(&r, "prev_mac", &plen))) {
			char old[AUDIT_MAC_HEX];

			if (plen == 2 * ml) {
				memcpy(old, prev, plen);
				audit_hex(chain, ml, hex);
				if (r.body_len <= len)
					patch_hex(line, r.body_len, old, plen, hex);
			}
		}
		/* format version 3: the one-time keys of the run the record says */
		audit_chain_use(&mac_chain, mac_kind, key);
		if (audit_rec_run(&r, run))
			audit_chain_set_run(&mac_chain, run);
		/* the mac's hex follows ,"mac":" (json) or " mac=" (audit) */
		at = r.body_len + (r.fmt == AUDIT_FMT_JSON ? 8 : 5);
		if (at + 2 * ml <= len) {
			audit_chain_mac(&mac_chain, r.seq, chain, line, r.body_len, mac);
			audit_hex(mac, ml, hex);
			memcpy(line + at, hex, 2 * ml);
			memcpy(chain, mac, AUDIT_MAC_LEN);
			*last_seq = r.seq;
		}
		audit_rec_free(&r);
	}
}

static void write_file(int dfd, const char *name, const char *p, size_t n)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		abort();
	if (n && write(fd, p, n) != (ssize_t)n)
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *secs[MAX_SEGS + 1];
	size_t lens[MAX_SEGS + 1], nsec = 0, nseg, i;
	uint8_t chain[AUDIT_MAC_LEN] = {0};
	uint64_t last_seq = 0;
	unsigned int mode, first, segno = 0;
	struct audit_verify v;
	char err[512], name[AUDIT_SEG_NAME_MAX], *copy;
	const char *p, *end;
	int dfd, rc;

	if (!dir[0])
		setup();
	if (size < 1)
		return 0;
	mac_kind = AUDIT_MAC_BLAKE2B;
	audit_chain_wipe(&mac_chain);
	mode = data[0];
	first = 1 + ((mode >> 2) & 7);
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	p = copy;
	end = copy + size - 1;
	while (nsec < MAX_SEGS + 1) {
		const char *s = memmem(p, (size_t)(end - p), SEP, strlen(SEP));

		secs[nsec] = p;
		if (nsec < MAX_SEGS && (size_t)(end - p) >= strlen(SEP_LINE) &&
		    !memcmp(p, SEP_LINE, strlen(SEP_LINE))) {
			lens[nsec++] = 0; /* an empty section: "--8<--" right after one */
			p += strlen(SEP_LINE);
			continue;
		}
		if (!s || nsec == MAX_SEGS) {
			lens[nsec++] = (size_t)(end - p);
			break;
		}
		lens[nsec++] = (size_t)(s - p) + 1; /* keep the line's '\n' */
		p = s + strlen(SEP);
	}
	/* without bit 1 and with 2+ sections, the last one is the state file */
	nseg = (!(mode & 2) && nsec >= 2) ? nsec - 1 : nsec;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		abort();
	clear_dir(dfd);
	for (i = 0; i < nseg; i++) {
		segno = first + (unsigned int)i;
		if (mode & 1)
			remac((char *)secs[i], lens[i], chain, &last_seq);
		if (!lens[i] || (lens[i] == 1 && secs[i][0] == '\n'))
			continue; /* no segment with this number */
		audit_seg_name(segno, name);
		write_file(dfd, name, secs[i], lens[i]);
	}
	if (mode & 2) {
		struct audit_state st = {
		    .seq = last_seq, .segment = segno, .mac_len = audit_chain_maclen(mac_kind)};

		memcpy(st.mac, chain, sizeof(st.mac));
		audit_state_save(dfd, key, &st, false);
	} else if (nsec >= 2) {
		write_file(dfd, AUDIT_STATE_FILE, secs[nsec - 1], lens[nsec - 1]);
	}
	close(dfd);
	free(copy);

	rc = audit_verify_dir(dir, keypath, false, &v, err, sizeof(err));
	if (getenv("FUZZ_VERIFY_DEBUG"))
		fprintf(stderr, "fuzz_verify: rc=%d %s: %s%s\n", rc, v.where, v.what,
			rc < 0 ? err : "");
	/* the directory and key are fine: a verdict (verify.h), never -1 */
	if (rc != AUDIT_VERIFY_INTACT && rc != AUDIT_VERIFY_TAMPERED && rc != AUDIT_VERIFY_CRASH &&
	    rc != AUDIT_VERIFY_PARTIAL)
		abort();
	/* "not intact" must say why, on one line; so must every finding */
	if ((rc == AUDIT_VERIFY_TAMPERED || rc == AUDIT_VERIFY_CRASH) &&
	    (!v.what[0] || !v.nfindings || strchr(v.what, '\n') || strchr(v.where, '\n')))
		abort();
	for (unsigned int i = 0; i < v.nfindings && i < AUDIT_VERIFY_FINDINGS; i++)
		if (!v.findings[i].what[0] || strchr(v.findings[i].what, '\n'))
			abort();
	/* intact means nothing was found */
	if (rc == AUDIT_VERIFY_INTACT && v.nfindings)
		abort();
	return 0;
}
