#!/bin/bash
# Issue 14 end to end, with real setns calls and a real rsyslogd (private
# config and socket, default file format) as the witness off the host:
# "nsaudit keygen" prints the verification key, "nsaudit record" seals
# with it (2 s epochs) and sends its chain head (anchors) to syslog. The
# attack of the issue (clean session, a second one killed, the segment cut
# back to the first close, the state file removed, a clean restart) and a
# tail cut are "not intact", with one line naming the place; an unclean
# stop alone stays intact and says so.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "sealed log attack"
require_cmd rsyslogd "sealed log attack"
require_cmd jq "sealed log attack"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "sealed log attack"
RSDIR=$TMP/rsyslog
SOCK=$RSDIR/log.sock
MSGS=$RSDIR/messages
LOG=$TMP/log
K=$TMP/key
RSPID= REC=
stop_all() {
	[ -n "$REC" ] && kill -9 "$REC" 2>/dev/null
	[ -n "$RSPID" ] && { kill "$RSPID" 2>/dev/null; wait "$RSPID" 2>/dev/null; }
}
trap 'stop_all; cleanup_testlib' EXIT

mkdir -p "$RSDIR"
cat >"$RSDIR/rsyslog.conf" <<EOF
global(workDirectory="$RSDIR")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$SOCK" UseSpecialParser="off" RateLimit.Interval="0")
action(type="omfile" file="$MSGS")
EOF
rsyslogd -n -f "$RSDIR/rsyslog.conf" -i "$RSDIR/pid" >"$RSDIR/out" 2>&1 &
RSPID=$!
for i in $(seq 1 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || { fail "rsyslogd starts: $(cat "$RSDIR/out")"; exit 0; }

VK=$("$NSAUDIT" keygen "$K")
case $VK in nsaudit-vk2-????????????????????????????????????????????????????????????????)
	pass "keygen prints the verification key" ;;
*) fail "keygen prints the verification key: '$VK'" ;; esac
expect_eq "keygen: sealing state is mode 0600" "$(stat -c %a "$K")" 600
echo "$VK" >"$TMP/vk"

# one record per call: the test counts the calls the attack removes
NOCOALESCE=()
"$NSAUDIT" record --help 2>&1 | grep -q -- --no-coalesce && NOCOALESCE=(--no-coalesce)
start_recorder() {	# start_recorder NTH-READY
	"$NSAUDIT" record --log-dir "$LOG" --key "$K" --seal-interval 2s --no-pin --op setns \
		"${NOCOALESCE[@]}" --sink "syslog:unix:$SOCK" 2>>"$TMP/rec.err" &
	REC=$!
	for i in $(seq 1 200); do
		[ "$(grep -c '^nsaudit: ready' "$TMP/rec.err")" -ge "$1" ] && return 0
		sleep 0.05
	done
	cat "$TMP/rec.err" >&2
	return 1
}
verify() {	# verify OUT [ARGS]: exit status of nsaudit verify on $LOG
	local out=$1; shift
	"$NSAUDIT" verify --log-dir "$LOG" "$@" >"$out" 2>&1
}
anchors() { grep -c 'nsaudit-anchor ' "$MSGS" 2>/dev/null; }
# cut_at_first_close: the attacker's cut, everything after session 1's close
# gone. A restart after lost records opens a new segment (foreign floods on
# the machine make lost records), so the cut is the close's segment cut there
# and every later segment removed.
cut_at_first_close() {
	local f cut=
	for f in $(ls "$LOG" | grep '^nsaudit-' | sort); do
		if [ -n "$cut" ]; then
			rm -f "$LOG/$f"
		elif grep -q '"action":"close"' "$LOG/$f"; then
			awk '{print} /"action":"close"/{exit}' "$LOG/$f" >"$TMP/cut" &&
				cat "$TMP/cut" >"$LOG/$f"
			cut=$f
		fi
	done
}

# 1. a clean session of 500 setns, sealed every 2 s, anchored in syslog
start_recorder 1 || { fail "recorder starts"; exit 0; }
"$NSOPS" -n nsaudit-seal setns-loop 500 /proc/self/ns/net >/dev/null
sleep 2.5
kill -INT $REC; wait $REC; rc=$?; REC=
expect_eq "record: SIGINT stops it cleanly" $rc 0
for i in $(seq 1 40); do [ "$(anchors)" -ge 2 ] && break; sleep 0.1; done
n=$(anchors)
[ "${n:-0}" -ge 2 ] && pass "anchors reached rsyslog's file as text ($n)" ||
	fail "anchors reached rsyslog's file ($n): $(tail -n 2 "$MSGS")"
verify "$TMP/v1" --verification-key "$VK" --anchor "$MSGS"; rc=$?
expect_eq "session 1 verifies with the verification key and the anchors ($(cut -c1-160 "$TMP/v1"))" $rc 0
grep -q "seals\?, .*anchored up to seq" "$TMP/v1" && pass "verify reports seals and anchors" ||
	fail "verify reports seals and anchors: $(cat "$TMP/v1")"

