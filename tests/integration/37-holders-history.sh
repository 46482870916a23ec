#!/bin/bash
# nsaudit holders --history and --leaks on a log written by a real
# "nsaudit record --op ...,freed", against what this script does and what
# /proc says:
#   the leaked CNI netns: "ip netns add" (its creator, ip, goes), "ip netns
#   exec NAME sleep" keeps it, "ip netns del" removes its name: --leaks
#   lists it with the sleep as its holder; a netns still named and one whose
#   creator still holds it are not listed; --older longer than its age
#   lists nothing of ours.
#   --history: the creator's span (created, left), the name's (mount,
#   umount), the sleep's (entered; then, once killed, let go last), the
#   death, and "alive now" before that.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "holders history"
require_cmd ip "holders history"
require_cmd unshare "holders history"
require_built "$NSAUDIT" "holders history"

NS=nsaudit-hh-$$
LOG=$TMP/log
REC_PID= HOLD_PID= CRE_PID=
cleanup() {
	[ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null
	[ -n "$CRE_PID" ] && kill "$CRE_PID" 2>/dev/null
	if [ -n "$REC_PID" ]; then kill -INT "$REC_PID" 2>/dev/null; wait "$REC_PID"; fi
	ip netns del "$NS" 2>/dev/null
	ip netns del "$NS-b" 2>/dev/null
	cleanup_testlib
}
trap cleanup EXIT

"$NSAUDIT" record --log-dir "$LOG" --no-pin --keep 1000 --type net \
	--op setns,unshare,clone,open,mount,umount,freed >"$TMP/rec.out" 2>"$TMP/rec.err" &
REC_PID=$!
wait_ready "$TMP/rec.err" "$REC_PID" || { fail "recorder ready: $(tail -n 2 "$TMP/rec.err")"; exit 0; }

# the leak: created by ip (gone), named, entered by a sleep, name removed
setup "ip netns add $NS" ip netns add "$NS" || exit 0
INUM=$(ns_inum "/run/netns/$NS")
ip netns exec "$NS" sleep 1000 &
HOLD_PID=$!
for i in $(seq 1 50); do
	[ "$(ns_inum /proc/$HOLD_PID/ns/net 2>/dev/null)" = "$INUM" ] && break
	sleep 0.1
done
expect_eq "the sleep is in net:[$INUM] (/proc)" "$(ns_inum /proc/$HOLD_PID/ns/net)" "$INUM"
setup "ip netns del $NS" ip netns del "$NS" || exit 0
# still named: not a leak
setup "ip netns add $NS-b" ip netns add "$NS-b" || exit 0
NAMED=$(ns_inum "/run/netns/$NS-b")
# its creator still holds it: not a leak
unshare -n sleep 1000 &
CRE_PID=$!
for i in $(seq 1 50); do
	CRE=$(ns_inum /proc/$CRE_PID/ns/net 2>/dev/null)
	[ -n "$CRE" ] && [ "$CRE" != "$(ns_inum /proc/self/ns/net)" ] && break
	sleep 0.1
done
sleep 2.5	# older than 2 s; the recorder has written its batches

out=$("$NSAUDIT" holders --leaks --older 2 --log-dir "$LOG" 2>"$TMP/leaks.err"); rc=$?
expect_eq "--leaks exits 0" "$rc" 0
leak=$(awk -v h="net:[$INUM]" 'index($0, h) == 1 { on = 1 } on && /^net:\[/ && index($0, h) != 1 { on = 0 } on' <<<"$out")
if grep -Eq "^net:\[$INUM\]( ns_id [0-9]+)?: alive [0-9.]+ s after its creator and names were gone" <<<"$leak"; then
	pass "--leaks lists the netns held after ip netns del"
else
	fail "--leaks lists the netns held after ip netns del: $(head -c 2000 <<<"$out") $(cat "$TMP/leaks.err")"
fi
check "--leaks: its creation (unshare by ip)" grep -Eq "created +by unshare pid=[0-9]+ \(ip\)" <<<"$leak"
check "--leaks: its name's removal (umount of /run/netns/$NS)" grep -q "unpinned by umount of /run/netns/$NS" <<<"$leak"
check "--leaks: the creator left it (setns away)" grep -Eq "left +by setns to net:" <<<"$leak"
check "--leaks: its holder now is the sleep (pid $HOLD_PID)" grep -Eq "pid $HOLD_PID|pid=$HOLD_PID" <<<"$leak"
age=$(sed -n "s/^net:\[$INUM\].*: alive \([0-9.]*\) s after.*/\1/p" <<<"$out")
if [ -n "$age" ] && awk -v a="$age" 'BEGIN { exit !(a >= 2 && a < 30) }'; then
	pass "--leaks: its age ($age s) counts from ip netns del"
else
	fail "--leaks: its age '$age' s, not from ip netns del (2.5 s ago)"
fi
if grep -q "^net:\[$NAMED\]" <<<"$out"; then
	fail "--leaks lists net:[$NAMED], still named /run/netns/$NS-b"
else
	pass "--leaks leaves out a netns still named"
fi
if grep -q "^net:\[$CRE\]" <<<"$out"; then
	fail "--leaks lists net:[$CRE], still held by its creator pid $CRE_PID"
else
	pass "--leaks leaves out a netns its creator still holds"
fi
check "--leaks: the summary line" grep -Eq "^[0-9]+ alive now; [0-9]+ with their creation in the log" <<<"$out"
# the same in JSON: one {"leak": ...} line each, then the counts
js=$("$NSAUDIT" holders --leaks --older 2 --format json --log-dir "$LOG" 2>/dev/null); rc=$?
expect_eq "--leaks --format json exits 0" "$rc" 0
check "--leaks json: every line is JSON" jq -e . <<<"$js"
check "--leaks json: the leak with its creation, its name's removal and its holder now" \
	jq -se --argjson i "$INUM" --argjson p "$HOLD_PID" 'any(.[] | .leak // empty;
		.ns_inum == $i and .created.op == "unshare" and .unnamed.op == "umount" and
		.alive_seconds >= 2 and any(.holders_now.holders[]; .kind == "task" and .pid == $p))' <<<"$js"
