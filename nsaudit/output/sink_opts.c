// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* sink_opts.c - "--sink SPEC" parsing and the set of sinks a command holds. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"

static int parse_hostport(const char *s, struct sink_spec *out, char *err, size_t errlen)
{
	const char *colon, *host = s;
	size_t hl;
	char *end;
	long port;

	if (*s == '[') {	/* [v6]:port */
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':')
			goto bad;
		host = s + 1;
		hl = rb - host;
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			goto bad;
		hl = colon - s;
	}
	if (!hl || hl >= sizeof(out->host))
		goto bad;
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || port < 1 || port > 65535)
		goto bad;
	memcpy(out->host, host, hl);
	out->host[hl] = '\0';
	snprintf(out->port, sizeof(out->port), "%ld", port);
	return 0;
bad:
	snprintf(err, errlen, "--sink '%.64s': need HOST:PORT (port 1-65535)", out->spec);
	return -1;
}

static int parse_target(const char *spec, struct sink_spec *out, char *err, size_t errlen)
{
	const char *a;

	if (!strncmp(spec, "file:", 5)) {
		out->kind = SINK_FILE;
		if (spec[5] != '/' || strlen(spec + 5) >= sizeof(out->file)) {
			snprintf(err, errlen, "--sink '%.64s': file:PATH needs an absolute path "
				 "of at most %zu bytes", out->spec, sizeof(out->file) - 1);
			return -1;
		}
		strcpy(out->file, spec + 5);
		return 0;
	}
	if (!strcmp(spec, "audit")) {
		out->kind = SINK_AUDIT;
		return 0;
	}
	if (!strcmp(spec, "journal")) {
		out->kind = SINK_JOURNAL;
		return 0;
	}
	if (strcmp(spec, "syslog") && strncmp(spec, "syslog:", 7)) {
		snprintf(err, errlen, "--sink '%.64s': not syslog[:ADDRESS], audit, journal or "
			 "file:PATH", out->spec);
		return -1;
	}
	a = spec[6] ? spec + 7 : "unix:/dev/log";
	if (!strncmp(a, "unix:", 5)) {
		out->kind = SINK_SYSLOG_UNIX;
		if (a[5] != '/' || strlen(a + 5) >= sizeof(out->path)) {
			snprintf(err, errlen, "--sink '%.64s': unix:PATH needs an absolute path "
				 "of at most %zu bytes", spec, sizeof(out->path) - 1);
			return -1;
		}
		strcpy(out->path, a + 5);
		return 0;
	}
	if (!strncmp(a, "udp:", 4) || !strncmp(a, "tcp:", 4)) {
		out->kind = a[0] == 'u' ? SINK_SYSLOG_UDP : SINK_SYSLOG_TCP;
		return parse_hostport(a + 4, out, err, errlen);
	}
	snprintf(err, errlen, "--sink '%.64s': ADDRESS is unix:PATH, udp:HOST:PORT or tcp:HOST:PORT",
		 out->spec);
	return -1;
}

int sink_parse(const char *spec, struct sink_spec *out, char *err, size_t errlen)
{
	static const char *const fmts[] = { [SINK_FMT_JSON] = "json", [SINK_FMT_OCSF] = "ocsf",
					    [SINK_FMT_ECS] = "ecs" };
	char target[sizeof(out->spec)];
	const char *f = NULL, *p;
	int i;

	memset(out, 0, sizeof(*out));
	if (strlen(spec) >= sizeof(out->spec)) {
		snprintf(err, errlen, "--sink '%.64s...': longer than %zu bytes", spec,
			 sizeof(out->spec) - 1);
		return -1;
	}
	strcpy(out->spec, spec);
	strcpy(target, spec);
	for (p = spec; (p = strstr(p, ",format=")); p++)	/* the last one */
		f = p;
	if (f) {
		target[f - spec] = '\0';
		f += strlen(",format=");
		for (i = SINK_FMT_JSON; i <= SINK_FMT_ECS; i++)
			if (!strcmp(f, fmts[i]))
				out->fmt = i;
		if (out->fmt == SINK_FMT_NATIVE) {
			snprintf(err, errlen, "--sink '%.64s': format is json, ocsf or ecs", spec);
			return -1;
		}
	}
	if (parse_target(target, out, err, errlen))
		return -1;
	if (out->kind == SINK_AUDIT && out->fmt) {
		snprintf(err, errlen, "--sink '%.64s': audit messages are key=value; ,format= is "
			 "for syslog, journal and file", spec);
		return -1;
	}
	return 0;
}


const struct optab sink_optab[] = {
	{ "sink", SINK_OPT_SINK, "SINK",
	  "also send every record to SINK (repeatable):\n"
	  "syslog[:unix:PATH|:udp:HOST:PORT|:tcp:HOST:PORT]\n"
	  "(RFC 5424 with structured data; default\n"
	  "unix:/dev/log), audit (the kernel audit trail,\n"
	  "AUDIT_USER messages) or journal (systemd-journald,\n"
	  "one field per record field: NSAUDIT_OP,\n"
	  "NSAUDIT_NS_ID...) or file:PATH (JSON lines). Add\n"
	  ",format=json|ocsf|ecs to carry each record as\n"
	  "that document (syslog's MSG, journal's MESSAGE, the\n"
	  "file's lines). Never blocks: a slow sink's\n"
	  "losses are counted and reported" },
	OPTAB_END,
};

int sinks_set_opt(struct sinks *set, const char *name, const char *v, char *err, size_t errlen)
{
	if (strcmp(name, "sink"))
		return 0;
	if (set->n == SINKS_MAX) {
		snprintf(err, errlen, "at most %d --sink options", SINKS_MAX);
		return -1;
	}
	if (sink_parse(v, &set->specs[set->n], err, errlen))
		return -1;
	set->n++;
	return 1;
}

int sinks_parse_opt(struct sinks *set, int argc, char **argv, int *used, char *err,
		    size_t errlen)
{
	const char *a = argv[0], *v = NULL;

	*used = 1;
	if (!strncmp(a, "--sink=", 7)) {
		v = a + 7;
	} else if (!strcmp(a, "--sink")) {
		if (argc < 2) {
			snprintf(err, errlen, "--sink needs a value (syslog[:ADDRESS], audit, journal, "
				 "file:PATH)");
			return -1;
		}
		v = argv[1];
		*used = 2;
	} else {
		return 0;
	}
	return sinks_set_opt(set, "sink", v, err, errlen);
}

int sinks_open(struct sinks *set, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < set->n; i++) {
		set->s[i] = sink_open(&set->specs[i], 0, err, errlen);
		if (!set->s[i]) {
			while (i--)
				sink_close(set->s[i], 0), set->s[i] = NULL;
			return -1;
		}
	}
	return 0;
}

void sinks_emit(struct sinks *set, struct json_object *rec)
{
	struct json_object *cause;
	int i;

	/* a sink's own losses, reported in the main output: not sent again */
	if (json_object_object_get_ex(rec, "cause", &cause) &&
	    !strncmp(json_object_get_string(cause) ?: "", "sink ", 5))
		return;
	for (i = 0; i < set->n; i++)
		sink_emit(set->s[i], rec);
}

void sinks_emit_anchor(struct sinks *set, struct json_object *anchor)
{
	int i;

	for (i = 0; i < set->n; i++)
		sink_emit_anchor(set->s[i], anchor);
}

void sinks_close(struct sinks *set)
{
	int i;

	for (i = 0; i < set->n; i++) {
		sink_close(set->s[i], SINK_FLUSH_MS);
		set->s[i] = NULL;
	}
}
