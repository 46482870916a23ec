#!/bin/bash
# nsaudit holders and lifetime must not break the system they observe: while
# they scan a machine with many nsfs pins (2,000 bind mounts of a namespace
# file), every umount2() of a pin succeeds the first time. An open file on a
# bind mount (or a process whose root is in a mount namespace) makes its
# umount fail EBUSY ("target is busy"); nsaudit once opened every nsfs mount
# and held it for the whole scan.
#
# Ground truth: umount2()'s own return codes, counted by the process that
# calls it (a private mount namespace with the 2,000 pins, so nothing leaks
# and no foreign tool sees them unless it scans every mount namespace, as
# nsaudit does).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "holders hold no mount"
require_cmd unshare "holders hold no mount"
require_cmd python3 "holders hold no mount"
require_cmd jq "holders hold no mount"
NPINS=${NPINS:-2000}

LOOP=
cleanup() {
	touch "$TMP/stop"
	[ -n "$LOOP" ] && { kill -KILL "$LOOP" 2>/dev/null; wait "$LOOP" 2>/dev/null; }
	cleanup_testlib
}
trap cleanup EXIT

# In a private mount namespace: a tmpfs with NPINS bind mounts of this
# process's ipc namespace file, then umount2(pin, 0) + mount again, one pin
# after another, until $TMP/stop exists; every result counted.
cat >"$TMP/loop.py" <<'PY'
import ctypes, errno, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
d, n, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MS_BIND = 4096
os.makedirs(d, exist_ok=True)
if libc.mount(b"none", d.encode(), b"tmpfs", 0, None):
    sys.exit("tmpfs: " + os.strerror(ctypes.get_errno()))
src = b"/proc/self/ns/ipc"
pins = []
for i in range(n):
    p = os.path.join(d, "p%d" % i).encode()
    open(p, "w").close()
    if libc.mount(src, p, None, MS_BIND, None):
        sys.exit("bind mount: " + os.strerror(ctypes.get_errno()))
    pins.append(p)
with open(os.path.join(tmp, "ready"), "w") as f:
    f.write("%d\n" % os.getpid())
tries = fails = remount_fails = 0
errs = {}
i = 0
count = os.path.join(tmp, "count")
while not os.path.exists(os.path.join(tmp, "stop")):
    for _ in range(50):
        p = pins[i % n]
        i += 1
        tries += 1
        if libc.umount2(p, 0):
            e = ctypes.get_errno()
            fails += 1
            errs[errno.errorcode.get(e, str(e))] = errs.get(errno.errorcode.get(e, str(e)), 0) + 1
            continue
        if libc.mount(src, p, None, MS_BIND, None):
            remount_fails += 1
    with open(count + ".new", "w") as f:
        f.write("%d %d\n" % (tries, fails))
    os.rename(count + ".new", count)
print("tries=%d fails=%d remount_fails=%d errs=%s" % (tries, fails, remount_fails,
      ",".join("%s:%d" % kv for kv in sorted(errs.items())) or "none"))
PY
unshare -m --propagation private python3 "$TMP/loop.py" "$TMP/pins" "$NPINS" "$TMP" \
	>"$TMP/loop.out" 2>&1 &
LOOP=$!
for i in $(seq 1 600); do
	[ -s "$TMP/ready" ] && [ -s "$TMP/count" ] && break
	kill -0 "$LOOP" 2>/dev/null || break
	sleep 0.1
done
if ! [ -s "$TMP/count" ]; then
	fail "the pins and the umount loop started ($(head -c 300 "$TMP/loop.out"))"
	exit 0
fi
IPC=$(ns_inum /proc/self/ns/ipc)
MNT=$(ns_inum "/proc/$(cat "$TMP/ready")/ns/mnt")
tries() { cut -d' ' -f1 "$TMP/count"; }

# each scan, with the loop's progress around it (the umounts really ran
# while nsaudit scanned)
scan() {
	local what=$1 before after; shift
	before=$(tries)
	"$@" >"$TMP/out" 2>"$TMP/err"
	echo $? >"$TMP/rc"
	after=$(tries)
	[ "$after" -gt "$before" ] && overlapped=$((overlapped + 1))
	scans=$((scans + 1))
}
overlapped=0 scans=0
scan "holders ipc" "$NSAUDIT" holders "ipc:$IPC" --format json
expect_eq "holders ipc:[$IPC] exits 0" "$(cat "$TMP/rc")" 0
n=$(jq --argjson m "$MNT" '[.holders[]|select(.kind=="mount" and .mnt_ns==$m)]|length' "$TMP/out")
# one pin may be between its umount and its mount again
check "holders lists the pins in the loop's mount namespace ($n of $NPINS)" \
	test "$n" -ge $((NPINS - 1))
check "holders names their paths" \
	jq -e --argjson m "$MNT" --arg d "$TMP/pins/p" \
	'[.holders[]|select(.kind=="mount" and .mnt_ns==$m and (.path|startswith($d)))]|length >= 1' \
	"$TMP/out"
for k in 1 2 3; do
	scan "holders --all" "$NSAUDIT" holders --all
	expect_eq "holders --all ($k) exits 0" "$(cat "$TMP/rc")" 0
	scan "holders --all json" "$NSAUDIT" holders --all --format json
done
mkdir -p "$TMP/log"
for k in 1 2; do
	scan "lifetime" "$NSAUDIT" lifetime "ipc:$IPC" --log-dir "$TMP/log"
	check "lifetime ($k) shows the pins as holders now" grep -q "mount   $TMP/pins/p" "$TMP/out"
done
scan "holders mnt" "$NSAUDIT" holders "mnt:$MNT"

touch "$TMP/stop"
wait "$LOOP"
LOOP=
res=$(tail -1 "$TMP/loop.out")
echo "# $res; $overlapped of $scans scans overlapped the loop"
t=$(sed -n 's/.*tries=\([0-9]*\).*/\1/p' <<<"$res")
check "the umount loop ran ($t umount2 calls)" test "${t:-0}" -ge 1000
check "the umount loop ran during the scans ($overlapped of $scans)" test "$overlapped" -ge $((scans / 2))
expect_eq "every umount2 of a pin succeeded the first time while nsaudit scanned" \
	"$(sed -n 's/.*fails=\([0-9]*\) .*errs=\(.*\)/\1 \2/p' <<<"$res")" "0 none"
