// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify.c - the verifier of the log library: the keys, the walk over
 * every segment in order (verify_walk.c), what only the whole log shows
 * (verify_tail.c), and a verdict that says what was proved: intact only
 * when every record was checked with its own epoch's key.
 * "nsaudit verify" (nsaudit/cmd/cmd_verify*.c) prints it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "verify_impl.h"
#include "clock.h"

/* The key to verify with: the verification key (every epoch), or a key
 * file (sealing state: its epoch on; static key), by default DIR/.key. */
static int load_ring(struct walk *w, const struct audit_verify_opts *o, char *err, size_t errlen)
{
	char path[4200];
	struct audit_seal s;
	uint8_t seed[AUDIT_KEY_LEN];

	if (o->vk) {
		if (audit_vk_parse(o->vk, seed, err, errlen))
			return -1;
		audit_keyring_from_seed(&w->kr, seed);
		sodium_memzero(seed, sizeof(seed));
	} else {
		const char *kp = o->key_path;

		if (!kp) {
			snprintf(path, sizeof(path), "%s/.key", o->dir);
			kp = path;
			w->v->default_key = true;
			if (access(path, F_OK) && errno == ENOENT) {
				snprintf(
				    err, errlen,
				    "no key: give --verification-key KEY (as printed by "
				    "'nsaudit keygen') or --key FILE (%.200s/.key does not exist)",
				    o->dir);
				return -1;
			}
		}
		if (audit_seal_load(kp, &s, err, errlen))
			return -1;
		audit_keyring_from_seal(&w->kr, &s);
		audit_seal_wipe(&s);
	}
	memcpy(w->key_id, w->kr.key_id, sizeof(w->key_id));
	return 0;
}

/* The first segment's header says which log this is and its sealing
 * schedule: read before the walk, so that anchors can be matched as records
 * go by and the state file checked (a wrong schedule is harmless: it is
 * bound into K(0), and every MAC would fail). */
static bool peek_first_header(struct walk *w, unsigned int first)
{
	bool headed = false;
	int64_t t0, iv;

	char name[AUDIT_SEG_NAME_MAX], why[64];
	struct audit_seg seg;
	struct audit_rec r;
	const char *line, *lid;
	size_t len, llen;
	bool complete;

	audit_seg_name(first, name);
	if (audit_seg_read(w->dirfd, name, &seg, why, sizeof(why)))
		return false;
	if (audit_seg_next(&seg, &line, &len, &complete) && complete &&
	    !audit_rec_parse(line, len, &r, why, sizeof(why))) {
		headed = walk_is_log(&r, "segment");
		lid = audit_rec_str(&r, "log_id", &llen);
		if (lid && llen == AUDIT_KEY_ID_HEX)
			memcpy(w->log_id, lid, llen + 1);
		if (audit_rec_int(&r, "seal_t0", &t0) && audit_rec_int(&r, "seal_interval", &iv) &&
		    t0 > 0 && iv > 0)
			audit_keyring_schedule(&w->kr, t0, (uint64_t)iv);
		audit_rec_free(&r);
	}
	audit_seg_free(&seg);
	return headed;
}

/* The verdict, from the findings (verify.h). */
static int verdict(const struct walk *w)
{
	const struct audit_verify *v = w->v;

	if (v->ntamper)
		return AUDIT_VERIFY_TAMPERED;
	if (v->nfindings)
		return AUDIT_VERIFY_CRASH;
	if (v->deaf)
		return AUDIT_VERIFY_DEAF;
	if (v->unchecked)
		return AUDIT_VERIFY_PARTIAL;
	return AUDIT_VERIFY_INTACT;
}

/* Every segment in order, with a progress line on a terminal. */
static void walk_all(struct walk *w, const unsigned int *nums, size_t n, bool progress)
{
	struct audit_verify *v = w->v;
	time_t last_tick = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (progress && time(NULL) != last_tick) {
			last_tick = time(NULL);
			fprintf(stderr,
				"\rnsaudit verify: segment %zu of %zu, %" PRIu64 " records so far",
				i + 1, n, v->records);
		}
		walk_segment(w, nums[i], i && nums[i - 1] + 1 == nums[i] && w->have_prev, i == 0);
	}
	if (progress && last_tick)
		fprintf(stderr, "\r\033[K");
}

int audit_verify(const struct audit_verify_opts *o, struct audit_verify *v, char *err,
		 size_t errlen)
{
	char why[300];
	struct walk w = {.v = v, .dirfd = -1};
	unsigned int *nums = NULL;
	size_t n = 0;
	int st, rc = -1;
	bool headed;

	memset(v, 0, sizeof(*v));
	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return -1;
	}
	w.now_ns = realtime_ns();
	w.dirfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0) {
		snprintf(err, errlen, "%.200s: %s", o->dir, strerror(errno));
		return -1;
	}
	if (load_ring(&w, o, err, errlen))
		goto out;
	if (audit_seg_list(w.dirfd, &nums, &n)) {
		snprintf(err, errlen, "%.200s: %s", o->dir, strerror(errno));
		goto out;
	}
	/* a first segment that does not start with its header names no log
	 * and no schedule, so no anchor can authenticate: that damage is the
	 * finding (the walk's), not "no authentic anchor" */
	headed = n && peek_first_header(&w, nums[0]);
	if (n && walk_load_anchors(&w, o, err, errlen) && headed)
		goto out;
	st = audit_state_load(w.dirfd, &w.kr, &w.st, why, sizeof(why));
	if (st < 0)
		walk_bad(&w, AUDIT_STATE_FILE, 0, 0, "%s", why + strlen(AUDIT_STATE_FILE ": "));
	w.have_state = st > 0;
	w.state_rc = st;
	if (!n) {
		walk_bad(&w, "", 0, 0, "no log segments (nsaudit-NNNNNN.log) in the directory");
		rc = verdict(&w);
		goto out;
	}
	v->segments = (unsigned int)n;
	v->first_segment = nums[0];
	v->last_segment = nums[n - 1];
	walk_all(&w, nums, n, o->progress);
	v->last_epoch = w.epoch;
	memcpy(v->log_id, w.log_id, sizeof(v->log_id));
	memcpy(v->key_id, w.key_id, sizeof(v->key_id));
	v->sealed_until_ns = w.sealed_epochs_end;
	v->checked_from_epoch = v->unchecked ? v->unchecked_below : v->first_epoch;
	if (st >= 0)
		walk_check_tail(&w, nums, n);
	rc = verdict(&w);
out:
	audit_keyring_wipe(&w.kr);
	audit_chain_wipe(&w.chain);
	free(nums);
	free(w.moved);
	free(w.anc);
	free(w.alost);
	free(w.others);
	close(w.dirfd);
	return rc;
}

int audit_verify_dir(const char *dir, const char *key_path, bool progress, struct audit_verify *v,
		     char *err, size_t errlen)
{
	struct audit_verify_opts o = {.dir = dir, .key_path = key_path, .progress = progress};

	return audit_verify(&o, v, err, errlen);
}
