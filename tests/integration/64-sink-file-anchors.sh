#!/bin/bash
# The log's anchors through file sinks, read back by "verify --anchor": a
# fleet that ships files (Filebeat, Fluent Bit, a SIEM's agent) keeps its
# anchors as JSON documents, flat, OCSF or ECS, not as syslog text. One
# real "nsaudit record" writes all three at once; then:
#  - every anchor document jq finds in each file (ground truth: the
#    documents themselves) is one anchor verify counts, and each file
#    alone verifies the log to the seq of its newest anchor;
#  - every anchor document says whose it is (uname -n, /etc/machine-id,
#    the kernel's boot id), as the records do;
#  - a tail cut after a SIGKILL (the state removed) is NOT INTACT
#    against each file's anchors, naming the file, line and seq;
#  - an anchor document forged without the key (a later seq) is no anchor;
#    and a record whose exe path spells an anchor document is a record;
#  - a file moved away under a running recorder (logrotate, no signal):
#    what comes after is in a new file at the path, and the log verifies
#    against the two files together.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "file sink anchors"
require_cmd jq "file sink anchors"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "file sink anchors"
COMM=fanc$$
K=$TMP/key LOG=$TMP/log
REC=
trap '[ -n "$REC" ] && kill -9 "$REC" 2>/dev/null; cleanup_testlib' EXIT
VK=$("$NSAUDIT" keygen "$K")
verify() {	# verify OUT ARGS...: exit status
	local out=$1; shift
	timeout 60 "$NSAUDIT" verify --log-dir "$LOG" --verification-key "$VK" "$@" >"$out" 2>&1
}
# the anchor documents of each form, as a SIEM would select them
SEL_json='select(.op == "log" and .action == "anchor")'
SEL_ocsf='select(.activity_name == "log" and .unmapped.action == "anchor")'
SEL_ecs='select(.event.action == "log" and .nsaudit.action == "anchor")'
SEQ_json='.seq' SEQ_ocsf='.metadata.sequence' SEQ_ecs='.event.sequence'

# a hostile exe path: a copy of nsops whose name is an anchor document
EVIL='{"op":"log","action":"anchor","seq":999999}'
mkdir -p "$TMP/bin/$EVIL"
cp "$NSOPS" "$TMP/bin/$EVIL/nsops"

"$NSAUDIT" record --log-dir "$LOG" --key "$K" --no-pin --no-coalesce --op setns --comm "$COMM" \
	--seal-interval 1s --sink "file:$TMP/a.json" --sink "file:$TMP/a.ocsf,format=ocsf" \
	--sink "file:$TMP/a.ecs,format=ecs" 2>"$TMP/rec.err" &
REC=$!
for _ in $(seq 1 200); do grep -qs "^nsaudit: ready" "$TMP/rec.err" && break; sleep 0.05; done
grep -q '^nsaudit: ready' "$TMP/rec.err" || { fail "recorder ready: $(head -n 3 "$TMP/rec.err")"; exit 0; }
for _ in 1 2 3; do
	"$NSOPS" -n "$COMM" setns-loop 20 /proc/self/ns/net >/dev/null
	"$TMP/bin/$EVIL/nsops" -n "$COMM" setns-loop 1 /proc/self/ns/net >/dev/null
	sleep 1.2	# an epoch ends: its seal and an anchor leave
done
sleep 0.5
kill -9 $REC; wait $REC 2>/dev/null; REC=
cp "$TMP/a.json" "$TMP/a.json.orig"

MID=$(cat /etc/machine-id 2>/dev/null) BID=$(cat /proc/sys/kernel/random/boot_id) HN=$(uname -n)
WHO_json='"\(.host) \(.machine_id) \(.boot_id)"'
WHO_ocsf='"\(.device.hostname) \(.device.uid) \(.device.boot_uid)"'
WHO_ecs='"\(.host.name) \(.host.id) \(.host.boot.id)"'
for f in json ocsf ecs; do
	sel=SEL_$f seq=SEQ_$f who=WHO_$f
	n=$(jq -c "${!sel}" "$TMP/a.$f" | grep -c .)
	last=$(jq "${!sel} | ${!seq}" "$TMP/a.$f" | sort -n | tail -n 1)
	[ "${n:-0}" -ge 3 ] && pass "$f: $n anchor documents in the file sink" ||
		fail "$f: anchor documents in the file sink ($n, want 3+)"
	verify "$TMP/v-$f" --anchor "$TMP/a.$f"; rc=$?
	expect_eq "$f: the log verifies against the file's anchors ($(cut -c1-120 "$TMP/v-$f"))" $rc 0
	check "$f: verify read every anchor document ($n) and is anchored up to seq $last" \
		grep -q "anchored up to seq $last ($n anchors)" "$TMP/v-$f"
	if [ -n "$MID" ]; then
		expect_eq "$f: every anchor document names this host, machine and boot" \
			"$(jq -r "${!sel} | ${!who}" "$TMP/a.$f" | sort -u)" "$HN $MID $BID"
	fi
