// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * libFuzzer: tail anchors are read back from syslog files and auditd logs,
 * where any local process can put text (its name, a mount path). The
 * parser must never crash, and whatever it accepts must be an anchor that
 * audit_anchor_text would write the same way: no partial or invented one.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct audit_anchor a;
	char *s = malloc(size + 1);
	size_t i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!audit_anchor_parse_line(s, size, &a)) {
		/* accepted: well-formed fields only */
		if (strlen(a.log_id) != AUDIT_KEY_ID_HEX || strlen(a.key_id) != AUDIT_KEY_ID_HEX)
			abort();
		for (i = 0; i < AUDIT_KEY_ID_HEX; i++)
			if (!strchr("0123456789abcdef", a.log_id[i]) ||
			    !strchr("0123456789abcdef", a.key_id[i]))
				abort();
	}
	free(s);
	return 0;
}
