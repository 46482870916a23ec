// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * attacker.c - a test-only attacker of nsaudit logs (issue 31), and the
 * invariant it must not break:
 *
 *   for every sequence of attacks, either every record of a sealed epoch
 *   of the pristine log is still there, unchanged and in order, or verify
 *   with the verification key says NOT INTACT and names a finding.
 *
 * Two attackers: one holds what the host holds at the end (the sealing
 * state: the current epoch's key), one holds no key. Each seed copies the
 * pristine log, applies 1..4 attacks drawn at random (cut, drop a segment
 * with a forged drop record, delete/insert/replay/reorder/re-date a
 * record, re-MAC everything after it with the key held, rewrite the state
 * file, forge one with an epoch no key reaches, rename or replace a
 * segment, tear the last line, give a line two readings), then verifies.
 *
 *   attacker PRISTINE_DIR VK STATE_FILE|none SEEDS
 *   attacker op NAME DIR STATE_FILE|none [ARG]   (one named attack: single())
 * Prints one line per violation and "attacker: N seeds, M not intact, K
 * still intact (no sealed record touched), 0 violations"; exit 1 on any.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "anchor.h"
#include "chain.h"
#include "codec.h"
#include "seal.h"
#include "segment.h"
#include "state.h"
#include "verify.h"

#define MAXSEG 64
struct seg {
	unsigned int num;
	char **lines;
	size_t n;
	bool torn; /* last line written without its newline */
};
struct log {
	struct seg s[MAXSEG];
	size_t nseg;
};

static struct audit_seal key; /* what the host holds (key.sealing false: none) */
static bool have_key;
static char ops_done[256];

static char *xstrndup(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static void load(const char *dir, struct log *l)
{
	unsigned int *nums;
	size_t n, i;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	memset(l, 0, sizeof(*l));
	if (dfd < 0 || audit_seg_list(dfd, &nums, &n))
		abort();
	for (i = 0; i < n && i < MAXSEG; i++) {
		char name[AUDIT_SEG_NAME_MAX], err[64];
		struct audit_seg sg;
		const char *line;
		size_t len;
		bool complete;
		struct seg *s = &l->s[l->nseg++];

		s->num = nums[i];
		audit_seg_name(nums[i], name);
		if (audit_seg_read(dfd, name, &sg, err, sizeof(err)))
			abort();
		while (audit_seg_next(&sg, &line, &len, &complete)) {
			s->lines = realloc(s->lines, (s->n + 1) * sizeof(char *));
			s->lines[s->n++] = xstrndup(line, len);
			s->torn = !complete;
		}
		audit_seg_free(&sg);
	}
	free(nums);
	close(dfd);
}

static void save(const char *dir, const struct log *l)
{
	char path[4300];
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t i, j;

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "nsaudit-", 8)) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	for (i = 0; i < l->nseg; i++) {
		char name[AUDIT_SEG_NAME_MAX];
		FILE *f;

		audit_seg_name(l->s[i].num, name);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "w");
		for (j = 0; j < l->s[i].n; j++)
			fprintf(f, "%s%s", l->s[i].lines[j],
				j + 1 == l->s[i].n && l->s[i].torn ? "" : "\n");
		fclose(f);
	}
}

static void free_log(struct log *l)
{
	size_t i, j;

	for (i = 0; i < l->nseg; i++) {
		for (j = 0; j < l->s[i].n; j++)
			free(l->s[i].lines[j]);
		free(l->s[i].lines);
	}
	memset(l, 0, sizeof(*l));
}

/* The records of a log in order, as (segment, line) pairs. */
static size_t count(const struct log *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nseg; i++)
		n += l->s[i].n;
	return n;
}

static char **at(struct log *l, size_t k, struct seg **sp, size_t *jp)
{
	size_t i;

	for (i = 0; i < l->nseg; i++) {
		if (k < l->s[i].n) {
			if (sp)
				*sp = &l->s[i];
			if (jp)
				*jp = k;
			return &l->s[i].lines[k];
		}
		k -= l->s[i].n;
	}
	return NULL;
}

static void remove_line(struct log *l, size_t k)
{
	struct seg *s;
	size_t j;

	if (!at(l, k, &s, &j))
		return;
	free(s->lines[j]);
	memmove(s->lines + j, s->lines + j + 1, (s->n - j - 1) * sizeof(char *));
	s->n--;
}

static void insert_line(struct log *l, size_t k, const char *line)
{
	struct seg *s;
	size_t j;

	if (!at(l, k, &s, &j))
		return;
	s->lines = realloc(s->lines, (s->n + 1) * sizeof(char *));
	memmove(s->lines + j + 1, s->lines + j, (s->n - j) * sizeof(char *));
	s->lines[j] = strdup(line);
	s->n++;
}

/*
 * With the key held: renumber seqs from record k on, put the new chain
 * value into later headers' prev_mac, and MAC everything from k on with
 * the current key (what root on the host can do).
 */
/* A JSON line's MAC and the bytes it covers, from its tail alone: also a
 * line the parser refuses (a key holder MACs whatever bytes they like). */
static bool tail_mac(const char *line, uint8_t mac[AUDIT_MAC_LEN], size_t *body)
{
	size_t len = strlen(line), tail = 8 + 2 * AUDIT_TAG_LEN + 2;

	if (len < tail || memcmp(line + len - tail, ",\"mac\":\"", 8))
		return false;
	*body = len - tail;
	return !audit_unhex(line + len - 2 - 2 * AUDIT_TAG_LEN, 2 * AUDIT_TAG_LEN, mac,
			    AUDIT_TAG_LEN);
}

