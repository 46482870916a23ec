#!/bin/bash
# A recorder knows it still hears the kernel: every --hearing-interval a
# child of it opens /proc/self/task/PID/ns/net, and that record must come.
# Checked against ground truth: the canary's records name the recorder's
# own net namespace (stat -L /proc/PID/ns/net) and its children's pids
# (the kernel's: in a pid namespace of its own the recorder knows its
# canaries by the path they opened, and is not deaf for it); no link
# it records from can be detached from under it (bpftool link detach on
# each), and after trying it still records a setns made meanwhile; kernel
# filters that leave nothing to check with are said, not taken for deaf.
# trace has the same check: its canaries are shown, a filter that hides
# them does not make it deaf, --pid is said.
# Real deafness cannot be made while a recorder holds its links; between
# two recorders it can: a link removed from the pins (setns's, which no
# canary would tell), the next recorder reusing them is deaf at once (it
# counts the links the first one pinned), writes a deaf record, exits 1,
# and verify exits 5; after detach the next one hears again
# (tests/unit/test_hearing.c: the canaries' answer from a tracer with no
# programs).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record hearing"
require_cmd jq "record hearing"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "record hearing"
PIN=/sys/fs/bpf/nsaudit-it-hear-$$
LOG=$TMP/log
REC= TR= TRC=
trap 'kill -9 $REC $TR $TRC 2>/dev/null; "$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

"$NSAUDIT" keygen "$TMP/key" >/dev/null
"$NSAUDIT" record --log-dir "$LOG" --key "$TMP/key" --pin-dir "$PIN" --keep-pinned \
	--hearing-interval 1 2>"$TMP/rec.err" &
REC=$!
wait_ready "$TMP/rec.err" $REC || { fail "recorder starts: $(cat "$TMP/rec.err")"; exit 0; }
netns=$(ns_inum /proc/$REC/ns/net)
# how long the log space lasts: said at start, before ready
sed -n '1,/^nsaudit: ready/p' "$TMP/rec.err" >"$TMP/start.err"
check "a new log: at start it says it cannot tell the rate yet, and the one-uid bound" grep -q \
	"log space 16 x 256M = 4G: how long at this host's rate: cannot tell yet (a new log); one uid flooding at the log budget (1152 records/s) fills it in about" "$TMP/start.err"
sleep 4
canaries() {
	cat "$LOG"/nsaudit-*.log | jq -c --argjson me "$REC" \
		'select(.op=="open" and (.path|test("^/proc/self/task/[0-9]+/ns/net$")) and .comm=="nsaudit" and .ppid==$me)' \
		2>/dev/null
}
# a canary that just exited is a zombie until the next pass (50 ms) reaps it
zombies() { ps --ppid $REC -o pid=,stat= | awk '$2 ~ /^Z/ {print $1}' | sort; }
z1=$(zombies); sleep 0.5; z2=$(zombies)
expect_eq "... no canary is left a zombie (children of the recorder in state Z, 0.5 s apart)" \
	"$(comm -12 <(echo "$z1") <(echo "$z2") | grep -c .)" 0
canaries >"$TMP/canaries"
n=$(wc -l <"$TMP/canaries")
check "a canary a second reaches the log ($n in 4 s)" test "$n" -ge 3
expect_eq "... each one names the recorder's own net namespace (stat -L)" \
	"$(jq -r .ns_inum "$TMP/canaries" | sort -u)" "$netns"
check "... and is made by a child of the recorder, each its own" \
	test "$(jq -r .pid "$TMP/canaries" | sort -u | wc -l)" -eq "$n"
expect_eq "... opening its own thread's file (/proc/self/task/PID/ns/net, PID its pid)" \
	"$(jq -r 'select(.path != "/proc/self/task/\(.pid)/ns/net")' "$TMP/canaries")" ""

# no link can be taken away from a running recorder
ids=$(for l in "$PIN"/link_*; do bpftool -j link show pinned "$l" | jq -r .id; done)
nl=$(wc -w <<<"$ids")
refused=0
for id in $ids; do
	bpftool link detach id "$id" 2>&1 | grep -q "not supported" && refused=$((refused + 1))
done
check "bpftool link detach is refused for each of its $nl links" test "$refused" -eq "$nl" -a "$nl" -gt 10
p=$("$NSOPS" setns-loop 5 /proc/self/ns/net | awk '/^pid/{print $2}')
sleep 2.5
kill -0 $REC 2>/dev/null && pass "the recorder is not deaf after that" || fail "the recorder stopped"
grep -q DEAF "$TMP/rec.err" && fail "... it said DEAF: $(cat "$TMP/rec.err")"
kill -TERM $REC; wait $REC
expect_eq "... stops cleanly (exit 0)" $? 0
REC=
got=$(cat "$LOG"/nsaudit-*.log | jq -c --argjson p "$p" 'select(.op=="setns" and .pid==$p)' |
	jq -s 'map(.repeat // 1) | add')
