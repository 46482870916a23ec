#!/bin/bash
# nsaudit holders on a network namespace made with ip netns: tasks, an fd,
# sockets, bind mounts in two mount namespaces, the refcount reconciliation,
# and all of it again after "ip netns del" (the name is gone).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "holders net"
require_cmd ip "holders net"
require_cmd unshare "holders net"
require_cmd python3 "holders net"

NS=nsaudit-holders-$$
BM=$TMP/bind
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ip netns del "$NS" 2>/dev/null
	cleanup_testlib
}
trap cleanup EXIT
# jcheck WHAT [JQ OPTIONS] FILTER: FILTER is true on the last $json
jcheck() {
	local what=$1; shift
	if jq -e "$@" >/dev/null <<<"$json"; then pass "$what"; else fail "$what"; fi
}

ip netns add "$NS" || { fail "ip netns add"; exit 1; }
INUM=$(ns_inum "/run/netns/$NS")

# 1. only the mount: refs 1 = the nsfs dentry
out=$("$NSAUDIT" holders "$NS")
expect_eq "exit 0 for an existing ip netns" "$?" 0
check "mount of /run/netns/NAME listed" grep -q "mount   /run/netns/$NS in mnt:" <<<"$out"
check "head line names the netns" grep -q "^net:\[$INUM\]" <<<"$out"
check "refs 1 = 1 nsfs dentry with only the bind mount" \
	grep -q "refs 1 = 1 nsfs dentry + 0 unattributed" <<<"$out"

# 2. holders of every kind
ip netns exec "$NS" sleep 300 & SLEEP=$!; PIDS+=($!)
ip netns exec "$NS" python3 -c '
import socket, time
t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
time.sleep(300)' & PY=$!; PIDS+=($!)
bash -c "exec 7</run/netns/$NS; exec sleep 300" & FDH=$!; PIDS+=($!)
touch "$BM"
unshare -m --propagation private bash -c \
	"mount --bind /run/netns/$NS $BM && exec sleep 300" & MNTH=$!; PIDS+=($!)
for i in $(seq 1 50); do	# wait until all four are in place
	[ "$(ns_inum /proc/$SLEEP/ns/net 2>/dev/null)" = "$INUM" ] &&
		[ "$(ns_inum /proc/$PY/ns/net 2>/dev/null)" = "$INUM" ] &&
		[ -e /proc/$FDH/fd/7 ] && [ "$(readlink /proc/$FDH/exe)" = "$(command -v sleep | xargs readlink -f)" ] &&
		grep -q " $BM " /proc/$MNTH/mountinfo 2>/dev/null &&
		[ "$(ls -l /proc/$PY/fd | grep -c socket:)" -ge 2 ] && break
	sleep 0.1
done
MNTNS=$(ns_inum /proc/$MNTH/ns/mnt)

json=$("$NSAUDIT" holders "$NS" --format json)
expect_eq "json: one object" "$(jq -s length <<<"$json")" 1
expect_eq "json: type and inum" "$(jq -r '"\(.ns_type):\(.ns_inum)"' <<<"$json")" "net:$INUM"
jcheck "task holder: sleep pid" --argjson p "$SLEEP" \
	'.holders[] | select(.kind=="task" and .pid==$p and .comm=="sleep")'
jcheck "task holder: python3 pid" --argjson p "$PY" \
	'.holders[] | select(.kind=="task" and .pid==$p)'
jcheck "fd holder: pid and fd 7, via the bind mount" --argjson p "$FDH" --arg path "/run/netns/$NS" \
	'.holders[] | select(.kind=="fd" and .pid==$p and .fd==7 and .via=="bind-mount" and .path==$path)'
jcheck "socket holder: tcp" --argjson p "$PY" \
	'.holders[] | select(.kind=="socket" and .pid==$p and .family=="inet" and .protocol=="tcp")'
jcheck "socket holder: udp over inet6" --argjson p "$PY" \
	'.holders[] | select(.kind=="socket" and .pid==$p and .family=="inet6" and .protocol=="udp")'
