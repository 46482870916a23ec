#!/bin/bash
# Pins at scale (issue 47): nobody, as uid 0 of its own user namespace,
# holds PINS_SCALE_N (10,000) nsfs bind mounts in its own mount namespace,
# made back to back by one process, then exits. Every pin's death must be
# reported, once (by the mount's never-reused id), each naming its maker
# (uid 65534, the holder's pid, its comm), within 60 s; a pin whose mount
# record a full ring cost (counted in a lost record naming nobody) is
# still reported, without a path.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pins at scale"
require_cmd jq "pins at scale"
require_cmd setpriv "pins at scale"
require_cmd python3 "pins at scale"
N=${PINS_SCALE_N:-10000}
D=$TMP/h
mkdir -p "$D"
chmod 755 "$TMP"
chmod 777 "$D"
cat >"$TMP/hold.py" <<'PY'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
d, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    p = "%s/h%d" % (d, i)
    open(p, "w").close()
    if libc.mount(b"/proc/self/ns/ipc", p.encode(), None, 4096, None) != 0:
        print("mount failed", i, ctypes.get_errno(), flush=True)
        sys.exit(1)
print("held", os.getpid(), flush=True)
time.sleep(600)
PY
H=
trap '[ -n "$H" ] && kill $H 2>/dev/null; cleanup_testlib' EXIT
trace_start "$TMP/trace.jsonl" --op mount,umount --no-rules || { fail "trace starts"; exit 0; }
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urm \
	python3 "$TMP/hold.py" "$D" "$N" >"$TMP/hold.out" 2>&1 &
H=$!
for i in $(seq 1 600); do grep -q '^held\|failed' "$TMP/hold.out" && break; sleep 0.1; done
read -r what MAKER <"$TMP/hold.out"
expect_eq "workload: nobody holds $N pins" "$what" held
sleep 2
T0=$(date +%s.%N)
kill $H
wait $H 2>/dev/null
H=
want() { jq -c 'select(.op == "umount" and .origin == "inferred" and .uid == 65534)' \
	"$TMP/trace.jsonl" 2>/dev/null | grep -c "\"maker_pid\":$MAKER,"; }
for i in $(seq 1 600); do [ "$(want)" -ge "$N" ] && break; sleep 0.1; done
SECS=$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
sleep 1
trace_stop
jq -c "select(.op == \"umount\" and .origin == \"inferred\" and .maker_pid == $MAKER)" \
	"$TMP/trace.jsonl" >"$TMP/gone"
expect_eq "every pin's death reported, once (distinct mount ids)" \
	"$(jq -r .mnt_unique_id "$TMP/gone" | sort -u | wc -l) $(wc -l <"$TMP/gone")" "$N $N"
expect_eq "each names its maker (uid 65534, comm python3), no actor" \
	"$(jq -r '"\(.uid) \(.maker_comm) \(.pid) \(.ns_type)"' "$TMP/gone" | sort -u)" \
	"65534 python3 null ipc"
lost=$(jq -r "select(.op == \"lost\" and .uid == 65534 and .lost_op == \"mount\") | .count" \
	"$TMP/trace.jsonl" | awk '{ n += $1 } END { print n + 0 }')
nopath=$(jq -c 'select(.path == null)' "$TMP/gone" | wc -l)
expect_eq "those without a path are the pins whose mount record was lost (counted)" \
	"$nopath" "$lost"
if awk -v s="$SECS" 'BEGIN { exit !(s < 60) }'; then
	pass "all $N reported ${SECS}s after the holder died (< 60 s)"
else
	fail "the $N deaths took ${SECS}s to be reported (want < 60 s)"
fi
