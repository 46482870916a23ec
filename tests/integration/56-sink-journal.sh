#!/bin/bash
# --sink journal against a real systemd-journald started here. PID 1 is not
# systemd on every machine that runs the tests, and the machine's own
# journal (if any) must not be touched: the test makes a private mount
# namespace with fresh tmpfs on /run/systemd and /run/log, starts
# /lib/systemd/systemd-journald there (it creates its sockets itself when no
# socket activation passes them, and keeps a volatile journal under
# /run/log/journal), and runs the tracer in the same mount namespace, so
# libsystemd finds the socket at its standard path. What arrived is read
# back with journalctl -o json and filtered by NSAUDIT_* fields. A record
# sends its anchors there too: verify --anchor reads journalctl -o json.
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "journal sink"
require_cmd jq "journal sink"
require_cmd journalctl "journal sink"
require_cmd unshare "journal sink"
JOURNALD=/lib/systemd/systemd-journald
[ -x "$JOURNALD" ] || { skip "journal sink" "no systemd-journald"; exit 0; }
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "journal sink"
COMM='jr"x\y'
export NSAUDIT NSOPS COMM TMP JOURNALD

# everything below runs in a mount namespace of its own
unshare -m --propagation private bash -c '
. "'"$TESTS_DIR"'/lib/testlib.sh" 2>/dev/null
rm -rf "$TMP"
TMP='"$TMP"'
JPID=
trap "trace_stop >/dev/null 2>&1; [ -n \"\$JPID\" ] && kill \$JPID 2>/dev/null" EXIT
mount -t tmpfs tmpfs /run/systemd && mount -t tmpfs tmpfs /run/log || { fail "setup: private /run/systemd"; exit 0; }
mkdir -p /run/systemd/journal
"$JOURNALD" >"$TMP/journald.out" 2>&1 &
JPID=$!
for _ in $(seq 1 100); do [ -S /run/systemd/journal/socket ] && break; sleep 0.05; done
[ -S /run/systemd/journal/socket ] || { fail "systemd-journald starts"; cat "$TMP/journald.out"; exit 0; }
OUT=$TMP/trace.jsonl
trace_start "$OUT" --comm "$COMM" --sink journal || { fail "trace --sink journal starts"; kill $JPID; exit 0; }
"$NSOPS" -n "$COMM" unshare uts,ipc >"$TMP/unshare.out"
"$NSOPS" -n "$COMM" setns-bad >/dev/null
sleep 0.3
trace_stop
J() { journalctl -D /run/log/journal --no-pager -o json "$@"; }
for _ in $(seq 1 50); do [ "$(J NSAUDIT_COMM="$COMM" | grep -c .)" -ge 3 ] && break; sleep 0.1; done
J NSAUDIT_COMM="$COMM" >"$TMP/journal.json"
# ,format=ocsf: MESSAGE is the OCSF document trace --format ocsf writes
OUT2=$TMP/trace-ocsf.jsonl
if trace_start "$OUT2" --format ocsf --comm jocsf$$ --sink journal,format=ocsf; then
	"$NSOPS" -n jocsf$$ unshare uts >/dev/null
	"$NSOPS" -n jocsf$$ setns-bad >/dev/null
	sleep 0.3
	trace_stop
	for _ in $(seq 1 50); do [ "$(J NSAUDIT_COMM=jocsf$$ | grep -c .)" -ge 2 ] && break; sleep 0.1; done
	J NSAUDIT_COMM=jocsf$$ | jq -c ".MESSAGE | fromjson" >"$TMP/journal-ocsf.jsonl"
	expect_eq "journal,format=ocsf: $(grep -c . "$OUT2") entries, MESSAGE the documents trace --format ocsf wrote" \
		"$(jq -S -c . "$TMP/journal-ocsf.jsonl" | md5sum)" "$(jq -S -c . "$OUT2" | md5sum)"
	expect_eq "journal,format=ocsf: every MESSAGE is valid OCSF" \
		"$(jq -c -f "'"$TESTS_DIR"'/lib/ocsf-check.jq" "$TMP/journal-ocsf.jsonl" | jq -s -c add)" "[]"
	expect_eq "journal,format=ocsf: still filterable by NSAUDIT_OP" \
		"$(J NSAUDIT_COMM=jocsf$$ NSAUDIT_OP=unshare | jq -r ".MESSAGE | fromjson | .activity_name")" unshare
else
	fail "trace --sink journal,format=ocsf starts"
fi
# the log'"'"'s anchors through the journal: verify reads journalctl -o json
"$NSAUDIT" keygen "$TMP/jkey" >"$TMP/jvk"
"$NSAUDIT" record --log-dir "$TMP/jlog" --key "$TMP/jkey" --no-pin --op setns --comm janc$$ \
	--seal-interval 1s --sink journal 2>"$TMP/jrec.err" &