static void remac_from(struct log *l, size_t k)
{
	uint8_t prev[AUDIT_MAC_LEN] = {0}, mac[AUDIT_MAC_LEN], run[AUDIT_RUN_LEN] = {0};
	struct audit_chain c;
	uint64_t seq = 0;
	size_t n = count(l), i, body;
	char err[64];

	if (!have_key)
		return;
	memset(&c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		char **lp = at(l, i, NULL, NULL), *p, *q, hex[AUDIT_MAC_HEX + 1], pre[40];
		struct audit_rec r;
		const char *pm;
		size_t pml;
		bool parsed;

		parsed = !audit_rec_parse(*lp, strlen(*lp), &r, err, sizeof(err));
		if (!parsed && !tail_mac(*lp, mac, &body))
			continue;
		if (parsed)
			audit_rec_run(&r, run); /* the run a record starts, if it says one */
		if (i < k) {
			memcpy(prev, parsed ? r.mac : mac, sizeof(prev));
			seq = parsed ? r.seq : seq + 1;
			if (parsed)
				audit_rec_free(&r);
			continue;
		}
		/* renumber: the line starts {"seq":N, */
		p = strchr(*lp, ',');
		snprintf(pre, sizeof(pre), "{\"seq\":%" PRIu64, seq + 1);
		q = malloc(strlen(pre) + strlen(p) + 1);
		strcpy(q, pre);
		strcat(q, p);
		/* a header continues the chain: its prev_mac follows */
		pm = parsed ? audit_rec_str(&r, "prev_mac", &pml) : NULL;
		if (pm && pml == 2 * AUDIT_TAG_LEN) {
			char *h = strstr(q, "\"prev_mac\":\"");

			audit_hex(prev, AUDIT_TAG_LEN, hex);
			if (h)
				memcpy(h + 12, hex, 2 * AUDIT_TAG_LEN);
		}
		if (parsed)
			audit_rec_free(&r);
		free(*lp);
		*lp = q;
		if (!tail_mac(q, mac, &body))
			continue;
		audit_chain_init(&c, AUDIT_MAC_POLY1305, key.key, run);
		audit_chain_mac(&c, seq + 1, prev, q, body, mac);
		audit_hex(mac, AUDIT_TAG_LEN, hex);
		memcpy(q + body + 8, hex, 2 * AUDIT_TAG_LEN); /* ,"mac":"HEX"} */
		memcpy(prev, mac, sizeof(prev));
		seq++;
	}
	audit_chain_wipe(&c);
}

/* The log's id, from the first header (what a real attacker copies). */
static void log_id_of(struct log *l, char out[AUDIT_KEY_ID_HEX + 1])
{
	const char *p = l->nseg && l->s[0].n ? strstr(l->s[0].lines[0], "\"log_id\":\"") : NULL;

	memcpy(out, "0000000000000000", 17);
	if (p && strlen(p) > 10 + AUDIT_KEY_ID_HEX) {
		memcpy(out, p + 10, AUDIT_KEY_ID_HEX);
		out[AUDIT_KEY_ID_HEX] = 0;
	}
}

/* A state file naming the last record, MAC'd with the key held (or, with
 * none, a made-up epoch and MAC). */
static void rewrite_state(const char *dir, struct log *l, bool junk_epoch)
{
	struct audit_state st = {0};
	struct audit_rec r;
	char line[AUDIT_STATE_LINE_MAX], err[64], **lp;
	uint8_t k[AUDIT_KEY_LEN];
	size_t n = count(l);
	int dfd, len;

	if (!n || !(lp = at(l, n - 1, NULL, NULL)) ||
	    audit_rec_parse(*lp, strlen(*lp), &r, err, sizeof(err)))
		return;
	st.version = 2;
	st.seq = r.seq;
	st.segment = l->s[l->nseg - 1].num;
	memcpy(st.mac, r.mac, AUDIT_TAG_LEN);
	st.mac_len = AUDIT_TAG_LEN;
	st.clean = true;
	st.epoch = junk_epoch ? 999999 : key.epoch;
	log_id_of(l, st.log_id);
	audit_rec_free(&r);
	if (have_key && !junk_epoch)
		memcpy(k, key.key, sizeof(k));
	else
		randombytes_buf(k, sizeof(k));
	len = audit_state_format(k, &st, line);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	audit_state_write(dfd, line, (size_t)len, false);
	close(dfd);
}

static void note(const char *op)
{
	size_t n = strlen(ops_done);

	snprintf(ops_done + n, sizeof(ops_done) - n, "%s%s", n ? "," : "", op);
}

/* Delete a random segment; a drop record for it, MAC'd with the key held. */
static void drop_random(const char *dir, struct log *l)
{
	size_t i = (size_t)rand() % l->nseg, k;
	char line[256];

	if (l->nseg < 2)
		return;
	snprintf(line, sizeof(line),
		 "{\"seq\":1,\"time\":\"2026-12-06T00:00:00.000000000Z\",\"op\":\"log\","
		 "\"action\":\"drop\",\"dropped\":%u,\"reason\":\"rotation: --keep\","
		 "\"mac\":\"00000000000000000000000000000000\"}",
		 l->s[i].num);
	for (k = 0; k < l->s[i].n; k++)
		free(l->s[i].lines[k]);
	free(l->s[i].lines);
	memmove(l->s + i, l->s + i + 1, (l->nseg - i - 1) * sizeof(l->s[0]));
	l->nseg--;
	k = count(l);
	l->s[l->nseg - 1].lines =
	    realloc(l->s[l->nseg - 1].lines, (l->s[l->nseg - 1].n + 1) * sizeof(char *));
	l->s[l->nseg - 1].lines[l->s[l->nseg - 1].n++] = strdup(line);
	remac_from(l, k);
	rewrite_state(dir, l, false);
	note("drop-segment");
}

