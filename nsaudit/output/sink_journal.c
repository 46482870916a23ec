// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sink_journal.c - records into systemd-journald through libsystemd's
 * sd_journal_sendv(): one journal entry per record, every field of the
 * record its own journal field NSAUDIT_KEY (NSAUDIT_OP, NSAUDIT_NS_ID ...),
 * so that "journalctl NSAUDIT_OP=setns" filters and "journalctl -o json"
 * reads them back; MESSAGE is the readable line, PRIORITY the syslog
 * level (an alert's rule's), MESSAGE_ID one of three fixed ids (record,
 * alert, lost). journald adds its own trusted _HOSTNAME, _MACHINE_ID,
 * _BOOT_ID and _PID.
 *
 * The static binary (nsaudit-static) is built with NSAUDIT_NO_JOURNAL:
 * Debian has no static libsystemd, and it says so when asked for one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef NSAUDIT_NO_JOURNAL
#include <systemd/sd-journal.h>
#endif

#include "anchor.h"
#include "event_json.h"
#include "sink.h"
#include "sink_impl.h"

/* MESSAGE_ID of nsaudit's entries: journalctl MESSAGE_ID=... */
#define MSGID_RECORD "0fba002e14ef44feb695cb980f3b4451"
#define MSGID_ALERT "60c53d8c254f47f599c8401db34c364f"
#define MSGID_LOST "8654e626b94c46dc8e91ec437f6b048f"
#define JOURNAL_SOCKET "/run/systemd/journal/socket"
#define FIELDS_MAX 128		/* iovecs on the stack; more are allocated */

static const char *str_of(struct json_object *rec, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(rec, k, &v) ? json_object_get_string(v) : NULL;
}

static int priority(struct json_object *rec, const char *op)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };
	const char *sev = str_of(rec, "severity"), *res = str_of(rec, "result");
	int i;

	if (!strcmp(op, "alert"))
		for (i = 0; sev && i < 8; i++)
			if (!strcmp(sev, names[i]))
				return i;
	return !strcmp(op, "lost") || (res && res[0] == '-') ? 4 : 5;
}

/* "KEY=value" and a NUL, KEY from a record key: NSAUDIT_ and its upper
 * case ([a-z0-9_] -> [A-Z0-9_]; anything else made '_'). */
static void field(FILE *f, const char *key, const char *val, bool ours)
{
	if (ours) {
		fputs("NSAUDIT_", f);
		for (; *key; key++)
			fputc(isalnum((unsigned char)*key) ? toupper((unsigned char)*key) : '_', f);
	} else {
		fputs(key, f);
	}
	fputc('=', f);
	fputs(val, f);
	fputc('\0', f);
}

/* The record's readable line without its time (the journal has it). */
static void message(FILE *f, struct json_object *rec)
{
	char *line = NULL, anchor[256], *text;
	size_t len = 0;
	FILE *tf;

	if (!audit_anchor_text(rec, anchor, sizeof(anchor))) {
		field(f, "MESSAGE", anchor, false);
		return;
	}
	tf = open_memstream(&line, &len);
	if (!tf)
		return;
	record_print_text(tf, rec, false);
	fclose(tf);
	text = line ? strchr(line, ' ') : NULL;
	if (text) {
		text[1 + strcspn(text + 1, "\n")] = '\0';
		field(f, "MESSAGE", text + 1, false);
	}
	free(line);
}

char *journal_format(struct json_object *rec, const char *doc, size_t *len)
{
	const char *op = str_of(rec, "op") ?: "unknown";
	char *buf = NULL, prio[4];
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return NULL;
	if (doc)
		field(f, "MESSAGE", doc, false);
	else
		message(f, rec);
	snprintf(prio, sizeof(prio), "%d", priority(rec, op));
	field(f, "PRIORITY", prio, false);
	field(f, "SYSLOG_IDENTIFIER", "nsaudit", false);
	field(f, "SYSLOG_FACILITY", "10", false);	/* authpriv, as --sink syslog */
	field(f, "MESSAGE_ID", !strcmp(op, "alert") ? MSGID_ALERT
			       : !strcmp(op, "lost") ? MSGID_LOST : MSGID_RECORD, false);
	json_object_object_foreach(rec, key, val)
	{
		const char *s = json_object_get_string(val);

		if (s && strlen(key) <= 56)	/* journal field names: 64 bytes */
			field(f, key, s, true);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = blen;
	return buf;
}

#ifndef NSAUDIT_NO_JOURNAL
int journal_probe(void)
{
	return access(JOURNAL_SOCKET, W_OK) ? -errno : 0;
}

int journal_send(const struct sink_msg *m)
{
	const char *p = m->data, *end = m->data + m->len;
	struct iovec stack[FIELDS_MAX], *iov = stack;
	size_t n = 0, cap = FIELDS_MAX;
	int rc;

	/* one iovec per field; a record with more fields than usual gets a
	 * bigger array rather than losing the rest */
	for (; p < end; n++) {
		size_t l = strnlen(p, (size_t)(end - p));

		if (n == cap) {
			struct iovec *bigger = malloc(2 * cap * sizeof(*iov));

			if (!bigger) {
				rc = -ENOMEM;
				goto out;
			}
			memcpy(bigger, iov, n * sizeof(*iov));
			if (iov != stack)
				free(iov);
			iov = bigger;
			cap *= 2;
		}
		iov[n].iov_base = (void *)p;
		iov[n].iov_len = l;
		p += l + 1;
	}
	rc = sd_journal_sendv(iov, (int)n);
out:
	if (iov != stack)
		free(iov);
	return rc < 0 ? rc : 0;
}
#else
int journal_probe(void)
{
	return -EPROTONOSUPPORT;
}

int journal_send(const struct sink_msg *m)
{
	return -EPROTONOSUPPORT;
}
#endif
