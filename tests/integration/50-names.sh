#!/bin/bash
# Namespace names in records: ip netns names, bind-mount paths, container
# ids (a fake docker scope in the real cgroup2 tree), "host" - and a name
# that goes away ("ip netns del") must not linger.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "namespace names"
require_cmd jq "namespace names"
require_cmd ip "namespace names"
OUT=$TMP/names.jsonl
NETNS=nsaudit-names-$$
CG2=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
CID=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
SCOPE=${CG2:+$CG2/system.slice/docker-$CID.scope}
PIDS=()
cleanup() {
	kill "${PIDS[@]}" 2>/dev/null
	wait "${PIDS[@]}" 2>/dev/null
	ip netns del "$NETNS" 2>/dev/null
	umount "$TMP/pin" 2>/dev/null
	[ -n "$SCOPE" ] && [ -d "$SCOPE" ] && rmdir "$SCOPE" 2>/dev/null
}
trap 'cleanup; cleanup_testlib' EXIT

# the first record of a jq condition
r() { jq -c "select($1)" "$OUT" | head -n 1; }
settle() { sleep 0.4; }	# records are drained every 50 ms; names resolve then

if ! trace_start "$OUT"; then
	fail "trace starts"
	exit 0
fi

# --- ip netns
ip netns add "$NETNS"
settle
ip netns exec "$NETNS" sleep 60 &
PIDS+=($!)
settle
netns_inum=$(ns_inum "/run/netns/$NETNS")
ip netns exec "$NETNS" true
settle

# --- a bind mount of a uts namespace
unshare -u sleep 60 &
PIDS+=($!)
UTS_PID=$!
settle
touch "$TMP/pin"
mount --bind "/proc/$UTS_PID/ns/uts" "$TMP/pin"
settle
nsenter --uts="$TMP/pin" true
settle

# --- a container: a process in its own namespaces, in a docker scope
container=no
if [ -n "$SCOPE" ] && mkdir -p "$SCOPE" 2>/dev/null; then
	unshare -n -i sleep 60 &
	PIDS+=($!)
	C_PID=$!
	sleep 0.1
	echo "$C_PID" >"$SCOPE/cgroup.procs" && container=yes
	settle
	nsenter -t "$C_PID" -n -i true
	settle
fi

# --- ip netns del while a process still holds the namespace
ip netns del "$NETNS"
settle
nsenter -t "${PIDS[0]}" -n true
settle
trace_stop

rec=$(r ".op==\"mount\" and .path==\"/run/netns/$NETNS\"")
expect_eq "ip netns add: the mount record is named" "$(jq -r .ns_name <<<"$rec")" "$NETNS"
rec=$(r ".op==\"setns\" and .comm==\"ip\" and .ns_inum==$netns_inum and .result==0")
expect_eq "ip netns exec: setns carries the ip netns name" "$(jq -r .ns_name <<<"$rec")" "$NETNS"
expect_eq "ip netns exec: old_name of the host netns is host" "$(jq -r .old_name <<<"$rec")" host
rec=$(r ".op==\"umount\" and .path==\"/run/netns/$NETNS\"")
expect_eq "ip netns del: the umount record names what it removes" \
	"$(jq -r .ns_name <<<"$rec")" "$NETNS"
rec=$(jq -c "select(.op==\"setns\" and .comm==\"nsenter\" and .ns_inum==$netns_inum)" "$OUT" | tail -n 1)
expect_eq "after ip netns del: setns into the still-alive netns" "$(jq .ns_inum <<<"$rec")" "$netns_inum"
expect_eq "after ip netns del: no stale name" "$(jq -r '.ns_name // "none"' <<<"$rec")" none

uts_inum=$(ns_inum "/proc/$UTS_PID/ns/uts")
rec=$(r ".op==\"mount\" and .path==\"$TMP/pin\"")
expect_eq "bind mount: the mount record is named by its path" "$(jq -r .ns_name <<<"$rec")" "$TMP/pin"
rec=$(r ".op==\"setns\" and .comm==\"nsenter\" and .ns_type==\"uts\" and .ns_inum==$uts_inum")
expect_eq "bind mount: setns through it carries the path" "$(jq -r .ns_name <<<"$rec")" "$TMP/pin"
expect_eq "bind mount: the uts left is host" "$(jq -r .old_name <<<"$rec")" host

if [ $container = yes ]; then
	c_net=$(ns_inum "/proc/$C_PID/ns/net")
	rec=$(r ".op==\"setns\" and .comm==\"nsenter\" and .ns_type==\"net\" and .ns_inum==$c_net")
	expect_eq "container: net namespace named by the docker scope's id" \
		"$(jq -r .ns_name <<<"$rec")" "container:$CID"
	rec=$(r ".op==\"setns\" and .comm==\"nsenter\" and .ns_type==\"ipc\"")
	expect_eq "container: ipc namespace too" "$(jq -r .ns_name <<<"$rec")" "container:$CID"
	rec=$(r ".op==\"open\" and .target_pid==$C_PID and .ns_type==\"net\"")
	expect_eq "container: the open pin of /proc/PID/ns/net" "$(jq -r .ns_name <<<"$rec")" \
		"container:$CID"
else
	skip "container names" "cannot create a scope in the cgroup2 tree (${CG2:-none})"
fi

rec=$(r ".op==\"unshare\" and .comm==\"unshare\" and .ns_type==\"uts\"")
expect_eq "unshare: old_name of the initial uts namespace is host" "$(jq -r .old_name <<<"$rec")" host
check "lost and unnamed records carry no empty ns_name" \
	jq -e -s 'all(.[]; (.ns_name // "x") != "" and (.old_name // "x") != "")' "$OUT"

# the text format shows the name after the namespace
"$NSAUDIT" trace --type uts --op setns >"$TMP/text" 2>"$TMP/text.err" &
tp=$!
for i in $(seq 1 100); do grep -q '^nsaudit: ready' "$TMP/text.err" && break; sleep 0.05; done
nsenter --uts="$TMP/pin" true
settle
kill -INT $tp
wait $tp
check "text format: the name follows the namespace" \
	grep -q "setns   uts:\[$uts_inum\] \"$TMP/pin\" from uts:\[[0-9]*\] pid=" "$TMP/text"
