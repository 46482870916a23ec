#!/bin/bash
# Concurrent umounts of pins in one mount namespace (issue 25/32): two
# processes bind and unmount nsfs pins at the same time, in the host mount
# namespace, on files with the same name in two directories. Each umount
# call's record must name its own pin (pid = the umount process, path,
# namespace = stat -L by the workload), once; none may arrive as a vanished
# pin (no actor). The umounts' exits come a grace period after their
# detaches, in any order: an exit must not take the other call's pin.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pins-umount-concurrent"
require_cmd jq "pins-umount-concurrent"
require_cmd unshare "pins-umount-concurrent"
N=${PINS_CONCURRENT_N:-40}
OUT=$TMP/trace.jsonl
mkdir -p "$TMP/a" "$TMP/b"
touch "$TMP/a/pin" "$TMP/b/pin"
unshare -n sleep 300 & H=$!
trap 'kill $H 2>/dev/null; umount "$TMP/a/pin" "$TMP/b/pin" 2>/dev/null; cleanup_testlib' EXIT
NA=$(ns_inum /proc/self/ns/net)
# until unshare(1) has made its net namespace (no fixed wait: a loaded machine)
for i in $(seq 1 200); do
	NB=$(ns_inum /proc/$H/ns/net)
	[ "$NB" != "$NA" ] && break
	sleep 0.05
done
trace_start "$OUT" --op mount,umount || { fail "trace starts"; exit 0; }
# one loop: bind SRC on FILE, umount it (its pid and the pinned inode noted)
loop() {
	local f=$1 src=$2 i p t
	for i in $(seq 1 "$N"); do
		mount --bind "$src" "$f" || continue
		ino=$(stat -L -c %i "$f")
		# EBUSY while another process has the pin open a moment (a
		# holders scan of another tracer opens every nsfs mount): again,
		# by another process; the refused call is a record of its own
		for t in $(seq 1 50); do
			umount "$f" 2>/dev/null & p=$!
			wait $p && { echo "$p $ino $f"; break; }
			sleep 0.1
		done
	done
}
loop "$TMP/a/pin" /proc/self/ns/net >"$TMP/a.want" &
LA=$!
loop "$TMP/b/pin" /proc/$H/ns/net >"$TMP/b.want" &
LB=$!
wait $LA $LB
sleep 0.5
trace_stop
expect_eq "workload: $N umounts of each pin made" "$(cat "$TMP/a.want" "$TMP/b.want" | wc -l)" \
	$((2 * N))
expect_eq "workload: the pins name the two namespaces" \
	"$(awk '{print $2}' "$TMP/a.want" | sort -u) $(awk '{print $2}' "$TMP/b.want" | sort -u)" \
	"$NA $NB"
jq -r "select(.op==\"umount\" and .result==0 and (.path==\"$TMP/a/pin\" or .path==\"$TMP/b/pin\"))
	| \"\(.pid) \(.ns_inum) \(.path)\"" "$OUT" | sort >"$TMP/got"
cat "$TMP/a.want" "$TMP/b.want" | sort >"$TMP/want"
expect_eq "each umount call's record names its own pin, once (pid, namespace, path)" \
	"$(comm -3 "$TMP/want" "$TMP/got" | wc -l)" 0
expect_eq "no umount of these pins arrives without its actor (vanished)" \
	"$(jq -c "select(.op==\"umount\" and .probe==\"user\" and
		(.path==\"$TMP/a/pin\" or .path==\"$TMP/b/pin\"))" "$OUT" | wc -l)" 0
