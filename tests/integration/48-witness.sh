#!/bin/bash
# Issue 40: a witnessed history. Real "nsaudit record" runs (1 s epochs)
# anchored through a real rsyslogd (private config and socket), real file
# operations, tests/attack/attacker.c for what needs the host's key, and
# "logger" for what any unprivileged user can write to syslog.
#   1. one reading of every line: a line whose MAC is good but that the
#      parser refuses is NOT INTACT to verify and damaged to search;
#   2. bounded work: forged anchor lines naming far epochs cost nothing;
#   3. the recorder survives its directory: junk segment names are ignored
#      with a message, the log stays intact.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "witnessed history"
require_cmd rsyslogd "witnessed history"
require_cmd logger "witnessed history"
require_cmd jq "witnessed history"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
ATK=$(dirname "$NSAUDIT")/attacker
require_built "$NSOPS" "witnessed history"
require_built "$ATK" "witnessed history"
RSDIR=$TMP/rsyslog SOCK=$TMP/rsyslog/log.sock MSGS=$TMP/rsyslog/messages
K=$TMP/key P=$TMP/pristine W=$TMP/work
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

record() {	# record DIR KEY ARGS...: start a recorder, wait until ready
	local d=$1 k=$2; shift 2
	"$NSAUDIT" record --log-dir "$d" --key "$k" --no-pin --no-coalesce --op setns \
		--comm witness --sink "syslog:unix:$SOCK" "$@" 2>"$TMP/rec.err" &
	REC=$!
	wait_ready "$TMP/rec.err" "$REC" && return 0
	fail "recorder ready: $(head -n 3 "$TMP/rec.err")"; return 1
}
verify() {	# verify DIR OUT ARGS...: exit status
	local d=$1 out=$2; shift 2
	timeout 120 "$NSAUDIT" verify --log-dir "$d" "$@" >"$out" 2>&1
}
fresh() { rm -rf "$W"; cp -a "$P" "$W"; }
attack() { "$ATK" op "$1" "$W" "${3:-$TMP/host-key}" $2 || fail "attacker op $1"; }

# A pristine log: a few epochs of 1 s, anchored.
record "$P" "$K" --seal-interval 1s || exit 0
for i in 1 2 3; do "$NSOPS" -n witness setns-loop 40 /proc/self/ns/net >/dev/null; sleep 1; done
kill -INT $REC; wait $REC; REC=
cp -p "$K" "$TMP/host-key"	# what root on the host holds at the end
verify "$P" "$TMP/v0" --verification-key "$VK" --anchor "$MSGS"; rc=$?
expect_eq "pristine log: intact ($(tail -n 1 "$TMP/v0" | cut -c1-200))" $rc 0

# 1. one reading of every line: MAC'd with the key held, refused by the parser
for kind in dup-op:'duplicate field "op"' zero-pid:'leading zero' \
	raw-byte:'not UTF-8' deep:'nested too deep'; do
	fresh; attack two-readings "${kind%%:*}"
	verify "$W" "$TMP/v1" --verification-key "$VK"; rc=$?
	expect_eq "1. ${kind%%:*}, MAC good: verify says not intact" $rc 1
	check "1. ${kind%%:*}: named (${kind#*:})" grep -q "NOT INTACT: not a record: .*${kind#*:}" "$TMP/v1"
	"$NSAUDIT" search --log-dir "$W" --comm witness >/dev/null 2>"$TMP/s1"
	check "1. ${kind%%:*}: search reports the line as damaged" grep -q "skipped 1 damaged line" "$TMP/s1"
done
fresh; attack two-readings zero-pid
pid=$(grep -o '"pid":0[0-9]*' "$W"/nsaudit-*.log | head -n 1 | sed 's/.*"pid":0*//')
"$NSAUDIT" search --log-dir "$W" --pid "$pid" >/dev/null 2>"$TMP/s1b"
check "1. --pid of a 0-spelt pid: damaged line reported, not skipped unparsed" \
	grep -q "skipped 1 damaged line" "$TMP/s1b"