/*
 * Issue 40, one reader: the newest kernel event changed so that the full
 * parser refuses it, MAC'd with the key held (so it passes any check that
 * looks at the MAC alone): a second "op", a pid spelt 0123, a raw byte
 * that is not UTF-8, values nested 40 deep.
 */
static void two_readings(struct log *l, const char *kind)
{
	static const char *const kinds[][2] = {
	    {"dup-op", ",\"op\":\"mount\""},
	    {"zero-pid", NULL},
	    {"raw-byte", ",\"x\":\"\xff\""},
	    {"deep", ",\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		     "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"},
	};
	size_t n = count(l), i, j, len;
	char **lp = NULL, *q, *m, *p;

	for (i = n; i-- > 0;) {
		lp = at(l, i, NULL, NULL);
		/* a whole event line (a torn one has no MAC to go before) */
		if (!strstr(*lp, "\"op\":\"log\"") && strstr(*lp, "\"pid\":") &&
		    strstr(*lp, ",\"mac\":\""))
			break;
	}
	if (i >= n)
		return;
	if (!kind)
		kind = kinds[rand() % 4][0];
	for (j = 0; j < 4 && strcmp(kinds[j][0], kind); j++)
		;
	if (j == 4)
		return;
	len = strlen(*lp);
	q = malloc(len + 100);
	m = strstr(*lp, ",\"mac\":\"");
	p = strstr(*lp, "\"pid\":");
	if (!kinds[j][1]) { /* "pid":N -> "pid":0N */
		memcpy(q, *lp, (size_t)(p - *lp) + 6);
		strcpy(q + (p - *lp) + 6, "0");
		strcat(q, p + 6);
	} else {
		memcpy(q, *lp, (size_t)(m - *lp));
		strcpy(q + (m - *lp), kinds[j][1]);
		strcat(q, m);
	}
	free(*lp);
	*lp = q;
	note(kind);
	remac_from(l, i);
}

static void attack(const char *dir, struct log *l, unsigned int op)
{
	size_t n = count(l), k;
	char **lp, *dup;

	if (n < 4 || !l->nseg)
		return;
	k = 1 + (size_t)rand() % (n - 1);
	/* ops 11 and up: the same attacks aimed after the last seal, where
	 * the key held still MACs and only the anchors (and the state) tell */
	if (op >= 11) {
		size_t s = 0, i;

		for (i = 0; i < n; i++)
			if (strstr(*at(l, i, NULL, NULL), "\"action\":\"seal\""))
				s = i;
		if (s + 2 >= n)
			return;
		k = s + 1 + (size_t)rand() % (n - s - 1);
		op = (unsigned int[]){0, 2, 3, 4, 5, 9, 10}[op % 7];
		note("tail");
	}
	switch (op) {
	case 0: /* cut the end back to record k, state to match */
		while (count(l) > k)
			remove_line(l, count(l) - 1);
		while (l->nseg > 1 && !l->s[l->nseg - 1].n)
			l->nseg--;
		rewrite_state(dir, l, false);
		note("cut");
		break;
	case 1: /* delete a segment, with a forged drop record */
		drop_random(dir, l);
		break;
	case 2: /* delete one record */
		remove_line(l, k);
		remac_from(l, k);
		note("delete");
		break;
	case 3: /* insert a copy (replay) */
		lp = at(l, k, NULL, NULL);
		dup = strdup(*lp);
		insert_line(l, (size_t)rand() % n, dup);
		free(dup);
		remac_from(l, k < n ? k : n - 1);
		note("replay");
		break;
	case 4: /* reorder two records */
		if (k + 1 >= n)
			return;
		lp = at(l, k, NULL, NULL);
		dup = *lp;
		*lp = *at(l, k + 1, NULL, NULL);
		*at(l, k + 1, NULL, NULL) = dup;
		remac_from(l, k);
		note("reorder");
		break;
	case 5: { /* re-date */
		char *t;

		lp = at(l, k, NULL, NULL);
		t = strstr(*lp, "\"time\":\"20");
		if (t)
			memcpy(t + 8, "2031", 4);
		remac_from(l, k);
		note("redate");
		break;
	}
	case 6: /* rewrite the state only */
		rewrite_state(dir, l, rand() % 2);
		note("state");
		break;
	case 7: /* rename a segment */
		l->s[(size_t)rand() % l->nseg].num += 1 + (unsigned int)(rand() % 3);
		note("rename");
		break;
	case 8: { /* tear the last line */
		struct seg *s = &l->s[l->nseg - 1];

		if (!s->n || strlen(s->lines[s->n - 1]) < 10)
			return;
		s->lines[s->n - 1][strlen(s->lines[s->n - 1]) / 2] = 0;
		s->torn = true;
		note("tear");
		break;
	}
	case 9: /* one line, two readings: MAC good, the parser refuses it */
		two_readings(l, NULL);
		break;
	default: /* re-MAC from k with the key held (or flip a byte) */
		if (!have_key) {
			lp = at(l, k, NULL, NULL);
			(*lp)[strlen(*lp) / 3] ^= 1;
		}
		remac_from(l, k);
		note("remac");
		break;
	}
}

/* Is every line of want[0..n) in the log, in order? */
static bool sealed_kept(struct log *l, char **want, size_t n)
{
	size_t i = 0, k, total = count(l);

	for (k = 0; k < total && i < n; k++)
		if (!strcmp(*at(l, k, NULL, NULL), want[i]))
			i++;
	return i == n;
}

/* A record of the log's own, appended to the last segment and MAC'd with
 * the key held (a forgery root on the host can make). */
static void append_own(struct log *l, const char *fields)
{
	struct seg *s = &l->s[l->nseg - 1];
	char line[512], now[40];
	size_t k = count(l);

	audit_time_now(now);
	snprintf(line, sizeof(line),
		 "{\"seq\":1,\"time\":\"%s\",\"op\":\"log\",%s,"
		 "\"mac\":\"00000000000000000000000000000000\"}",
		 now, fields);
	s->lines = realloc(s->lines, (s->n + 1) * sizeof(char *));
	s->lines[s->n++] = strdup(line);
	remac_from(l, k);
}

static void drop_segments(struct log *l, size_t from, size_t n)
{
	size_t i, j;

	for (i = from; i < from + n; i++) {
		for (j = 0; j < l->s[i].n; j++)
			free(l->s[i].lines[j]);
		free(l->s[i].lines);
	}
	memmove(l->s + from, l->s + from + n, (l->nseg - from - n) * sizeof(l->s[0]));
	l->nseg -= n;
}

/* Lost records whose counts wrap the total: 3 * (2^63 - 1) > 2^64. */
static void lost_wrap(struct log *l)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		struct seg *s = &l->s[l->nseg - 1];
		char line[256], now[40];
		size_t k = count(l);

		audit_time_now(now);
		snprintf(line, sizeof(line),
			 "{\"seq\":1,\"time\":\"%s\",\"op\":\"lost\",\"count\":%s,"
			 "\"why\":\"x\",\"mac\":\"00000000000000000000000000000000\"}",
			 now, "9223372036854775807");
		s->lines = realloc(s->lines, (s->n + 1) * sizeof(char *));
		s->lines[s->n++] = strdup(line);
		remac_from(l, k);
	}
	append_own(l, "\"action\":\"x\"");
}

