#!/bin/bash
# Soak: several processes drive setns and unshare (SOAK_ROUNDS rounds of
# 2000 setns and one unshare each, at most SOAK_SECONDS) while "nsaudit record --max-size 256K --keep 4000" rotates. Then the
# log verifies, and every call is accounted for: the setns and unshare
# records of the driver processes equal the calls made, or, if the kernel
# ring overflowed, the shortfall is covered by "lost" records -- never
# silent, and nothing written twice. Bounded: the drivers stop themselves.
# Others may be benchmarking on this machine: --comm keeps their events out.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "soak"
require_cmd jq "soak"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "soak"
SECS=${SOAK_SECONDS:-30}
ROUNDS=${SOAK_ROUNDS:-40}
DRIVERS=${SOAK_DRIVERS:-4}
COMM=nsaudit-soak
PIN=/sys/fs/bpf/nsaudit-soak-$$
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; "$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

# phase NAME RING-SIZE: one recorder, DRIVERS drivers, the counts (--log-budget 0:
# this soaks the writer and rotation, which the log budget would spare)
phase() {
local P=$1 RING=$2 LOG=$TMP/log-$1
echo "-- soak phase $P (--ring-size $RING)"
"$NSAUDIT" record --log-dir "$LOG" --pin-dir "$PIN" --max-size 256K --keep 4000 --ring-size "$RING" --log-budget 0 \
	--op setns,unshare --type net,uts --comm "$COMM" --no-coalesce 2>"$TMP/rec.err" &
REC=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/rec.err" && break; sleep 0.05; done
grep -q '^nsaudit: ready' "$TMP/rec.err" || { fail "soak $P: recorder ready: $(head -3 "$TMP/rec.err")"; return; }

# driver: ROUNDS rounds (or until the deadline) of 2000 setns on its own
# netns and an unshare of net+uts, each by a fresh process; prints
# "setns PID 2000" / "unshare PID 2" per process run. The log must not
# outgrow --keep, or the oldest records would be dropped (and counted).
driver() {
	local end=$(($(date +%s) + SECS)) out r=0
	while [ $((r++)) -lt "$ROUNDS" ] && [ "$(date +%s)" -lt "$end" ]; do
		sleep "${SLEEP:-0.05}"
		out=$("$NSOPS" -n "$COMM" setns-loop 2000 /proc/self/ns/net) || { echo "error setns"; return; }
		echo "setns ${out#pid } 2000"
		out=$("$NSOPS" -n "$COMM" unshare net,uts) || { echo "error unshare"; return; }
		echo "unshare ${out#pid } 2"
	done
}
dpids=()
for k in $(seq 1 "$DRIVERS"); do driver >"$TMP/driver.$k" & dpids+=($!); done
wait "${dpids[@]}"
sleep 0.5	# the reader drains every 50 ms
kill -TERM $REC; wait $REC
expect_eq "soak $P: recorder stops cleanly on SIGTERM" "$?" 0
REC=
"$NSAUDIT" detach --pin-dir "$PIN" >/dev/null 2>&1

cat "$TMP"/driver.* >"$TMP/calls"
check "soak $P: every driver call succeeded" test "$(grep -c '^error' "$TMP/calls")" = 0
calls_setns=$(awk '$1=="setns"{s+=$3} END{print s+0}' "$TMP/calls")
calls_unshare=$(awk '$1=="unshare"{s+=$3} END{print s+0}' "$TMP/calls")
awk '{print $2}' "$TMP/calls" | sort -u >"$TMP/pids"
segs=$(ls "$LOG" | grep -c '^nsaudit-.*\.log$')
[ "$segs" -ge 3 ] && pass "soak $P: rotated under --max-size 256K ($segs segments)" ||
	fail "soak $P: only $segs segments: no rotation"
check "soak $P: no segment dropped by --keep (else counts cannot add up)" test -f "$LOG/nsaudit-000001.log"

"$NSAUDIT" verify --log-dir "$LOG" >"$TMP/verify.out" 2>&1
expect_eq "soak $P: the log verifies ($(tail -1 "$TMP/verify.out" | cut -c1-160))" "$?" 0

# what was written, per op, for the driver pids only
cat "$LOG"/nsaudit-*.log | jq -c 'select(.op=="setns" or .op=="unshare" or .op=="lost")
	| {op, pid, kseq, count, lost_op}' >"$TMP/recs"
got_setns=$(jq -r 'select(.op=="setns") | .pid' "$TMP/recs" | grep -Fxf "$TMP/pids" | wc -l)
got_unshare=$(jq -r 'select(.op=="unshare") | .pid' "$TMP/recs" | grep -Fxf "$TMP/pids" | wc -l)
lost=$(jq -s 'map(select(.op=="lost") | .count) | add // 0' "$TMP/recs")
# The losses that can stand for a driver's missing event: those that name
# one of the driver processes (per-actor losses say whose they were), and
# those the kernel could not attribute at all (no pid). A loss that names
# another process never covers a driver's shortfall.
mine=$(jq -r 'select(.op=="lost" and .pid != null) | "\(.pid) \(.count)"' "$TMP/recs" |
	awk 'NR==FNR { p[$1]=1; next } ($1 in p) { s+=$2 } END { print s+0 }' "$TMP/pids" -)
anon=$(jq -s 'map(select(.op=="lost" and .pid == null) | .count) | add // 0' "$TMP/recs")
dups=$(jq -r 'select(.kseq != null) | .kseq' "$TMP/recs" | sort | uniq -d | wc -l)
expect_eq "soak $P: no event written twice" "$dups" 0
echo "soak $P: $DRIVERS drivers, ${SECS}s: setns $got_setns/$calls_setns, unshare $got_unshare/$calls_unshare, lost $lost"
[ "$calls_setns" -gt 0 ] || fail "soak $P: no calls made"
short=$(( (calls_setns - got_setns) + (calls_unshare - got_unshare) ))
if [ "$got_setns" -gt "$calls_setns" ] || [ "$got_unshare" -gt "$calls_unshare" ]; then
	fail "soak $P: more records than calls (setns $got_setns > $calls_setns or unshare $got_unshare > $calls_unshare)"
elif [ "$short" -eq 0 ]; then
	pass "soak $P: every setns and unshare recorded ($got_setns + $got_unshare, $lost lost)"
elif [ "$anon" -eq 0 ] && [ "$mine" -eq "$short" ]; then
	# every loss was named: the drivers' own lost counts equal their shortfall
	pass "soak $P: $short events missing, exactly the $mine the lost records name for the drivers"
elif [ "$anon" -gt 0 ] && [ "$mine" -le "$short" ] && [ $((mine + anon)) -ge "$short" ]; then
	pass "soak $P: $short events missing: $mine named for the drivers, the rest within $anon unattributed"
else
	fail "soak $P: $short events missing but the lost records name $mine for the drivers and $anon for nobody (of $lost in all)"
fi
}
phase steady 4M
# a small ring overflows: the shortfall must show up as lost records
ROUNDS=${SOAK_OVERFLOW_ROUNDS:-5} SLEEP=0 phase overflow 16K
