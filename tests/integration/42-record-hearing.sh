#!/bin/bash
# A recorder knows it still hears the kernel: every --hearing-interval a
# child of it opens /proc/self/ns/net, and that record must come. Checked
# against ground truth: the canary's records name the recorder's own net
# namespace (stat -L /proc/PID/ns/net) and its children's pids; no link
# it records from can be detached from under it (bpftool link detach on
# each), and after trying it still records a setns made meanwhile; kernel
# filters that leave nothing to check with are said, not taken for deaf.
# Real deafness cannot be made while a recorder holds its links; between
# two recorders it can: the links of the open syscalls removed from the
# pins, the next recorder reusing them goes deaf, writes a deaf record,
# exits 1, and verify exits 5 (tests/unit/test_hearing.c: the same answer
# from a tracer with no programs).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record hearing"
require_cmd jq "record hearing"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "record hearing"
PIN=/sys/fs/bpf/nsaudit-it-hear-$$
LOG=$TMP/log
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; "$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

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
		'select(.op=="open" and .path=="/proc/self/ns/net" and .comm=="nsaudit" and .ppid==$me)' \
		2>/dev/null
}
expect_eq "... no canary is left a zombie (children of the recorder in state Z)" \
	"$(ps --ppid $REC -o stat= | grep -c '^Z')" 0
canaries >"$TMP/canaries"
n=$(wc -l <"$TMP/canaries")
check "a canary a second reaches the log ($n in 4 s)" test "$n" -ge 3
expect_eq "... each one names the recorder's own net namespace (stat -L)" \
	"$(jq -r .ns_inum "$TMP/canaries" | sort -u)" "$netns"
check "... and is made by a child of the recorder, each its own" \
	test "$(jq -r .pid "$TMP/canaries" | sort -u | wc -l)" -eq "$n"

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
# links of the open syscalls' exits (the canary's call), so the programs of
# those calls are gone from the kernel. The next recorder reuses the rest:
# it still hears setns, but the canary's open is never reported.
gone=""
for l in "$PIN"/link_tp_exit_open "$PIN"/link_tp_exit_openat "$PIN"/link_tp_exit_openat2; do
	[ -e "$l" ] || continue
	gone+=" $(bpftool -j link show pinned "$l" | jq -r .id)"
	rm "$l"
done
still=""
for id in $gone; do bpftool link show id "$id" >/dev/null 2>&1 && still+=" $id"; done
check "the open links ($gone) are gone from the kernel (bpftool link show id)" \
	test -n "$gone" -a -z "$still"
"$NSAUDIT" record --log-dir "$TMP/logd" --key "$TMP/key" --pin-dir "$PIN" --keep-pinned \
	--hearing-interval 1 2>"$TMP/recd.err" &
REC=$!
wait_ready "$TMP/recd.err" $REC
for i in $(seq 600); do kill -0 $REC 2>/dev/null || break; sleep 0.1; done
kill -0 $REC 2>/dev/null && kill -9 $REC
wait $REC
rc=$?
REC=
expect_eq "open links removed from its pins: the recorder reusing them stops deaf (exit 1)" $rc 1
check "... it said DEAF on stderr, naming the open of /proc/self/ns/net" \
	grep -q "DEAF: .* in a row (open of /proc/self/ns/net) never came from the kernel" "$TMP/recd.err"
deaf=$(cat "$TMP/logd"/nsaudit-*.log | jq -c 'select(.op=="log" and .action=="deaf")')
check "... its log holds a deaf record: canaries >= 2, none heard" \
	jq -e '.canaries >= 2 and .heard == 0' <<<"$deaf"
expect_eq "... and no canary of it is in the log (none of its children's opens)" \
	"$(cat "$TMP/logd"/nsaudit-*.log | jq -c 'select(.op=="open" and .comm=="nsaudit" and .path=="/proc/self/ns/net")' | wc -l)" 0
"$NSAUDIT" verify --log-dir "$TMP/logd" --key "$TMP/key" >"$TMP/vd.out" 2>&1
expect_eq "verify of that log: exit 5 (deaf)" $? 5
check "... and says so: DEAF and 'its recorder was deaf'" \
	sh -c "grep -q ': DEAF: the recorder heard nothing' '$TMP/vd.out' && grep -q 'intact, but its recorder was deaf' '$TMP/vd.out'"
"$NSAUDIT" detach --pin-dir "$PIN" >/dev/null 2>&1

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