/*
 * Issue 40: every segment replaced by one segment 000001 that goes on at
 * the next seq (a copy of the newest segment's lines, renumbered, its
 * header saying segment 1), MAC'd with the key held: the authentic
 * anchors of the erased records are older than this directory.
 */
static void replace_later(struct log *l)
{
	struct seg *last = &l->s[l->nseg - 1], *s;
	size_t k = count(l), j;
	char *h, *p, *q;

	if (l->nseg >= MAXSEG || !last->n)
		return;
	s = &l->s[l->nseg++];
	memset(s, 0, sizeof(*s));
	s->num = last->num + 1;
	s->lines = calloc(last->n, sizeof(char *));
	for (j = 0; j < last->n; j++)
		s->lines[s->n++] = strdup(last->lines[j]);
	/* the header says segment 1 */
	h = s->lines[0];
	p = strstr(h, "\"segment\":");
	if (p) {
		q = p + 10 + strspn(p + 10, "0123456789");
		s->lines[0] = malloc(strlen(h) + 2);
		sprintf(s->lines[0], "%.*s\"segment\":1%s", (int)(p - h), h, q);
		free(h);
	}
	remac_from(l, k);
	drop_segments(l, 0, l->nseg - 1);
	l->s[0].num = 1;
}

/*
 * One named attack of issue 31, for the integration test:
 *   cut-after-seal E   cut everything after the seal of epoch E, state
 *                      rewritten with the current key
 *   cut-last N         cut the N newest records, state rewritten
 *   drop-first N       delete the N oldest segments, a forged drop record
 *   drop-middle        delete a middle segment, a forged drop record
 *   plant-drop         a drop record naming segment 999999, and a middle
 *                      segment deleted
 *   state-junk         a state of an epoch no key reaches, any MAC
 *   state-seq0         a state that says "nothing yet", current key
 *   redate-future      a record dated years ahead, re-MAC'd
 *   skip-seal          a seal that skips an epoch, current key
 *   lost-wrap          lost counts that wrap the total to 0
 *   replace-later      (issue 40) the log replaced by one segment 000001
 *                      going on at the next seq, current key
 */