jcheck "mount holder in the private mount namespace" --argjson m "$MNTNS" --arg path "$BM" \
	'.holders[] | select(.kind=="mount" and .mnt_ns==$m and .path==$path)'
jcheck "mount holder /run/netns/NAME" --arg path "/run/netns/$NS" \
	'.holders[] | select(.kind=="mount" and .path==$path)'
# refs: 2 nsproxies (sleep, python3) + 1 dentry (fd and both mounts) + 2 sockets
expect_eq "accounting: nsproxy" "$(jq .accounting.nsproxy <<<"$json")" 2
expect_eq "accounting: one nsfs dentry for fd + mounts" "$(jq .accounting.nsfs_dentry <<<"$json")" 1
expect_eq "accounting: sockets" "$(jq .accounting.socket <<<"$json")" 2
expect_eq "kernel refcount = 5" "$(jq .refs <<<"$json")" 5
expect_eq "nothing unattributed" "$(jq .refs_unattributed <<<"$json")" 0
out=$("$NSAUDIT" holders "$NS")
check "text: refcount line" grep -q "refs 5 = 2 nsproxy + 1 nsfs dentry + 2 socket + 0 unattributed" <<<"$out"
check "text: socket line" grep -q "socket  pid $PY fd [0-9]* python3  inet stream tcp" <<<"$out"
check "text: fd line" grep -q "fd      pid $FDH fd 7 sleep  via bind mount /run/netns/$NS" <<<"$out"

# 3. the name is gone: found by TYPE:INODE, same holders
ip netns del "$NS"
json=$("$NSAUDIT" holders "net:$INUM" --format json)
expect_eq "after ip netns del: still found (exit 0)" "$?" 0
jcheck "after del: no /run/netns mount" \
	'[.holders[] | select(.kind=="mount" and (.path|startswith("/run/netns/")))] | length == 0'
jcheck "after del: private bind mount still there" --arg path "$BM" \
	'.holders[] | select(.kind=="mount" and .path==$path)'
jcheck "after del: fd now via an unmounted bind mount" --argjson p "$FDH" \
	'.holders[] | select(.kind=="fd" and .pid==$p and .via=="unmounted-bind-mount")'
expect_eq "after del: refcount unchanged (mount was not a ref of its own)" "$(jq .refs <<<"$json")" 5
expect_eq "after del: nothing unattributed" "$(jq .refs_unattributed <<<"$json")" 0
check "TYPE:[INODE] spelling works" "$NSAUDIT" holders "net:[$INUM]" >/dev/null

# 4. the creator tasks exit; the fd and the private mount keep it alive
kill "$SLEEP" "$PY"; wait "$SLEEP" "$PY" 2>/dev/null
json=$("$NSAUDIT" holders "net:$INUM" --format json)
expect_eq "tasks gone: refs = the dentry only" "$(jq .refs <<<"$json")" 1
expect_eq "tasks gone: no task holders" "$(jq '[.holders[]|select(.kind=="task" or .kind=="socket")]|length' <<<"$json")" 0
kill "$FDH"; wait "$FDH" 2>/dev/null
json=$("$NSAUDIT" holders "net:$INUM" --format json)
check "fd gone: only the mount in the other mount namespace" \
	jq -e '[.holders[]|.kind]==["mount"] and .refs==1'

# 5. the last holder goes: the namespace does not exist
kill "$MNTH"; wait "$MNTH" 2>/dev/null
for i in $(seq 1 50); do
	"$NSAUDIT" holders "net:$INUM" >/dev/null 2>&1 || break
	sleep 0.1
done
err=$("$NSAUDIT" holders "net:$INUM" 2>&1 >/dev/null)
expect_eq "gone: exit 1" "$?" 1
check "gone: one line saying it does not exist" \
	grep -qx "nsaudit holders: net:\[$INUM\]: no such namespace.*" <<<"$err"
expect_eq "gone: error is one line" "$(wc -l <<<"$err")" 1
