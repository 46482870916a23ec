#!/bin/bash
# The less travelled ways to a namespace (issue 15), on the running kernel:
# nsfs fds made by ioctl (NS_GET_USERNS/PARENT, PIDFD_GET_*_NAMESPACE),
# pidfd_getfd, open_by_handle_at; NS_GET_OWNER_UID; failed clone/clone3
# with CLONE_NEW*; setns labels (bad fd, eventfd, pidfd with flags 0); a
# thread's setns; mount moves. Each record is checked against what
# tests/helpers/nspaths itself observed: actor (pid, tid), namespace inode
# (fstat of the fd it got), result (its errno).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "kernel paths"
require_cmd jq "kernel paths"
NSP=$(dirname "$NSAUDIT")/helpers/nspaths
require_built "$NSP" "kernel paths"
OUT=$TMP/trace.jsonl
cleanup() {
	[ -n "${SLEEPER:-}" ] && kill $SLEEPER 2>/dev/null
	[ -n "${HOLDER:-}" ] && kill $HOLDER 2>/dev/null
	[ -n "${NOBODY_NS:-}" ] && kill $NOBODY_NS 2>/dev/null
	# every nsfs mount this test can leave: one left behind pins its
	# namespace and is copied into every mount namespace made after it
	umount "$TMP/m2/pin" 2>/dev/null; umount "$TMP/m1/pin" 2>/dev/null
	umount "$TMP/m1/pin2" 2>/dev/null
	umount "$TMP/m2" 2>/dev/null; umount "$TMP/m1" 2>/dev/null
}
trap 'cleanup; cleanup_testlib' EXIT

val() { awk -v k="$1" '$1 == k {print $2; exit}' <<<"$2"; }	# val KEY OUTPUT
q() { jq -c --argjson pid "$1" "select(.pid == \$pid and ($2))" "$OUT"; }
one() { q "$1" "$2" | head -1; }

unshare -n -u sleep 60 &
SLEEPER=$!
# a user namespace made by nobody: its owner uid is 65534, not ours
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U sleep 60 &
NOBODY_NS=$!
sleep 0.3
sleeper_net=$(ns_inum /proc/$SLEEPER/ns/net)
# a process holding an nsfs fd (until its stdin closes), for pidfd_getfd
mkfifo "$TMP/hold.in"
"$NSP" hold /proc/$SLEEPER/ns/uts <"$TMP/hold.in" >"$TMP/hold.out" &
HOLDER=$!
exec 8>"$TMP/hold.in"
sleep 0.2
hold_fd=$(val fd "$(cat "$TMP/hold.out")")

if ! trace_start "$OUT"; then fail "trace starts"; exit 0; fi

o_user=$("$NSP" ns-ioctl userns /proc/self/ns/net)
o_parent=$("$NSP" ns-ioctl parent /proc/self/ns/pid)	# EPERM: the init pid ns has no parent
o_owner=$("$NSP" owner-uid /proc/self/ns/user)
o_owner2=$("$NSP" owner-uid /proc/$NOBODY_NS/ns/user)
o_pidfd=$("$NSP" pidfd-ns $SLEEPER net setns); rc_pidfd=$?
o_getfd=$("$NSP" getfd $HOLDER $hold_fd setns)
o_handle=$("$NSP" handle /proc/$SLEEPER/ns/net setns); rc_handle=$?
o_einval=$("$NSP" clone-fail einval)
o_einval3=$("$NSP" clone-fail einval clone3)
o_eperm=$("$NSP" clone-fail eperm)
o_enospc=$("$NSP" clone-fail enospc)
o_badfd=$("$NSP" setns-badfd)
o_efd=$("$NSP" setns-eventfd)
o_pidfd0=$("$NSP" setns-pidfd0 $SLEEPER)
o_thread=$("$NSP" thread-setns /proc/$SLEEPER/ns/uts 0)
# mounts: a pin, remounted (no new pin), moved by mount(MS_MOVE) and by
# move_mount(2) by path
mkdir -p "$TMP/m1" "$TMP/m2"
mount -t tmpfs t "$TMP/m1" && mount --make-private "$TMP/m1"
mount -t tmpfs t "$TMP/m2" && mount --make-private "$TMP/m2"
touch "$TMP/m1/pin" "$TMP/m2/pin" "$TMP/m1/pin2"
mount --bind /proc/$SLEEPER/ns/net "$TMP/m1/pin"
mount -o remount,bind,ro "$TMP/m1/pin"
sleep 0.2	# user space resolves the bind from mountinfo: let it see it first
mount --move "$TMP/m1/pin" "$TMP/m2/pin"
"$NSP" move-path "$TMP/m2/pin" "$TMP/m1/pin2" >/dev/null
umount "$TMP/m1/pin2"
exec 8>&-
sleep 0.4
trace_stop
expect_eq "trace drains and exits 0" "$?" 0