expect_eq "... and recorded the setns made after (5 of pid $p)" "$got" 5
"$NSAUDIT" verify --log-dir "$LOG" --key "$TMP/key" >"$TMP/v.out" 2>&1
rc=$?
check "verify: no deaf record, intact (exit 0 or 4, got $rc)" test $rc -eq 0 -o $rc -eq 4

# Real deafness, end to end: the first recorder left its pins (--keep-pinned);
# with no recorder holding them, whoever can write the pin dir removes the
# link of setns's exit, so its program is gone from the kernel. The next
# recorder reusing the rest would hear everything but setns, and its
# canaries (opens) would never tell: it counts the links against the ones
# the first recorder pinned (.bss) and is deaf at once, canaries or not
# (--hearing-interval 0). Before, it ran on and verify said intact, 0 lost.
gone=$(bpftool -j link show pinned "$PIN/link_tp_exit_setns" 2>/dev/null | jq -r .id)
rm -f "$PIN/link_tp_exit_setns"
check "the setns link ($gone) is gone from the kernel (bpftool link show id)" \
	sh -c "[ -n '$gone' ] && ! bpftool link show id '$gone' >/dev/null 2>&1"
p=$("$NSOPS" setns-loop 3 /proc/self/ns/net | awk '/^pid/{print $2}')	# unheard
"$NSAUDIT" record --log-dir "$TMP/logd" --key "$TMP/key" --pin-dir "$PIN" --keep-pinned \
	--hearing-interval 0 2>"$TMP/recd.err" &
REC=$!
wait_ready "$TMP/recd.err" $REC
for i in $(seq 100); do kill -0 $REC 2>/dev/null || break; sleep 0.1; done
kill -0 $REC 2>/dev/null && kill -9 $REC
wait $REC
rc=$?
REC=
expect_eq "a link removed from its pins: the recorder reusing them stops deaf within 10 s (exit 1)" \
	$rc 1
check "... it said DEAF on stderr: how many links are there, how many were pinned" \
	grep -Eq "DEAF: ([0-9]+) links pinned in $PIN, not the [0-9]+ its first recorder pinned .*nsaudit detach" "$TMP/recd.err"
deaf=$(cat "$TMP/logd"/nsaudit-*.log | jq -c 'select(.op=="log" and .action=="deaf")')
check "... its log holds a deaf record with that reason" test -n "$deaf" -a \
	"$(jq -e '.reason | test("not the [0-9]+ its first recorder pinned")' <<<"$deaf")" = true
expect_eq "... and none of the setns made while the link was gone (pid $p)" \
	"$(cat "$TMP/logd"/nsaudit-*.log | jq -c --argjson p "$p" 'select(.op=="setns" and .pid==$p)' | wc -l)" 0
"$NSAUDIT" verify --log-dir "$TMP/logd" --key "$TMP/key" >"$TMP/vd.out" 2>&1
expect_eq "verify of that log: exit 5 (deaf), never intact with 0 lost" $? 5
check "... and says so: DEAF and 'its recorder was deaf'" \
	sh -c "grep -q ': DEAF: the recorder heard nothing' '$TMP/vd.out' && grep -q 'intact, but its recorder was deaf' '$TMP/vd.out'"
"$NSAUDIT" detach --pin-dir "$PIN" >/dev/null 2>&1
# after detach, the next recorder loads every program again and hears setns
"$NSAUDIT" record --log-dir "$TMP/loge" --key "$TMP/key" --pin-dir "$PIN" \
	--hearing-interval 0 2>"$TMP/rece.err" &
REC=$!
wait_ready "$TMP/rece.err" $REC
p=$("$NSOPS" setns-loop 3 /proc/self/ns/net | awk '/^pid/{print $2}')
sleep 1
kill -TERM $REC; wait $REC
rc=$?
REC=
got=$(cat "$TMP/loge"/nsaudit-*.log | jq -c --argjson p "$p" 'select(.op=="setns" and .pid==$p)' |
	jq -s 'map(.repeat // 1) | add')
expect_eq "... after nsaudit detach, a new recorder hears setns again (3 of pid $p, exit $rc)" \
	"$got $rc" "3 0"

# A recorder in its own pid namespace (a container's): the kernel reports
# its canaries by their pids in the initial one, which it does not know;
# it knows them by the path each opened, and is not deaf for it.
unshare -p -f --mount-proc --kill-child "$NSAUDIT" record --log-dir "$TMP/logp" --no-pin \
	--hearing-interval 1 2>"$TMP/recp.err" &
REC=$!
wait_ready "$TMP/recp.err" $REC
sleep 4
kill -0 $REC 2>/dev/null && pass "a recorder in its own pid namespace is not deaf after 4 s" ||
	fail "a recorder in its own pid namespace stopped: $(grep DEAF "$TMP/recp.err")"
