#!/bin/bash
# Bind-mount pins in user space, and never silent: the pin table is keyed
# by mount namespace (the same path pinned in two mount namespaces), a
# remount of a bind mount is no new pin, pins go with a mount namespace
# that dies (umount records made by user space, with a cause), a mount
# that cannot be resolved any more is written with "unresolved", a sink
# that drops records says so as lost records in the main output, and
# threads: a pin in a thread's own mount namespace made before nsaudit
# started is known (the snapshot covers threads), a thread's setns says so.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pins"
require_cmd jq "pins"
require_cmd unshare "pins"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
NSTH=$(dirname "$NSAUDIT")/helpers/nsthreads
require_built "$NSOPS" "pins"
require_built "$NSTH" "pins"
OUT=$TMP/trace.jsonl
PIDS=()
cleanup() {
	kill "${PIDS[@]}" 2>/dev/null
	wait "${PIDS[@]}" 2>/dev/null
	for p in same remount; do umount "$TMP/$p" 2>/dev/null; done
	cleanup_testlib
}
trap cleanup EXIT
for p in same remount dies gone tpin mv1 mv2 mv3; do touch "$TMP/$p"; done
unshare -u sleep 60 & A=$!; PIDS+=($!)
unshare -u sleep 60 & B=$!; PIDS+=($!)
sleep 0.2
UA=$(ns_inum /proc/$A/ns/uts) UB=$(ns_inum /proc/$B/ns/uts)
HOST_UTS=$(ns_inum /proc/self/ns/uts)

# a thread in its own mount namespace pins a uts namespace there, before
# nsaudit starts; it unmounts it once nsaudit runs
mkfifo "$TMP/go"
"$NSTH" pin "$TMP/tpin" <"$TMP/go" >"$TMP/tpin.out" 2>&1 &
TH=$!; PIDS+=($!)
exec 9>"$TMP/go"
for i in $(seq 1 50); do grep -q ready "$TMP/tpin.out" && break; sleep 0.1; done
grep -q ready "$TMP/tpin.out" || fail "setup: nsthreads pin: $(cat "$TMP/tpin.out")"
TH_TID=$(awk '/^tid/{print $2}' "$TMP/tpin.out")
TH_MNT=$(awk '/^mnt/{print $2}' "$TMP/tpin.out")

trace_start "$OUT" || { fail "trace starts"; exit 0; }

# 1. the same path in two mount namespaces pins two namespaces
mount --bind /proc/$B/ns/uts "$TMP/same"
# an umount fails EBUSY while another process has the pin open a moment
# (a holders scan of another tracer on the machine opens every nsfs
# mount): tried again; the refused call is a record of its own (result
# -16), so the assertions below take the calls that succeeded
AGAIN='for i in $(seq 1 50); do umount "$0" 2>/dev/null && break; sleep 0.1; done'
unshare -m --propagation private sh -c "mount --bind /proc/$A/ns/uts '$TMP/same'; sleep 0.3
	sh -c '$AGAIN' '$TMP/same'"
sh -c "$AGAIN" "$TMP/same"
# 2. a remount of a bind mount changes flags, it pins nothing
# (paced: a bind of another process's namespace is resolved from mountinfo,
# and must still be mounted when its record is read)
mount --bind /proc/$A/ns/uts "$TMP/remount"
sleep 0.2
mount -o remount,bind,ro "$TMP/remount"
sleep 0.2
sh -c "$AGAIN" "$TMP/remount"
# 3. a pin whose mount namespace dies goes with it
unshare -m --propagation private sh -c "mount --bind /proc/self/ns/uts '$TMP/dies'; sleep 0.3"
# 4. a mount that cannot be resolved any more (its process and mount
#    namespace gone before the record is read: the reader is stopped)
kill -STOP "$TRACE_PID"
unshare -m --propagation private sh -c "mount --bind /proc/$A/ns/uts '$TMP/gone'"
sleep 0.2
kill -CONT "$TRACE_PID"
# moves: MS_MOVE and move_mount of an attached pin move it (records the
# kernel side marks as moves, with the source: bpf/nsaudit.h NSAUDIT_F_MOVE)
MOVES=no
grep -q NSAUDIT_F_MOVE "$TESTS_DIR/../bpf/nsaudit.h" && MOVES=yes
[ $MOVES = yes ] && unshare -m --propagation private sh -c "
	mount --bind /proc/$A/ns/uts '$TMP/mv1'; sleep 0.2
	mount --move '$TMP/mv1' '$TMP/mv2'; sleep 0.2
	'$NSTH' move '$TMP/mv2' '$TMP/mv3' >/dev/null; sleep 0.2
	sh -c '$AGAIN' '$TMP/mv3'; sleep 0.2"
# 5. threads: the pre-existing pin in the thread's mount namespace goes;
#    a thread enters a uts namespace
echo go >&9
for i in $(seq 1 50); do grep -q unmounted "$TMP/tpin.out" && break; sleep 0.1; done
"$NSTH" setns /proc/$A/ns/uts >"$TMP/tsetns.out"
sleep 2.5	# the mount namespaces are checked once a second
trace_stop
[ -n "${KEEP:-}" ] && cp "$OUT" "$KEEP"

