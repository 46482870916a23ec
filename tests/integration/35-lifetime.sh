#!/bin/bash
# nsaudit lifetime on a log written by a real "nsaudit record": an ip netns
# (created, mount pin, entered by netns exec, umount by netns del, no holders
# after), an "unshare -u sleep" killed (its uts namespace: created, no
# holders now), --follow seeing a record written after it started, a name
# that is gone, JSON, --key, inode reuse told apart by ns_id, usage errors.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "lifetime"
require_cmd ip "lifetime"
require_cmd unshare "lifetime"
require_cmd jq "lifetime"
require_built "$NSAUDIT" "lifetime"
"$NSAUDIT" lifetime --help >/dev/null 2>&1 || { fail "lifetime: nsaudit lifetime --help fails"; exit 0; }

NS=nsaudit-lt-$$
LOG=$TMP/log
REC_PID= FOLLOW_PID= SLEEP_PID=
cleanup() {
	[ -n "$FOLLOW_PID" ] && kill "$FOLLOW_PID" 2>/dev/null
	[ -n "$SLEEP_PID" ] && kill "$SLEEP_PID" 2>/dev/null
	if [ -n "$REC_PID" ]; then kill -INT "$REC_PID" 2>/dev/null; wait "$REC_PID"; fi
	ip netns del "$NS" 2>/dev/null
	ip netns del "$NS-b" 2>/dev/null
	for k in 1 2 3 4 5 6; do ip netns del "$NS-c$k" 2>/dev/null; done
	cleanup_testlib
}
trap cleanup EXIT

# Other work on this machine may flood the log: only net and uts, only the
# operations a lifetime shows, and never drop a segment.
"$NSAUDIT" record --log-dir "$LOG" --no-pin --keep 1000 --type net,uts \
	--op setns,unshare,clone,open,mount,umount,ns_free >"$TMP/rec.out" 2>"$TMP/rec.err" &
REC_PID=$!
for i in $(seq 1 200); do
	grep -q '^nsaudit: ready' "$TMP/rec.err" 2>/dev/null && break
	kill -0 "$REC_PID" 2>/dev/null || break
	sleep 0.05
done
grep -q '^nsaudit: ready' "$TMP/rec.err" || { fail "recorder ready: $(tail -n 2 "$TMP/rec.err")"; exit 0; }

# lt_wait PATTERN ARGS...: run lifetime until its output matches (the
# recorder writes a drained batch every 50 ms); output in $out, status $rc
lt_wait() {
	local pat=$1 i; shift
	for i in $(seq 1 50); do
		out=$("$NSAUDIT" lifetime "$@" 2>"$TMP/lt.err"); rc=$?
		grep -q -- "$pat" <<<"$out" && return 0
		sleep 0.1
	done
	return 1
}

# --- an ip netns, alive ----------------------------------------------------
ip netns add "$NS" || { fail "ip netns add"; exit 0; }
INUM=$(ns_inum "/run/netns/$NS")
NSID=$(ns_id "/run/netns/$NS")	# the kernel's (NS_GET_ID), for ground truth
ip netns exec "$NS" true
if lt_wait "entered" "$NS" --log-dir "$LOG"; then pass "lifetime of a live ip netns by name"; else
	fail "lifetime of a live ip netns: '$out' $(cat "$TMP/lt.err")"; fi
expect_eq "exit 0" "$rc" 0
check "head line names net:[$INUM]" grep -q "^net:\[$INUM\]: " <<<"$out"
check "created by unshare, by ip" grep -Eq "^[0-9T:.-]+Z created +by unshare pid=[0-9]+ \(ip\) uid=0" <<<"$out"
check "pinned by the mount at /run/netns/$NS" grep -Eq "Z pinned +by mount at /run/netns/$NS pid=[0-9]+ \(ip\)" <<<"$out"
check "entered by ip (netns exec)" grep -Eq "Z entered +by setns .*via bind pid=[0-9]+ \(ip\)" <<<"$out"
check "left by ip netns add's setns back" grep -Eq "Z left +by setns to net:\[[0-9]+\] pid=[0-9]+ \(ip\)" <<<"$out"
check "alive now, holders listed" grep -q "^alive now, held by:" <<<"$out"
check "holders now: the bind mount" grep -q "mount   /run/netns/$NS in mnt:" <<<"$out"

