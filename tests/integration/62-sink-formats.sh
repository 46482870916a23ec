#!/bin/bash
# --sink ...,format=ocsf|ecs|json: the SIEM documents reach sinks, not only
# trace's stdout. One trace writes OCSF to stdout and, at once, OCSF and
# ECS to file sinks, the flat record to a file sink, and OCSF through
# --sink syslog to a real rsyslogd started here (RFC 5424 parsed by rsyslog
# itself, MSG written out as it got it). Every OCSF line, wherever it went,
# carries what OCSF 1.8.0 requires (tests/lib/ocsf-check.jq) and is the
# same document as trace --format ocsf wrote; the records are those of what
# was done (the pids nsops printed, the host's namespace from stat).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "sink formats"
require_cmd jq "sink formats"
require_cmd rsyslogd "sink formats"
require_cmd unshare "sink formats"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "sink formats"
CHECK=$TESTS_DIR/lib/ocsf-check.jq
COMM=sfmt$$
MID=$(cat /etc/machine-id 2>/dev/null)
HOST_NET=$(ns_inum /proc/self/ns/net)
RSDIR=$TMP/rsyslog
mkdir -p "$RSDIR"
SOCK=$RSDIR/log.sock
RSPID=
trap '[ -n "$RSPID" ] && kill "$RSPID" 2>/dev/null; wait 2>/dev/null; cleanup_testlib' EXIT

