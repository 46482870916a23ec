#!/bin/bash
# nsaudit trace against the real kernel: every operation, made by real tools
# and by tests/helpers/nsops, must come out with the right inodes, old/new
# pairs, actors and results. Inodes are checked against stat -L of the
# namespace files, the way lsns and readlink see them.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace integration"
require_cmd jq "trace integration"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
OUT=$TMP/trace.jsonl
NETNS=nsaudit-it-$$
cleanup() {
	ip netns del "$NETNS" 2>/dev/null
	umount "$TMP/pin" 2>/dev/null
	kill $SLEEPER 2>/dev/null
}
trap 'cleanup; cleanup_testlib' EXIT

# records of one pid matching a jq condition
q() { jq -c --argjson pid "$1" "select(.pid == \$pid and ($2))" "$OUT"; }
count() { q "$1" "$2" | wc -l; }

host_net=$(ns_inum /proc/self/ns/net)
host_uts=$(ns_inum /proc/self/ns/uts)

if ! trace_start "$OUT"; then
	fail "trace starts and prints its ready line"
	exit 0
fi
grep -q '^nsaudit: ready (hooks: .*tracepoint' "$OUT.err" &&
	pass "ready line names the hook set" || fail "ready line names the hook set"

# a process in its own uts+net namespace to enter later
unshare -u -n sleep 60 &
SLEEPER=$!
sleep 0.3
sleeper_uts=$(ns_inum /proc/$SLEEPER/ns/uts)
sleeper_net=$(ns_inum /proc/$SLEEPER/ns/net)

p_unshare=$("$NSOPS" unshare net,uts | awk '/^pid/{print $2}')
p_setns=$("$NSOPS" setns /proc/$SLEEPER/ns/uts uts | awk '/^pid/{print $2}')
p_pidfd=$("$NSOPS" setns-pidfd $SLEEPER net,uts | awk '/^pid/{print $2}')
clone_out=$("$NSOPS" clone uts,ipc)
p_clone=$(awk '/^pid/{print $2}' <<<"$clone_out")
c_clone=$(awk '/^child/{print $2}' <<<"$clone_out")
p_open=$("$NSOPS" open /proc/$SLEEPER/ns/net | awk '/^pid/{print $2}')
# one program sees the three open calls (open's path is its first
# argument, openat's and openat2's the second): each by its raw syscall
declare -A p_by
for call in open openat openat2; do
	p_by[$call]=$("$NSOPS" open-by $call /proc/$SLEEPER/ns/uts | awk '/^pid/{print $2}')
done
p_bad=$("$NSOPS" setns-bad | awk '/^pid/{print $2}')
ip netns add "$NETNS"
netns_inum=$(ns_inum /run/netns/$NETNS)
p_bind=$("$NSOPS" setns /run/netns/$NETNS net | awk '/^pid/{print $2}')
touch "$TMP/pin"
p_move=$("$NSOPS" move-mount /proc/self/ns/uts "$TMP/pin" | awk '/^pid/{print $2}')
umount "$TMP/pin"
nsenter -t $SLEEPER -n -u true
unshare -u true
ip netns del "$NETNS"
sleep 0.3
trace_stop
expect_eq "SIGINT drains and exits 0" "$?" 0

# unshare: one record per type, new != old, old == the host's
expect_eq "unshare net,uts gives one record per type" "$(count $p_unshare '.op=="unshare"')" 2
expect_eq "unshare net: old_inum is the host netns" \
	"$(q $p_unshare '.op=="unshare" and .ns_type=="net"' | jq .old_inum)" "$host_net"
n=$(q $p_unshare '.op=="unshare" and .ns_type=="uts"' | jq '.ns_inum != .old_inum and .result == 0')
expect_eq "unshare uts: a new namespace, result 0" "$n" true

# setns through /proc/PID/ns/uts
r=$(q $p_setns '.op=="setns"')
expect_eq "setns via /proc: ns_inum is the target's (stat -L)" "$(jq .ns_inum <<<"$r")" "$sleeper_uts"
expect_eq "setns via /proc: old_inum is the one left" "$(jq .old_inum <<<"$r")" "$host_uts"
expect_eq "setns via /proc: via=proc" "$(jq -r .via <<<"$r")" proc
expect_eq "setns via /proc: actor comm" "$(jq -r .comm <<<"$r")" nsops

