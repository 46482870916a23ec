#!/bin/bash
# On a stock kernel setns is traced at its exit alone: the namespace a call
# left comes from the thread's cache, which the start-up snapshot, the fork
# hook and every namespace change keep whole. Each way a thread can come
# to its first setns must still name the namespace it left, and a change
# that is not recorded (--op setns: no unshare records) must not leave a
# stale cache that names the wrong one.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "setns exit hook"
require_cmd jq "setns exit hook"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
NSTH=$(dirname "$NSAUDIT")/helpers/nsthreads
OUT=$TMP/trace.jsonl
cleanup() { kill $SLEEPER $EARLY 2>/dev/null; }
trap 'cleanup; cleanup_testlib' EXIT

q() { jq -c --argjson pid "$1" "select(.pid == \$pid and ($2))" "$OUT"; }

host_uts=$(ns_inum /proc/self/ns/uts)
host_net=$(ns_inum /proc/self/ns/net)
unshare -u -n sleep 60 &
SLEEPER=$!
sleep 0.3
sl_uts=$(ns_inum /proc/$SLEEPER/ns/uts)
sl_net=$(ns_inum /proc/$SLEEPER/ns/net)

# a process that exists before the tracer and waits to make its call
mkfifo "$TMP/go"
"$NSOPS" -w setns /proc/$SLEEPER/ns/uts uts <"$TMP/go" >"$TMP/early.out" &
EARLY=$!
exec 7>"$TMP/go"

if ! trace_start "$OUT" --op setns; then
	fail "trace --op setns starts"
	exit 0
fi
echo go >&7
exec 7>&-
wait $EARLY
p_early=$(awk '/^pid/{print $2}' "$TMP/early.out")

# a thread made after the start
th_out=$("$NSTH" setns /proc/$SLEEPER/ns/net)
p_th=$(awk '/^pid/{print $2}' <<<"$th_out")
t_th=$(awk '/^tid/{print $2}' <<<"$th_out")

# a thread enters the sleeper's net and execs: it takes the leader's tid
# and start time, so its state must follow it under that identity (the
# leader was born in the host's net, and never left it)
ex_out=$("$NSTH" exec-setns /proc/$SLEEPER/ns/net /proc/$$/ns/net)
p_ex=$(awk '/^pid/{print $2}' <<<"$ex_out")
t_ex=$(awk '/^tid/{print $2}' <<<"$ex_out" | head -1)

# unshare, not recorded here (--op setns), then setns in the same task:
# the shell prints its new uts namespace and becomes nsops
us_out=$(unshare -u sh -c 'echo uts $(stat -L -c %i /proc/self/ns/uts); \
	exec '"$NSOPS"' setns '"/proc/$SLEEPER/ns/uts"' uts')
us_uts=$(awk '/^uts/{print $2}' <<<"$us_out")
p_us=$(awk '/^pid/{print $2}' <<<"$us_out")

# the same with net, twice (a repeat), then a call that fails (EINVAL:
# a uts fd with CLONE_NEWNET): it changed nothing, so what it names as
# left is where the thread is
un_out=$(unshare -n sh -c 'echo net $(stat -L -c %i /proc/self/ns/net); \
	exec '"$NSOPS"' setns-loop 2 '"/proc/$SLEEPER/ns/net"'')
un_net=$(awk '/^net/{print $2}' <<<"$un_out")
p_un=$(awk '/^pid/{print $2}' <<<"$un_out")
p_bad=$("$NSOPS" setns /proc/$SLEEPER/ns/uts net | awk '/^pid/{print $2}')

# children born in many namespace sets (each in a uts of its own: more
# than fit the fork hook's table of sets without some being rewritten)
# wait, all born, then each enters the sleeper's uts: each names the uts
# it was born in, or (its set was rewritten meanwhile) none; never another
MANY=150 many_pids=()
mkfifo "$TMP/go-many"
exec 8<>"$TMP/go-many"
for i in $(seq $MANY); do
	unshare -u sh -c 'echo uts $(stat -L -c %i /proc/self/ns/uts); \
		'"$NSOPS"' -w setns /proc/'"$SLEEPER"'/ns/uts uts; true' <&8 >"$TMP/many.$i" &
	many_pids+=($!)