# --- an unshare -u sleep, killed ------------------------------------------
unshare -u sleep 300 & SLEEP_PID=$!
for i in $(seq 1 50); do
	[ "$(ns_inum /proc/$SLEEP_PID/ns/uts 2>/dev/null)" != "$(ns_inum /proc/self/ns/uts)" ] && break
	sleep 0.05
done
UINUM=$(ns_inum /proc/$SLEEP_PID/ns/uts)
# its own creation (others' uts namespaces in the log may have had the
# inode before: their "created" lines are not this one's)
lt_wait "created  by unshare pid=$SLEEP_PID " "$SLEEP_PID:uts" --log-dir "$LOG"
check "uts of the sleeper: alive while it runs (PID:TYPE)" grep -q "^alive now" <<<"$out"
check "uts: the sleeper holds it" grep -q "task    pid $SLEEP_PID sleep" <<<"$out"
kill "$SLEEP_PID"; wait "$SLEEP_PID" 2>/dev/null; SLEEP_PID=
out=$("$NSAUDIT" lifetime "uts:$UINUM" --log-dir "$LOG" 2>"$TMP/lt.err"); rc=$?
expect_eq "uts after kill: exit 0" "$rc" 0
check "uts: created by unshare (unshare)" grep -Eq "Z created +by unshare pid=[0-9]+ \(unshare\) uid=0" <<<"$out"
check "uts after kill: no holders now, inferred" grep -q "^no holders now: freed after .*inferred" <<<"$out"

# --- --follow sees ip netns del's umount ------------------------------------
timeout -s INT 30 "$NSAUDIT" lifetime "net:[$INUM]" --log-dir "$LOG" --follow \
	>"$TMP/follow.out" 2>"$TMP/follow.err" &
FOLLOW_PID=$!
for i in $(seq 1 100); do
	grep -q "following" "$TMP/follow.err" && break
	sleep 0.05
done
check "--follow says what it follows" grep -q "^nsaudit lifetime: following $LOG/nsaudit-" "$TMP/follow.err"
before=$(grep -c "unpinned" "$TMP/follow.out")
ip netns del "$NS"
for i in $(seq 1 100); do
	grep -q "unpinned" "$TMP/follow.out" && break
	sleep 0.05
done
expect_eq "--follow: no umount before ip netns del" "$before" 0
check "--follow prints the umount that arrived later" \
	grep -Eq "Z unpinned by umount of /run/netns/$NS pid=[0-9]+ \(ip\)" "$TMP/follow.out"
kill -INT "$FOLLOW_PID"; wait "$FOLLOW_PID"; rc=$?; FOLLOW_PID=
expect_eq "--follow: SIGINT exits 0" "$rc" 0

# --- after ip netns del: the name is gone ------------------------------------
lt_wait "unpinned" "net:$INUM" --log-dir "$LOG"
check "after del: unpinned by umount" grep -Eq "Z unpinned by umount of /run/netns/$NS pid=[0-9]+ \(ip\)" <<<"$out"
check "after del: no holders now: freed after (inferred)" \
	grep -q "^no holders now: freed after .*inferred: this kernel records no ns_free" <<<"$out"
out=$("$NSAUDIT" lifetime "$NS" --log-dir "$LOG" 2>"$TMP/lt.err"); rc=$?
expect_eq "a gone ip netns name: exit 0" "$rc" 0
check "a gone name is looked up in the log (note on stderr)" \
	grep -q "/run/netns/$NS no longer exists; showing net:\[$INUM\]" "$TMP/lt.err"
check "a gone name: the same timeline" grep -q "^net:\[$INUM\]: " <<<"$out"

# --- JSON ---------------------------------------------------------------------
"$NSAUDIT" lifetime "net:$INUM" --log-dir "$LOG" --format json >"$TMP/j" 2>/dev/null
json=$(jq -s . "$TMP/j" 2>/dev/null)
[ -n "$json" ] && pass "json: valid JSON lines" || fail "json: not JSON"
s=$(jq -r 'last.lifetime | "\(.ns_type) \(.ns_inum) \(.incarnations[-1].state) \(.incarnations[-1].freed.inferred)"' <<<"$json")
expect_eq "json: summary last (type, inode, gone, inferred)" "$s" "net $INUM gone true"
s=$(jq -r '[.[] | select(.event) | .event] | unique | join(",")' <<<"$json")
case $s in *created*entered*pinned*unpinned*) pass "json: records carry event ($s)" ;;
*) fail "json: events '$s'" ;; esac
s=$(jq -r '[.[] | select(.op == "mount")][0].path' <<<"$json")
expect_eq "json: the records themselves (mount path)" "$s" "/run/netns/$NS"