# setns through a pidfd with two types
expect_eq "setns via pidfd: one record per CLONE_NEW* bit" \
	"$(count $p_pidfd '.op=="setns" and .via=="pidfd" and .result==0')" 2
expect_eq "setns via pidfd: net lands in the target's netns" \
	"$(q $p_pidfd '.ns_type=="net"' | jq .ns_inum)" "$sleeper_net"

# clone with CLONE_NEWUTS|CLONE_NEWIPC
expect_eq "clone: one record per new namespace" "$(count $p_clone '.op=="clone"')" 2
expect_eq "clone: target_pid is the child" \
	"$(q $p_clone '.op=="clone" and .ns_type=="uts"' | jq .target_pid)" "$c_clone"

# open of /proc/PID/ns/net
r=$(q $p_open '.op=="open"')
expect_eq "open pin: target_pid" "$(jq .target_pid <<<"$r")" "$SLEEPER"
expect_eq "open pin: ns_inum" "$(jq .ns_inum <<<"$r")" "$sleeper_net"
expect_eq "open pin: path" "$(jq -r .path <<<"$r")" "/proc/$SLEEPER/ns/net"
for call in open openat openat2; do
	r=$(q "${p_by[$call]}" '.op=="open"')
	expect_eq "open pin by $call(): path" "$(jq -r .path <<<"$r")" "/proc/$SLEEPER/ns/uts"
	expect_eq "open pin by $call(): ns_inum" "$(jq .ns_inum <<<"$r")" "$sleeper_uts"
done

# a failed setns is reported with its errno
r=$(q $p_bad '.op=="setns"')
expect_eq "failed setns: result -EINVAL" "$(jq .result <<<"$r")" -22
expect_eq "failed setns: error name" "$(jq -r .error <<<"$r")" EINVAL

# ip netns add: open, unshare, bind mount, setns back; ip netns del: umount
r=$(jq -c "select(.op==\"mount\" and .path==\"/run/netns/$NETNS\")" "$OUT")
expect_eq "ip netns add: mount pin with the netns inode" "$(jq .ns_inum <<<"$r")" "$netns_inum"
expect_eq "ip netns add: mount pin by comm ip" "$(jq -r .comm <<<"$r")" ip
r=$(jq -c "select(.op==\"umount\" and .path==\"/run/netns/$NETNS\")" "$OUT")
expect_eq "ip netns del: umount of the pin" "$(jq .ns_inum <<<"$r")" "$netns_inum"
r=$(q $p_bind '.op=="setns"')
expect_eq "setns via a bind-mounted path: via=bind" "$(jq -r .via <<<"$r")" bind
expect_eq "setns via a bind-mounted path: ns_inum" "$(jq .ns_inum <<<"$r")" "$netns_inum"

# the new mount API: open_tree + move_mount
r=$(q $p_move '.op=="mount"')
expect_eq "move_mount pin: ns_inum" "$(jq .ns_inum <<<"$r")" "$host_uts"
expect_eq "move_mount pin: path" "$(jq -r .path <<<"$r")" "$TMP/pin"
r=$(jq -c "select(.op==\"umount\" and .path==\"$TMP/pin\")" "$OUT")
expect_eq "umount of a move_mount pin" "$(jq .ns_inum <<<"$r")" "$host_uts"

# real tools
expect_eq "nsenter -n -u: two setns records" \
	"$(jq -c 'select(.comm=="nsenter" and .op=="setns" and .result==0)' "$OUT" | wc -l)" 2
expect_eq "unshare(1) -u: an unshare record" \
	"$(jq -c --argjson s $SLEEPER 'select(.comm=="unshare" and .op=="unshare" and .ns_type=="uts" and .pid != $s)' "$OUT" | wc -l)" 1

# every record: the documented fields, RFC 3339 time, increasing seq
check "every line is a JSON object with seq,time,op,result,pid,probe" \
	jq -e -s 'all(.[]; has("seq") and has("time") and has("op") and has("result")
		and has("probe") and (.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{9}Z$")))' "$OUT"
check "seq increases by one" jq -e -s '[.[].seq] == [range(1; length + 1)]' "$OUT"
