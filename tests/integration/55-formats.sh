#!/bin/bash
# trace --format ocsf|ecs|json against what was done: every OCSF line
# carries what OCSF 1.8.0 requires of its class (tests/lib/ocsf-check.jq,
# written from the schema's definitions), an escape from a pid+mount
# namespace is a Detection Finding with T1611, severity and evidences from
# the kernel's view; ECS carries event.kind alert, rule.*, threat.*; every
# format names the host by the machine id and boot id the machine has.
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "output formats"
require_cmd jq "output formats"
require_cmd unshare "output formats"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "output formats"
CHECK=$TESTS_DIR/lib/ocsf-check.jq
COMM=fmt$$
MID=$(cat /etc/machine-id 2>/dev/null)
BID=$(cat /proc/sys/kernel/random/boot_id)
HOSTN=$(uname -n)
HOST_NET=$(ns_inum /proc/self/ns/net)
HOST_UTS=$(ns_inum /proc/self/ns/uts)

# run_format FMT OUT: trace in FMT while three things happen: an unshare,
# a refused setns, and a process in a pid+mount namespace of its own
# entering the host's net namespace (container-escape)
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
run_format() {
	local fmt=$1 out=$2
	escaper_start "$out.go"
	"$NSAUDIT" trace --format "$fmt" --comm "$COMM" >"$out" 2>"$out.err" &
	TRACE_PID=$!
	wait_ready "$out.err" "$TRACE_PID" || { fail "$fmt: trace starts"; cat "$out.err"; return 1; }
	"$NSOPS" -n "$COMM" unshare uts >"$out.unshare"
	"$NSOPS" -n "$COMM" setns-bad >/dev/null
	escaper_go "$out.go"
	for _ in $(seq 1 40); do
		[ "$(grep -c . "$out")" -ge 4 ] && break
		sleep 0.05
	done
	trace_stop
}

OUT=$TMP/ocsf.jsonl
if run_format ocsf "$OUT"; then
	UPID=$(sed -n 's/^pid //p' "$OUT.unshare")
	n=$(grep -c . "$OUT")
	bad=$(jq -c -f "$CHECK" "$OUT" | jq -s -c 'add')
	expect_eq "ocsf: all $n lines carry what their OCSF class requires" "$bad" "[]"
	bad=$(jq -s -c 'map(select(.class_uid != 1007 and .class_uid != 2004 and .class_uid != 0)) | length' "$OUT")
	expect_eq "ocsf: only Process Activity, Detection Finding and Base Event" "$bad" 0
	u=$(jq -c "select(.activity_name == \"unshare\" and .actor.process.pid == $UPID)" "$OUT")
	expect_eq "ocsf: unshare is Process Activity (1007, Other) of its pid" \
		"$(jq -r '"\(.class_uid) \(.activity_id) \(.type_uid) \(.status_id)"' <<<"$u")" "1007 99 100799 1"
	expect_eq "ocsf: the namespace left (unmapped.old_inum) is the host's uts" \
		"$(jq -r .unmapped.old_inum <<<"$u")" "$HOST_UTS"
	expect_eq "ocsf: device names this host by machine id and boot id" \
		"$(jq -r '"\(.device.uid) \(.device.boot_uid) \(.device.hostname)"' <<<"$u")" "$MID $BID $HOSTN"
	# what kind of machine, as the host says: CHASSIS= in machine-info,
	# else the CPU's hypervisor flag, else the SMBIOS chassis type
	want=0 src=none
	ch=$(sed -n 's/^CHASSIS=//p' /etc/machine-info 2>/dev/null | tr -d "\"'")
	if [ -n "$ch" ]; then
		src="machine-info CHASSIS=$ch"
		case $ch in server) want=1 ;; desktop) want=2 ;; laptop|convertible) want=3 ;;
		tablet) want=4 ;; handset) want=5 ;; vm) want=6 ;; embedded) want=7 ;; container|watch) want=99 ;;
		*) src=none ;; esac
	fi
	if [ "$src" = none ] && grep -m1 '^flags' /proc/cpuinfo | grep -qw hypervisor; then
		want=6 src="cpu flag hypervisor"
	elif [ "$src" = none ] && [ -r /sys/class/dmi/id/chassis_type ]; then
		src="SMBIOS chassis $(cat /sys/class/dmi/id/chassis_type)"
		case $(cat /sys/class/dmi/id/chassis_type) in 3|4|5|6|7|13|15|16|24|35|36) want=2 ;;
		8|9|10|14|31|32) want=3 ;; 17|23|25|28|29) want=1 ;; 30) want=4 ;; 11) want=5 ;; 33|34) want=7 ;; esac
	fi
	expect_eq "ocsf: device.type_id is what the host says ($src)" "$(jq -r .device.type_id <<<"$u")" "$want"
	. /etc/os-release
	expect_eq "ocsf: device.os is os-release's NAME and VERSION_ID, type Linux (200)" \
		"$(jq -r '"\(.device.os.name) \(.device.os.version) \(.device.os.type_id)"' <<<"$u")" "$NAME $VERSION_ID 200"
	f=$(jq -c 'select(.activity_name == "setns" and .status_code == "EINVAL")' "$OUT")
	expect_eq "ocsf: a refused setns is status Failure with its errno" \
		"$(jq -r '"\(.status_id) \(.status)"' <<<"$f")" "2 Failure"
	a=$(jq -c 'select(.class_uid == 2004 and .finding_info.analytic.uid == "container-escape")' "$OUT" | head -1)
	if [ -z "$a" ]; then
		fail "ocsf: the escape is a Detection Finding"
		cat "$OUT" >&2
	else
		s=$(jq -c 'select(.activity_name == "setns" and .status_id == 1 and .unmapped.ns_inum == '"$HOST_NET"')' "$OUT" | head -1)
		expect_eq "ocsf: finding is Create (200401), severity Critical (crit), an alert" \
			"$(jq -r '"\(.type_uid) \(.severity_id) \(.is_alert) \(.finding_info.analytic.type_id)"' <<<"$a")" "200401 5 true 1"
		expect_eq "ocsf: the technique is T1611 Escape to Host, tactic TA0004" \
			"$(jq -r '.finding_info.attacks[0] | "\(.technique.uid) \(.technique.name) \(.tactic.uid)"' <<<"$a")" \
			"T1611 Escape to Host TA0004"
		expect_eq "ocsf: evidence: the actor process is the one whose setns was traced" \
			"$(jq -r '.evidences[0].process.pid' <<<"$a")" "$(jq -r .actor.process.pid <<<"$s")"
		expect_eq "ocsf: evidence: the target namespace is the host's net" \
			"$(jq -r '.evidences[1].resources[0].name' <<<"$a")" "net:[$HOST_NET]"
		expect_eq "ocsf: the namespace's uid is the kernel's ns_id where it has one" \
			"$(jq -r '.evidences[1].resources[0].uid' <<<"$a")" \
			"$(jq -r 'if .unmapped.ns_id then "net:\(.unmapped.ns_id)" else "net:[\(.unmapped.ns_inum)]" end' <<<"$s")"
		expect_eq "ocsf: evidence: the actor's executable" \
			"$(jq -r '.evidences[0].process.file.path' <<<"$a")" "$(readlink -f "$NSOPS")"
	fi
