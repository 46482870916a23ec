#!/bin/bash
# nsaudit holders on namespaces made with unshare: pid (tasks and
# pid_for_children), user (owned namespaces as children), nested pid
# namespaces, an fd opened through /proc/PID/ns, a mount namespace no task
# is in (kept by a bind mount of it), --all, and the usage errors.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "holders pid/user/mnt"
require_cmd unshare "holders pid/user/mnt"
require_cmd jq "holders pid/user/mnt"

PIDS=()
MNTPT=$TMP/mntns
cleanup() {
	local p
	# SIGKILL: unshare --fork ignores SIGTERM while it waits for its child,
	# so a plain kill left the wait below (and the host lock) for minutes
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	umount "$MNTPT" 2>/dev/null
	cleanup_testlib
}
trap cleanup EXIT
jcheck() {
	local what=$1; shift
	if jq -e "$@" >/dev/null <<<"$json"; then pass "$what"; else fail "$what"; fi
}
wait_for() { local i; for i in $(seq 1 50); do "$@" && return 0; sleep 0.1; done; return 1; }

# unshare (user, pid, mnt) forks a bash that forks sleep: unshare itself
# stays in the old pid namespace with the new one as pid_for_children.
unshare -U -r -p -m -f --kill-child --mount-proc bash -c 'sleep 300 & exec sleep 301' & US=$!; PIDS+=($!)
wait_for pgrep -P "$US" -x sleep >/dev/null || { fail "unshare did not start"; exit 1; }
INNER=$(pgrep -P "$US" -x sleep)
wait_for pgrep -P "$INNER" -x sleep >/dev/null
PIDNS=$(ns_inum /proc/$INNER/ns/pid)
USERNS=$(ns_inum /proc/$INNER/ns/user)
MNTNS=$(ns_inum /proc/$INNER/ns/mnt)

json=$("$NSAUDIT" holders "$INNER:pid" --format json)
expect_eq "PID:TYPE finds the pid namespace" "$(jq -r '"\(.ns_type):\(.ns_inum)"' <<<"$json")" "pid:$PIDNS"
jcheck "task in it" --argjson p "$INNER" '.holders[]|select(.kind=="task" and .pid==$p and .for_children==false)'
jcheck "unshare holds it as pid_for_children" --argjson p "$US" \
	'.holders[]|select(.kind=="task" and .pid==$p and .for_children==true)'
expect_eq "struct pid refs: the two threads in it" "$(jq .accounting.struct_pid <<<"$json")" 2
expect_eq "nsproxy refs: unshare's pid_for_children" "$(jq .accounting.nsproxy <<<"$json")" 1
# the rest: the proc mounted by --mount-proc (its superblock holds the pid ns)
expect_eq "refs = 2 pids + 1 nsproxy + 1 unattributed (proc superblock)" \
	"$(jq '[.refs, .refs_unattributed]|tostring' <<<"$json")" '"[4,1]"'

json=$("$NSAUDIT" holders "user:$USERNS" --format json)
jcheck "user ns: owned pid namespace as child" --argjson i "$PIDNS" \
	'.holders[]|select(.kind=="child" and .ns_type=="pid" and .ns_inum==$i and .relation=="owned")'
jcheck "user ns: owned mnt namespace as child" --argjson i "$MNTNS" \
	'.holders[]|select(.kind=="child" and .ns_type=="mnt" and .ns_inum==$i)'
