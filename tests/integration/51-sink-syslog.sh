#!/bin/bash
# --sink syslog against a real rsyslogd started here: the unix socket, UDP
# and TCP (octet counting) inputs on loopback, RFC 5424 parsed by rsyslog
# itself (mmpstrucdata turns our structured data back into properties), and
# a stopped rsyslogd: trace goes on, the sink counts and reports its losses.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "syslog sink"
require_cmd jq "syslog sink"
require_cmd rsyslogd "syslog sink"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "syslog sink"
RSDIR=$TMP/rsyslog
mkdir -p "$RSDIR"
SOCK=$RSDIR/log.sock
LOG=$RSDIR/messages
RSPID=
# loopback ports nobody listens on
free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		ss -Htuln "( sport = :$p )" | grep -q . || { echo "$p"; return; }
	done
}
PU=$(free_port)
PT=$(free_port)
stop_rsyslog() {
	[ -n "$RSPID" ] || return 0
	kill -CONT "$RSPID" 2>/dev/null
	kill "$RSPID" 2>/dev/null
	wait "$RSPID" 2>/dev/null
	RSPID=
}
trap 'stop_rsyslog; cleanup_testlib' EXIT

cat >"$RSDIR/rsyslog.conf" <<EOF
global(workDirectory="$RSDIR")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$SOCK" UseSpecialParser="off" RateLimit.Interval="0")
module(load="imudp")
input(type="imudp" address="127.0.0.1" port="$PU")
module(load="imtcp")
input(type="imtcp" address="127.0.0.1" port="$PT")
module(load="mmpstrucdata")
action(type="mmpstrucdata")
template(name="t" type="string"
	string="%inputname% %syslogfacility-text%.%syslogseverity-text% %app-name% %procid% %msgid% %\$!%\n")
action(type="omfile" file="$LOG" template="t")
EOF
start_rsyslog() {
	rsyslogd -n -f "$RSDIR/rsyslog.conf" -i "$RSDIR/pid" >>"$RSDIR/out" 2>&1 &
	RSPID=$!
	local i
	for i in $(seq 1 100); do
		[ -S "$SOCK" ] && ss -Htln "( sport = :$PT )" | grep -q . && break
		sleep 0.05
	done
}
start_rsyslog
if ! [ -S "$SOCK" ]; then
	fail "rsyslogd starts"
	cat "$RSDIR/out"
	exit 0
fi

# lines of one input, as JSON: {"rfc5424-sd":{"nsaudit@32473":{...}}} + header
lines() {	# INPUT [jq filter]
	local i
	for i in $(seq 1 60); do	# rsyslog writes asynchronously
		[ "$(grep -c "^$1 " "$LOG" 2>/dev/null)" -ge "${3:-1}" ] && break
		sleep 0.1
	done
	grep "^$1 " "$LOG" 2>/dev/null | jq -R -c 'capture("^(?<i>\\S+) (?<prio>\\S+) (?<app>\\S+) (?<procid>\\S+) (?<msgid>\\S+) (?<json>.*)$")
		| (.json | fromjson)["rfc5424-sd"]["nsaudit@32473"]
		  + {_prio: .prio, _app: .app, _procid: .procid, _msgid: .msgid}'
}

# --- one record through each transport; a hostile name is escaped
COMM='sk"x]\y'$$	# hostile, and this run's own (other tests run at once)
OUT=$TMP/trace.jsonl
trace_start "$OUT" --comm "$COMM" --sink "syslog:unix:$SOCK" --sink "syslog:udp:127.0.0.1:$PU" \
	--sink "syslog:tcp:127.0.0.1:$PT" || { fail "trace with three syslog sinks starts"; exit 0; }
TRACE_PID_SEEN=$TRACE_PID
"$NSOPS" -n "$COMM" unshare uts >/dev/null
"$NSOPS" -n "$COMM" setns-bad >/dev/null
sleep 0.3
trace_stop
# two records of this comm; anything else may only be a "lost" record (the
# kernel's ring overrun by other tests' floods on a shared machine)
expect_eq "trace: two records" "$(jq -c --arg c "$COMM" 'select(.comm == $c)' "$OUT" | wc -l)" 2
expect_eq "trace: nothing else but lost records" \
	"$(jq -c --arg c "$COMM" 'select(.comm != $c and .op != "lost") | {op, comm, pid}' "$OUT")" ""
