#!/bin/bash
# The long-running recorder under valgrind memcheck: a recorded workload
# (a few hundred setns, with pinning, enrichment and the log writer), then
# SIGTERM. No memcheck errors, no definite leaks, the log verifies, and
# nothing is left behind: no process, no pin.
# tests/valgrind/libbpf.supp: two false positives in libbpf's feature probe
# (a union bpf_attr zeroed only as far as the size passed to bpf(2)).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "valgrind"
require_cmd valgrind "valgrind"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "valgrind"
SUPP=$TESTS_DIR/valgrind/libbpf.supp
COMM=nsaudit-vg
PIN=/sys/fs/bpf/nsaudit-vg-$$
LOG=$TMP/log
VG=
trap '[ -n "$VG" ] && kill -9 $VG 2>/dev/null; "$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

valgrind --suppressions="$SUPP" --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --log-file="$TMP/vg.log" \
	"$NSAUDIT" record --log-dir "$LOG" --pin-dir "$PIN" --op setns --comm "$COMM" \
	2>"$TMP/rec.err" &
VG=$!
for i in $(seq 1 600); do	# valgrind is slow to start: up to 60 s
	grep -q '^nsaudit: ready' "$TMP/rec.err" && break
	kill -0 $VG 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^nsaudit: ready' "$TMP/rec.err"; then
	wait $VG 2>/dev/null
	# a recorder that crashes or cannot start under valgrind is a failure
	fail "record under valgrind: nsaudit record does not start: $(grep -v '^--' "$TMP/rec.err" | head -2 | tr '\n' ' ')$(grep -m1 -o 'Process terminating with default action of signal [0-9]* ([A-Z]*)' "$TMP/vg.log")"
	VG=
	exit 0
fi
"$NSOPS" -n "$COMM" setns-loop 300 /proc/self/ns/net >/dev/null
"$NSOPS" -n "$COMM" setns-loop 200 /proc/self/ns/uts >/dev/null
kill -HUP $VG	# the reopen path too
sleep 1.5
kill -TERM $VG
timeout 60 tail --pid=$VG -f /dev/null
wait $VG
rc=$?
VG=
expect_eq "valgrind: exit status (99 = memcheck errors)" $rc 0
# a crash under valgrind (the recorder killed by a signal) is a failure,
# whatever the exit status valgrind passes on
crash=$(grep -m1 -o 'Process terminating with default action of signal [0-9]* ([A-Z]*)' "$TMP/vg.log")
expect_eq "valgrind: the recorder did not crash" "${crash:-no crash}" "no crash"
errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMP/vg.log" | tail -1)
expect_eq "valgrind: no memcheck errors" "$errs" 0
if grep -q "definitely lost: [1-9]" "$TMP/vg.log"; then
	fail "valgrind: definite leaks: $(grep 'definitely lost' "$TMP/vg.log" | tail -1)"
else
	pass "valgrind: no definite leaks ($(grep -Eo 'All heap blocks were freed|in use at exit: [0-9,]+ bytes' "$TMP/vg.log" | tail -1))"
fi
[ "$rc" = 0 ] || grep -A8 -E 'Invalid|uninitialised|definitely lost in' "$TMP/vg.log" | head -40
# identical consecutive setns are coalesced into one record with a repeat
# count: every call is accounted for by the sum of repeat (absent = 1)
n=$(cat "$LOG"/nsaudit-*.log | jq -s '[.[] | select(.op == "setns") | (.repeat // 1)] | add // 0')
expect_eq "valgrind: every setns recorded" "$n" 500
check "valgrind: the log verifies" "$NSAUDIT" verify --log-dir "$LOG" -q

"$NSAUDIT" detach --pin-dir "$PIN" >/dev/null 2>&1
check "valgrind: no pin left behind" test ! -e "$PIN"
left=$(pgrep -f -- "--log-dir $LOG" | wc -l)
expect_eq "valgrind: no process left behind" "$left" 0