static int single(const char *op, const char *dir, const char *arg)
{
	struct log l;
	char f[256];
	size_t i, n;

	load(dir, &l);
	if (!strcmp(op, "cut-after-seal")) {
		snprintf(f, sizeof(f), "\"action\":\"seal\",\"epoch\":%s,", arg ? arg : "0");
		n = count(&l);
		for (i = 0; i < n; i++)
			if (strstr(*at(&l, i, NULL, NULL), f))
				break;
		while (i < n && count(&l) > i + 1)
			remove_line(&l, count(&l) - 1);
		while (l.nseg > 1 && !l.s[l.nseg - 1].n)
			drop_segments(&l, l.nseg - 1, 1);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "cut-last")) {
		n = arg ? (size_t)atoi(arg) : 1;
		while (n-- && count(&l) > 2)
			remove_line(&l, count(&l) - 1);
		while (l.nseg > 1 && !l.s[l.nseg - 1].n)
			drop_segments(&l, l.nseg - 1, 1);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "drop-first") || !strcmp(op, "drop-middle") ||
		   !strcmp(op, "plant-drop")) {
		size_t from = 0, k = arg ? (size_t)atoi(arg) : 1;
		unsigned int last;

		if (strcmp(op, "drop-first"))
			from = l.nseg / 2, k = 1;
		if (k >= l.nseg)
			k = l.nseg - 1;
		last = l.s[from + k - 1].num;
		drop_segments(&l, from, k);
		snprintf(f, sizeof(f),
			 "\"action\":\"drop\",\"dropped\":%u,\"reason\":\"rotation: --keep\"",
			 strcmp(op, "plant-drop") ? last : 999999);
		append_own(&l, f);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "state-junk") || !strcmp(op, "state-seq0")) {
		if (!strcmp(op, "state-seq0")) {
			drop_segments(&l, 0, 0);
			while (count(&l) > 2)
				remove_line(&l, count(&l) - 1);
		}
		rewrite_state(dir, &l, !strcmp(op, "state-junk"));
		if (!strcmp(op, "state-seq0")) {
			/* "nothing yet": seq 0 names no record */
			struct audit_state st = {.version = 2,
						 .segment = l.s[0].num,
						 .mac_len = AUDIT_TAG_LEN,
						 .epoch = key.epoch};
			char line[AUDIT_STATE_LINE_MAX];
			int dfd = open(dir, O_RDONLY | O_DIRECTORY);
			int len;

			log_id_of(&l, st.log_id);
			len = audit_state_format(key.key, &st, line);
			audit_state_write(dfd, line, (size_t)len, false);
			close(dfd);
		}
	} else if (!strcmp(op, "redate-future")) {
		append_own(&l, "\"action\":\"start\",\"pid\":1");
		{
			char **lp = at(&l, count(&l) - 1, NULL, NULL),
			     *t = strstr(*lp, "\"time\":\"20");

			if (t)
				memcpy(t + 8, "2031", 4);
			remac_from(&l, count(&l) - 1);
		}
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "skip-seal")) {
		snprintf(f, sizeof(f),
			 "\"action\":\"seal\",\"epoch\":%" PRIu64 ",\"next_epoch\":%" PRIu64
			 ",\"at\":\"timer\"",
			 key.epoch, key.epoch + 2);
		append_own(&l, f);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "lost-wrap")) {
		lost_wrap(&l);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "raise-lost")) {
		/* issue 40: the newest header's lost_total raised (what the next
		 * recorder resumes from: the calls lost meanwhile go unreported) */
		char **lp = &l.s[l.nseg - 1].lines[0], *p = strstr(*lp, "\"lost_total\":"), *q;
		unsigned long long v;
		size_t k, i0 = 0;

		for (k = 0; k + 1 < l.nseg; k++)
			i0 += l.s[k].n;
		if (p) {
			v = strtoull(p + 13, &q, 10);
			char *n = malloc(strlen(*lp) + 32);

			sprintf(n, "%.*s\"lost_total\":%llu%s", (int)(p - *lp), *lp,
				v + (arg ? strtoull(arg, NULL, 10) : 99932), q);
			free(*lp);
			*lp = n;
			remac_from(&l, i0);
		}
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "append-after-close")) {
		/* issue 40: a stopped recorder's key, still on the host, used to
		 * append an event dated now after the close */
		struct seg *s = &l.s[l.nseg - 1];
		char line[512], now[40];

		audit_time_now(now);
		snprintf(line, sizeof(line),
			 "{\"seq\":1,\"time\":\"%s\",\"op\":\"setns\",\"result\":0,"
			 "\"ns_type\":\"net\",\"pid\":1,\"comm\":\"forged\","
			 "\"mac\":\"00000000000000000000000000000000\"}",
			 now);
		s->lines = realloc(s->lines, (s->n + 1) * sizeof(char *));
		s->lines[s->n++] = strdup(line);
		remac_from(&l, count(&l) - 1);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "two-readings")) {
		two_readings(&l, arg);
		rewrite_state(dir, &l, false);
	} else if (!strcmp(op, "replace-later")) {
		replace_later(&l);
		rewrite_state(dir, &l, false);
	} else {
		fprintf(stderr, "attacker: unknown attack '%s'\n", op);
		return 2;
	}
	save(dir, &l);
	free_log(&l);
	return 0;
}

/*
 * Issue 40: the anchor stream attacked too (attacker ... SEEDS ANCHOR_FILE).
 * The sink's file is copied per seed and attacked at random: lines anyone
 * can log (forged anchors naming far or near epochs, hostile tags, junk),
 * replays and duplicates, lines reordered, and, with the key held, anchors
 * forged with the current epoch's key (any n, prev, why, seq, first_*);
 * those leave every authentic anchor in place, as an off-host sink would.
 * Deleting a line or truncating the file at a byte takes some away (a sink
 * on the host); then only the sealed records are promised.
 */
struct afile {
	char **lines;
	size_t n;
};

static struct audit_anchor *pristine_anc; /* every anchor the sink got */
static size_t npristine_anc;
static bool anchors_taken; /* an anchor line deleted or cut this seed */