done
expect_eq "ocsf: every line, anchors included, is valid OCSF (tests/lib/ocsf-check.jq)" \
	"$(jq -c -f "$TESTS_DIR/lib/ocsf-check.jq" "$TMP/a.ocsf" | jq -s -c add)" "[]"
expect_eq "ecs: every line, anchors included, is what ECS 8.17 defines (tests/lib/ecs-check.jq)" \
	"$(jq -c -f "$TESTS_DIR/lib/ecs-check.jq" "$TMP/a.ecs" | jq -s -c add)" "[]"
n=$(jq -c "select(.exe != null and (.exe | contains(\"\\\"action\\\":\\\"anchor\\\"\")))" "$TMP/a.json" | grep -c .)
expect_eq "the records whose exe spells an anchor document are in the file" "$n" 3

# no anchors: verify says so, and does not claim to be anchored
: >"$TMP/none.json"
verify "$TMP/v-none" --anchor "$TMP/none.json"
check "no anchor document: verify says no authentic anchor is in the file" \
	grep -q "no authentic anchor of this log in it" "$TMP/v-none"

# a forged anchor document (no key): a later seq, a made-up amac
jq -c "$SEL_json | .seq += 1000 | .n += 1 | .amac = \"$(printf '%032d' 0)\"" "$TMP/a.json" |
	tail -n 1 >>"$TMP/a.json"
verify "$TMP/v-forged" --anchor "$TMP/a.json"; rc=$?
expect_eq "a forged anchor document is no anchor: still intact ($(cut -c1-120 "$TMP/v-forged"))" $rc 0
check "... and verify counts it forged" grep -q "1 forged" "$TMP/v-forged"
cp "$TMP/a.json.orig" "$TMP/a.json"

# the tail cut: back to the second anchor, the state removed
seg=$(ls "$LOG" | grep '^nsaudit-' | tail -n 1)
cut=$(jq "$SEL_json | .seq" "$TMP/a.json" | sed -n 2p)
jq -c "select(.seq <= $cut)" "$LOG/$seg" >/dev/null || { fail "the log's segment is JSON lines"; exit 0; }
awk -v cut="$cut" '{ if (match($0, /^\{"seq":[0-9]+/)) { s = substr($0, 8, RLENGTH - 7) + 0; if (s > cut) exit } print }' \
	"$LOG/$seg" >"$TMP/cut" && cat "$TMP/cut" >"$LOG/$seg"
rm -f "$LOG/.nsaudit-state"
expect_eq "the cut left the log ending at seq $cut" "$(tail -n 1 "$LOG/$seg" | jq .seq)" "$cut"
for f in json ocsf ecs; do
	verify "$TMP/v-cut-$f" --anchor "$TMP/a.$f"; rc=$?
	expect_eq "$f: the tail cut is NOT INTACT against the file sink's anchors" $rc 1
	check "$f: ... named: tail cut, the anchor's file and line" \
		grep -q "NOT INTACT: tail cut: .*anchor at $TMP/a.$f line [0-9]* says seq" "$TMP/v-cut-$f"
done

# --- rotated as logrotate does (moved, no signal) while a recorder runs:
# the sink opens its path again, the records after the move are in the
# new file, and the log verifies against both files together
LOG=$TMP/log2
VK=$("$NSAUDIT" keygen "$TMP/key2")
"$NSAUDIT" record --log-dir "$LOG" --key "$TMP/key2" --no-pin --no-coalesce --op setns --comm "$COMM" \
	--sink "file:$TMP/r.json" 2>"$TMP/rec2.err" &
REC=$!
for _ in $(seq 1 200); do grep -qs "^nsaudit: ready" "$TMP/rec2.err" && break; sleep 0.05; done
"$NSOPS" -n "$COMM" setns-loop 5 /proc/self/ns/net >/dev/null
sleep 0.5
mv "$TMP/r.json" "$TMP/r.json.1"
sleep 1.5	# the sink looks at its path once a second
"$NSOPS" -n "$COMM" setns-loop 5 /proc/self/ns/net >/dev/null
sleep 0.5
kill -TERM $REC; wait $REC; REC=
expect_eq "rotated: the records after the move are in the new file at PATH" \
	"$(jq -c 'select(.op == "setns")' "$TMP/r.json" 2>/dev/null | grep -c .)" 5
expect_eq "rotated: the moved file has the ones before it" \
	"$(jq -c 'select(.op == "setns")' "$TMP/r.json.1" | grep -c .)" 5
verify "$TMP/v-rot" --anchor "$TMP/r.json.1" --anchor "$TMP/r.json"; rc=$?
expect_eq "rotated: the log verifies against both files ($(cut -c1-120 "$TMP/v-rot"))" $rc 0
check "rotated: anchors of the closing stop are in the new file" grep -q '"why":"close"' "$TMP/r.json"
