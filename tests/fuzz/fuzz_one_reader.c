// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_one_reader.c - differential libFuzzer target (issue 40): the three
 * readers of a JSON log line must never disagree.
 *
 *   - audit_json_check() (no objects built) and audit_rec_parse() (the full
 *     parser) accept the same lines and read the same seq;
 *   - verify's fast path (light_record) takes a line only when the full
 *     parser reads it, with the same seq, time and op: the input's MAC is
 *     replaced by the right one first (a key holder MACs whatever bytes
 *     they like), so that the fast path really gets to judge the line;
 *   - search's prefilter rejects a line unparsed only when the parser reads
 *     it and the filter does not match it;
 *   - search's flat reader (codec_flat.c) takes only lines the parser
 *     reads, with the same seq.
 *
 * Input: one line, without its newline. Seeds: tests/fuzz/seeds/one_reader
 * (golden lines of the record corpus, and the hostile spellings of the
 * issue). FUZZ_ONE_READER_DEBUG=1 says when the fast path took a line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "codec.h"
#include "nstype.h"
#include "search.h"
#include "verify_impl.h"

static const uint8_t key[AUDIT_KEY_LEN] = {40};

/* the line with the MAC the chain wants (v3, static key, prev all zeros) */
static size_t remac(const uint8_t *in, size_t n, char *out, uint64_t *seq)
{
	static const char pre[] = ",\"mac\":\"";
	size_t tail = sizeof(pre) - 1 + 2 * AUDIT_TAG_LEN + 2, body = n, i;
	uint8_t prev[AUDIT_MAC_LEN] = {0}, mac[AUDIT_MAC_LEN];
	struct audit_chain c;
	char hex[AUDIT_MAC_HEX + 1];

	/* the tail of either MAC length is replaced */
	if (n >= tail && !memcmp(in + n - tail, pre, sizeof(pre) - 1))
		body = n - tail;
	else if (n >= tail + 32 && !memcmp(in + n - tail - 32, pre, sizeof(pre) - 1))
		body = n - tail - 32;
	memcpy(out, in, body);
	*seq = 0;
	for (i = 7; i < body && i < 27 && out[i] >= '0' && out[i] <= '9'; i++)
		*seq = *seq * 10 + (uint64_t)(out[i] - '0');
	audit_chain_init(&c, AUDIT_MAC_POLY1305, key, NULL);
	audit_chain_mac(&c, *seq, prev, out, body, mac);
	audit_chain_wipe(&c);
	audit_hex(mac, AUDIT_TAG_LEN, hex);
	memcpy(out + body, pre, sizeof(pre) - 1);
	memcpy(out + body + sizeof(pre) - 1, hex, 2 * AUDIT_TAG_LEN);
	memcpy(out + body + tail - 2, "\"}", 2);
	return body + tail;
}

static void fast_path(const char *line, size_t len, uint64_t seq)
{
	struct walk w;
	struct audit_rec light, full;
	char err[200];
	const char *a, *b;

	memset(&w, 0, sizeof(w));
	w.kr.kind = AUDIT_KR_STATIC;
	w.kr.have_base = true;
	memcpy(w.kr.base, key, sizeof(key));
	w.log_version = 3;
	w.mac_len = AUDIT_TAG_LEN;
	w.have_prev = true;
	w.expect = seq;
	if (!walk_light_record(&w, 2, line, len, &light)) {
		audit_chain_wipe(&w.chain);
		return;
	}
	audit_chain_wipe(&w.chain);
	if (getenv("FUZZ_ONE_READER_DEBUG"))
		fprintf(stderr, "fast path took seq %llu\n", (unsigned long long)light.seq);
	if (audit_rec_parse(line, len, &full, err, sizeof(err)))
		abort(); /* intact to verify, damaged to search */
	a = audit_rec_str(&full, "op", NULL);
	b = audit_rec_str(&full, "time", NULL);
	if (full.seq != light.seq || !a || strcmp(a, light.light_op) || !b ||
	    strcmp(b, light.light_time))
		abort();
	audit_rec_free(&full);
}

static void prefilter(const char *line, size_t len, bool parsed, struct audit_rec *r)
{
	struct audit_filter f[5];
	size_t i;

	memset(f, 0, sizeof(f));
	f[0].n_pid = 1, f[0].pid[0] = 123;
	f[1].n_comm = 1, f[1].comm[0] = "ip";
	f[2].ops = 1u << NSAUDIT_OP_SETNS;
	f[3].has_since = true, f[3].since_ns = 1796284800000000000LL;
	f[4].n_ns = 1, f[4].ns[0].type = -1, f[4].ns[0].inum = 4026531840u;
	for (i = 0; i < 5; i++)
		if (!audit_filter_may_match(&f[i], line, len) &&
		    (!parsed || audit_filter_match(&f[i], r)))
			abort(); /* skipped unparsed: a damaged line, or a match */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[AUDIT_MAX_LINE + 64];
	struct audit_rec r;
	char err[200];
	uint64_t seq = 0, seq2;
	size_t len;
	bool parsed;
	int check;

	if (size > AUDIT_MAX_LINE)
		return 0;
	parsed = !audit_rec_parse((const char *)data, size, &r, err, sizeof(err));
	check = audit_json_check((const char *)data, size, &seq, err, sizeof(err));
	if (size && data[0] == '{' && (parsed != !check || (parsed && seq != r.seq)))
		abort();
	prefilter((const char *)data, size, parsed, &r);
	if (parsed)
		audit_rec_free(&r);
	{
		struct audit_flat fl = {0};
		struct audit_rec fr;

		if (!audit_rec_flat((const char *)data, size, &fl, &fr) &&
		    (!parsed || fr.seq != seq))
			abort(); /* printed by search, damaged to verify */
		audit_flat_free(&fl);
	}
	len = remac(data, size, line, &seq2);
	if (len <= AUDIT_MAX_LINE)
		fast_path(line, len, seq2);
	return 0;
}
