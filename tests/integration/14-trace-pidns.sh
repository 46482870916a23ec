#!/bin/bash
# nsaudit in a pid namespace of its own (a container's, without
# --pid=host): the kernel's records carry the initial pid namespace's pids,
# and getpid() there is another number. Its own pid must then mute no one:
# trace runs as pid X of its namespace (ns_last_pid) while a host process
# with pid X makes 3 setns calls, which must all be shown (checked against
# /proc/PID/status NSpid for who is X where). --pid, which could only name
# the wrong process, is refused with the reason.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace in a pid namespace"
require_cmd jq "trace in a pid namespace"
require_cmd unshare "trace in a pid namespace"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "trace in a pid namespace"
W= U=
trap 'kill -9 $W $U 2>/dev/null; cleanup_testlib' EXIT

mkfifo "$TMP/go"
"$NSOPS" -w setns-loop 3 /proc/self/ns/net <"$TMP/go" >"$TMP/w.out" &
W=$!
WP=$W
# the trace, pid W in its own pid namespace: sh is 1 there, its child W
unshare -p -f --mount-proc --kill-child sh -c \
	'echo $(($1 - 1)) >/proc/sys/kernel/ns_last_pid && "$2" trace --format json \
		--hearing-interval 1' sh "$WP" "$NSAUDIT" >"$TMP/tr.out" 2>"$TMP/tr.err" &
U=$!
wait_ready "$TMP/tr.err" $U || { fail "trace in a pid namespace starts: $(cat "$TMP/tr.err")"; exit 0; }
T=$(pgrep -P "$(pgrep -P $U)" -x nsaudit)
expect_eq "trace is pid $WP in its namespace, $T in the host's (NSpid)" \
	"$(awk '/^NSpid:/ {print $2, $3}' /proc/$T/status)" "$T $WP"
echo go >"$TMP/go"
wait $W
expect_eq "the host's pid $WP made its 3 setns calls (exit 0)" $? 0
W=
sleep 2.5	# a canary or two as well
kill -INT "$T"
wait $U
rc=$?
U=
got=$(jq -s --argjson p "$WP" 'map(select(.op=="setns" and .pid==$p) | .repeat // 1) | add // 0' \
	"$TMP/tr.out")
expect_eq "trace shows the 3 setns of the host's pid $WP (its own pid there mutes no one)" \
	"$got" 3
expect_eq "... and stops cleanly, not deaf (exit 0, no DEAF)" \
	"$rc $(grep -c DEAF "$TMP/tr.err")" "0 0"
check "... its canaries are shown, by their kernel pids (not those in their paths)" \
	jq -se --argjson t "$T" '[.[] | select(.op=="open" and .ppid==$t and
		(.path|test("^/proc/self/task/[0-9]+/ns/net$")))] |
		length >= 1 and all(.path != "/proc/self/task/\(.pid)/ns/net")' "$TMP/tr.out"

# --pid there could only name the wrong process: refused, saying why
unshare -p -f --mount-proc "$NSAUDIT" trace --pid 1 >/dev/null 2>"$TMP/p.err"
expect_eq "trace --pid in a pid namespace of its own: usage error (exit 2)" $? 2
check "... saying the kernel's pids are not its namespace's" \
	grep -q "^nsaudit trace: --pid 1: nsaudit runs in a pid namespace of its own" "$TMP/p.err"