inum=$(jq -r 'select(.op=="unshare") | .ns_inum' "$OUT")
for input in imuxsock imudp imtcp; do
	got=$(lines $input . 2)
	r=$(jq -c 'select(.op=="unshare")' <<<"$got")
	expect_eq "$input: rsyslog parsed RFC 5424 (app-name, msgid, authpriv.notice)" \
		"$(jq -r '[._app, ._msgid, ._prio] | join(" ")' <<<"$r")" "nsaudit unshare authpriv.notice"
	expect_eq "$input: PROCID is the tracer's pid" "$(jq -r ._procid <<<"$r")" "$TRACE_PID_SEEN"
	expect_eq "$input: structured data carries the record (ns_inum)" "$(jq -r .ns_inum <<<"$r")" "$inum"
	expect_eq "$input: \", ] and \\ in SD values escaped and read back exactly" \
		"$(jq -r .comm <<<"$r")" "$COMM"
	expect_eq "$input: the failed setns is authpriv.warning with its error" \
		"$(jq -r 'select(.op=="setns") | [._prio, .error] | join(" ")' <<<"$got")" \
		"authpriv.warning EINVAL"
done

# --- an alert (docs/rules.md) goes out with its rule's severity: a process
# outside the host's pid namespace enters a host namespace (container-escape)
sleep 60 &
HP=$!
# made before the tracer loads (one the kernel side saw born of the host
# stays the host whatever namespaces it made, 3e435d1) and left to init (a
# process found away from the host whose ancestry reaches this shell, a
# host process, is the host too, 7ac5bdc; one whose parent is gone is of
# unknown origin, as a runtime's daemonized workload is)
mkfifo "$TMP/go"
(unshare -m -p -f sh -c "read x <'$TMP/go'; nsenter --net=/proc/$HP/ns/net sleep 0.5; touch '$TMP/esc.done'" &)
OUT=$TMP/alert.jsonl
trace_start "$OUT" --comm nsenter --sink "syslog:unix:$SOCK" || { fail "trace for an alert starts"; exit 0; }
timeout 5 sh -c 'echo go >"$1"' _ "$TMP/go"
for i in $(seq 1 100); do [ -e "$TMP/esc.done" ] && break; sleep 0.1; done
sleep 0.3
trace_stop
kill $HP
expect_eq "trace: one container-escape alert" \
	"$(jq -r 'select(.op=="alert") | .rule' "$OUT")" "container-escape"
for i in $(seq 1 60); do grep -q '^imuxsock [^ ]* [^ ]* [^ ]* alert ' "$LOG" && break; sleep 0.1; done
expect_eq "imuxsock: the alert is authpriv.crit, msgid alert, with its rule and summary" \
	"$(lines imuxsock | jq -r 'select(._msgid=="alert") | [._prio, .rule, (.summary|test("host.s net namespace"))] | join(" ")')" \
	"authpriv.crit container-escape true"

# --- a restarted rsyslogd (its socket gone for a second): the records sent
# meanwhile wait in the sink's queue and arrive; none lost (before: the
# one in hand when the socket went away was counted lost). What the old
# rsyslogd may not have read before it closed its socket (the kernel drops
# it) is sent again: a record may come twice, the same message with the
# same sink_run/sink_seq key, so records are counted by that key.
OUT=$TMP/restart.jsonl
trace_start "$OUT" --comm skrs$$ --sink "syslog:unix:$SOCK" || { fail "trace starts for the restart"; exit 0; }
("$NSOPS" -n skrs$$ unshare uts >/dev/null
 for i in $(seq 1 40); do sleep 0.05; "$NSOPS" -n skrs$$ unshare uts >/dev/null; done) &
load=$!
sleep 0.5
stop_rsyslog
sleep 1
start_rsyslog
wait $load
sleep 0.5
trace_stop
n_out=$(grep -c '"op":"unshare"' "$OUT")
restarted() { lines imuxsock | jq -c --arg c skrs$$ 'select(.comm == $c)'; }
keys() { jq -r '.sink_run + " " + .sink_seq' | sort -u | grep -c .; }
for i in $(seq 1 50); do
	[ "$(restarted | keys)" -ge "$n_out" ] && break
	sleep 0.1
done
recs=$(restarted)
got=$(keys <<<"$recs")
expect_eq "receiver restarted: every record of the $n_out arrives (the sink held them)" "$got" "$n_out"
expect_eq "receiver restarted: each of the $(($(grep -c . <<<"$recs") - got)) that came twice is the same message" \
	"$(sort -u <<<"$recs" | grep -c .)" "$got"
expect_eq "receiver restarted: nothing lost (no loss line)" \
	"$(grep -c 'records lost' "$OUT.err")" 0
check "receiver restarted: the load ran across the restart ($n_out records)" test "$n_out" -ge 30

# --- a stopped rsyslogd: trace keeps up, the sink buffers, drops and counts
N=20000
kill -STOP "$RSPID"
OUT=$TMP/flood.jsonl
: >"$LOG"
trace_start "$OUT" --comm skfl$$ --no-coalesce --ring-size 64M --sink "syslog:unix:$SOCK" ||
	{ fail "trace starts for the flood"; exit 0; }
