// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_verify_report.c - what "nsaudit verify" prints: every finding, one
 * line each (segment, line, seq), then a verdict that says what was
 * proved: intact, NOT INTACT, a crash tail, or intact only for the epochs
 * the key reaches; and how far the log is sealed and anchored.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "verify.h"

#define EXTRA(...)                                                                                 \
	do {                                                                                       \
		size_t el_ = strlen(extra);                                                        \
		snprintf(extra + el_, cap - el_, __VA_ARGS__);                                     \
	} while (0)

static void fmt_ns(int64_t ns, char *out, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Where a finding is: a file of the log directory (DIR/NAME), or a line of
 * an --anchor file, named as it was given (not inside DIR). */
static const char *where_dir(const struct audit_verify_opts *vo, const char *where)
{
	size_t i, n;

	for (i = 0; vo->anchors && vo->anchors[i]; i++) {
		n = strlen(vo->anchors[i]);
		if (!strncmp(where, vo->anchors[i], n) && (!where[n] || !strncmp(where + n, " line ", 6)))
			return "";
	}
	return vo->dir;
}

#define WHERE(vo, w) where_dir(vo, w), where_dir(vo, w)[0] && (w)[0] ? "/" : "", (w)

/* Every finding, one line each, on stdout (to be read, kept, diffed); the
 * verdict with the first tampering (or the crash tail) is one line on
 * stderr. */
static void print_findings(const struct audit_verify_opts *vo, const struct audit_verify *v,
			   int rc)
{
	unsigned int i,
	    kept = v->nfindings < AUDIT_VERIFY_FINDINGS ? v->nfindings : AUDIT_VERIFY_FINDINGS;

	for (i = 0; i < kept && v->nfindings > 1; i++) {
		const struct audit_finding *f = &v->findings[i];

		printf("nsaudit verify: finding %u: %s%s%s: %s%s", i + 1, WHERE(vo, f->where),
		       f->crash ? "crash tail: " : "", f->what);
		if (f->seq)
			printf(" (seq %" PRIu64 ")", f->seq);
		printf("\n");
	}
	if (v->nfindings > kept)
		printf("nsaudit verify: ... and %u more findings\n", v->nfindings - kept);
	fflush(stdout);
	fprintf(stderr, "nsaudit verify: %s%s%s: %s: %s", WHERE(vo, v->where),
		rc == AUDIT_VERIFY_CRASH ? "INTACT UP TO A CRASH TAIL" : "NOT INTACT", v->what);
	if (v->bad_seq)
		fprintf(stderr, " (seq %" PRIu64 ")", v->bad_seq);
	if (v->nfindings > 1)
		fprintf(stderr, " [%u findings, %u of them tampering]", v->nfindings, v->ntamper);
	/* which log, under which key, was found so: a log begun again reads
	 * like the old one unless its id is said */
	if (v->log_id[0] || v->key_id[0])
		fprintf(stderr, " (log %s, key %s)", v->log_id[0] ? v->log_id : "-",
			v->key_id[0] ? v->key_id : "-");
	fprintf(stderr, "\n");
}

/* The sealing, key and anchor parts of the summary line. */
static void summary_extra(const struct audit_verify *v, char *extra, size_t cap)
{
	char t[40];

	/* which log under which key: a fresh log must not read like the old */
	if (v->log_id[0] || v->key_id[0])
		EXTRA(", log %s, key %s", v->log_id[0] ? v->log_id : "-",
		      v->key_id[0] ? v->key_id : "-");
	if (v->moved_segments) /* put back after a SIGHUP reopen */
		EXTRA(", %u segment%s moved away while open and put back (last %06u)",
		      v->moved_segments, v->moved_segments == 1 ? "" : "s", v->last_moved);
	if (v->sealed_log) {
		EXTRA(", sealed: epochs %" PRIu64 "..%" PRIu64 ", %" PRIu64 " seal%s",
		      v->first_epoch, v->last_epoch, v->seals, v->seals == 1 ? "" : "s");
		if (v->sealed_until_ns) {
			fmt_ns(v->sealed_until_ns, t, sizeof(t));
			EXTRA(", sealed up to %s", t);
		}
		if (v->unsealed)
			EXTRA(", %" PRIu64 " record%s of epoch %" PRIu64 " not sealed yet",
			      v->unsealed, v->unsealed == 1 ? "" : "s", v->last_epoch);
		if (v->clock_steps)
			EXTRA(", %" PRIu64 " clock step%s recorded (largest back %.1f s)",
			      v->clock_steps, v->clock_steps == 1 ? "" : "s",
			      (double)v->clock_back_ns / 1e9);
		if (v->late)
			EXTRA(", %" PRIu64 " event%s drained late after a restart", v->late,
			      v->late == 1 ? "" : "s");
	}
	if (v->unchecked)
		EXTRA(", %" PRIu64 " record%s of epochs before %" PRIu64 " checked for order only "
		      "(their keys are erased: --verification-key checks them)",
		      v->unchecked, v->unchecked == 1 ? "" : "s", v->unchecked_below);
	if (v->anchors)
		EXTRA(", anchored up to seq %" PRIu64 " (%u anchor%s), %" PRIu64
		      " record%s after the last anchor",
		      v->anchored_seq, v->anchors, v->anchors == 1 ? "" : "s", v->after_anchor,
		      v->after_anchor == 1 ? "" : "s");
	if (v->anchor_last_seq)
		EXTRA(", authentic anchors of seq %" PRIu64 "..%" PRIu64, v->anchor_first_seq,
		      v->anchor_last_seq);
	if (v->anchor_chain_last)
		EXTRA(", anchor chain %" PRIu64 "..%" PRIu64, v->anchor_chain_first,
		      v->anchor_chain_last);
	if (v->lost_sink)
		EXTRA(", %" PRIu64 " record%s a sink did not send (in the log or counted lost: "
		      "not in the lost sum)", v->lost_sink, v->lost_sink == 1 ? "" : "s");
	if (v->anchors_lost_crash)
		EXTRA(" (%" PRIu64 " lost when a recorder was killed)", v->anchors_lost_crash);
	if (v->anchors_lost_sink)
		EXTRA(" (%" PRIu64 " lost by a sink, as the log recorded)", v->anchors_lost_sink);
	if (v->other_anchors && v->other_closed)
		EXTRA(", %" PRIu64 " anchor%s of an earlier log %s under this key, ended at seq "
		      "%" PRIu64,
		      v->other_anchors, v->other_anchors == 1 ? "" : "s", v->other_log_id,
		      v->other_last_seq);
	if (v->forged_anchors)
		EXTRA(", %u forged anchor line%s ignored (first at line %" PRIu64 ")",
		      v->forged_anchors, v->forged_anchors == 1 ? "" : "s", v->forged_anchor_line);
	if (v->unauth_anchors)
		EXTRA(", %u anchor%s of erased epochs not checkable", v->unauth_anchors,
		      v->unauth_anchors == 1 ? "" : "s");
	if (v->default_key)
		EXTRA(", checked with the log's own key only");
}

/*
 * search and lifetime verify first and say the verdict in one line. Each
 * verdict is said as verify says it: a log intact only as far as the key
 * reaches (a sealing key after the recorder stopped has erased the older
 * epochs' keys: the usual case), up to a crash tail, or with a deaf
 * recorder is not "not intact".
 */
const char *verify_verdict_line(int rc, const struct audit_verify *v, char *buf, size_t len)
{
	char seq[32] = "";

	if (v->bad_seq)
		snprintf(seq, sizeof(seq), " (seq %" PRIu64 ")", v->bad_seq);
	if (rc == AUDIT_VERIFY_PARTIAL)
		snprintf(buf, len, "intact as far as the key reaches: epochs %" PRIu64 "..%" PRIu64
			 " checked, %" PRIu64 " record%s of older epochs for order only (their keys "
			 "are erased: --verification-key checks them)", v->checked_from_epoch,
			 v->last_epoch, v->unchecked, v->unchecked == 1 ? "" : "s");
	else if (rc == AUDIT_VERIFY_DEAF)
		snprintf(buf, len, "intact, but its recorder was deaf for a while (seq %" PRIu64
			 ", %s): what happened then is neither in the log nor counted lost",
			 v->deaf_seq, v->deaf_time);
	else
		snprintf(buf, len, "%s: %s%s%s%s",
			 rc == AUDIT_VERIFY_CRASH ? "intact up to a crash tail" : "NOT INTACT",
			 v->where, v->where[0] ? ": " : "", v->what, seq);
	return buf;
}

int verify_print(const struct audit_verify_opts *vo, const struct audit_verify *v, int rc,
		 bool quiet)
{
	char extra[1024] = "";
	const char *verdict = "intact";
	char partial[96];

	/* said once the verdict is known, so that a failure stays one line */
	if (rc == AUDIT_VERIFY_INTACT && !vo->vk && !vo->key_path)
		fprintf(stderr,
			"nsaudit verify: warning: no --verification-key or --key: checked with "
			"%s/.key, the log's own key: whoever can rewrite the log can rewrite that "
			"key too, so this proves nothing against tampering\n",
			vo->dir);
	if (rc == AUDIT_VERIFY_TAMPERED || rc == AUDIT_VERIFY_CRASH) {
		print_findings(vo, v, rc);
		if (rc == AUDIT_VERIFY_TAMPERED)
			return rc;
		verdict = "intact up to a crash tail";
	}
	if (rc == AUDIT_VERIFY_DEAF) {
		printf("seq %" PRIu64 " (%s): DEAF: the recorder heard nothing from the kernel "
		       "%s%s (%s) and stopped: what happened then and until the next start is "
		       "neither in the log nor counted lost%s\n",
		       v->deaf_seq, v->deaf_time, v->deaf_since[0] ? "after " : "since it started",
		       v->deaf_since, v->deaf_reason,
		       v->deaf > 1 ? " (the last of several such records)" : "");
		verdict = "intact, but its recorder was deaf for a while";
	}
	if (rc == AUDIT_VERIFY_PARTIAL) {
		snprintf(partial, sizeof(partial), "checked epochs %" PRIu64 "..%" PRIu64 " only",
			 v->checked_from_epoch, v->last_epoch);
		verdict = partial;
	}
	summary_extra(v, extra, sizeof(extra));
	if (!quiet || rc)
		printf("nsaudit verify: %s: %s: %u segment%s (%06u..%06u), %" PRIu64
		       " records, seq %" PRIu64 "..%" PRIu64 ", %" PRIu64 " lost, %" PRIu64
		       " start%s, %" PRIu64 " unclean stop%s%s, %s\n",
		       vo->dir, verdict, v->segments, v->segments == 1 ? "" : "s", v->first_segment,
		       v->last_segment, v->records, v->first_seq, v->last_seq, v->lost, v->starts,
		       v->starts == 1 ? "" : "s", v->recoveries, v->recoveries == 1 ? "" : "s",
		       extra,
		       v->closed ? (v->ended_seq ? "retired (ended for good)" : "closed cleanly")
				 : "still open (recorder running or killed)");
	return rc;
}