# 2. a second session: 300 setns by "ceosecret", sealed, then SIGKILL
start_recorder 2 || { fail "recorder restarts"; exit 0; }
"$NSOPS" -n ceosecret setns-loop 300 /proc/self/ns/net >/dev/null
sleep 2.5	# an epoch ends: its seal and an anchor leave the host
kill -9 $REC; wait $REC 2>/dev/null; REC=
sleep 0.5
cp -a "$LOG" "$TMP/killed"
cp -p "$K" "$TMP/killed-key"	# the sealing state as the killed recorder left it
cp "$MSGS" "$TMP/witness"	# what syslog saw before the attack
verify "$TMP/v2" --verification-key "$VK" --anchor "$MSGS"; rc=$?
expect_eq "after SIGKILL: intact, still open ($(cut -c1-160 "$TMP/v2"))" $rc 0
check "after SIGKILL: says the recorder was killed" grep -q "still open" "$TMP/v2"
n=$(cat "$LOG"/nsaudit-*.log | jq -c 'select(.comm=="ceosecret")' | wc -l)
expect_eq "the 300 setns of ceosecret are in the log" "$n" 300

# 3. the attack: cut back to the first close, rm the state file, clean restart
cut_at_first_close >/dev/null
rm -f "$LOG/.nsaudit-state"
start_recorder 3 || { fail "recorder starts after the attack"; exit 0; }
kill -INT $REC; wait $REC; REC=
n=$(cat "$LOG"/nsaudit-*.log | jq -c 'select(.comm=="ceosecret")' | wc -l)
expect_eq "the attack removed the 300 records" "$n" 0
for args in "--key $K" "--verification-key $VK" "--verification-key $TMP/vk --anchor $MSGS"; do
	# shellcheck disable=SC2086
	verify "$TMP/v3" $args; rc=$?
	expect_eq "attack: not intact with ${args%% *} ($(grep -m1 'NOT INTACT' "$TMP/v3" | cut -c1-200))" $rc 1
	expect_eq "attack: one line on stderr" "$(grep -c 'NOT INTACT' "$TMP/v3")" 1
done
verify "$TMP/v3" --verification-key "$VK"
# within one epoch the restart says "state missing"; here the key had moved
# on, so the first thing wrong is the jump to a later key
check "attack: names segment and line and what happened" \
	grep -Eq "nsaudit-[0-9]+\.log line [0-9]*: NOT INTACT: (state missing|epoch key misuse: epoch [0-9]+ ends without (a|its) seal)" "$TMP/v3"

# 4. a tail cut with no restart: the anchors in syslog know the end
rm -rf "$LOG"; cp -a "$TMP/killed" "$LOG"
cut_at_first_close >/dev/null
rm -f "$LOG/.nsaudit-state"
verify "$TMP/v4" --verification-key "$VK" --anchor "$TMP/witness"; rc=$?
expect_eq "tail cut, state removed: not intact against the anchors" $rc 1
check "tail cut: the anchor's line and seq are named" grep -q "NOT INTACT: tail cut: .*anchor at $TMP/witness line [0-9]* says seq" "$TMP/v4"

# 5. an unclean stop alone is not tampering (log and sealing state as the
# killed recorder left them)
# killed state; the anchors are what syslog saw of it: before the kill,
# and from the restart on (the anchors of the attack in 3 are another story)
rm -rf "$LOG"; cp -a "$TMP/killed" "$LOG"; cp -p "$TMP/killed-key" "$K"
n5=$(wc -l <"$MSGS")
start_recorder 4 || { fail "recorder restarts after SIGKILL"; exit 0; }
kill -INT $REC; wait $REC; REC=
for i in $(seq 1 40); do grep -q "why=close" <(tail -n +$((n5 + 1)) "$MSGS") && break; sleep 0.1; done
tail -n +$((n5 + 1)) "$MSGS" >"$TMP/witness5"
verify "$TMP/v5" --verification-key "$VK" --anchor "$TMP/witness" --anchor "$TMP/witness5"; rc=$?
expect_eq "SIGKILL and restart: intact ($(tail -n 1 "$TMP/v5" | cut -c1-300))" $rc 0
check "SIGKILL and restart: 1 unclean stop, closed cleanly" grep -q "1 unclean stop.*closed cleanly" "$TMP/v5"

# 6. without a key verify says, loudly, what it trusts
"$NSAUDIT" verify --log-dir "$LOG" >"$TMP/v6" 2>&1; rc=$?
expect_eq "sealed log, no key given: cannot be checked ($(head -n 1 "$TMP/v6"))" $rc 1
check "... and says which key to give" grep -q "give --verification-key" "$TMP/v6"
"$NSAUDIT" record --log-dir "$TMP/own-key" --no-pin --comm nsaudit-none 2>"$TMP/own.err" &
REC=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/own.err" && break; sleep 0.05; done
kill -INT $REC; wait $REC; REC=
check "record without --key warns that DIR/.key protects nothing" grep -q "no --key: generated a static key" "$TMP/own.err"
"$NSAUDIT" verify --log-dir "$TMP/own-key" >"$TMP/v6" 2>&1; rc=$?
expect_eq "verify with the log's own key: intact" $rc 0
check "verify without a key says it proves nothing" grep -q "warning: no --verification-key or --key.*proves nothing" "$TMP/v6"