flood_pid=$TRACE_PID
t0=$(date +%s%N)
"$NSOPS" -n skfl$$ setns-loop $N /proc/self/ns/uts >/dev/null
# a sink that held records up would let one through per 2 s send timeout:
# 30 s tells that apart on a machine however busy (4 s did not, at load 11)
for i in $(seq 1 600); do
	[ "$(grep -c '"op":"setns"' "$OUT")" -ge $N ] && break
	sleep 0.05
done
t1=$(date +%s%N)
expect_eq "receiver stopped: trace still prints all $N records" "$(grep -c '"op":"setns"' "$OUT")" $N
[ $(( (t1 - t0) / 1000000 )) -lt 30000 ] &&
	pass "receiver stopped: records not held up by the sink ($(( (t1 - t0) / 1000000 )) ms)" ||
	fail "receiver stopped: $N records took $(( (t1 - t0) / 1000000 )) ms"
# past the 2 s send timeout (longer on a busy machine: up to 30 s)
for i in $(seq 1 300); do
	grep -q "nsaudit: sink syslog:unix:$SOCK: [0-9]* records lost so far" "$OUT.err" && break
	sleep 0.1
done
grep -q "nsaudit: sink syslog:unix:$SOCK: [0-9]* records lost so far" "$OUT.err" &&
	pass "losses reported on stderr while the receiver is stopped" ||
	fail "losses reported on stderr while the receiver is stopped"
kill -CONT "$RSPID"
sleep 1
trace_stop
# records meant for the sink: not the lost records about the sink itself,
# which go to stdout only (the sink sends its own lost messages)
total=$(jq -c 'select((.cause // "") | startswith("sink ") | not)' "$OUT" | wc -l)
in_stdout=$(jq -s '[.[] | select(.op == "lost" and ((.cause // "") | startswith("sink ")))
	| .count] | add // 0' "$OUT")
final=$(sed -n "s/^nsaudit: sink syslog:unix:.*: \([0-9]*\) records lost in all.*/\1/p" "$OUT.err")
for i in $(seq 1 50); do	# rsyslog catching up
	sleep 0.2
	n=$(grep -c "^imuxsock " "$LOG")
	[ "$n" = "$prev" ] && break
	prev=$n
done
got=$(lines imuxsock)
delivered=$(jq -c --arg p "$flood_pid" 'select(._procid == $p and .probe != "sink")' <<<"$got" | wc -l)
told=$(jq -s 'map(select(.probe == "sink" and .op == "lost") | (.count | tonumber)) | add // 0' <<<"$got")
[ -n "$final" ] && [ "$final" -gt 0 ] && pass "closing line counts the losses ($final)" ||
	fail "closing line counts the losses: $(cat "$OUT.err")"
expect_eq "the receiver is told of every loss (lost messages with counts)" "$told" "$final"
[ "$in_stdout" -gt 0 ] && [ "$in_stdout" -le "$final" ] &&
	pass "stdout has lost records for the sink's drops too ($in_stdout of $final)" ||
	fail "stdout has lost records for the sink's drops: $in_stdout (final $final)"
expect_eq "every record is delivered or counted lost" "$((delivered + told))" "$total"
# a sink's loss is not the kernel's: reason "sink", and no lost_total a
# restarted recorder would take for the kernel's running count
expect_eq "stdout's lost records for the sink's drops say reason sink, with no lost_total" \
	"$(jq -r 'select(.op == "lost" and ((.cause // "") | startswith("sink "))) | "\(.reason) \(.lost_total)"' "$OUT" | sort -u)" \
	"sink null"

# --- nsaudit record feeds the same sinks as it writes its log
if ! "$NSAUDIT" record --help 2>/dev/null | grep -q -- --sink; then
	fail "record --sink: nsaudit record --help does not offer --sink"
else
	: >"$LOG"
	"$NSAUDIT" keygen "$TMP/key" >/dev/null 2>&1
	"$NSAUDIT" record --log-dir "$TMP/rlog" --key "$TMP/key" --no-pin --comm skrecord \
		--sink "syslog:udp:127.0.0.1:$PU" >/dev/null 2>"$TMP/record.err" &
	rp=$!
	for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/record.err" && break; sleep 0.05; done
	"$NSOPS" -n skrecord unshare uts >/dev/null
	sleep 0.3
	kill -TERM $rp
	wait $rp
	expect_eq "record: exits 0" "$?" 0
	r=$(lines imudp | jq -c --arg p "$rp" 'select(._procid == $p and .op == "unshare")')
	expect_eq "record --sink: the record reaches rsyslog" "$(jq -r .comm <<<"$r")" skrecord
	check "record --sink: and its own log has it" grep -q '"comm":"skrecord"' -r "$TMP/rlog"
fi