# --- nsfs fds from NS_GET_USERNS: op nsfd, via ns_ioctl, the new fd's inode
p=$(val pid "$o_user")
r=$(one $p '.op=="nsfd" and .via=="ns_ioctl"')
expect_eq "NS_GET_USERNS: ns_inum is the new fd's (fstat)" "$(jq .ns_inum <<<"$r")" "$(val inum "$o_user")"
expect_eq "NS_GET_USERNS: fd and type" "$(jq -c '[.fd, .ns_type, .result]' <<<"$r")" "[$(val fd "$o_user"),\"user\",0]"
p=$(val pid "$o_parent")
r=$(one $p '.op=="nsfd" and .via=="ns_ioctl"')
expect_eq "NS_GET_PARENT refused: the error is recorded" "$(jq .result <<<"$r")" "-$(val errno "$o_parent")"

# --- NS_GET_OWNER_UID: op query, no fd made
p=$(val pid "$o_owner")
r=$(one $p '.op=="query"')
expect_eq "NS_GET_OWNER_UID: query of the user ns it asked about" \
	"$(jq -c '[.ns_type, .ns_inum, .result]' <<<"$r")" "[\"user\",$(val inum "$o_owner"),0]"
expect_eq "NS_GET_OWNER_UID: ... with the uid it returned" "$(jq .owner_uid <<<"$r")" "$(val uid "$o_owner")"
p=$(val pid "$o_owner2")
r=$(one ${p:-0} '.op=="query"')
expect_eq "NS_GET_OWNER_UID of a user namespace nobody made: the uid returned (65534)" \
	"$(jq -c '[.ns_inum, .owner_uid]' <<<"$r")" "[$(val inum "$o_owner2"),$(val uid "$o_owner2")]"
check "... which is nobody's" test "$(val uid "$o_owner2")" = 65534

# --- PIDFD_GET_NET_NAMESPACE (6.11+), then setns through that fd
if [ $rc_pidfd -eq 3 ]; then
	skip "PIDFD_GET_*_NAMESPACE" "kernel $(uname -r) has no such ioctl"
else
	p=$(val pid "$o_pidfd")
	r=$(one $p '.op=="nsfd" and .via=="pidfd"')
	expect_eq "PIDFD_GET_NET_NAMESPACE: the target's netns, target_pid" \
		"$(jq -c '[.ns_inum, .target_pid, .fd]' <<<"$r")" "[$sleeper_net,$SLEEPER,$(val fd "$o_pidfd")]"
	expect_eq "PIDFD_GET_NET_NAMESPACE: ns_inum matches fstat" "$(jq .ns_inum <<<"$r")" "$(val inum "$o_pidfd")"
	r=$(one $p '.op=="setns"')
	expect_eq "setns through it: via pidfd (the fd's origin), not proc" \
		"$(jq -c '[.via, .ns_inum, .result, .fd]' <<<"$r")" "[\"pidfd\",$sleeper_net,0,$(val fd "$o_pidfd")]"
fi

# --- pidfd_getfd of another process's nsfs fd, then setns through it
p=$(val pid "$o_getfd")
r=$(one $p '.op=="nsfd" and .via=="pidfd_getfd"')
expect_eq "pidfd_getfd: the copied fd's namespace (fstat), target_pid" \
	"$(jq -c '[.ns_inum, .target_pid, .fd, .ns_type]' <<<"$r")" \
	"[$(val inum "$o_getfd"),$HOLDER,$(val fd "$o_getfd"),\"uts\"]"
