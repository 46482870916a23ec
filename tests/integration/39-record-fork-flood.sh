#!/bin/bash
# Rare first within one uid, through `record` (issue 47): root's own fork
# flood (nsflood forkflood: children one after the other, each making 1000
# NS_GET_USERNS ioctls) must not cost root's rare process its records in
# the log. `record` with default retention and log budget, --no-coalesce
# (each call a distinct record), while the flood runs for FORK_FLOOD_SECS
# (10) and root's rare process makes FORK_FLOOD_ROUNDS (20) rounds of eight
# rare operations (nsflood rare, each in a fresh child). From the log:
#   - each of root's rare operations has exactly one record (op, pid,
#     namespace, result) and no lost record names a rare process;
#   - the flood adds up: its children's records + the lost records naming
#     them == the calls they made (the children share their parent's part
#     of root's reserve; the rest of their calls are lost records);
#   - no record is misnamed: every ioctl record of an "nsflood" child names
#     the flooder as its parent; none names a rare process;
#   - no segment dropped, verify passes.
# 44-trace-fork-flood is the same flood through `trace` (the rings).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record fork flood"
require_cmd jq "record fork flood"
NSFLOOD=$(dirname "$NSAUDIT")/helpers/nsflood
require_built "$NSFLOOD" "record fork flood"
SECS=${FORK_FLOOD_SECS:-10}
ROUNDS=${FORK_FLOOD_ROUNDS:-20}
PIN=/sys/fs/bpf/nsaudit-it-forkflood-$$
LOG=$TMP/log
PINS=$TMP/pins
mkdir -p "$PINS"
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; for f in "$PINS"/pin.*; do umount "$f" 2>/dev/null; done
	"$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

"$NSAUDIT" record --log-dir "$LOG" --pin-dir "$PIN" --no-coalesce --no-rules 2>"$TMP/rec.err" &
REC=$!
wait_ready "$TMP/rec.err" $REC || { fail "record starts: $(tail -n 3 "$TMP/rec.err")"; exit 0; }
"$NSFLOOD" forkflood "$SECS" >"$TMP/flood" 2>"$TMP/flood.err" &
FPID=$!
"$NSFLOOD" rare "$ROUNDS" "$(awk -v s="$SECS" 'BEGIN { printf "%.2f", s * 0.9 }')" "$PINS" \
	>"$TMP/fork.rare" 2>&1
wait $FPID
sleep 1		# the recorder catches up
kill -INT $REC
wait $REC
expect_eq "record: SIGINT drains and exits 0" "$?" 0
REC=
cat "$LOG"/nsaudit-*.log >"$TMP/all.jsonl"
check "the log verifies" "$NSAUDIT" verify --log-dir "$LOG"
check "no segment was dropped: the first is still there" test -e "$LOG/nsaudit-000001.log"

parent=$(awk '$1 == "pid" { print $2 }' "$TMP/flood")
calls=$(awk '$1 == "calls" { print $2 }' "$TMP/flood")
nchild=$(awk '$1 == "child"' "$TMP/flood" | wc -l)
expect_eq "workload: the fork flood ran ($nchild children, ${calls:-no} calls)" \
	"$([ "${calls:-0}" -gt 100000 ] && echo yes)" yes

# root's rare records: every op of the rare process's children, by pid
awk '{ print "\"pid\":" $2 "," }' "$TMP"/*.rare | sort -u >"$TMP/rare.pids"
grep -F -f "$TMP/rare.pids" "$TMP/all.jsonl" | grep -F '"uid":0,' |
	jq -r 'select(.op != "lost") | [.op, (.pid // 0), (.ns_type // "-"), (.ns_inum // 0),
	(.result // 0), (.path // "-"), (.target_pid // 0), (.via // "-"), (.repeat // 1)] | @tsv' \
	>"$TMP/rare-cand.tsv"
for k in fork; do
	for o in unshare clone setns setns_fail open mount umount pidfd; do
		want=$(awk -v o="$o" '$1 == o' "$TMP/$k.rare" | wc -l)
		got=$(awk -v o="$o" -f "$TESTS_DIR/lib/rare-match.awk" "$TMP/$k.rare" "$TMP/rare-cand.tsv")
		if [ "$want" -lt "$ROUNDS" ]; then
			fail "flood $k: root made only $want of $ROUNDS $o operations ($(grep -m 2 '^nsflood:' "$TMP/$k.rare" | tr '\n' ' '))"
		else
			expect_eq "flood $k: root's $want $o records are in the log, exact" "$got" "$want"
		fi
	done
done
expect_eq "no lost record names root's rare processes" \
	"$(grep -F '"op":"lost"' "$TMP/all.jsonl" | grep -F -f "$TMP/rare.pids" | wc -l)" 0

# the flood adds up, by its children's pids (a pid the machine gave again
# to one of the rare children is left out of both: it names no one surely)
awk '{ print $2 }' "$TMP/fork.rare" | sort -u >"$TMP/rare.pidlist"
awk '$1 == "child" { print $2 }' "$TMP/flood" | sort -u | comm -23 - "$TMP/rare.pidlist" >"$TMP/kids"
# the flood's records: NS_GET_USERNS (a user namespace); the rare pidfd
# ioctl names a net namespace
jq -r 'select(.comm == "nsflood" and .uid == 0) |
	if .op == "lost" then (if .lost_op == "nsfd" then "l \(.pid // 0) \(.count) \(.reason)" else empty end)
	elif .op == "nsfd" and .ns_type == "user" then "r \(.pid) \(.repeat // 1) \(.ppid // 0)"
	else empty end' "$TMP/all.jsonl" >"$TMP/flood.recs"
set -- $(awk 'NR == FNR { kid[$1] = 1; next }
	!($2 in kid) { next }
	$1 == "r" { r += $3 } $1 == "l" { l += $3; if ($4 == "log_budget") b += $3 }
	END { printf "%d %d %d", r, l, b }' "$TMP/kids" "$TMP/flood.recs")
expect_eq "the flood: its children's records ($1) + lost naming them ($2, log_budget $3) == their calls" \
	"$(($1 + $2))" "${calls:-0}"
if [ "$1" -le $(((SECS + 4) * 1024)) ]; then
	pass "the flood wrote $1 records in ${SECS}s (root's budget: 1024/s and the reserve)"
else
	fail "the flood wrote $1 records in ${SECS}s (root's budget: 1024/s and the reserve)"
fi
expect_eq "no record misnamed: every ioctl record of a flood child names the flooder as parent" \
	"$(awk -v p="$parent" 'NR == FNR { kid[$1] = 1; next }
		$1 == "r" && ($2 in kid) && $4 != p { n++ } END { print n + 0 }' "$TMP/kids" "$TMP/flood.recs")" 0
expect_eq "no record misnamed: no NS_GET_USERNS record names a rare process" \
	"$(awk 'NR == FNR { rare[$1] = 1; next }
		$1 == "r" && ($2 in rare) { n++ } END { print n + 0 }' "$TMP/rare.pidlist" "$TMP/flood.recs")" 0
echo "# log: $(du -sh "$LOG" | cut -f1) in $(ls "$LOG"/nsaudit-*.log | wc -l) segments"
