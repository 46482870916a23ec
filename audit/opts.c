// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* opts.c - the log's settings (--log-dir, --key, --format, --max-size,
 * --keep, --on-full, --sync): defaults and parsing, for "nsaudit record". */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "seal.h"
#include "nstype.h"

void audit_log_opts_init(struct audit_log_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = AUDIT_FMT_JSON;
	o->max_size = AUDIT_DEFAULT_MAX_SIZE;
	o->keep = AUDIT_DEFAULT_KEEP;
	/* a full disk must not be a way to erase history: suspend and count */
	o->on_full = AUDIT_FULL_SUSPEND;
	o->seal_interval = AUDIT_SEAL_DEFAULT_INTERVAL;
	o->sync = AUDIT_SYNC_BATCH;
}

static int pick(const char *v, const char *const *names, int *out)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

/* in --help order; audit_log_set_opt() goes by position */
const struct optab audit_log_optab[] = {
	{ "log-dir", AUDIT_OPT_BASE + 0, "DIR", "where segments go (created 0700)" },
	{ "key", AUDIT_OPT_BASE + 1, "FILE",
	  "sealing state (nsaudit keygen FILE); default DIR/.key, a\n"
	  "static key made if absent (no protection against root)" },
	{ "format", AUDIT_OPT_BASE + 2, "json|audit", "JSON lines (default) or auditd-style key=value" },
	{ "max-size", AUDIT_OPT_BASE + 3, "BYTES",
	  "rotate at this segment size (K, M, G suffixes;\n"
	  "default 256M)" },
	{ "keep", AUDIT_OPT_BASE + 4, "N",
	  "segments kept when rotating (default 16: 4G, an hour\n"
	  "and a half of one uid at the log budget); record\n"
	  "says at start how long they last (at the average\n"
	  "rate of what the log keeps, or that it cannot tell\n"
	  "yet), then within a minute at the rate the log grows\n"
	  "(a warning under an hour)" },
	{ "on-full", AUDIT_OPT_BASE + 5, "suspend|rotate|stop",
	  "full disk: count dropped records (default),\n"
	  "delete the oldest segment (lets whoever fills the disk\n"
	  "erase history), or exit" },
	{ "sync", AUDIT_OPT_BASE + 6, "none|batch|every",
	  "fsync never, per drained batches at most every\n"
	  "40 ms (default), per record" },
	{ "seal-interval", AUDIT_OPT_BASE + 7, "DURATION",
	  "sealing epoch (default 15m; 900, 15m, 2s): at its\n"
	  "end the key evolves and the old one is erased" },
	{ "anchor-interval", AUDIT_OPT_BASE + 8, "MS",
	  "at most one anchor (chain head) per MS milliseconds\n"
	  "through the sinks after a group commit (default 1000)" },
	OPTAB_END,
};

int audit_log_set_opt(struct audit_log_opts *o, const char *name, const char *val, char *err,
		      size_t errlen)
{
	static const char *const formats[] = {"json", "audit", NULL};
	static const char *const fulls[] = {"rotate", "suspend", "stop", NULL};
	static const char *const syncs[] = {"none", "batch", "every", NULL};
	uint64_t size;
	int i, which;

	for (which = 0; audit_log_optab[which].name; which++)
		if (!strcmp(name, audit_log_optab[which].name))
			break;
	switch (which) {
	case 0:
		if (!*val) {
			snprintf(err, errlen, "--log-dir: empty directory name");
			return -1;
		}
		o->dir = val;
		break;
	case 1:
		if (!*val) {
			snprintf(err, errlen, "--key: empty file name");
			return -1;
		}
		o->key_path = val;
		break;
	case 2:
		if (pick(val, formats, &i))
			goto bad;
		o->format = (enum audit_format)i;
		break;
	case 3:
		if (parse_size(val, &size) || size < AUDIT_MIN_MAX_SIZE) {
			snprintf(err, errlen,
				 "--max-size: '%.64s' is not a size of at least %d bytes "
				 "(BYTES, or with K, M or G)",
				 val, AUDIT_MIN_MAX_SIZE);
			return -1;
		}
		o->max_size = size;
		break;
	case 4: {
		char *end;
		unsigned long k;

		errno = 0;
		k = strtoul(val, &end, 10);
		if (*val < '0' || *val > '9' || *end || errno || k < 1 || k > 1000000) {
			snprintf(err, errlen,
				 "--keep: '%.64s' is not a number of segments (1..1000000)", val);
			return -1;
		}
		o->keep = (unsigned int)k;
		break;
	}
	case 5:
		if (pick(val, fulls, &i))
			goto bad;
		o->on_full = (enum audit_on_full)i;
		break;
	case 6:
		if (pick(val, syncs, &i))
			goto bad;
		o->sync = (enum audit_sync)i;
		break;
	case 7:
		if (audit_parse_duration(val, &o->seal_interval)) {
			snprintf(err, errlen,
				 "--seal-interval: '%.64s' is not a duration (N seconds, or with "
				 "s, m, h, d: 900, 15m, 2s; at most a year)",
				 val);
			return -1;
		}
		o->seal_interval_set = true;
		break;
	case 8: { /* milliseconds: at most one anchor per this, per sink */
		char *end;
		unsigned long ms = strtoul(val, &end, 10);

		if (!*val || *end || ms < 1 || ms > 3600000) {
			snprintf(err, errlen,
				 "--anchor-interval: '%.64s' is not 1..3600000 milliseconds", val);
			return -1;
		}
		o->anchor_interval_ms = (unsigned int)ms;
		break;
	}
	default:
		return 0;
	}
	return 1;
bad:
	snprintf(err, errlen, "--%s: unknown value '%.64s' (%s)", name, val,
		 which == 2   ? "json, audit"
		 : which == 5 ? "rotate, suspend, stop"
			      : "none, batch, every");
	return -1;
}

int audit_log_parse_opt(struct audit_log_opts *o, int argc, char **argv, int *used, char *err,
			size_t errlen)
{
	const char *arg, *val, *eq;
	char name[24];
	size_t nlen;
	int i;

	*used = 0;
	if (argc < 1 || !argv[0] || strncmp(argv[0], "--", 2))
		return 0;
	arg = argv[0] + 2;
	eq = strchr(arg, '=');
	nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	for (i = 0; audit_log_optab[i].name; i++)
		if (strlen(audit_log_optab[i].name) == nlen &&
		    !strncmp(arg, audit_log_optab[i].name, nlen))
			break;
	if (!audit_log_optab[i].name)
		return 0;
	snprintf(name, sizeof(name), "%s", audit_log_optab[i].name);
	if (eq) {
		val = eq + 1;
		*used = 1;
	} else if (argc >= 2 && argv[1]) {
		val = argv[1];
		*used = 2;
	} else {
		snprintf(err, errlen, "--%s needs a value", name);
		return -1;
	}
	return audit_log_set_opt(o, name, val, err, errlen);
}
