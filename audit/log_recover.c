// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_recover.c - opening the audit log: lock, key, and recovery after an
 * unclean stop (find the last intact record, cut a torn line, chain on).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "log.h"
#include "log_impl.h"
#include "segment.h"

/* What the newest segment(s) hold, as far as the chain verifies. */
struct scan {
	bool header_ok, key_mismatch;
	char key_id[AUDIT_KEY_ID_HEX + 1];
	enum audit_format fmt;
	uint64_t last_seq, records;
	uint8_t last_mac[AUDIT_MAC_LEN];
	size_t size, good_end;
	bool clean;  /* the last intact record is a closing one */
	size_t torn; /* an unfinished last line after good_end, and nothing else */
	size_t bad;  /* anything else after good_end */
};

static bool is_log_action(const struct audit_rec *r, const char *action)
{
	const char *op = audit_rec_str(r, "op", NULL), *a = audit_rec_str(r, "action", NULL);

	return op && a && !strcmp(op, "log") && !strcmp(a, action);
}

static int scan_segment(struct audit_log *l, unsigned int segno, struct scan *sc)
{
	char name[AUDIT_SEG_NAME_MAX], why[160];
	uint8_t prev[AUDIT_MAC_LEN], mac[AUDIT_MAC_LEN];
	struct audit_seg seg;
	const char *line;
	size_t len;
	bool complete;

	memset(sc, 0, sizeof(*sc));
	audit_seg_name(segno, name);
	if (audit_seg_read(l->dirfd, name, &seg, why, sizeof(why))) {
		seterr(l, "%s/%s", l->dir, why);
		return -1;
	}
	sc->size = seg.size;
	while (audit_seg_next(&seg, &line, &len, &complete)) {
		struct audit_rec r;
		const char *s;
		size_t slen;
		int64_t v;

		if (!complete || audit_rec_parse(line, len, &r, why, sizeof(why)))
			break;
		if (!sc->header_ok) {
			s = audit_rec_str(&r, "key_id", &slen);
			if (s && slen == AUDIT_KEY_ID_HEX &&
			    strspn(s, "0123456789abcdef") == slen && strcmp(s, l->key_id)) {
				sc->key_mismatch = true;
				memcpy(sc->key_id, s, slen + 1);
			}
			s = audit_rec_str(&r, "prev_mac", &slen);
			if (!is_log_action(&r, "segment") || !audit_rec_int(&r, "segment", &v) ||
			    v != segno || !s || audit_unhex(s, slen, prev, AUDIT_MAC_LEN)) {
				audit_rec_free(&r);
				break;
			}
		} else if (r.seq != sc->last_seq + 1) {
			audit_rec_free(&r);
			break;
		}
		audit_mac(l->key, prev, line, r.body_len, mac);
		if (sodium_memcmp(mac, r.mac, AUDIT_MAC_LEN)) {
			audit_rec_free(&r);
			break;
		}
		if (!sc->header_ok)
			sc->fmt = r.fmt;
		sc->header_ok = true;
		sc->last_seq = r.seq;
		sc->records++;
		memcpy(sc->last_mac, mac, sizeof(mac));
		memcpy(prev, mac, sizeof(mac));
		sc->clean = is_log_action(&r, "close");
		sc->good_end = seg.off;
		audit_rec_free(&r);
	}
	if (sc->size > sc->good_end) {
		if (!memchr(seg.data + sc->good_end, '\n', sc->size - sc->good_end))
			sc->torn = sc->size - sc->good_end;
		else
			sc->bad = sc->size - sc->good_end;
	}
	audit_seg_free(&seg);
	return 0;
}

static int truncate_at(struct audit_log *l, const char *name, size_t size);

