#!/bin/bash
# Refused bind mounts and umounts of nsfs files are records (issue 47): a
# probe by bind mount is not invisible. nobody calls mount(2) MS_BIND of
# /proc/self/ns/net on a file N times (EPERM) and umount2(2) of root's pin
# N times (EPERM), under strace. The records: op mount / umount, result -1
# (EPERM), the namespace (the net namespace; the pin's), the target path,
# nobody's pid and uid, and a repeat that sums to the refused calls strace
# saw (coalesced like other refused calls). An umount2 of an ordinary
# mount that fails is no record. Binds of another process's namespace
# (/proc/PID/ns/uts: a process of nobody's in a uts namespace of its own,
# and one of root's; both refused EPERM, mount(2) asks for the capability
# before it looks the source up) name that namespace (resolved at the
# call's entry, 6.13+). A refused umount2 of a pin older than the recorder
# (root's, made before it started: known from mountinfo) names it too.
# A mount namespace made after that pin has a copy of it; its death
# while the recorder runs is no umount of the pin (still mounted).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "refused nsfs mounts"
require_cmd jq "refused nsfs mounts"
require_cmd strace "refused nsfs mounts"
require_cmd setpriv "refused nsfs mounts"
require_cmd python3 "refused nsfs mounts"
N=${REFUSED_N:-50}
D=$TMP/d
mkdir -p "$D" "$D/plain"
chmod 755 "$TMP"
chmod 777 "$D"
: >"$D/pin"
: >"$D/target"
: >"$D/target2"
: >"$D/target3"
: >"$D/oldpin"
OPID= RPID= XPID=
trap 'umount "$D/pin" 2>/dev/null; umount "$D/plain" 2>/dev/null; umount "$D/oldpin" 2>/dev/null
	kill $OPID $RPID $XPID 2>/dev/null; cleanup_testlib' EXIT
# the other processes: nobody's in a uts namespace of its own, root's in one
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur -u sleep 60 &
OPID=$!
unshare -u sleep 60 &
RPID=$!
for i in $(seq 1 50); do
	[ "$(ns_inum /proc/$OPID/ns/uts)" != "$(ns_inum /proc/self/ns/uts)" ] &&
		[ "$(ns_inum /proc/$RPID/ns/uts)" != "$(ns_inum /proc/self/ns/uts)" ] && break
	sleep 0.1
done
OUTS=$(ns_inum /proc/$OPID/ns/uts) RUTS=$(ns_inum /proc/$RPID/ns/uts)
cat >"$D/probe.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
d, n = sys.argv[1].encode(), int(sys.argv[2])
for i in range(n):
    libc.mount(b"/proc/self/ns/net", d + b"/target", None, 4096, None)   # MS_BIND
for i in range(n):
    libc.mount(b"/proc/%s/ns/uts" % sys.argv[3].encode(), d + b"/target2", None, 4096, None)
for i in range(n):
    libc.mount(b"/proc/%s/ns/uts" % sys.argv[4].encode(), d + b"/target3", None, 4096, None)
for i in range(n):
    libc.umount2(d + b"/pin", 0)
for i in range(n):
    libc.umount2(d + b"/plain", 0)
for i in range(n):
    libc.umount2(d + b"/oldpin", 0)
print(os.getpid())
PY
setup "root's pin older than the recorder" mount --bind /proc/self/ns/ipc "$D/oldpin"
# a mount namespace made after it has a copy of it (no mount call made
# that one); it dies while the recorder runs: no pin was unpinned
unshare -m --propagation private sleep 60 &
XPID=$!
for i in $(seq 1 50); do
	[ "$(ns_inum /proc/$XPID/ns/mnt)" != "$(ns_inum /proc/self/ns/mnt)" ] && break
	sleep 0.1
done
trace_start "$TMP/trace.jsonl" --op mount,umount || { fail "trace starts"; exit 0; }
setup "root's pin" mount --bind /proc/self/ns/net "$D/pin"
setup "an ordinary mount" mount -t tmpfs t "$D/plain"
PID=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	strace -f -qq -e trace=mount,umount2 -e signal=none -o "$D/strace" python3 "$D/probe.py" "$D" "$N" "$OPID" "$RPID")
kill $XPID; wait $XPID 2>/dev/null; XPID=
sleep 2		# the mount namespaces are checked once a second
trace_stop
NET=$(ns_inum /proc/self/ns/net)
expect_eq "workload: strace saw $N refused binds, $N refused umounts of the pin and of the tmpfs" \
	"$(grep -c "mount(\"/proc/self/ns/net\", \"$D/target\".* = -1 EPERM" "$D/strace") \
$(grep -c "umount2(\"$D/pin\", 0) = -1 EPERM" "$D/strace") \
$(grep -c "umount2(\"$D/plain\", 0) = -1 EPERM" "$D/strace")" "$N $N $N"
got() {
	jq -r --arg p "$1" --arg op "$2" 'select(.op == $op and .path == $p) |
		"\(.result) \(.error) \(.ns_type) \(.ns_inum) \(.pid) \(.uid) \(.repeat // 1)"' \
		"$TMP/trace.jsonl" | awk '{ n += $7; $7 = ""; k[$0] = 1 } END { for (x in k) print x n }'
}
expect_eq "the refused binds: one coalesced record, EPERM, the net namespace, nobody, $N calls" \
	"$(got "$D/target" mount)" "-1 EPERM net $NET $PID 65534 $N"
expect_eq "workload: strace saw $N binds of nobody's process's uts, and of root's, refused EPERM" \
	"$(grep -c "mount(\"/proc/$OPID/ns/uts\", \"$D/target2\".* = -1 EPERM" "$D/strace") \
$(grep -c "mount(\"/proc/$RPID/ns/uts\", \"$D/target3\".* = -1 EPERM" "$D/strace")" "$N $N"
expect_eq "the refused binds of another process's namespace (EPERM): that uts namespace, $N calls" \
	"$(got "$D/target2" mount)" "-1 EPERM uts $OUTS $PID 65534 $N"
expect_eq "the refused binds of root's process's namespace: that uts namespace, $N calls" \
	"$(got "$D/target3" mount)" "-1 EPERM uts $RUTS $PID 65534 $N"
expect_eq "the refused umounts of the pin: EPERM, the pin's namespace, nobody, $N calls" \
	"$(got "$D/pin" umount | grep -- '^-1')" "-1 EPERM net $NET $PID 65534 $N"
expect_eq "workload: strace saw $N refused umounts of the pin older than the recorder" \
	"$(grep -c "umount2(\"$D/oldpin\", 0) = -1 EPERM" "$D/strace")" "$N"
expect_eq "the refused umounts of the older pin: EPERM, its ipc namespace, nobody, $N calls" \
	"$(got "$D/oldpin" umount)" "-1 EPERM ipc $(ns_inum /proc/self/ns/ipc) $PID 65534 $N"
expect_eq "no record of the refused umounts of an ordinary mount" \
	"$(jq -c --arg p "$D/plain" 'select(.path == $p)' "$TMP/trace.jsonl" | wc -l)" 0
expect_eq "the pin is still root's: its mount record, no umount record of a call that succeeded" \
	"$(jq -r --arg p "$D/pin" 'select(.path == $p and .result == 0) | "\(.op) \(.uid)"' \
		"$TMP/trace.jsonl" | sort | tr '\n' ' ')" "mount 0 "
expect_eq "the copy of the older pin went with its mount namespace: no umount told (still mounted)" \
	"$(jq -c --arg p "$D/oldpin" 'select(.path == $p and .op == "umount" and .result == 0)' \
		"$TMP/trace.jsonl" | wc -l)" 0