static void afile_load(const char *path, struct afile *f)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;

	memset(f, 0, sizeof(*f));
	while (fp && (got = getline(&buf, &cap, fp)) >= 0) {
		if (got && buf[got - 1] == '\n')
			buf[--got] = 0;
		f->lines = realloc(f->lines, (f->n + 1) * sizeof(char *));
		f->lines[f->n++] = xstrndup(buf, (size_t)got);
	}
	free(buf);
	if (fp)
		fclose(fp);
}

static void afile_add(struct afile *f, const char *line)
{
	size_t at = f->n ? (size_t)rand() % (f->n + 1) : 0;

	if (rand() % 2)
		at = f->n; /* most arrive after the recorder's */
	f->lines = realloc(f->lines, (f->n + 1) * sizeof(char *));
	memmove(f->lines + at + 1, f->lines + at, (f->n - at) * sizeof(char *));
	f->lines[at] = strdup(line);
	f->n++;
}

/* The attacked log's record at seq, if any: its mac as written. */
static bool log_mac_at(struct log *l, uint64_t seq, uint8_t mac[AUDIT_MAC_LEN], size_t *len)
{
	size_t i, n = count(l), body;
	char pre[40];

	snprintf(pre, sizeof(pre), "{\"seq\":%" PRIu64 ",", seq);
	for (i = 0; i < n; i++) {
		const char *line = *at(l, i, NULL, NULL);

		if (!strncmp(line, pre, strlen(pre)) && tail_mac(line, mac, &body)) {
			*len = AUDIT_TAG_LEN;
			return true;
		}
	}
	return false;
}

static uint64_t rnd64(void)
{
	return ((uint64_t)rand() << 31) ^ (uint64_t)rand();
}

/* One anchor line as a sink writes it (a logger line when tag says so). */
static void anchor_line(const struct audit_anchor *a, const char *tag, char *out, size_t cap)
{
	char mac[AUDIT_MAC_HEX + 1], prev[33], amac[33];

	audit_hex(a->mac, a->mac_len ? a->mac_len : AUDIT_TAG_LEN, mac);
	audit_hex(a->prev, AUDIT_TAG_LEN, prev);
	audit_hex(a->amac, AUDIT_TAG_LEN, amac);
	snprintf(out, cap,
		 "2026-12-07T00:00:00.000000+00:00 vm %s nsaudit-anchor log_id=%s key_id=%s "
		 "seq=%" PRIu64 " segment=%u epoch=%" PRIu64 " first_segment=%u first_seq=%" PRIu64
		 " n=%" PRIu64 " mac=%s why=%s prev=%s amac=%s",
		 tag, a->log_id, a->key_id, a->seq, a->segment, a->epoch, a->first_segment,
		 a->first_seq, a->n, mac, a->why, prev, amac);
}

/* An anchor of this log, fields drawn near the real ones or anywhere. */
static void anchor_forge(struct log *l, struct audit_anchor *a, bool keyed)
{
	static const char *const whys[] = {"start", "recover", "end", "commit", "seal", "close"};
	const struct audit_anchor *real =
	    npristine_anc ? &pristine_anc[(size_t)rand() % npristine_anc] : NULL;
	const struct audit_anchor *last = npristine_anc ? &pristine_anc[npristine_anc - 1] : NULL;
	size_t n = count(l);

	memset(a, 0, sizeof(*a));
	if (real) {
		*a = *real;
		log_id_of(l, a->log_id);
	}
	a->chained = true;
	switch (rand() % 4) {
	case 0: a->n = last ? last->n + 1 : 1; break;
	case 1: a->n = real ? real->n : 1; break;
	case 2: a->n = 1 + rnd64() % 1000; break;
	default: a->n = last ? last->n : 1; break;
	}
	if (last && rand() % 2)
		memcpy(a->prev, last->amac, sizeof(a->prev));
	else
		randombytes_buf(a->prev, sizeof(a->prev));
	strcpy(a->why, whys[rand() % 6]);
	a->seq = rand() % 2 && n ? (uint64_t)(n - (size_t)rand() % (n > 5 ? 5 : n)) : rnd64() % 100000;
	if (!log_mac_at(l, a->seq, a->mac, &a->mac_len)) {
		a->mac_len = AUDIT_TAG_LEN;
		randombytes_buf(a->mac, AUDIT_TAG_LEN);
	}
	if (rand() % 2) {
		a->first_segment = l->nseg ? l->s[0].num : 1;
		a->first_seq = 1 + (uint64_t)(rand() % 50);
	}
	if (keyed && have_key) {
		struct audit_keyring kr;
		uint8_t k[AUDIT_KEY_LEN];

		a->epoch = key.epoch + (uint64_t)(rand() % 3);
		audit_keyring_from_seal(&kr, &key);
		if (!audit_keyring_get(&kr, a->epoch, k))
			audit_anchor_mac(a, k, a->amac);
		audit_keyring_wipe(&kr);
		sodium_memzero(k, sizeof(k));
	} else {
		a->epoch = rand() % 2 ? rnd64() : (real ? real->epoch : 0);
		randombytes_buf(a->amac, sizeof(a->amac));
	}
}

