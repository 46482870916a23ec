#!/bin/bash
# No silent loss when the recorder is SIGKILLed mid-flood: a process makes a
# known number of setns calls (one record each: --no-coalesce) while the
# recorder is killed several times and restarted on the same pinned rings
# and log. Every call must be in the log exactly once, or counted in a lost
# record: records + lost == calls, exactly, and the log verifies.
#
# A recorder that gives ring space back before the records it took are
# written (libbpf's consumer did) loses up to a batch per kill without a
# lost record: this test catches that.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record kill mid-flood"
require_cmd jq "record kill mid-flood"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "record kill mid-flood"
PIN=/sys/fs/bpf/nsaudit-it-kill-$$
LOG=$TMP/log
KEY=$TMP/key
CALLS=${KILL_FLOOD_CALLS:-3000000}	# outlasts the kills (~1-2 s of them)
KILLS=${KILL_FLOOD_KILLS:-6}
REC= W=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; [ -n "$W" ] && kill -9 $W 2>/dev/null;
	"$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

start_recorder() {	# start_recorder NTH-READY
	"$NSAUDIT" record --log-dir "$LOG" --key "$KEY" --pin-dir "$PIN" --op setns \
		--no-coalesce --pid "$WP" --max-size 8M --keep 1000 2>>"$TMP/rec.err" &
	REC=$!
	for i in $(seq 1 400); do
		[ "$(grep -c '^nsaudit: ready' "$TMP/rec.err")" -ge "$1" ] && return 0
		kill -0 $REC 2>/dev/null || break
		sleep 0.025
	done
	cat "$TMP/rec.err" >&2
	return 1
}

# running, not a zombie (an exited child stays one until waited for, and
# --pid accepts it: the last restart below relies on that)
running() { [ -r "/proc/$1/stat" ] && ! awk '{ sub(/^.*\) /, ""); exit $1 != "Z" }' "/proc/$1/stat"; }

# start_workload NAME CALLS: a setns loop waiting for "go" on its own fifo
# (nsops -w reads one byte: a fifo shared with an earlier one would still
# hold its "o\n"); sets W, WP and GO
start_workload() {
	mkfifo "$TMP/$1.go"
	exec {GO}<>"$TMP/$1.go"
	"$NSOPS" -w setns-loop "$2" /proc/self/ns/net <"$TMP/$1.go" >"$TMP/$1.out" &
	W=$!
	for i in $(seq 1 100); do grep -q '^pid' "$TMP/$1.out" && break; sleep 0.02; done
	WP=$(awk '/^pid/{print $2}' "$TMP/$1.out")
	[ -n "$WP" ]
}

# tally SINCE_SEQ FILE: "s REPEAT KSEQ" per setns of the workload WP and
# "l COUNT" per lost record, of the log's records after SINCE_SEQ; sets
# written (calls, summing repeat) and lost (--pid: the kernel counts only
# the workload's calls as lost)
tally() {
	cat "$LOG"/nsaudit-*.log | jq -r --argjson p "$WP" --argjson s "$1" \
		'select(.seq > $s) | if .op == "setns" and .pid == $p then "s \(.repeat // 1) \(.kseq)"
		 elif .op == "lost" then "l \(.count)" else empty end' >"$2"
	written=$(awk '$1 == "s" { n += $2 } END { print n + 0 }' "$2")
	lost=$(awk '$1 == "l" { n += $2 } END { print n + 0 }' "$2")
}

"$NSAUDIT" keygen "$KEY" >/dev/null
# the workload exists (and is waited for) before the recorder: --pid
start_workload w1 "$CALLS" || { fail "record kill mid-flood: the workload starts"; exit 0; }
start_recorder 1 || { fail "record kill mid-flood: recorder starts"; exit 0; }
echo go >&$GO
killed=0
for k in $(seq 1 "$KILLS"); do
	# somewhere in a drain: 50 to 250 ms into the flood
	sleep "0.$((RANDOM % 20 + 5))"
	running $W || break
	kill -9 $REC
	wait $REC 2>/dev/null
	killed=$((killed + 1))
	start_recorder $((k + 1)) || { fail "record kill mid-flood: restart $k"; exit 0; }
done
[ "$killed" -ge 3 ] &&
	pass "record kill mid-flood: $killed SIGKILLs while the workload ran" ||
	fail "record kill mid-flood: only $killed SIGKILLs while the workload ran (flood too short?)"
for i in $(seq 1 600); do running $W || break; sleep 0.05; done
# the last recorder drains the rest and stops cleanly
sleep 0.5
kill -TERM $REC
wait $REC
expect_eq "record kill mid-flood: SIGTERM stops the last recorder" "$?" 0
REC=
wait $W
expect_eq "record kill mid-flood: the workload's $CALLS setns succeeded" "$?" 0
W=

"$NSAUDIT" verify --log-dir "$LOG" --key "$KEY" >"$TMP/verify.out" 2>&1
expect_eq "record kill mid-flood: the log verifies ($(tail -1 "$TMP/verify.out"))" "$?" 0
tally 0 "$TMP/recs.txt"
# Every call written or counted lost, exactly once: a restarted recorder
# resumes from the log's lost total and never reports past the kernel's.
expect_eq "record kill mid-flood: written ($written) + reported lost ($lost) == calls" \
	"$((written + lost))" "$CALLS"
dups=$(awk '$1 == "s" { print $3 }' "$TMP/recs.txt" | sort | uniq -d | wc -l)
expect_eq "record kill mid-flood: no kernel sequence number written twice" "$dups" 0

# New programs on the same log (the pins detached): their lost counter
# starts from 0 again, so the log's lost_total (phase one's) must not be
# what a later restart on them resumes from, or that many lost calls would
# go unreported. The fresh recorder begins a segment that says 0.
last=$(tail -n 1 "$(ls "$LOG"/nsaudit-*.log | tail -n 1)" | jq .seq)
"$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1
CALLS2=${KILL_FLOOD_CALLS2:-2000000}
start_workload w2 "$CALLS2" || { fail "record kill mid-flood: the second workload starts"; exit 0; }
n=$(grep -c '^nsaudit: ready' "$TMP/rec.err")
start_recorder $((n + 1)) || { fail "record kill mid-flood: fresh recorder starts"; exit 0; }
kill -9 $REC
wait $REC 2>/dev/null
hdr=$(cat "$LOG"/nsaudit-*.log | grep -F '"action":"segment"' |
	jq -r --argjson s "$last" 'select(.seq > $s) | .lost_total' | head -n 1)
expect_eq "record kill mid-flood: new programs begin a segment with lost_total 0" "$hdr" 0
start_recorder $((n + 2)) || { fail "record kill mid-flood: restart on the new pins"; exit 0; }
echo go >&$GO
sleep 0.$((RANDOM % 20 + 5))
kill -9 $REC
wait $REC 2>/dev/null
start_recorder $((n + 3)) || { fail "record kill mid-flood: second restart on the new pins"; exit 0; }
for i in $(seq 1 600); do running $W || break; sleep 0.05; done
sleep 0.5
kill -TERM $REC
wait $REC
REC=
wait $W
W=
tally "$last" "$TMP/recs2.txt"
expect_eq "record kill mid-flood: on new programs, written ($written) + lost ($lost) == calls" \
	"$((written + lost))" "$CALLS2"
