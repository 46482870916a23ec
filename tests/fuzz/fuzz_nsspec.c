// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* libFuzzer: the namespace-spec and list parsers take anything a user types. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nstype.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[256];
	struct nsspec spec;
	uint32_t mask;
	long v;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	/* paths are resolved for real: keep the fuzzer off the file system */
	if (s[0] != '/' && !strchr(s, '/'))
		nsspec_parse(s, false, &spec, err, sizeof(err));
	parse_nstype_list(s, &mask, err, sizeof(err));
	parse_op_list(s, &mask, err, sizeof(err));
	parse_long(s, 0, 1000, &v);
	free(s);
	return 0;
}
