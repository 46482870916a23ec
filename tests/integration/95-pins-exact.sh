#!/bin/bash
# Bind-mount pins exact in every timing and spelling (issue 25): the
# namespace a bind of an nsfs file pins, and its unpin, are known from the
# kernel's mount tree, not from a race against mountinfo. Each workload is
# run under strace (the calls and spellings it really made) and stats the
# mount it made (stat -L: the inode of the namespace it pins); the records
# must name that namespace, and every umount whatever its spelling.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pins-exact"
require_cmd jq "pins-exact"
require_cmd strace "pins-exact"
require_cmd unshare "pins-exact"
PM=$(dirname "$NSAUDIT")/helpers/pinmount
require_built "$PM" "pins-exact"
OUT=$TMP/trace.jsonl
PIDS=()
cleanup() {
	kill "${PIDS[@]}" 2>/dev/null
	wait "${PIDS[@]}" 2>/dev/null
	umount -l "$TMP/base" "$TMP/persist/mnt" "$TMP/persist" 2>/dev/null
	cleanup_testlib
}
trap cleanup EXIT
mkdir -p "$TMP/d" "$TMP/persist"
ln -s "$TMP/d" "$TMP/ln"
for p in p1 p2 p3 p4 p5 p6 p7 p8 p9 p10 p11 h1 q1 base; do touch "$TMP/$p" "$TMP/d/$p"; done
touch "$TMP/persist/mnt"
unshare -u sleep 120 & A=$!; PIDS+=($!)
unshare -n sleep 120 & B=$!; PIDS+=($!)
sleep 0.2
UA=$(ns_inum /proc/$A/ns/uts)
NB=$(ns_inum /proc/$B/ns/net)
# a namespace pinned before the tracer starts, to be used as a bind source
mount --bind /proc/$A/ns/uts "$TMP/base"
# a pin older than the tracer in a private mount namespace, which will be
# held by an fd only (its own process gone)
unshare -m --propagation private sh -c "mount --bind /proc/$A/ns/uts '$TMP/q1'; exec sleep 120" &
U=$!; PIDS+=($!)
sleep 0.3
sleep 120 3</proc/$U/ns/mnt & HOLD=$!; PIDS+=($!)

trace_start "$OUT" -o mount,umount || { fail "trace starts"; exit 0; }

# NAME [pinmount args...]: one workload under strace
run() {
	local name=$1; shift
	strace -f -qq -o "$TMP/$name.strace" -e trace=mount,umount2,open_tree,move_mount \
		"$PM" "$@" >"$TMP/$name.out" 2>&1 || echo "workload $name failed" >>"$TMP/errors"
}
run p1 bind /proc/$A/ns/uts "$TMP/p1" "$TMP/p1"			# back to back
run p2 -d 10 bind /proc/$A/ns/uts "$TMP/p2" "$TMP/p2"		# 10 ms apart
run p3 bind /proc/$B/task/$B/ns/net "$TMP/p3" "$TMP/p3"		# a task's ns
run p4 fd /proc/$A/ns/uts "$TMP/p4" "$TMP/p4"			# /proc/self/fd/N
run p5 bind "$TMP/base" "$TMP/p5" "$TMP/p5"			# an nsfs bind mount
run p6 tree /proc/$A/ns/uts "$TMP/p6" "$TMP/p6"			# open_tree+move_mount
run p8 bind /proc/$A/ns/uts "$TMP/d/p8" "$TMP/d//p8"		# DIR//name
run p9 bind /proc/$A/ns/uts "$TMP/d/p9" "$TMP/ln/p9"		# a symlinked dir
run p10 -C "$TMP/d" bind /proc/$A/ns/uts "$TMP/d/p10" p10	# relative
run p11 -l bind /proc/$A/ns/uts "$TMP/p11" "$TMP/./p11"		# lazy, ./
# a short-lived private mount namespace: the pin dies with it
strace -f -qq -o "$TMP/p7.strace" -e trace=mount,umount2 \
	unshare -m --propagation private sh -c "mount --bind /proc/$A/ns/uts '$TMP/p7'; stat -L -c %i '$TMP/p7'" \
	>"$TMP/p7.ino"
# the pin's mount namespace held by an fd only: no umount yet
kill $U
# back to back, untraced by strace (no ptrace stops between the calls), 20 times
for i in $(seq 1 20); do
	"$PM" bind /proc/$A/ns/uts "$TMP/p1" "$TMP/p1" >"$TMP/loop$i.out" || echo "loop $i failed" >>"$TMP/errors"
done
# a pin made before the tracer started, unmounted by another spelling
run base none - "$TMP/base" "$TMP/ln/../base"
# a mount namespace held only by a bind mount is not dead: its pin stays
# until the namespace goes
mount --bind "$TMP/persist" "$TMP/persist" && mount --make-private "$TMP/persist"
unshare --mount="$TMP/persist/mnt" --propagation private \
	mount --bind /proc/$A/ns/uts "$TMP/h1"
sleep 1.5	# several sweeps and namespace checks
umount "$TMP/persist/mnt"
# the fd goes: now the namespace dies, and its pin with it
touch "$TMP/hold-released"
kill $HOLD
sleep 2.5	# checked once a second
trace_stop
[ -n "${KEEP:-}" ] && cp "$OUT" "$KEEP"
check "every workload ran" test ! -e "$TMP/errors"

