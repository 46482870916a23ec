// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* sink_audit.c - records as AUDIT_USER messages in the kernel audit trail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>

#include "sink.h"
#include "sink_impl.h"
#include "array.h"

/* Room for what audit_log_user_message appends (exe=..., hostname=?, ...)
 * inside its MAX_AUDIT_MESSAGE_LENGTH buffer. */
#define AUDIT_TEXT_MAX (MAX_AUDIT_MESSAGE_LENGTH - 4096 - 256)

/* Fields the kernel or libaudit put in every USER record themselves. */
static const char *const reserved[] = { "pid", "uid", "auid", "ses", "subj", "exe",
					"hostname", "addr", "terminal", "res", "msg", "type" };

static bool is_reserved(const char *k)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (!strcmp(k, reserved[i]))
			return true;
	return false;
}

/* audit field names: letters, digits, '_' and '-' */
static bool name_ok(const char *k)
{
	if (!*k || strlen(k) > 40)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '-'))
			return false;
	return true;
}

char *audit_format(struct json_object *rec, bool *success)
{
	struct json_object *v;
	char *buf = malloc(AUDIT_TEXT_MAX + 1), name[64];
	size_t used = 0;

	if (!buf)
		return NULL;
	buf[0] = '\0';
	*success = !(json_object_object_get_ex(rec, "result", &v) && json_object_get_int64(v) < 0);
	json_object_object_foreach(rec, key, val)
	{
		const char *s = json_object_get_string(val);
		char *enc = NULL, *field;
		int n;

		if (!s || !name_ok(key))
			continue;
		/* the syscall's return value is "exit" in audit records: ausearch
		 * -i shows exit=-22 as EINVAL (it would read "result" as yes/no) */
		if (!strcmp(key, "result"))
			snprintf(name, sizeof(name), "exit");
		else
			snprintf(name, sizeof(name), "%s%s", is_reserved(key) ? "actor_" : "", key);
		/* untrusted strings the auditd way: "quoted", or hex if they
		 * hold a space, a quote or a control byte; numbers as they are */
		if (json_object_is_type(val, json_type_string)) {
			enc = audit_encode_nv_string(name, s, 0);
			if (!enc)
				continue;
			field = enc;
		} else {
			if (asprintf(&enc, "%s=%s", name, s) < 0)
				continue;
			field = enc;
		}
		n = snprintf(buf + used, AUDIT_TEXT_MAX + 1 - used, "%s%s", used ? " " : "", field);
		free(enc);
		if (n < 0 || used + (size_t)n > AUDIT_TEXT_MAX) {
			buf[used] = '\0';	/* too long: this and later fields left out */
			break;
		}
		used += (size_t)n;
	}
	return buf;
}