RP=$(pgrep -P $REC)	# the recorder, by its kernel pid: its canaries' parent
kill -TERM $RP 2>/dev/null	# unshare does not pass SIGTERM on
wait $REC
REC=
# its own canaries only: other recorders on this host make the same opens
cat "$TMP/logp"/nsaudit-*.log | jq -c --argjson rp "${RP:-0}" 'select(.op=="open" and
	.comm=="nsaudit" and .ppid==$rp and (.path|test("^/proc/self/task/[0-9]+/ns/net$")))' \
	>"$TMP/canp"
np=$(wc -l <"$TMP/canp")
check "... its canaries are in its log ($np in 4 s)" test "$np" -ge 3
expect_eq "... each with the kernel's pid, not the one in its path (the namespace's)" \
	"$(jq -r 'select(.path == "/proc/self/task/\(.pid)/ns/net")' "$TMP/canp")" ""

# a restart: the average rate of what the log keeps, from its oldest record
first=$(head -1 "$LOG"/nsaudit-000001.log | jq -r .time)
sleep 3	# at least 10 s of log
bytes=$(cat "$LOG"/nsaudit-*.log | wc -c)
t=$(date +%s.%N)
"$NSAUDIT" record --log-dir "$LOG" --key "$TMP/key" --no-pin --hearing-interval 0 \
	2>"$TMP/rec1.err" &
REC=$!
wait_ready "$TMP/rec1.err" $REC
kill -TERM $REC; wait $REC
REC=
line=$(grep "log space" "$TMP/rec1.err")
check "a restart: the rate since the log's oldest record ($first)" \
	grep -q "average rate since its oldest record kept (.* KiB/s since ${first:0:19}Z) it holds about" <<<"$line"
want=$(awk -v b="$bytes" -v t="$t" -v f="$(date -d "$first" +%s.%N)" 'BEGIN { printf "%.1f", b / (t - f) / 1024 }')
got=$(sed -n 's/.*(\([0-9.]*\) KiB\/s since.*/\1/p' <<<"$line")
check "... $got KiB/s, the log's bytes over its age ($want KiB/s, within 20%)" \
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > 0 && g >= w * 0.8 && g <= w * 1.2) }'

# filters the kernel applies that leave no canary: said at start
"$NSAUDIT" record --log-dir "$TMP/log2" --pin-dir "$PIN" --no-pin --op setns \
	--hearing-interval 1 2>"$TMP/rec2.err" &
REC=$!
wait_ready "$TMP/rec2.err" $REC
sleep 1.5
kill -TERM $REC; wait $REC
rc=$?
REC=
check "--op without open: it says it cannot check (and why)" \
	grep -q "cannot check that the kernel's records still come (--op or --type" "$TMP/rec2.err"
expect_eq "... and is not deaf for it (exit 0)" $rc 0

# trace hears too: its canaries are records like any other, a filter that
# hides them from the output does not make it deaf (heard before filters)
# (--type net --op open: the kernel keeps other engineers' floods of other
# calls out of the ring, where they could crowd the canaries out as lost)
"$NSAUDIT" trace --format json --hearing-interval 1 --type net --op open >"$TMP/tr.out" \
	2>"$TMP/tr.err" &
TR=$!
wait_ready "$TMP/tr.err" $TR
"$NSAUDIT" trace --format json --hearing-interval 1 --type net --op open --comm nsaudit-none \
	>"$TMP/trc.out" \
	2>"$TMP/trc.err" &
TRC=$!
wait_ready "$TMP/trc.err" $TRC
sleep 4
kill -INT $TR $TRC
wait $TR; rc1=$?
wait $TRC; rc2=$?
trp=$TR TR= TRC=
jq -c --argjson me "$trp" 'select(.op=="open" and .comm=="nsaudit" and .ppid==$me and
	(.path|test("^/proc/self/task/[0-9]+/ns/net$")))' "$TMP/tr.out" >"$TMP/trcan"
n=$(wc -l <"$TMP/trcan")
check "trace: a canary a second, shown as a record ($n in 4 s)" test "$n" -ge 3
expect_eq "... each in trace's own net namespace" \
	"$(jq -r .ns_inum "$TMP/trcan" | sort -u)" "$(ns_inum /proc/self/ns/net)"
expect_eq "... not deaf: SIGINT ends it, exit 0" "$rc1 $(grep -c DEAF "$TMP/tr.err")" "0 0"
expect_eq "trace --comm that hides them: no record out (but lost ones), not deaf (exit 0)" \
	"$(jq -c 'select(.op != "lost")' "$TMP/trc.out" | wc -l) $rc2 $(grep -c DEAF "$TMP/trc.err")" "0 0 0"
"$NSAUDIT" trace --pid $$ --hearing-interval 1 >/dev/null 2>"$TMP/trp.err" &
TR=$!
wait_ready "$TMP/trp.err" $TR
sleep 1.5
kill -INT $TR; wait $TR
rc=$?
TR=
check "trace --pid: it says it cannot check (and why), exit 0" \
	sh -c "[ $rc -eq 0 ] && grep -q \"trace: note: cannot check that the kernel's records still come (--pid\" '$TMP/trp.err'"