static int recover(struct audit_log *l, const struct audit_state *st, bool have_state)
{
	char reason[512] = "", name[AUDIT_SEG_NAME_MAX];
	uint64_t discarded = 0, missing = 0;
	bool unclean = false, append = false, have_tail = false;
	unsigned int *nums, newest = 0;
	struct scan sc = {0};
	size_t n, rlen;
	long i;

#define REASON(...)                                                                                \
	do {                                                                                       \
		rlen = strlen(reason);                                                             \
		snprintf(reason + rlen, sizeof(reason) - rlen, "%s", rlen ? "; " : "");            \
		rlen = strlen(reason);                                                             \
		snprintf(reason + rlen, sizeof(reason) - rlen, __VA_ARGS__);                       \
	} while (0)

	if (audit_seg_list(l->dirfd, &nums, &n)) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		return -1;
	}
	if (n)
		newest = nums[n - 1];
	for (i = (long)n - 1; i >= 0; i--) {
		if (scan_segment(l, nums[i], &sc))
			goto fail;
		audit_seg_name(nums[i], name);
		if (sc.key_mismatch) {
			seterr(l,
			       "%s/%s: written with another key (key id %s, this key is %s): "
			       "wrong --key?",
			       l->dir, name, sc.key_id, l->key_id);
			goto fail;
		}
		if (sc.header_ok) {
			have_tail = true;
			break;
		}
		if (!sc.size && nums[i] == newest) {
			/* created just before a crash: nothing in it to keep */
			unlinkat(l->dirfd, name, 0);
			newest = i ? nums[i - 1] : 0;
			continue;
		}
		REASON("%s does not start with an intact segment header (left in place)", name);
		unclean = true;
	}
	if (have_tail) {
		l->seq = sc.last_seq + 1;
		memcpy(l->mac, sc.last_mac, sizeof(l->mac));
		if (!sc.clean) {
			unclean = true;
			REASON("no closing record after seq %" PRIu64
			       " (recorder killed or crashed)",
			       sc.last_seq);
		}
		if (nums[i] == newest && sc.torn && !sc.bad) {
			audit_seg_name(nums[i], name);
			if (truncate_at(l, name, sc.good_end))
				goto fail;
			discarded = sc.torn;
			REASON("removed an unfinished last record (%zu bytes) from %s", sc.torn,
			       name);
		}
		if (sc.bad) {
			unclean = true;
			REASON("%s: %zu bytes after seq %" PRIu64 " do not verify (left in place)",
			       name, sc.bad, sc.last_seq);
		}
		append = nums[i] == newest && !sc.bad && sc.fmt == l->o.format &&
			 sc.good_end < l->o.max_size;
		l->segno = append ? newest : newest + 1;
		l->seg_records = sc.records;
	} else if (have_state) {
		l->seq = st->seq + 1;
		memcpy(l->mac, st->mac, sizeof(l->mac));
		l->segno = (newest > st->segment ? newest : st->segment) + 1;
		unclean = true;
		REASON("no intact segment: chaining on from the state file (seq %" PRIu64 ")",
		       st->seq);
	} else if (unclean) {
		seterr(l,
		       "%s: no intact segment and no state file, so the chain cannot go on "
		       "(move the damaged segments away): %.200s",
		       l->dir, reason);
		goto fail;
	} else {
		l->seq = 1; /* a new log; MAC(0) is all zeros */
		l->segno = 1;
	}
	if (have_state && st->seq >= l->seq) {
		missing = st->seq - (l->seq - 1);
		unclean = true;
		REASON("log ends at seq %" PRIu64 " but seq %" PRIu64 " was on stable storage: "
		       "%" PRIu64 " records missing",
		       l->seq - 1, st->seq, missing);
	}
	free(nums);
	nums = NULL;
	if (open_segment(l, !append))
		return -1;
	if (append)
		l->seg_size = sc.good_end;
	else
		enforce_keep(l);
	if (unclean && l->seq > 1) {
		struct json_object *r = logrec("recover");
		int rc;

		if (!r) {
			seterr(l, "out of memory");
			return -1;
		}
		json_object_object_add(r, "reason", json_object_new_string(reason));
		json_object_object_add(r, "last_seq", json_object_new_uint64(l->seq - 1));
		json_object_object_add(r, "discarded_bytes", json_object_new_uint64(discarded));
		json_object_object_add(r, "missing", json_object_new_uint64(missing));
		rc = emit(l, r);
		json_object_put(r);
		if (rc)
			return -1;
		fprintf(stderr, "nsaudit record: %s/: recovered after an unclean stop: %s\n",
			l->dir, reason);
	}
	return 0;