# --- inode reuse: ns_id tells two namespaces apart -----------------------------
ip netns add "$NS-b"
if [ "$(ns_inum "/run/netns/$NS-b")" = "$INUM" ]; then
	if lt_wait "namespace 2 of 2" "net:$INUM" --log-dir "$LOG"; then
		pass "inode reused: two namespaces told apart"
	else fail "inode reused: '$out'"; fi
	check "inode reuse is explained" grep -q "inode numbers are reused; the records' ns_id tells them apart" <<<"$out"
	check "the first one: freed before the second (inferred)" grep -q "^freed: after .*inferred) and before" <<<"$out"
	check "the second one: alive now" grep -q "^alive now" <<<"$out"
	NSID_B=$(ns_id "/run/netns/$NS-b")
	if [ -n "$NSID" ] && [ -n "$NSID_B" ]; then
		expect_eq "... each by the kernel's own ns_id (NS_GET_ID: $NSID, then $NSID_B)" \
			"$(grep -o "^-- net:\[$INUM\] ns_id [0-9]* (namespace [12] of 2" <<<"$out" |
				awk '{print $4}' | paste -sd' ')" "$NSID $NSID_B"
		"$NSAUDIT" lifetime "$NS-b" --log-dir "$LOG" --format json >"$TMP/b.json" 2>/dev/null
		expect_eq "... and by name, the live one's JSON incarnations carry those ids" \
			"$(jq -rs 'last.lifetime.incarnations | map(.ns_id) | join(" ")' "$TMP/b.json")" \
			"$NSID $NSID_B"
		# a name answers for the namespace it names, not for the inode
		expect_eq "... its events: only the namespace the name names (ns_id $NSID_B)" \
			"$(jq -rs '([.[] | select(.event) | .incarnation] | unique | join(" ")), last.lifetime.shown_incarnation' "$TMP/b.json" | paste -sd' ')" \
			"2 2"
		"$NSAUDIT" lifetime "$NS-b" --log-dir "$LOG" >"$TMP/b.out" 2>/dev/null
		check "... in text: 'showing the one $NS-b names: namespace 2 of 2', its head only" \
			sh -c "grep -q 'showing the one $NS-b names: namespace 2 of 2' '$TMP/b.out' &&
				! grep -q '(namespace 1 of 2' '$TMP/b.out'"
		"$NSAUDIT" lifetime "$NS" --log-dir "$LOG" >"$TMP/gone.out" 2>/dev/null
		check "... the gone name $NS: the namespace its last mount named (1 of 2), by the mount's seq" \
			sh -c "grep -q 'showing the one $NS names: namespace 1 of 2' '$TMP/gone.out' &&
				grep -q '^-- net:\[$INUM\] ns_id $NSID (namespace 1 of 2' '$TMP/gone.out' &&
				! grep -q '(namespace 2 of 2' '$TMP/gone.out'"
	fi
else
	skip "inode reuse" "ip netns add got another inode this time"
fi
ip netns del "$NS-b"

