#!/bin/bash
# The exe of a record is the program that made the call, even when the
# process is gone by the time the record is read (ip netns add) or has
# exec'd something else since (unshare CMD), and for processes that were
# running before nsaudit started. Compared with readlink -f of the binary,
# which is what /proc/PID/exe shows.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace exe"
require_cmd jq "trace exe"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "trace exe"
OUT=$TMP/trace.jsonl
NETNS=nsaudit-exe-$$
trap 'ip netns del "$NETNS" 2>/dev/null; kill $EARLY 2>/dev/null; cleanup_testlib' EXIT

real() { readlink -f "$(command -v "$1")"; }
# the exe of the records of one pid and op, one per line, deduplicated
exe_of() { jq -r --argjson pid "$1" --arg op "$2" \
	'select(.pid == $pid and .op == $op) | .exe // "null"' "$OUT" | sort -u; }

# started before the tracer, enters a uts namespace after it is ready (its
# "go" waits on a fifo the test writes once the tracer is ready: attaching
# can take seconds on a loaded machine)
mkfifo "$TMP/early.go"
"$NSOPS" -w setns /proc/self/ns/uts >/dev/null < <(cat "$TMP/early.go" >/dev/null; echo go) &
EARLY=$!
sleep 0.3
trace_start "$OUT" --op setns,unshare,mount,umount || { fail "trace starts"; exit 0; }
echo >"$TMP/early.go"

ip netns add "$NETNS"
# unshare(1) makes the call, then execs true at once
unshare -u true &
UNSHARE=$!
wait $UNSHARE
wait $EARLY
ip netns del "$NETNS"
sleep 0.3
trace_stop

IPADD=$(jq -r 'select(.op == "mount" and (.path // "" | endswith("/'"$NETNS"'"))) | .pid' "$OUT" |
	head -1)
if [ -n "$IPADD" ]; then
	expect_eq "ip netns add (exited before its records were read): exe" \
		"$(exe_of "$IPADD" unshare)" "$(real ip)"
else
	fail "ip netns add: its mount record is traced"
fi
expect_eq "unshare CMD (exec'd since): exe is unshare, not CMD" \
	"$(exe_of "$UNSHARE" unshare)" "$(real unshare)"
expect_eq "process started before nsaudit: exe" \
	"$(exe_of "$EARLY" setns)" "$(readlink -f "$NSOPS")"
UMOUNT=$(jq -r 'select(.op == "umount" and (.path // "" | endswith("/'"$NETNS"'"))) | .pid' "$OUT" |
	head -1)
expect_eq "ip netns del: exe" "$(exe_of "${UMOUNT:-0}" umount)" "$(real ip)"