r=$(one $p '.op=="setns"')
expect_eq "setns through it: via pidfd_getfd" "$(jq -c '[.via, .result]' <<<"$r")" '["pidfd_getfd",0]'

# --- open_by_handle_at of an nsfs handle (6.18+)
if [ $rc_handle -eq 3 ]; then
	skip "open_by_handle_at of nsfs" "kernel $(uname -r) has no nsfs file handles"
else
	p=$(val pid "$o_handle")
	r=$(one $p '.op=="nsfd" and .via=="handle"')
	expect_eq "open_by_handle_at: the namespace (fstat)" "$(jq -c '[.ns_inum, .fd]' <<<"$r")" \
		"[$(val inum "$o_handle"),$(val fd "$o_handle")]"
	r=$(one $p '.op=="setns"')
	expect_eq "setns through it: via handle" "$(jq -r .via <<<"$r")" handle
fi

# --- failed clone/clone3 with CLONE_NEW*: records with the error
for v in einval einval3 eperm enospc; do
	o=o_$v; o=${!o}
	p=$(val pid "$o"); e=$(val errno "$o")
	r=$(one $p '.op=="clone" and .ns_type=="net"')
	expect_eq "failed clone ($v): net record with result -$e" "$(jq .result <<<"$r")" "-$e"
done
p=$(val pid "$o_eperm")
expect_eq "failed clone (eperm): the actor's uid after setuid" \
	"$(one $p '.op=="clone"' | jq .uid)" 65534

# --- labels
p=$(val pid "$o_badfd")
expect_eq "setns(-1, 0): type unknown, not net, EBADF" \
	"$(one $p '.op=="setns"' | jq -c '[.ns_type, .result]')" "[null,-$(val errno "$o_badfd")]"
p=$(val pid "$o_efd")
r=$(one $p '.op=="setns"')
expect_eq "setns(eventfd, CLONE_NEWNET): not via pidfd" "$(jq -c '[.via, .result]' <<<"$r")" \
	"[null,-$(val errno "$o_efd")]"
p=$(val pid "$o_pidfd0")
r=$(one $p '.op=="setns"')
expect_eq "setns(pidfd, 0): via pidfd, type unknown, EINVAL" \
	"$(jq -c '[.via, .ns_type, .result]' <<<"$r")" "[\"pidfd\",null,-$(val errno "$o_pidfd0")]"

# --- a thread's setns names the thread
p=$(val pid "$o_thread")
r=$(one $p '.op=="setns"')
expect_eq "thread setns: tid is the thread's, not the leader's" \
	"$(jq -c '[.tid, .ns_inum, .result]' <<<"$r")" \
	"[$(val tid "$o_thread"),$(ns_inum /proc/$SLEEPER/ns/uts),0]"

# --- mounts
me=$(ns_inum /proc/self/ns/mnt)
n=$(jq -c --arg p "$TMP/m1/pin" 'select(.op=="mount" and .path==$p)' "$OUT" | wc -l)
expect_eq "bind + remount,bind: one mount record (a remount pins nothing)" "$n" 1
r=$(jq -c --arg p "$TMP/m2/pin" 'select(.op=="mount" and .path==$p)' "$OUT" | head -1)
expect_eq "mount --move: a move, from the old mount point, in our mount ns" \
	"$(jq -c '[.move, .src_path, .mnt_ns]' <<<"$r")" "[true,\"$TMP/m1/pin\",$me]"
expect_eq "mount --move: the pin's namespace moves with it" "$(jq .ns_inum <<<"$r")" "$sleeper_net"
r=$(jq -c --arg p "$TMP/m1/pin2" 'select(.op=="mount" and .path==$p)' "$OUT" | head -1)
expect_eq "move_mount by path: a move, with its source" "$(jq -c '[.move, .src_path]' <<<"$r")" \
	"[true,\"$TMP/m2/pin\"]"
r=$(jq -c --arg p "$TMP/m1/pin2" 'select(.op=="umount" and .path==$p)' "$OUT" | head -1)
expect_eq "umount: its path and mount ns" "$(jq -c '[.result, .mnt_ns]' <<<"$r")" "[0,$me]"
n=$(jq -c 'select(.op=="lost")' "$OUT" | wc -l)
expect_eq "nothing lost" "$n" 0