# --- names: each creation tied to the name a later mount gave it ----------------
# the creation tied to the name it got: the mount's created_seq is the
# unshare's seq (when the unshare came out before the name existed, as it
# does when records are drained in one batch), else the unshare carries the
# name itself; checked against the log's own records of each inode (stat -L)
for k in 1 2 3 4 5 6; do ip netns add "$NS-c$k"; done
sleep 1
tied=0 named=0 bad=""
for k in 1 2 3 4 5 6; do
	n=$NS-c$k
	i=$(ns_inum "/run/netns/$n")
	useq=$(cat "$LOG"/nsaudit-*.log | jq -r --argjson i "$i" \
		'select(.op=="unshare" and .ns_inum==$i and .ns_type=="net") | .seq' | tail -1)
	mrec=$(cat "$LOG"/nsaudit-*.log | jq -c --argjson i "$i" --arg p "/run/netns/$n" \
		'select(.op=="mount" and .ns_inum==$i and .path==$p)' | tail -1)
	lt=$("$NSAUDIT" lifetime "$n" --log-dir "$LOG" 2>/dev/null)
	if [ -n "$useq" ] && [ "$(jq -r '.created_seq // empty' <<<"$mrec")" = "$useq" ]; then
		tied=$((tied + 1))
		grep -Eq "Z created +by unshare pid=[0-9]+ \(ip\) uid=0, named $n by the mount at seq=$(jq .seq <<<"$mrec") seq=$useq\$" <<<"$lt" ||
			bad+=" $n(text)"
		[ "$("$NSAUDIT" lifetime "$n" --log-dir "$LOG" --format json 2>/dev/null |
			jq -rs --argjson u "$useq" '[(map(select(.seq==$u))[0].named_by_seq), last.lifetime.incarnations[-1].named.ns_name] | join(" ")')" = "$(jq .seq <<<"$mrec") $n" ] ||
			bad+=" $n(json)"
	elif [ "$(cat "$LOG"/nsaudit-*.log | jq -r --argjson s "${useq:-0}" 'select(.seq==$s) | .ns_name')" = "$n" ]; then
		named=$((named + 1))
		grep -q "named $n by the mount" <<<"$lt" && bad+=" $n(named-at-once-but-tied)"
	else
		bad+=" $n(neither)"
	fi
done
expect_eq "created_seq: each of 6 ip netns creations is tied to its name ($tied by created_seq, $named named at once)" "$bad" ""
for k in 1 2 3 4 5 6; do ip netns del "$NS-c$k"; done

# --- errors ---------------------------------------------------------------------
"$NSAUDIT" lifetime "net:12345" --log-dir "$LOG" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "unknown namespace: exit 1" "$rc" 1
expect_eq "unknown namespace: one line on stderr" "$(wc -l <"$TMP/err")" 1
check "unknown namespace: says so" grep -q "^nsaudit lifetime: net:\[12345\]: not in the log" "$TMP/err"
"$NSAUDIT" lifetime "net:$INUM" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "no --log-dir: exit 2" "$rc" 2
"$NSAUDIT" lifetime "net:$INUM" --log-dir "$LOG" --format xml >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "bad --format: exit 2" "$rc" 2
check "bad --format: one line 'nsaudit lifetime: --format: ...'" grep -q "^nsaudit lifetime: --format: " "$TMP/err"
"$NSAUDIT" lifetime "bogus:1" --log-dir "$LOG" >/dev/null 2>&1; rc=$?
expect_eq "bad NS: exit 2" "$rc" 2
"$NSAUDIT" lifetime "net:$INUM" --log-dir "$TMP/nope" >/dev/null 2>&1; rc=$?
expect_eq "missing log dir: exit 1" "$rc" 1
check "--help has examples" sh -c "'$NSAUDIT' lifetime --help | grep -q 'Examples:'"

# --- --key: verify first ------------------------------------------------------
kill -INT "$REC_PID"; wait "$REC_PID"; REC_PID=
out=$("$NSAUDIT" lifetime "net:$INUM" --log-dir "$LOG" --key "$LOG/.key" 2>"$TMP/err"); rc=$?
expect_eq "--key on an intact log: exit 0" "$rc" 0
check "--key: verified intact" grep -q "^net:\[$INUM\]: .*(verified intact)" <<<"$out"
out=$("$NSAUDIT" lifetime "net:$INUM" --log-dir "$LOG" 2>/dev/null)
check "no --key: verified with the log's own DIR/.key" \
	grep -q "^net:\[$INUM\]: .*(verified intact)" <<<"$out"
cp -a "$LOG" "$TMP/tampered"
seg=$(ls "$TMP/tampered" | grep '^nsaudit-' | head -n 1)
sed -i "s/\"comm\":\"ip\"/\"comm\":\"xx\"/" "$TMP/tampered/$seg"
out=$("$NSAUDIT" lifetime "net:$INUM" --log-dir "$TMP/tampered" --key "$LOG/.key" 2>"$TMP/err"); rc=$?
check "--key on a changed log: warns on stderr" grep -q "^nsaudit lifetime: warning: the log is NOT INTACT" "$TMP/err"
check "--key on a changed log: says NOT INTACT" grep -q "NOT INTACT" <<<"$out"
