#!/bin/bash
# Thread slots under tid churn (issue 47): a recorder that hears nothing
# and says 0 lost is the worst answer. A thread's state (its pending call,
# namespace cache, held record) lives in a slot indexed by its tid
# (bpf/nsaudit/tslot.bpf.h); tids come back (pid_max), a dead thread's
# slot is taken by the next thread of its tid, and a tid 32,768 away
# from a live thread's takes a spare. Here tidchurn (tests/helpers) makes
# unshare(CLONE_NEWUTS) + setns() back in a new thread and in a new child
# process, over and over for CHURN_SECS (12) seconds, each child at a tid
# a child had just before (clone3 set_tid) or at a holder's tid + 32,768
# (pid_max raised to 65,536 as in 19-thread-slots), while 64 holder
# threads keep their slots and make the same calls at the start and at
# the end. Ground truth: the calls tidchurn counts as it makes them.
# For each op, the records of "tidchurn" (summing repeat) + the lost
# records naming it == its calls; every setns record names as the
# namespace left the one its own thread's unshare just made (a state
# handed from one thread to the next of its tid would not).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "tid churn"
require_cmd jq "tid churn"
CHURN=$(dirname "$NSAUDIT")/helpers/tidchurn
require_built "$CHURN" "tid churn"
SECS=${CHURN_SECS:-12}
OUT=$TMP/trace.jsonl
SLOTS=32768
PID_MAX0=$(cat /proc/sys/kernel/pid_max)
trap 'echo "$PID_MAX0" >/proc/sys/kernel/pid_max; cleanup_testlib' EXIT

if [ "$PID_MAX0" -lt $((2 * SLOTS)) ] && ! echo $((2 * SLOTS)) >/proc/sys/kernel/pid_max; then
	fail "setup: kernel.pid_max can be set to $((2 * SLOTS))"
	exit 0
fi
trace_start "$OUT" --no-rules || { fail "trace starts"; exit 0; }
TIDCHURN_LOG=$TMP/churn.log "$CHURN" "$SECS" 64 >"$TMP/churn" 2>"$TMP/churn.err"
expect_eq "workload: tidchurn ran ($(tr '\n' ' ' <"$TMP/churn"))" "$?" 0
sleep 1		# the reader catches up
trace_stop
expect_eq "SIGINT drains and exits 0" "$?" 0

n() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/churn"; }
expect_eq "workload: children at a tid a child had, and 32,768 from a holder's" \
	"$([ "$(n at_reused)" -gt 100 ] && [ "$(n at_spare)" -gt 100 ] && echo yes)" yes

jq -c 'select(.comm == "tidchurn")' "$OUT" >"$TMP/mine"
# a loss the kernel could not pin on anyone (recursion, the per-actor
# table full: any process on the machine) is said, not silent: named in
# the message if the sums come short
anon=$(jq -c 'select(.op == "lost" and .pid == null)' "$OUT" | wc -l)
for op in unshare setns; do
	calls=$(n "$op")
	rec=$(jq -s --arg op "$op" '[.[] | select(.op == $op) | (.repeat // 1)] | add // 0' "$TMP/mine")
	lost=$(jq -s --arg op "$op" \
		'[.[] | select(.op == "lost" and .lost_op == $op) | .count] | add // 0' "$TMP/mine")
	expect_eq "$op: records ($rec) + lost naming tidchurn ($lost) == its calls ($anon lost records name no actor)" \
		"$((rec + lost))" "${calls:-none}"
done

# per thread (tid), in kernel order: a setns leaves what the unshare
# before it made, when both have their record
bad=$(jq -s -r '[.[] | select(.op == "unshare" or .op == "setns")] | sort_by(.kseq) |
	group_by(.tid) | map(. as $r | range(1; length) |
		select($r[.].op == "setns" and $r[. - 1].op == "unshare" and
		       $r[.].old_inum != $r[. - 1].ns_inum)) | length' "$TMP/mine" | jq -s add)
expect_eq "every setns left the namespace its own thread's unshare made" "${bad:-none}" 0
expect_eq "every unshare record made a uts namespace, result 0" \
	"$(jq -c 'select(.op == "unshare" and (.ns_type != "uts" or .result != 0))' "$TMP/mine" | wc -l)" 0