check "--leaks json: not the named or the creator-held netns" \
	jq -se --argjson a "$NAMED" --argjson b "$CRE" \
		'all(.[] | .leak // empty; .ns_inum != $a and .ns_inum != $b)' <<<"$js"
check "--leaks json: the counts last" jq -se '.[-1].leaks.judged >= 1 and .[-1].leaks.leaks >= 1' <<<"$js"
out=$("$NSAUDIT" holders --leaks --older 3600 --log-dir "$LOG" 2>/dev/null)
if grep -q "^net:\[$INUM\]" <<<"$out"; then
	fail "--leaks --older 3600 lists net:[$INUM], alive for seconds"
else
	pass "--leaks --older 3600 leaves it out"
fi

# --history while alive
out=$("$NSAUDIT" holders "net:$INUM" --history --log-dir "$LOG" 2>&1); rc=$?
expect_eq "--history exits 0" "$rc" 0
check "--history: the creator's span (created, left)" \
	grep -Eq "^  task  pid=[0-9]+ \(ip\)  [0-9T:.-]+Z -> [0-9T:.-]+Z \([0-9.]+ s\)  created it; left" <<<"$out"
check "--history: the name's span (mount, umount)" \
	grep -Eq "^  mount /run/netns/$NS  [0-9T:.-]+Z -> [0-9T:.-]+Z \([0-9.]+ s\)  named \(bind mount\); umount" <<<"$out"
check "--history: the sleep entered, its end not in the log yet" \
	grep -Eq "^  task  pid=$HOLD_PID \([^)]*\)  [0-9T:.-]+Z -> \?  entered \(setns\); end not in the log" <<<"$out"
check "--history: alive now, held by the sleep" grep -q "alive now, held by:" <<<"$out"

# the sleep goes: op freed names it as the holder that let go last
SLEEP=$HOLD_PID
kill "$HOLD_PID"
wait "$HOLD_PID" 2>/dev/null
HOLD_PID=
for i in $(seq 1 50); do
	out=$("$NSAUDIT" holders "net:$INUM" --history --log-dir "$LOG" 2>&1)
	grep -q "let go last" <<<"$out" && break
	sleep 0.2
done
check "--history: the sleep (pid $SLEEP) let go last" \
	grep -Eq "^  task  pid=$SLEEP .*entered \(setns\); exited, exec'd or moved away: let go last" <<<"$out"
check "--history: the death (its last reference went)" grep -q "freed    (its last reference went" <<<"$out"
check "--history: the creator's let_go as it left, with the count (the name) left" \
	grep -Eq "^  task  pid=[0-9]+ \(ip\)  .*created it; left \(setns or unshare away\) \(1 reference left\)" <<<"$out"
js=$("$NSAUDIT" holders "net:$INUM" --history --format json --log-dir "$LOG" 2>/dev/null); rc=$?
expect_eq "--history --format json exits 0" "$rc" 0
check "--history json: the sleep let go last, the death's records, not alive" \
	jq -e --argjson p "$SLEEP" '.history.incarnations[-1] |
		select(.state == "freed" and .holders_now == null and
		       any(.spans[]; .kind == "task" and .pid == $p and .let_go_last and .from.op == "setns") and
		       any(.death[]; .op == "freed" and .stage == "last_ref" and .pid == $p))' <<<"$js"
if grep -q "alive now" <<<"$out"; then fail "--history: still alive after the sleep went: $out"; else
	pass "--history: no longer alive"; fi

# usage
"$NSAUDIT" holders "net:$INUM" --history >/dev/null 2>&1
expect_eq "--history without --log-dir: exit 2" "$?" 2
"$NSAUDIT" holders --leaks --older soon --log-dir "$LOG" >/dev/null 2>"$TMP/u.err"
expect_eq "--older soon: exit 2" "$?" 2
check "--older soon: says why" grep -q "not a number of seconds" "$TMP/u.err"
"$NSAUDIT" holders --leaks --all --log-dir "$LOG" >/dev/null 2>&1
expect_eq "--leaks with --all: exit 2" "$?" 2
"$NSAUDIT" holders "net:$INUM" --history --log-dir "$TMP/nope" >/dev/null 2>&1
expect_eq "--history on a missing log: exit 1" "$?" 1
