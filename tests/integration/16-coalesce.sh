#!/bin/bash
# Flood-proofing in the kernel (issue 16): identical consecutive setns of a
# thread become one record with an exact repeat count, first and last time,
# flushed on exit and by the reader's timer; --no-coalesce gives one record
# per call; a setns flood that overflows the main ring cannot crowd out the
# rare records (reserve ring), and what it loses is counted with a reason.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "coalescing"
require_cmd jq "coalescing"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
NSP=$(dirname "$NSAUDIT")/helpers/nspaths
require_built "$NSP" "coalescing"
OUT=$TMP/trace.jsonl
calls() { jq -s --argjson p "$1" '[.[] | select(.pid == $p and .op == "setns") | .repeat // 1] | add // 0' "$2"; }
recs() { jq -c --argjson p "$1" 'select(.pid == $p and .op == "setns")' "$2" | wc -l; }
lost() { jq -s '[.[] | select(.op == "lost") | .count] | add // 0' "$1"; }

# --- identical calls: one record, exact count, first/last time, nothing lost
trace_start "$OUT" --op setns,unshare,lost --comm nsops || { fail "trace starts"; exit 0; }
"$NSOPS" setns-loop 20000 /proc/self/ns/net >"$TMP/p3" &
P3=$!
p1=$("$NSOPS" setns-loop 20000 /proc/self/ns/net | awk '/^pid/{print $2}')
wait $P3	# never a bare wait: the tracer is a background job too
p3=$(awk '/^pid/{print $2}' "$TMP/p3")
sleep 0.3
trace_stop
expect_eq "20000 identical setns: every call counted (sum of repeat)" "$(calls $p1 "$OUT")" 20000
n=$(recs $p1 "$OUT")
[ "$n" -le 2 ] && pass "20000 identical setns: in $n record(s)" || fail "20000 identical setns: $n records"
r=$(jq -c --argjson p $p1 'select(.pid == $p and .repeat > 1)' "$OUT" | head -1)
[ -n "$r" ] && jq -e '.last_time > .time' <<<"$r" >/dev/null &&
	pass "coalesced record: last_time after time" || fail "coalesced record: last_time after time ($r)"
expect_eq "while another process floods too: its calls counted" "$(calls $p3 "$OUT")" 20000
expect_eq "coalesced: nothing lost" "$(lost "$OUT")" 0

# --- the reader's timer flushes a quiet thread's held record
OUT=$TMP/timer.jsonl
trace_start "$OUT" --op setns || { fail "trace starts"; exit 0; }
"$NSP" loop-then-sleep 500 /proc/self/ns/net 4 >"$TMP/lts.out" &
LTS=$!
for i in $(seq 1 40); do grep -q done "$TMP/lts.out" && break; sleep 0.05; done
p=$(awk '/^pid/{print $2}' "$TMP/lts.out")
got=0
for i in $(seq 1 30); do
	got=$(calls "$p" "$OUT" 2>/dev/null)
	[ "$got" = 500 ] && break
	sleep 0.1
done
kill -0 $LTS 2>/dev/null && alive=yes || alive=no
expect_eq "held record out by the timer while the thread still lives" "$got/$alive" "500/yes"
kill $LTS 2>/dev/null; wait $LTS 2>/dev/null
trace_stop

# --- --no-coalesce: one record per call
OUT=$TMP/plain.jsonl
trace_start "$OUT" --op setns --comm nsops --no-coalesce || { fail "trace starts"; exit 0; }
p=$("$NSOPS" setns-loop 1000 /proc/self/ns/net | awk '/^pid/{print $2}')
sleep 0.3
trace_stop
expect_eq "--no-coalesce: 1000 calls, 1000 records" "$(recs $p "$OUT")" 1000

# --- a flood on a small main ring: the rare records all arrive, the loss
# is counted with its reason, and delivered + lost == calls
OUT=$TMP/flood.jsonl
trace_start "$OUT" --ring-size 16384 --no-coalesce --op setns,unshare,lost \
	--comm nsops || { fail "trace starts"; exit 0; }
"$NSOPS" setns-loop 200000 /proc/self/ns/net >"$TMP/f1" &
F1=$!
"$NSOPS" setns-loop 200000 /proc/self/ns/net >"$TMP/f2" &
F2=$!
pu=
for i in $(seq 1 20); do
	pu="$pu $("$NSOPS" unshare uts | awk '/^pid/{print $2}')"
done
wait $F1 $F2
sleep 0.5
trace_stop
n=0
for p in $pu; do
	[ "$(jq -c --argjson p $p 'select(.pid == $p and .op == "unshare")' "$OUT" | wc -l)" = 1 ] &&
		n=$((n + 1))
done
expect_eq "setns flood: every one of 20 unshares arrives" "$n" 20
q1=$(awk '/^pid/{print $2}' "$TMP/f1"); q2=$(awk '/^pid/{print $2}' "$TMP/f2")
# lost records name whose calls they were (issue 32): the flooders' own,
# not whatever else the machine lost meanwhile (every tracer sees every
# process; other tests flood setns too)
lostof() { jq -s --argjson p "$1" '[.[] | select(.op == "lost" and .pid == $p and .lost_op == "setns") | .count] | add // 0' "$2"; }
tot=$(( $(recs $q1 "$OUT") + $(recs $q2 "$OUT") + $(lostof $q1 "$OUT") + $(lostof $q2 "$OUT") ))
expect_eq "setns flood: delivered + the flooders' lost == 400000" "$tot" 400000
r=$(jq -r --argjson a $q1 --argjson b $q2 'select(.op == "lost" and (.pid == $a or .pid == $b)) | .reason' \
	"$OUT" | sort -u | tr '\n' ' ')
# past half the main ring a flooder writes only within its budget
# (actor_budget); the ring itself may fill too (ring_full)
case $r in
"") pass "setns flood: nothing lost (the reader kept up), nothing to name" ;;
"ring_full " | "actor_budget " | "actor_budget ring_full ")
	pass "setns flood: lost records name their reason ($r)" ;;
*) fail "setns flood: lost reasons '$r' (want ring_full, actor_budget)" ;;
esac