r() { jq -c "select($1)" "$OUT"; }
expect_eq "two mount namespaces, one path: the umount in the private one names its own pin" \
	"$(r ".op==\"umount\" and .result==0 and .path==\"$TMP/same\"" | jq -r .ns_inum | head -1)" "$UA"
expect_eq "two mount namespaces, one path: the host's umount names the host's pin" \
	"$(r ".op==\"umount\" and .result==0 and .path==\"$TMP/same\"" | jq -r .ns_inum | tail -1)" "$UB"
expect_eq "remount of a bind mount: one mount record, one umount" \
	"$(r ".result==0 and .path==\"$TMP/remount\"" | jq -r .op | tr '\n' ' ')" "mount umount "
rec=$(r ".op==\"umount\" and .path==\"$TMP/dies\"")
expect_eq "a pin goes with its mount namespace: an umount record made by user space" \
	"$(jq -r '[.probe, .ns_type] | join(" ")' <<<"$rec")" "user uts"
check "... whose cause names the mount namespace that died" \
	grep -q '"cause":"its mount namespace mnt:\[[0-9]*\] died"' <<<"$rec"
rec=$(r ".op==\"mount\" and .path==\"$TMP/gone\"")
check "a mount whose process and mount namespace were gone: still a record" test -n "$rec"
# the kernel side resolves a /proc/PID/ns/TYPE source at entry now; if it
# could not, the record must say what is missing and why
if [ "$(jq -r '.ns_inum // empty' <<<"$rec")" = "$UA" ]; then
	pass "... naming the namespace (resolved at entry)"
else
	check "... saying what is unresolved and why" grep -q '"unresolved":"mount: [a-z]' <<<"$rec"
fi
rec=$(r ".op==\"umount\" and .path==\"$TMP/tpin\"")
expect_eq "a thread's pin made before nsaudit started: its umount names the pinned namespace" \
	"$(jq -r '[.ns_type, .ns_inum, .tid, (.thread // false)] | join(" ")' <<<"$rec")" \
	"uts $HOST_UTS $TH_TID true"
check "... and no unresolved (its mount namespace was known from the snapshot)" \
	bash -c "! grep -q unresolved <<<'$rec'"
T_PID=$(awk '/^pid/{print $2}' "$TMP/tsetns.out") T_TID=$(awk '/^tid/{print $2}' "$TMP/tsetns.out")
rec=$(r ".op==\"setns\" and .pid==${T_PID:-0}")
expect_eq "a thread's setns: tid, thread: true, the namespace entered" \
	"$(jq -r '[.tid, .thread, .ns_inum] | join(" ")' <<<"$rec")" "$T_TID true $UA"
check "every record is a JSON object (no record was dropped for being incomplete)" jq -e . "$OUT"
if [ $MOVES = yes ]; then
	expect_eq "moves: mount --move and move_mount of a pin are moves of it, with where from" \
		"$(r "(.path==\"$TMP/mv2\" or .path==\"$TMP/mv3\") and .op==\"mount\"" |
			jq -r '[.move, .src_path, .ns_inum] | join(" ")' | tr '\n' '|')" \
		"true $TMP/mv1 $UA|true $TMP/mv2 $UA|"
	expect_eq "moves: the umount at the pin's last place names it" \
		"$(r ".op==\"umount\" and .result==0 and .path==\"$TMP/mv3\"" | jq -r '[.ns_inum, .unresolved // "ok"] | join(" ")')" \
		"$UA ok"
fi

# 6. a sink that cannot send: its drops are lost records in the main output
OUT2=$TMP/sink.jsonl
# a ring that holds the whole burst (10000 x 232 bytes is past half of the
# default 4 MiB, where per-actor budgets begin): what is tested is the sink
trace_start "$OUT2" --comm nsaudit-sk --no-coalesce --ring-size 64M --sink "syslog:unix:$TMP/nobody-listens" ||
	{ fail "trace with a sink starts"; exit 0; }
"$NSOPS" -n nsaudit-sk setns-loop 10000 /proc/self/ns/net >/dev/null
sleep 0.5
trace_stop
[ -n "${KEEP:-}" ] && cp "$OUT" "$KEEP"
told=$(jq -s '[.[] | select(.op=="lost" and (.cause // "" | startswith("sink syslog:unix:")))
	| .count] | add // 0' "$OUT2")
final=$(sed -n 's/^nsaudit: sink .*: \([0-9]*\) records lost in all.*/\1/p' "$OUT2.err")
expect_eq "sink drops: setns records on stdout all there" \
	"$(jq -c 'select(.op=="setns")' "$OUT2" | wc -l)" 10000
[ "$told" -ge 1808 ] && pass "sink drops: lost records with the sink as cause ($told, queue 8192)" ||
	fail "sink drops: lost records with the sink as cause: $told, want >= 1808"
[ -n "$final" ] && [ "$told" -le "$final" ] &&
	pass "sink drops: the closing count ($final) covers what the lost records said" ||
	fail "sink drops: closing count '$final' vs $told in lost records"