static void anchor_attack(struct afile *f, struct log *l)
{
	static const char *const tags[] = {"nsaudit[1]:", "logger:", "x:", "evil[2]:",
					   "a] nsaudit-anchor", "nobody:"};
	struct audit_anchor a;
	char line[1024];
	size_t i, j, k;

	switch (rand() % 7) {
	case 0: /* forged lines anyone can log, near and far epochs */
		for (k = 1 + (size_t)rand() % 20; k-- > 0;) {
			anchor_forge(l, &a, false);
			anchor_line(&a, tags[rand() % 6], line, sizeof(line));
			afile_add(f, line);
		}
		note("a-forged");
		break;
	case 1: /* a line replayed, verbatim or under another tag */
		if (!f->n)
			return;
		i = (size_t)rand() % f->n;
		if (rand() % 2) {
			afile_add(f, f->lines[i]);
		} else {
			const char *p = strstr(f->lines[i], "nsaudit-anchor ");

			snprintf(line, sizeof(line), "2026-12-07T00:00:00+00:00 vm nobody: %s",
				 p ? p : f->lines[i]);
			afile_add(f, line);
		}
		note("a-replay");
		break;
	case 2: /* two lines reordered (delivery order is no evidence) */
		if (f->n < 2)
			return;
		i = (size_t)rand() % f->n;
		j = (size_t)rand() % f->n;
		{
			char *t = f->lines[i];

			f->lines[i] = f->lines[j];
			f->lines[j] = t;
		}
		note("a-reorder");
		break;
	case 3: /* forged with the key held */
		if (!have_key)
			return;
		for (k = 1 + (size_t)rand() % 3; k-- > 0;) {
			anchor_forge(l, &a, true);
			anchor_line(&a, "nsaudit[9]:", line, sizeof(line));
			afile_add(f, line);
		}
		note("a-keyed");
		break;
	case 4: /* an anchor line deleted */
		for (k = 0; k < 8 && f->n; k++) {
			i = (size_t)rand() % f->n;
			if (strstr(f->lines[i], "nsaudit-anchor ")) {
				free(f->lines[i]);
				memmove(f->lines + i, f->lines + i + 1,
					(f->n - i - 1) * sizeof(char *));
				f->n--;
				anchors_taken = true;
				note("a-delete");
				return;
			}
		}
		break;
	case 5: /* the file cut at a byte of its last line */
		if (!f->n || !f->lines[f->n - 1][0])
			return;
		f->lines[f->n - 1][(size_t)rand() % strlen(f->lines[f->n - 1])] = 0;
		anchors_taken = true;
		note("a-cut");
		break;
	default: /* junk bytes, a NUL, a very long line */
		memset(line, 'A' + rand() % 26, sizeof(line) - 1);
		line[sizeof(line) - 1] = 0;
		memcpy(line, "x: nsaudit-anchor log_id=", 25);
		afile_add(f, line);
		note("a-junk");
		break;
	}
}

static void afile_save(const char *path, const struct afile *f)
{
	FILE *fp = fopen(path, "w");
	size_t i;

	for (i = 0; fp && i < f->n; i++)
		fprintf(fp, "%s\n", f->lines[i]);
	if (fp)
		fclose(fp);
}

static void afile_free(struct afile *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->lines[i]);
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

/* The pristine record with this seq, if the attacked log holds it as it was. */
static const char *line_of_seq(struct log *l, uint64_t seq)
{
	size_t i, n = count(l);
	char pre[40];

	snprintf(pre, sizeof(pre), "{\"seq\":%" PRIu64 ",", seq);
	for (i = 0; i < n; i++)
		if (!strncmp(*at(l, i, NULL, NULL), pre, strlen(pre)))
			return *at(l, i, NULL, NULL);
	return NULL;
}

static bool has_drop(struct log *l)
{
	size_t i, n = count(l);

	for (i = 0; i < n; i++)
		if (strstr(*at(l, i, NULL, NULL), "\"action\":\"drop\""))
			return true;
	return false;
}

/*
 * What the anchors promise, when every authentic one is still in the file:
 * each record an anchor saw (first_seq..seq) is in the log as it was, or
 * gone from the front with a drop record saying so. NULL, or what broke.
 */
static const char *attested_kept(struct log *pristine, struct log *l, char *why, size_t cap)
{
	uint64_t first = 0, s;
	size_t i;
	const char *p = l->nseg && l->s[0].n ? l->s[0].lines[0] : NULL;

	if (p && !strncmp(p, "{\"seq\":", 7))
		first = strtoull(p + 7, NULL, 10);
	for (i = 0; i < npristine_anc; i++) {
		const struct audit_anchor *a = &pristine_anc[i];

		for (s = a->first_seq ? a->first_seq : a->seq; s <= a->seq; s++) {
			const char *want = line_of_seq(pristine, s), *got;

			if (!want)
				continue;
			if (s < first && has_drop(l))
				continue;
			got = line_of_seq(l, s);
			if (!got || strcmp(got, want)) {
				snprintf(why, cap, "anchor %" PRIu64 " (line %" PRIu64
					 ") saw seq %" PRIu64 ", %s",
					 a->n, a->line, s, got ? "changed" : "gone");
				return why;
			}
		}
	}
	return NULL;
}

