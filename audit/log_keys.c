// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_keys.c - the first steps of opening the log (log_recover.c runs
 * them): the directory and the lock that keeps it to one recorder, and
 * the keys (a sealing state, or a static key).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log_impl.h"
#include "regfile.h"

int alog_open_dir(struct audit_log *l)
{
	if (mkdir(l->dir, 0700) && errno != EEXIST) {
		alog_seterr(l, "%s: %s", l->dir, strerror(errno));
		return -1;
	}
	l->dirfd = open(l->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->dirfd < 0) {
		alog_seterr(l, "%s: %s", l->dir, strerror(errno));
		return -1;
	}
	/* Two writers would fork the chain: one recorder per directory. */
	l->lockfd = audit_open_regular(l->dirfd, ".lock", O_RDWR | O_CREAT, 0600);
	if (l->lockfd < 0) {
		alog_seterr(l, "%s/.lock: %s", l->dir, audit_regfile_why(errno));
		return -1;
	}
	if (flock(l->lockfd, LOCK_EX | LOCK_NB)) {
		alog_seterr(l, "%s: %s", l->dir,
			    errno == EWOULDBLOCK
				? "another nsaudit record is writing this directory"
				: strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The sealing state (--key FILE from "nsaudit keygen"), or a static key
 * (a v1 key file, or DIR/.key made here when --key is not given). A fresh
 * sealing state gets its schedule now and loses its seed at once.
 */
int alog_load_keys(struct audit_log *l, const struct audit_log_opts *o)
{
	char why_[300];
	uint64_t interval = o->seal_interval ? o->seal_interval : AUDIT_SEAL_DEFAULT_INTERVAL;

	if (o->key_path) {
		/* the sealing state is rewritten where it really is (a symlink
		 * to it stays a symlink) */
		if (!realpath(o->key_path, l->key_path))
			snprintf(l->key_path, sizeof(l->key_path), "%s", o->key_path);
	} else {
		snprintf(l->key_path, sizeof(l->key_path), "%s/.key", l->dir);
		if (access(l->key_path, F_OK) && errno == ENOENT) {
			if (audit_key_generate(l->key_path, false, why_, sizeof(why_))) {
				alog_seterr(l, "%s", why_);
				return -1;
			}
			fprintf(stderr,
				"nsaudit record: no --key: generated a static key %s: it does "
				"not protect the log against whoever can write %s (use 'nsaudit "
				"keygen FILE' and --key FILE for forward-secure sealing)\n",
				l->key_path, l->dir);
		}
	}
	if (audit_seal_load(l->key_path, &l->seal, l->err, sizeof(l->err)))
		return -1;
	if (l->seal.sealing && !l->seal.scheduled) {
		audit_seal_schedule(&l->seal, time(NULL), interval);
		/* the seed must not stay on this host a moment longer */
		if (audit_seal_save(l->key_path, &l->seal, true, why_, sizeof(why_))) {
			alog_seterr(l, "%s", why_);
			return -1;
		}
	} else if (l->seal.sealing && o->seal_interval_set && interval != l->seal.interval) {
		fprintf(stderr,
			"nsaudit record: --seal-interval %" PRIu64 "s ignored: %s has sealed "
			"with epochs of %" PRIu64 "s since its first use ('nsaudit keygen' makes "
			"a new one)\n",
			interval, l->key_path, l->seal.interval);
	}
	memcpy(l->key_id, l->seal.key_id, sizeof(l->key_id));
	memcpy(l->key, l->seal.key, sizeof(l->key));
	return 0;
}