# rsyslog: what our messages carry, MSG as it came and the SD it parsed
cat >"$RSDIR/rsyslog.conf" <<EOF
global(workDirectory="$RSDIR")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$SOCK" UseSpecialParser="off" RateLimit.Interval="0")
module(load="mmpstrucdata")
action(type="mmpstrucdata")
template(name="msg" type="string" string="%msg%\n")
template(name="sd" type="string" string="%\$!%\n")
if \$app-name == "nsaudit" then {
	action(type="omfile" file="$RSDIR/msg" template="msg")
	action(type="omfile" file="$RSDIR/sd" template="sd")
}
EOF
rsyslogd -n -f "$RSDIR/rsyslog.conf" -i "$RSDIR/pid" >"$RSDIR/out" 2>&1 &
RSPID=$!
for _ in $(seq 1 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || { fail "rsyslogd starts"; cat "$RSDIR/out"; exit 0; }

# escaper_start FIFO: a process in a pid+mount namespace of its own, made
# before the tracer loads (one the kernel side saw born of the host stays
# the host); it enters the host's net namespace, a container-escape, when
# escaper_go FIFO is called
escaper_start() {
	rm -f "$1"; mkfifo "$1"
	(unshare -m -p --fork sh -c 'read x <"$1"; exec "$2" -n "$3" setns /proc/self/ns/net net' \
		_ "$1" "$NSOPS" "$COMM" >/dev/null 2>&1 &)
}
escaper_go() { timeout 5 sh -c 'echo go >"$1"' _ "$1"; sleep 0.2; }
OUT=$TMP/stdout.jsonl
escaper_start "$TMP/go"
# the administrator says what machine this is (machine-info(5) CHASSIS=)
printf 'PRETTY_HOSTNAME="rack 4"\nCHASSIS="server"\n' >"$TMP/machine-info"
NSAUDIT_MACHINE_INFO_FILE=$TMP/machine-info "$NSAUDIT" trace --format ocsf --comm "$COMM" \
	--sink "file:$TMP/ocsf.jsonl,format=ocsf" --sink "file:$TMP/ecs.jsonl,format=ecs" \
	--sink "file:$TMP/flat.jsonl" --sink "syslog:unix:$SOCK,format=ocsf" >"$OUT" 2>"$TMP/err" &
TRACE_PID=$!
wait_ready "$TMP/err" "$TRACE_PID" || { fail "trace with four sinks starts"; cat "$TMP/err"; exit 0; }
"$NSOPS" -n "$COMM" unshare uts >"$TMP/unshare"
"$NSOPS" -n "$COMM" setns-bad >/dev/null
escaper_go "$TMP/go"
for _ in $(seq 1 60); do [ "$(grep -c . "$OUT")" -ge 4 ] && break; sleep 0.05; done
trace_stop
for _ in $(seq 1 60); do	# rsyslog writes when it gets to it
	[ "$(grep -c . "$RSDIR/msg" 2>/dev/null)" -ge "$(grep -c . "$OUT")" ] && break
	sleep 0.1
done
UPID=$(sed -n 's/^pid //p' "$TMP/unshare")
n=$(grep -c . "$OUT")
check "trace wrote the unshare, the refused setns, the escape and its alert ($n lines)" test "$n" -ge 4

# file sink, OCSF: the same bytes as stdout, each line valid OCSF
expect_eq "file sink ocsf: the same $n lines as trace --format ocsf, byte for byte" \
	"$(md5sum <"$TMP/ocsf.jsonl")" "$(md5sum <"$OUT")"
expect_eq "file sink ocsf: every line carries what its OCSF class requires" \
	"$(jq -c -f "$CHECK" "$TMP/ocsf.jsonl" | jq -s -c add)" "[]"
expect_eq "file sink: 0600, as the log's files" "$(stat -c %a "$TMP/ocsf.jsonl")" 600
u=$(jq -c "select(.activity_name == \"unshare\" and .actor.process.pid == $UPID)" "$TMP/ocsf.jsonl")
expect_eq "file sink ocsf: the unshare of the pid nsops printed, on this machine's id" \
	"$(jq -r '"\(.class_uid) \(.device.uid)"' <<<"$u")" "1007 $MID"
expect_eq "file sink ocsf: device.type_id is what machine-info's CHASSIS says (server: 1)" \
	"$(jq -r '"\(.device.type_id) \(.device.type)"' <<<"$u")" "1 Server"
a=$(jq -c 'select(.class_uid == 2004 and .finding_info.analytic.uid == "container-escape")' "$TMP/ocsf.jsonl")
expect_eq "file sink ocsf: the escape is a Detection Finding into the host's net (stat), T1611" \
	"$(jq -r '"\(.evidences[1].resources[0].name) \(.finding_info.attacks[0].technique.uid)"' <<<"$a")" \
	"net:[$HOST_NET] T1611"

# syslog sink, OCSF: rsyslog parsed the RFC 5424 message; MSG is the document
expect_eq "syslog sink ocsf: rsyslog got every document as MSG, the same as stdout's" \
	"$(jq -S -c . "$RSDIR/msg" 2>&1 | md5sum)" "$(jq -S -c . "$OUT" | md5sum)"
expect_eq "syslog sink ocsf: every MSG rsyslog got is valid OCSF" \
	"$(jq -c -f "$CHECK" "$RSDIR/msg" | jq -s -c add)" "[]"
sd=$(jq -c '."rfc5424-sd"."nsaudit@32473"' "$RSDIR/sd" | head -1)
expect_eq "syslog sink ocsf: its structured data holds only what a collector files by" \
	"$(jq -r 'keys | join(",")' <<<"$sd")" "boot_id,host,machine_id,op,sink_run,sink_seq"
expect_eq "syslog sink ocsf: machine_id in the structured data is this machine's" \
	"$(jq -r .machine_id <<<"$sd")" "$MID"

# file sink, ECS
bad=$(jq -s -c 'map(select((."@timestamp" | type) != "string" or .host.id != $mid)) | length' \
	--arg mid "$MID" "$TMP/ecs.jsonl")
expect_eq "file sink ecs: $(grep -c . "$TMP/ecs.jsonl") lines, each with @timestamp and host.id" "$bad" 0
expect_eq "file sink ecs: every line is what ECS 8.17 defines (tests/lib/ecs-check.jq)" \
	"$(jq -c -f "$TESTS_DIR/lib/ecs-check.jq" "$TMP/ecs.jsonl" | jq -s -c add)" "[]"
expect_eq "file sink ecs: the escape is an alert with T1611" \
	"$(jq -r 'select(.event.kind == "alert") | .threat.technique.id[0]' "$TMP/ecs.jsonl" | head -1)" T1611
expect_eq "file sink ecs: the unshare's process is the pid nsops printed" \
	"$(jq -r "select(.event.action == \"unshare\" and .process.pid == $UPID) | .process.pid" "$TMP/ecs.jsonl")" \
	"$UPID"

# file sink, default: the flat record, as trace --format json
expect_eq "file sink json: the unshare record of that pid, with its uts namespace" \
	"$(jq -r "select(.op == \"unshare\" and .pid == $UPID) | .ns_type" "$TMP/flat.jsonl")" uts

# what a sink cannot carry, or a format that does not exist: one clear line, exit 2
r=$("$NSAUDIT" trace --sink audit,format=ocsf 2>&1 >/dev/null; echo "rc=$?")
check "--sink audit,format=ocsf: refused, one line, exit 2" \
	grep -q "audit messages are key=value.*rc=2" <<<"$(tr '\n' ' ' <<<"$r")"
r=$("$NSAUDIT" trace --sink "file:$TMP/x,format=xml" 2>&1 >/dev/null; echo "rc=$?")
check "--sink file:...,format=xml: refused, one line, exit 2" \
	grep -q "format is json, ocsf or ecs.*rc=2" <<<"$(tr '\n' ' ' <<<"$r")"
check "a refused sink leaves no file behind" test ! -e "$TMP/x"
