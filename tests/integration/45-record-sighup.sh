#!/bin/bash
# SIGHUP reopens the log (logrotate): with the current segment still in
# place the recorder goes on in it; moved away, the recorder starts a new
# segment and says which one left (a "missing" record). The log in the
# directory is then not intact (its records are elsewhere: verify names the
# moved segment) until the segment is put back. No event is lost.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record SIGHUP"
require_cmd jq "record SIGHUP"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "record SIGHUP"
COMM=nsaudit-hup
LOG=$TMP/log
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; cleanup_testlib' EXIT

"$NSAUDIT" record --log-dir "$LOG" --no-pin --op setns --comm "$COMM" 2>"$TMP/rec.err" &
REC=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/rec.err" && break; sleep 0.05; done
grep -q '^nsaudit: ready' "$TMP/rec.err" || { fail "recorder ready: $(head -3 "$TMP/rec.err")"; exit 0; }
segments() { ls "$LOG" | grep '^nsaudit-.*\.log$'; }
burst() { "$NSOPS" -n "$COMM" setns-loop "$1" /proc/self/ns/net >/dev/null; sleep 0.3; }

burst 100
# 1. SIGHUP with the segment in place: same file, nothing new
kill -HUP $REC; sleep 0.2
burst 100
expect_eq "SIGHUP, segment in place: still one segment" "$(segments | tr '\n' ' ')" "nsaudit-000001.log "
kill -0 $REC 2>/dev/null && pass "SIGHUP does not stop the recorder" || fail "SIGHUP stopped the recorder"

# 2. logrotate-style: move the segment away, then SIGHUP
mv "$LOG/nsaudit-000001.log" "$TMP/rotated.log"
burst 100	# written to the moved file (the recorder still has it open)
kill -HUP $REC; sleep 0.2
size=$(stat -c %s "$TMP/rotated.log")
burst 100
expect_eq "SIGHUP after mv: a new segment appears" "$(segments | tr '\n' ' ')" "nsaudit-000002.log "
expect_eq "SIGHUP after mv: the moved file is no longer written" "$(stat -c %s "$TMP/rotated.log")" "$size"
kill -TERM $REC; wait $REC
expect_eq "recorder stops cleanly" "$?" 0
REC=

missing=$(jq -c 'select(.op=="log" and .action=="missing")' "$LOG/nsaudit-000002.log")
case $missing in *'"missing_segment":1'*) pass "the new segment says segment 1 went missing: ${missing:0:120}" ;;
*) fail "no missing record for segment 1 in the new segment: '$missing'" ;; esac
"$NSAUDIT" verify --log-dir "$LOG" >"$TMP/v.out" 2>&1; rc=$?
expect_eq "verify: a segment moved away is not intact ($(tail -n 1 "$TMP/v.out" | cut -c1-200))" $rc 1
check "verify names the moved segment" grep -q "nsaudit-000001.log: NOT INTACT: segment moved away" "$TMP/v.out"
# coalesced records stand for .repeat calls each: count calls, not lines
n=$(cat "$TMP/rotated.log" "$LOG"/nsaudit-*.log | jq -s '[.[] | select(.op=="setns") | .repeat // 1] | add // 0')
expect_eq "every setns recorded across both reopens (moved file + new segment)" "$n" 400

# the moved segment put back next to the new one: the log is whole again
cp "$TMP/rotated.log" "$LOG/nsaudit-000001.log"
"$NSAUDIT" verify --log-dir "$LOG" >"$TMP/v.out" 2>&1
expect_eq "verify with the moved segment put back ($(tail -n 1 "$TMP/v.out" | cut -c1-120))" "$?" 0
check "verify says it was moved and put back" grep -q "1 segment moved away while open and put back (last 000001)" "$TMP/v.out"
# deleted without the recorder noticing (no SIGHUP): verify must object
rm "$LOG/nsaudit-000001.log"
sed -i '/"action":"missing"/d' "$LOG/nsaudit-000002.log"
"$NSAUDIT" verify --log-dir "$LOG" >/dev/null 2>"$TMP/v.err"
expect_eq "verify rejects a log whose missing record was removed" "$?" 1