fail:
	free(nums);
	return -1;
#undef REASON
}

static int truncate_at(struct audit_log *l, const char *name, size_t size)
{
	int fd = openat(l->dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0 || ftruncate(fd, (off_t)size) || fsync(fd)) {
		seterr(l, "%s/%s: cannot cut the unfinished record: %s", l->dir, name,
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

static int load_key(struct audit_log *l, const char *key_path)
{
	char path[PATH_MAX + 8], why[300];

	if (key_path)
		return audit_key_load(key_path, l->key, l->err, sizeof(l->err));
	snprintf(path, sizeof(path), "%s/.key", l->dir);
	if (access(path, F_OK) && errno == ENOENT) {
		if (audit_key_generate(path, false, why, sizeof(why))) {
			seterr(l, "%s", why);
			return -1;
		}
		fprintf(stderr,
			"nsaudit record: generated a new key %s (verify needs it; keep a copy "
			"where whoever can write %s cannot)\n",
			path, l->dir);
	}
	return audit_key_load(path, l->key, l->err, sizeof(l->err));
}

struct audit_log *audit_log_open(const struct audit_log_opts *o, char *err, size_t errlen)
{
	struct audit_state st;
	struct audit_log *l;
	struct json_object *r;
	int have_state;

	if (!o->dir || !*o->dir) {
		snprintf(err, errlen, "no log directory (--log-dir DIR)");
		return NULL;
	}
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->fd = l->dirfd = l->lockfd = -1;
	l->o = *o;
	if (!l->o.max_size)
		l->o.max_size = AUDIT_DEFAULT_MAX_SIZE;
	if (!l->o.keep)
		l->o.keep = AUDIT_DEFAULT_KEEP;
	snprintf(l->dir, sizeof(l->dir), "%s", o->dir);
	if (mkdir(l->dir, 0700) && errno != EEXIST) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		goto fail;
	}
	l->dirfd = open(l->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->dirfd < 0) {
		seterr(l, "%s: %s", l->dir, strerror(errno));
		goto fail;
	}
	/* Two writers would fork the chain: one recorder per directory. */
	l->lockfd = openat(l->dirfd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (l->lockfd < 0) {
		seterr(l, "%s/.lock: %s", l->dir, strerror(errno));
		goto fail;
	}
	if (flock(l->lockfd, LOCK_EX | LOCK_NB)) {
		seterr(l, "%s: %s", l->dir,
		       errno == EWOULDBLOCK ? "another nsaudit record is writing this directory"
					    : strerror(errno));
		goto fail;
	}
	if (load_key(l, o->key_path))
		goto fail;
	audit_key_id(l->key, l->key_id);
	have_state = audit_state_load(l->dirfd, l->key, &st, l->err, sizeof(l->err));
	if (have_state < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", l->err);
		seterr(l, "%s/%s", l->dir, why);
		goto fail;
	}
	if (recover(l, &st, have_state > 0))
		goto fail;
	r = logrec("start");
	if (!r) {
		seterr(l, "out of memory");
		goto fail;
	}
	json_object_object_add(r, "pid", json_object_new_int64(getpid()));
	json_object_object_add(r, "version", json_object_new_string(NSAUDIT_VERSION));
	json_object_object_add(r, "format", json_object_new_string(format_name(l->o.format)));
	if (emit(l, r)) {
		json_object_put(r);
		goto fail;
	}
	json_object_put(r);
	/* The start is durable (and in the state file) whatever --sync says. */
	if (fsync(l->fd) || save_state(l, false))
		goto fail;
	l->dirty = false;
	return l;
fail:
	snprintf(err, errlen, "%s", l->err);
	free_log(l);
	return NULL;
}
