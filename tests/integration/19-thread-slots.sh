#!/bin/bash
# A thread's state (its pending call, the namespaces it is in, its held
# record) lives in the slot of a table indexed by its tid (thread slots,
# bpf/nsaudit/emit.bpf.h), 32,768 of them. With pid_max above that, two
# live threads index the same slot: the later one takes a spare slot, and
# the records of both must stay right. Here a process holds a slot (its
# setns took it) while pids are made until a child gets the tid that
# indexes the same slot; both then enter namespaces, and every record
# names the namespace its own thread left.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "thread slots"
require_cmd jq "thread slots"
require_cmd nsenter "thread slots"
NSTH=$(dirname "$NSAUDIT")/helpers/nsthreads
OUT=$TMP/trace.jsonl
SLOTS=32768
PID_MAX0=$(cat /proc/sys/kernel/pid_max)
cleanup() {
	kill $SLEEPER $HOLDER 2>/dev/null
	echo "$PID_MAX0" >/proc/sys/kernel/pid_max
}
trap 'cleanup; cleanup_testlib' EXIT

q() { jq -c --argjson pid "$1" "select(.pid == \$pid and .op == \"setns\" and .result == 0)" "$OUT"; }

host_net=$(ns_inum /proc/self/ns/net)
unshare -n sleep 300 &
SLEEPER=$!
sleep 0.3
sl_net=$(ns_inum /proc/$SLEEPER/ns/net)

# tids past the table: pid_max twice its size
if ! echo $((2 * SLOTS)) >/proc/sys/kernel/pid_max; then
	fail "setup: kernel.pid_max can be set to $((2 * SLOTS))"
	exit 0
fi
if ! trace_start "$OUT" --op setns; then
	fail "trace --op setns starts"
	exit 0
fi

# the holder: nsenter's setns takes its slot; sh (the same process) waits,
# then enters the host's net again
mkfifo "$TMP/go"
nsenter --net=/proc/$SLEEPER/ns/net -- sh -c \
	'read x <"$1"; exec "$2" setns-here "$3"' sh "$TMP/go" "$NSTH" /proc/$$/ns/net &
HOLDER=$!
sleep 0.5
if [ "$HOLDER" -lt "$SLOTS" ]; then target=$((HOLDER + SLOTS)); else target=$((HOLDER - SLOTS)); fi

# a process with the tid that indexes the holder's slot: in and out of
# the sleeper's net while the holder keeps its slot
if ! "$NSTH" at-tid "$target" /proc/$SLEEPER/ns/net /proc/$$/ns/net >"$TMP/at.out"; then
	fail "setup: a child got pid $target ($(cat "$TMP/at.out"))"
fi
echo go >"$TMP/go"
wait $HOLDER
sleep 0.3
trace_stop
expect_eq "SIGINT drains and exits 0" "$?" 0
expect_eq "the two threads index one slot" "$((target % SLOTS))" "$((HOLDER % SLOTS))"

r=$(q "$target")
expect_eq "the later thread (its own slot held): two setns recorded" "$(wc -l <<<"$r")" 2
expect_eq "the later thread: entered the sleeper's net" "$(head -1 <<<"$r" | jq .ns_inum)" "$sl_net"
expect_eq "the later thread: left the host's net" "$(head -1 <<<"$r" | jq .old_inum)" "$host_net"
expect_eq "the later thread: then left the sleeper's net" "$(tail -1 <<<"$r" | jq .old_inum)" "$sl_net"

r=$(q "$HOLDER")
expect_eq "the holder: two setns recorded" "$(wc -l <<<"$r")" 2
expect_eq "the holder: entered the sleeper's net, from the host's" \
	"$(head -1 <<<"$r" | jq -c '[.ns_inum, .old_inum]')" "[$sl_net,$host_net]"
expect_eq "the holder, after the other thread's calls: left the sleeper's net, not what the other did" \
	"$(tail -1 <<<"$r" | jq -c '[.ns_inum, .old_inum]')" "[$host_net,$sl_net]"