RP=$!
for _ in $(seq 1 200); do grep -qs "^nsaudit: ready" "$TMP/jrec.err" && break; sleep 0.05; done
for _ in 1 2; do "$NSOPS" -n janc$$ setns-loop 10 /proc/self/ns/net >/dev/null; sleep 1.2; done
kill -INT $RP; wait $RP
LID=$(head -n 1 "$TMP"/jlog/nsaudit-*.log | jq -r .log_id)
for _ in $(seq 1 50); do J NSAUDIT_LOG_ID="$LID" NSAUDIT_WHY=close | grep -q . && break; sleep 0.1; done
J NSAUDIT_LOG_ID="$LID" >"$TMP/janchors.json"
n=$(jq -c "select(.NSAUDIT_ACTION == \"anchor\" and (.MESSAGE | startswith(\"nsaudit-anchor \")))" "$TMP/janchors.json" | grep -c .)
last=$(jq -r "select(.NSAUDIT_ACTION == \"anchor\") | .NSAUDIT_SEQ" "$TMP/janchors.json" | sort -n | tail -n 1)
[ "$n" -ge 3 ] && pass "journal: $n anchors of the log, MESSAGE their text" || fail "journal: anchors of the log ($n, want 3+)"
timeout 60 "$NSAUDIT" verify --log-dir "$TMP/jlog" --verification-key "$(cat "$TMP/jvk")" \
	--anchor "$TMP/janchors.json" >"$TMP/jverify" 2>&1
expect_eq "journal: verify --anchor reads journalctl -o json: intact ($(cut -c1-100 "$TMP/jverify"))" $? 0
check "journal: ... every anchor entry ($n) counted, anchored up to seq $last" \
	grep -q "anchored up to seq $last ($n anchors)" "$TMP/jverify"
kill $JPID; wait $JPID 2>/dev/null
UPID=$(sed -n "s/^pid //p" "$TMP/unshare.out")
n_trace=$(grep -c . "$OUT")
n_j=$(grep -c . "$TMP/journal.json")
expect_eq "journal: every traced record is one entry (journalctl NSAUDIT_COMM=...)" "$n_j" "$n_trace"
u=$(J NSAUDIT_OP=unshare NSAUDIT_NS_TYPE=ipc NSAUDIT_PID="$UPID")
want=$(jq -r "select(.op == \"unshare\" and .ns_type == \"ipc\") | \"\(.ns_inum) \(.ns_id) \(.kseq)\"" "$OUT")
expect_eq "journal: filtered by NSAUDIT_OP, NSAUDIT_NS_TYPE, NSAUDIT_PID: the ipc unshare, same ns and kseq" \
	"$(jq -r "\"\(.NSAUDIT_NS_INUM) \(.NSAUDIT_NS_ID) \(.NSAUDIT_KSEQ)\"" <<<"$u")" "$want"
expect_eq "journal: the hostile name arrives exactly (NSAUDIT_COMM)" "$(jq -r .NSAUDIT_COMM <<<"$u")" "$COMM"
expect_eq "journal: identifier, facility, priority notice, record MESSAGE_ID" \
	"$(jq -r "\"\(.SYSLOG_IDENTIFIER) \(.SYSLOG_FACILITY) \(.PRIORITY) \(.MESSAGE_ID)\"" <<<"$u")" \
	"nsaudit 10 5 0fba002e14ef44feb695cb980f3b4451"
expect_eq "journal: host identity fields match journald'"'"'s own _MACHINE_ID and _BOOT_ID" \
	"$(jq -r "\"\(.NSAUDIT_MACHINE_ID) \(.NSAUDIT_BOOT_ID | gsub(\"-\"; \"\"))\"" <<<"$u")" \
	"$(jq -r "\"\(._MACHINE_ID) \(._BOOT_ID)\"" <<<"$u")"
f=$(J NSAUDIT_OP=setns NSAUDIT_ERROR=EINVAL NSAUDIT_COMM="$COMM")
expect_eq "journal: a failed setns is PRIORITY warning with NSAUDIT_RESULT -22" \
	"$(jq -r "\"\(.PRIORITY) \(.NSAUDIT_RESULT)\"" <<<"$f")" "4 -22"
check "journal: MESSAGE is the readable line" grep -q "unshare ipc:\[" <<<"$(jq -r .MESSAGE <<<"$u")"
'
r=$(unshare -m --propagation private bash -c 'mount -t tmpfs tmpfs /run/systemd; "$NSAUDIT" trace --sink journal --comm none 2>&1 & P=$!; sleep 3; kill -INT $P; wait $P' 2>&1)
check "journal: no journald: says so, keeps tracing" grep -q "sink journal: .*retrying" <<<"$r"