r() { jq -c "select($1)" "$OUT"; }
# CASE DST UMOUNT_SPELLING WANT_INUM: records vs strace vs stat -L
compare() {
	local name=$1 dst=$2 spelled=$3 want=$4 pid ino rec
	pid=$(awk '/^pid/{print $2}' "$TMP/$name.out")
	ino=$(awk '/^ino/{print $2}' "$TMP/$name.out")
	expect_eq "$name: stat -L of the workload's mount is the namespace" "$ino" "$want"
	check "$name: strace saw the umount2 spelled '$spelled' succeed" \
		grep -qF "umount2(\"$spelled\", " "$TMP/$name.strace"
	rec=$(r ".op==\"mount\" and .pid==${pid:-0}")
	expect_eq "$name: one mount record naming the pinned namespace (and its mount)" \
		"$(jq -r '[.path, .ns_inum, (.mnt_id > 0)] | join(" ")' <<<"$rec")" "$dst $ino true"
	rec=$(r ".op==\"umount\" and .pid==${pid:-0}")
	expect_eq "$name: one umount record, the path as spelled, the same namespace and mount" \
		"$(jq -r '[.path, .ns_inum] | join(" ")' <<<"$rec")" "$spelled $ino"
}
compare p1 "$TMP/p1" "$TMP/p1" "$UA"
compare p2 "$TMP/p2" "$TMP/p2" "$UA"
compare p3 "$TMP/p3" "$TMP/p3" "$NB"
compare p4 "$TMP/p4" "$TMP/p4" "$UA"
check "p4: strace saw the bind of /proc/self/fd/N" grep -q 'mount("/proc/self/fd/[0-9]*"' "$TMP/p4.strace"
compare p5 "$TMP/p5" "$TMP/p5" "$UA"
compare p6 "$TMP/p6" "$TMP/p6" "$UA"
check "p6: strace saw open_tree + move_mount" grep -q 'move_mount(.*= 0' "$TMP/p6.strace"
compare p8 "$TMP/d/p8" "$TMP/d//p8" "$UA"
compare p9 "$TMP/d/p9" "$TMP/ln/p9" "$UA"
compare p10 "$TMP/d/p10" "p10" "$UA"
compare p11 "$TMP/p11" "$TMP/./p11" "$UA"

pid=$(awk '/^pid/{print $2}' "$TMP/base.out")
check "a pin older than the tracer: strace saw its umount2 by another spelling" \
	grep -qF "umount2(\"$TMP/ln/../base\", 0) = 0" "$TMP/base.strace"
expect_eq "a pin older than the tracer, unmounted by another spelling: its umount names it" \
	"$(r ".op==\"umount\" and .pid==${pid:-0}" | jq -r '[.path, .ns_inum] | join(" ")')" \
	"$TMP/ln/../base $(awk '/^ino/{print $2}' "$TMP/base.out")"
expect_eq "short-lived mount namespace: stat -L in it saw the namespace" "$(cat "$TMP/p7.ino")" "$UA"
check "short-lived mount namespace: strace saw its bind succeed" \
	grep -qE "mount\(\"/proc/$A/ns/uts\", \"$TMP/p7\", .*MS_BIND.*= 0" "$TMP/p7.strace"
expect_eq "short-lived mount namespace: the mount record names the namespace" \
	"$(r ".op==\"mount\" and .path==\"$TMP/p7\"" | jq -r .ns_inum)" "$UA"
rec=$(r ".op==\"umount\" and .path==\"$TMP/p7\"")
expect_eq "short-lived mount namespace: its pin goes with it, an umount record with the cause" \
	"$(jq -r '[.ns_inum, .probe, (.cause | test("^its mount namespace mnt:\\[[0-9]+\\] died$"))] | join(" ")' <<<"$rec")" \
	"$UA user true"

n=0
for i in $(seq 1 20); do
	pid=$(awk '/^pid/{print $2}' "$TMP/loop$i.out")
	[ "$(r ".pid==${pid:-0}" | jq -r '"\(.op) \(.ns_inum)"' | tr '\n' ' ')" = "mount $UA umount $UA " ] && n=$((n + 1))
done
expect_eq "back to back, 20 times: a mount and an umount record naming the namespace each time" "$n" 20

h1=$(jq -c 'select(.path=="'"$TMP/h1"'")' "$OUT")
expect_eq "a mount namespace held only by a bind mount: its pin stays while it is held" \
	"$(jq -r '.op' <<<"$h1" | tr '\n' ' ')" "mount umount "
seq_release=$(r ".op==\"umount\" and .path==\"$TMP/persist/mnt\"" | jq -r .seq)
seq_gone=$(jq -r 'select(.op=="umount") | .seq' <<<"$h1")
check "... and goes (cause: it died) only after the namespace was released" \
	test "${seq_gone:-0}" -gt "${seq_release:-999999999}"

rec=$(r ".op==\"umount\" and .path==\"$TMP/q1\"")
expect_eq "a mount namespace held only by an fd: its (older) pin goes once, when the fd goes" \
	"$(jq -r '[.ns_inum, .probe, (.cause | test("^its mount namespace mnt:\\[[0-9]+\\] died$"))] | join(" ")' <<<"$rec")" \
	"$UA user true"
check "... not before: after the record of the last umount before the fd went" \
	test "$(jq -r .seq <<<"$rec")" -gt "${seq_release:-999999999}"
bad=$(jq -c 'select((.op=="mount" or .op=="umount") and (.ns_inum == null))' "$OUT")
check "no bind pin's record lacks its namespace" test -z "$bad"
[ -z "$bad" ] || echo "$bad" | head -5