done
for i in $(seq 300); do
	[ "$(cat "$TMP"/many.* | grep -c '^pid')" -ge $MANY ] && break
	sleep 0.1
done
head -c $MANY /dev/zero >&8
wait "${many_pids[@]}"
exec 8>&-
sleep 0.3
trace_stop
expect_eq "SIGINT drains and exits 0" "$?" 0

r=$(q "$p_early" '.op=="setns"')
expect_eq "a process older than the tracer: entered uts" "$(jq .ns_inum <<<"$r")" "$sl_uts"
expect_eq "a process older than the tracer: the uts it left (start-up snapshot)" \
	"$(jq .old_inum <<<"$r")" "$host_uts"

r=$(q "$p_th" ".op==\"setns\" and .tid==$t_th")
expect_eq "a thread made after the start: entered net" "$(jq .ns_inum <<<"$r")" "$sl_net"
expect_eq "a thread made after the start: the net it left (fork hook)" \
	"$(jq .old_inum <<<"$r")" "$host_net"

r=$(q "$p_ex" ".op==\"setns\" and .tid==$t_ex")
expect_eq "a thread that execs: its setns before the exec left the host's net" \
	"$(jq .old_inum <<<"$r")" "$host_net"
r=$(q "$p_ex" ".op==\"setns\" and .tid==$p_ex")
expect_eq "after a thread's exec (the leader's tid now): entered the host's net" \
	"$(jq .ns_inum <<<"$r")" "$host_net"
expect_eq "after a thread's exec: the net it left is the one it entered before, not the leader's" \
	"$(jq .old_inum <<<"$r")" "$sl_net"

expect_eq "unshare is not recorded with --op setns" "$(q "$p_us" '.op=="unshare"' | wc -l)" 0
r=$(q "$p_us" '.op=="setns"')
expect_eq "setns after an unrecorded unshare: entered uts" "$(jq .ns_inum <<<"$r")" "$sl_uts"
if [ -n "$us_uts" ] && [ "$us_uts" != "$host_uts" ]; then
	expect_eq "setns after an unrecorded unshare: left the unshared uts, not the host's" \
		"$(jq .old_inum <<<"$r")" "$us_uts"
else
	fail "setup: unshare -u printed its uts namespace ($us_out)"
fi

rs=$(q "$p_un" '.op=="setns" and .result==0')
expect_eq "setns-loop 2: both calls accounted for" \
	"$(jq -s 'map(.repeat // 1) | add' <<<"$rs")" 2
expect_eq "setns-loop: the first call left the unshared net" \
	"$(head -1 <<<"$rs" | jq .old_inum)" "$un_net"
expect_eq "setns-loop: the second call left the net the first entered" \
	"$(jq -s 'last | .old_inum' <<<"$rs")" "$sl_net"

right=0 wrong=0 none=0 missing=0
for i in $(seq $MANY); do
	born=$(awk '/^uts/{print $2}' "$TMP/many.$i")
	p=$(awk '/^pid/{print $2}' "$TMP/many.$i")
	r=$(q "${p:-0}" '.op=="setns"')
	old=$(jq '.old_inum // 0' <<<"$r")
	if [ -z "$r" ] || [ -z "$born" ]; then
		missing=$((missing + 1))
	elif [ "$old" = "$born" ]; then
		right=$((right + 1))
	elif [ "$old" = 0 ]; then
		none=$((none + 1))
	else
		wrong=$((wrong + 1))
		echo "child $p born in uts $born: record says it left $old" >&2
	fi
done
echo "born in $MANY sets: $right named the uts they left, $none none" >&2
expect_eq "children born in $MANY namespace sets: every one recorded" "$missing" 0
expect_eq "children born in $MANY namespace sets: none names a uts it was not in" "$wrong" 0
expect_eq "children born in $MANY namespace sets: at least 9 in 10 name the uts they left" \
	"$((right * 10 >= MANY * 9))" 1

r=$(q "$p_bad" '.op=="setns"')
expect_eq "a failed setns (EINVAL) is recorded" "$(jq .result <<<"$r")" -22
expect_eq "a failed setns names the uts it tried" "$(jq .ns_inum <<<"$r")" "$sl_uts"
expect_eq "a failed setns: the thread is still where it was" "$(jq .old_inum <<<"$r")" "$host_uts"