/* One reader: a log verify calls intact holds no line the parser refuses. */
static const char *one_reading(struct log *l, char *why, size_t cap)
{
	size_t i, n = count(l);
	struct audit_rec r;
	char err[128];

	for (i = 0; i < n; i++) {
		struct seg *s;
		size_t j;
		const char *line = *at(l, i, &s, &j);

		if (j + 1 == s->n && s->torn)
			continue;
		if (audit_rec_parse(line, strlen(line), &r, err, sizeof(err))) {
			snprintf(why, cap, "line %.60s... refused by the parser (%s)", line, err);
			return why;
		}
		audit_rec_free(&r);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct log pristine, l;
	char tmp[] = "/tmp/nsaudit-attack.XXXXXX", cmd[9000], err[256], **sealed = NULL;
	char afpath[64], why[512];
	size_t nsealed = 0, i, total;
	unsigned int seeds, seed, first_seed, notintact = 0, kept = 0, bad = 0, refused = 0;
	struct audit_verify *v = calloc(1, sizeof(*v));

	/* attacker op NAME DIR STATE_FILE|none [ARG] */
	if (argc >= 5 && !strcmp(argv[1], "op")) {
		have_key = strcmp(argv[4], "none") != 0;
		if (sodium_init() < 0 ||
		    (have_key && audit_seal_load(argv[4], &key, err, sizeof(err)))) {
			fprintf(stderr, "attacker: %s\n", err);
			return 2;
		}
		return single(argv[2], argv[3], argc > 5 ? argv[5] : NULL);
	}
	if ((argc != 5 && argc != 6) || sodium_init() < 0 || !mkdtemp(tmp) || !v) {
		fprintf(stderr,
			"usage: attacker PRISTINE_DIR VK STATE_FILE|none SEEDS [ANCHOR_FILE]\n");
		return 2;
	}
	if (argc == 6 && audit_anchor_read(argv[5], &pristine_anc, &npristine_anc, err,
					   sizeof(err))) {
		fprintf(stderr, "attacker: %s\n", err);
		return 2;
	}
	snprintf(afpath, sizeof(afpath), "%s.anchors", tmp);
	first_seed = getenv("ATTACKER_FIRST_SEED") ? (unsigned int)atoi(getenv("ATTACKER_FIRST_SEED")) : 1;
	printf("attacker: seeds %u..%u (srand(seed); ATTACKER_FIRST_SEED=S with SEEDS 1 "
	       "and ATTACKER_VERBOSE=1 replays one)%s\n",
	       first_seed, first_seed + (unsigned int)atoi(argv[4]) - 1,
	       argc == 6 ? ", the anchor file attacked too" : "");
	have_key = strcmp(argv[3], "none") != 0;
	if (have_key && audit_seal_load(argv[3], &key, err, sizeof(err))) {
		fprintf(stderr, "attacker: %s\n", err);
		return 2;
	}
	seeds = (unsigned int)atoi(argv[4]);
	load(argv[1], &pristine);
	/* the sealed records: every line up to the last seal */
	total = count(&pristine);
	for (i = 0; i < total; i++)
		if (strstr(*at(&pristine, i, NULL, NULL), "\"action\":\"seal\""))
			nsealed = i + 1;
	sealed = calloc(nsealed + 1, sizeof(char *));
	for (i = 0; i < nsealed; i++)
		sealed[i] = *at(&pristine, i, NULL, NULL);
	for (seed = first_seed; seed < first_seed + seeds; seed++) {
		const char *const anchors[] = {afpath, NULL};
		struct audit_verify_opts o = {.dir = tmp, .vk = argv[2]};
		const char *broke = NULL;
		struct afile af = {0};
		unsigned int nops, j;
		int rc;

		srand(seed);
		ops_done[0] = 0;
		anchors_taken = false;
		snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -a %s %s", tmp, argv[1], tmp);
		if (system(cmd))
			return 2;
		load(tmp, &l);
		/* with an anchor file, some seeds leave the log alone */
		nops = argc == 6 ? (unsigned int)rand() % 5 : 1 + (unsigned int)rand() % 4;
		for (j = 0; j < nops; j++)
			attack(tmp, &l, (unsigned int)rand() % (argc == 6 ? 18 : 11));
		save(tmp, &l);
		if (argc == 6) {
			afile_load(argv[5], &af);
			for (j = (unsigned int)rand() % 3; j > 0; j--)
				anchor_attack(&af, &l);
			afile_save(afpath, &af);
			afile_free(&af);
			o.anchors = anchors;
		}
		rc = audit_verify(&o, v, err, sizeof(err));
		if (getenv("ATTACKER_VERBOSE"))
			printf("seed %u %s: %d %s: %s %s\n", seed, ops_done, rc, v->where, v->what,
			       rc < 0 ? err : "");
		if (rc == AUDIT_VERIFY_TAMPERED && v->nfindings) {
			notintact++;
			free_log(&l);
			continue;
		}
		/* a refusal that says why (no authentic anchor left) is no verdict */
		if (rc < 0) {
			refused++;
			free_log(&l);
			continue;
		}
		/* said intact: what it promises must hold */
		if (!sealed_kept(&l, sealed, nsealed))
			broke = "sealed records changed";
		else if (argc == 6 && !anchors_taken)
			broke = attested_kept(&pristine, &l, why, sizeof(why));
		if (!broke)
			broke = one_reading(&l, why, sizeof(why));
		if (!broke) {
			kept++;
		} else {
			bad++;
			printf("attacker: VIOLATION seed %u (%s key, ops %s): %s, but verify says "
			       "%d: %s %s\n",
			       seed, have_key ? "current" : "no", ops_done, broke, rc, v->where,
			       v->what);
		}
		free_log(&l);
	}
	printf("attacker: %u seeds (%s key), %u not intact, %u refused (why: "
	       "ATTACKER_VERBOSE=1), %u still intact (nothing promised touched), %u violations\n",
	       seeds, have_key ? "current" : "no", notintact, refused, kept, bad);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", tmp, afpath);
	if (system(cmd))
		return 2;
	return bad ? 1 : 0;
}
