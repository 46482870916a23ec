// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_audit_segment.c - libFuzzer target for the log-segment parser and
 * verify: the input is a segment file. Every line goes through
 * audit_rec_parse, and the whole input is verified as segment 1 of a log
 * directory (with a state file so that verify gets past its first checks).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 -D_GNU_SOURCE \
 *     -DNSAUDIT_VERSION='"fuzz"' -Iaudit -Icommon -Ibpf \
 *     tests/fuzz/fuzz_audit_segment.c audit/[a-z]*.c common/*.c \
 *     -ljson-c -lsodium -o build/fuzz_audit_segment
 *   build/fuzz_audit_segment -max_total_time=30 tests/fuzz/seeds/audit_segment
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chain.h"
#include "codec.h"
#include "state.h"
#include "verify.h"

static char dir[64], seg[128], key[128];

static void setup(void)
{
	static const uint8_t k[AUDIT_KEY_LEN] = {7};
	struct audit_state st = {.seq = 3, .segment = 1};
	char err[256];
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/nsaudit-fuzz.%d", getpid());
	mkdir(dir, 0700);
	snprintf(seg, sizeof(seg), "%s/nsaudit-000001.log", dir);
	snprintf(key, sizeof(key), "%s/.key", dir);
	if (access(key, F_OK) && audit_key_generate(key, false, err, sizeof(err)))
		abort();
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	audit_state_save(fd, k, &st, false);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	struct audit_verify v;
	struct audit_rec r;
	char err[512];
	FILE *f;

	if (!dir[0])
		setup();
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!audit_rec_parse(p, (size_t)(nl - p), &r, err, sizeof(err)))
			audit_rec_free(&r);
	}
	f = fopen(seg, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (audit_verify_dir(dir, key, false, &v, err, sizeof(err)) < 0)
		abort(); /* the directory and key are fine: must give 0 or 1 */
	return 0;
}