fi

OUT=$TMP/ecs.jsonl
if run_format ecs "$OUT"; then
	UPID=$(sed -n 's/^pid //p' "$OUT.unshare")
	bad=$(jq -s -c 'map(select((."@timestamp" | type) != "string" or (.event.kind | IN("event", "alert") | not)
		or .ecs.version == null or .host.id != $mid or .host.boot.id != $bid)) | length' \
		--arg mid "$MID" --arg bid "$BID" "$OUT")
	expect_eq "ecs: every line has @timestamp, event.kind, ecs.version, host.id, host.boot.id" "$bad" 0
	expect_eq "ecs: every line is what ECS 8.17 defines (tests/lib/ecs-check.jq: fields, types, allowed values)" \
		"$(jq -c -f "$TESTS_DIR/lib/ecs-check.jq" "$OUT" | jq -s -c add)" "[]"
	u=$(jq -c "select(.event.action == \"unshare\" and .process.pid == $UPID)" "$OUT")
	expect_eq "ecs: unshare: event, process, user, custom nsaudit.old_inum" \
		"$(jq -r '"\(.event.kind) \(.event.outcome) \(.process.name) \(.user.id) \(.nsaudit.old_inum)"' <<<"$u")" \
		"event success $COMM 0 $HOST_UTS"
	a=$(jq -c 'select(.event.kind == "alert" and .rule.id == "container-escape")' "$OUT" | head -1)
	expect_eq "ecs: the escape is an alert with rule, T1611 and severity 2 (crit)" \
		"$(jq -r '"\(.event.category | join(",")) \(.threat.technique.id[0]) \(.event.severity) \(.process.name)"' <<<"$a")" \
		"intrusion_detection,process T1611 2 $COMM"
	f=$(jq -c 'select(.event.action == "setns" and .error.code == "EINVAL")' "$OUT")
	expect_eq "ecs: a refused setns is outcome failure" "$(jq -r .event.outcome <<<"$f")" failure
	. /etc/os-release
	expect_eq "ecs: host.os is os-release's NAME and VERSION_ID, and uname -r" \
		"$(jq -r '"\(.host.os.name) \(.host.os.version) \(.host.os.kernel)"' <<<"$u")" "$NAME $VERSION_ID $(uname -r)"
fi

OUT=$TMP/json.jsonl
if run_format json "$OUT"; then
	bad=$(jq -s -c 'map(select(.host != $h or .machine_id != $mid or .boot_id != $bid)) | length' \
		--arg h "$HOSTN" --arg mid "$MID" --arg bid "$BID" "$OUT")
	n=$(grep -c . "$OUT")
	expect_eq "json: all $n records (alerts too) carry host, machine_id, boot_id" "$bad" 0
fi

r=$("$NSAUDIT" trace --format xml 2>&1 >/dev/null; echo "rc=$?")
check "a bad --format is one clear line and exit 2" grep -q "not text, json, ocsf or ecs.*rc=2" <<<"$(tr '\n' ' ' <<<"$r")"