# a child by identity: its ns_id is the kernel's (NS_GET_ID), where it has ids
want_id=$(python3 -c "$NS_ID_PY
print(ns_id('/proc/$INNER/ns/pid'))")
expect_eq "user ns: the owned pid namespace child carries its ns_id (NS_GET_ID)" \
	"$(jq -r --argjson i "$PIDNS" '.holders[]|select(.kind=="child" and .ns_inum==$i)|.ns_id // ""' <<<"$json")" \
	"$want_id"
jcheck "user ns: cred references counted" '.accounting.cred >= 1 and .accounting.child == 2'
jcheck "user ns: tasks listed" --argjson p "$INNER" '.holders[]|select(.kind=="task" and .pid==$p)'

# nested pid namespace inside it: the parent lists it as a child
nsenter -t "$INNER" -U -p -m --preserve-credentials unshare -p -f --kill-child sleep 302 & NE=$!; PIDS+=($!)
wait_for pgrep -f "^sleep 302" >/dev/null
NESTED=$(pgrep -f "^sleep 302" | head -1)
NESTEDNS=$(ns_inum /proc/$NESTED/ns/pid)
json=$("$NSAUDIT" holders "pid:$PIDNS" --format json)
jcheck "nested pid namespace listed as child" --argjson i "$NESTEDNS" \
	'.holders[]|select(.kind=="child" and .ns_type=="pid" and .ns_inum==$i and .relation=="nested")'
expect_eq "child counted as a reference" "$(jq .accounting.child <<<"$json")" 1
json=$("$NSAUDIT" holders "pid:$NESTEDNS" --format json)
expect_eq "nested: parent is the outer pid namespace" "$(jq .parent <<<"$json")" "$PIDNS"

# an fd opened through /proc/PID/ns: via nsfs
bash -c "exec 9</proc/$INNER/ns/uts; exec sleep 300" & FDH=$!; PIDS+=($!)
wait_for test -e /proc/$FDH/fd/9
wait_for bash -c "[ \$(readlink /proc/$FDH/exe) = $(readlink -f "$(command -v sleep)") ]"
json=$("$NSAUDIT" holders "$FDH:uts" --format json)	# uts of the fd holder = init uts
UTS=$(ns_inum /proc/$INNER/ns/uts)
json=$("$NSAUDIT" holders "uts:$UTS" --format json)
jcheck "fd via /proc/PID/ns" --argjson p "$FDH" '.holders[]|select(.kind=="fd" and .pid==$p and .fd==9 and .via=="nsfs")'

# a mount namespace no task is in, kept alive by a bind mount of it
touch "$MNTPT"
unshare -m --propagation private sleep 300 & MH=$!; PIDS+=($!)
wait_for bash -c "[ \$(stat -L -c %i /proc/$MH/ns/mnt) != \$(stat -L -c %i /proc/self/ns/mnt) ]"
LONE=$(ns_inum /proc/$MH/ns/mnt)
mount --make-private --bind "$TMP" "$TMP" 2>/dev/null	# nsfs mounts need a private parent
mount --bind "/proc/$MH/ns/mnt" "$MNTPT" || fail "bind-mounting a mount namespace"
# inside it, a bind mount of a uts namespace file: only reachable through
# the task-less namespace (nsaudit walks its mount tree in the kernel; the
# path comes from statmount(2), 6.8+)
HUTS=$(ns_inum /proc/self/ns/uts)
nsenter -t "$MH" -m sh -c 'mount -t tmpfs nsaudit-t31 /mnt && touch /mnt/u &&
	mount --bind /proc/self/ns/uts /mnt/u' || fail "a bind mount inside the mount namespace"
kill "$MH"; wait "$MH" 2>/dev/null
json=$("$NSAUDIT" holders "mnt:$LONE" --format json)
expect_eq "task-less mount namespace found by its bind mount" "$(jq -r .ns_type <<<"$json")" "mnt"
jcheck "its bind mount listed" --arg p "$MNTPT" '.holders[]|select(.kind=="mount" and .path==$p)'
expect_eq "no tasks in it" "$(jq '[.holders[]|select(.kind=="task")]|length' <<<"$json")" 0
expect_eq "refs read by BPF: the dentry only" "$(jq '[.refs,.accounting.nsfs_dentry]|tostring' <<<"$json")" '"[1,1]"'
json=$("$NSAUDIT" holders "uts:$HUTS" --format json)
if [ "$(uname -r | awk -F. '{ print ($1 > 6 || ($1 == 6 && $2 >= 8)) }')" = 1 ]; then
	jcheck "a bind mount inside the task-less mount namespace, with its path" \
		--argjson m "$LONE" '.holders[]|select(.kind=="mount" and .mnt_ns==$m and .path=="/mnt/u")'
else
	jcheck "a bind mount inside the task-less mount namespace (no statmount: no path)" \
		--argjson m "$LONE" '.holders[]|select(.kind=="mount" and .mnt_ns==$m and .path==null)'
fi
out=$("$NSAUDIT" holders "uts:$HUTS")
check "text: says no task is in that mount namespace" \
	grep -q "mount   /mnt/u in mnt:\[$LONE\] (a mount namespace no task is in)" <<<"$out"
umount "$MNTPT"; umount "$TMP" 2>/dev/null

# --all: every namespace, the new ones included
out=$("$NSAUDIT" holders --all)
expect_eq "--all exits 0" "$?" 0
check "--all shows the user namespace" grep -q "user:\[$USERNS\]" <<<"$out"
check "--all nests the owned pid namespace under its user namespace" grep -q "^        pid:\[$PIDNS\]" <<<"$out"
json=$("$NSAUDIT" holders --all --format json)
jcheck "--all json: one object per namespace, the pid one included" -s --argjson i "$PIDNS" \
	'map(select(.ns_type=="pid" and .ns_inum==$i))|length==1'

# usage and runtime errors
"$NSAUDIT" holders >/dev/null 2>&1; expect_eq "no NS: usage error" "$?" 2
"$NSAUDIT" holders --all net:1 >/dev/null 2>&1; expect_eq "NS and --all: usage error" "$?" 2
"$NSAUDIT" holders --format xml --all >/dev/null 2>&1; expect_eq "bad format: usage error" "$?" 2
"$NSAUDIT" holders nosuchtype:1 >/dev/null 2>&1; expect_eq "bad type: usage error" "$?" 2
"$NSAUDIT" holders /nonexistent/ns >/dev/null 2>&1; expect_eq "missing path: exit 1" "$?" 1
err=$("$NSAUDIT" holders net:1 2>&1 >/dev/null); expect_eq "unknown inode: exit 1" "$?" 1
check "unknown inode: says so" grep -q "^nsaudit holders: net:\[1\]: no such namespace" <<<"$err"
check "--help has examples" bash -c "'$NSAUDIT' holders --help | grep -q Examples"
