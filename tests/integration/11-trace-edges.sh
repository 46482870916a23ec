#!/bin/bash
# nsaudit trace at its edges: hostile process names, filters, a ring too
# small to keep up (loss must be reported, never silent), bad arguments.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace edge cases"
require_cmd jq "trace edge cases"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops

# --- hostile names: quotes, backslash, newline, control and invalid UTF-8
OUT=$TMP/hostile.jsonl
trace_start "$OUT" --op unshare
"$NSOPS" -n 'a"b\nc\d\x01\xff' unshare uts >/dev/null
sleep 0.2
trace_stop
check "hostile comm: every line is valid JSON" jq -e . "$OUT"
expect_eq "hostile comm: one record, not split by the newline" "$(wc -l <"$OUT")" 1
# one escaping policy (audit/README.md): the byte that is not UTF-8 as \u00ff
expect_eq "hostile comm: exact bytes, escaped as the log escapes them" \
	"$(grep -o '"comm":"[^,]*",' "$OUT")" '"comm":"a\"b\nc\\d\u0001\u00ff",'
check "hostile comm: no second spelling (comm_hex)" sh -c "! grep -q comm_hex '$OUT'"
expect_eq "hostile comm: a generic JSON reader sees U+00FF for the stray byte" \
	"$(jq -j .comm "$OUT" | od -An -tx1 | tr -d ' \n')" \
	"$(printf 'a"b\nc\\d\x01\xc3\xbf' | od -An -tx1 | tr -d ' \n')"
# the recorder writes the same bytes, and nsaudit's reader gives them back
"$NSAUDIT" record --no-pin --log-dir "$TMP/hlog" --op unshare 2>"$TMP/hrec.err" & hr=$!
wait_ready "$TMP/hrec.err" $hr || fail "hostile comm: record did not become ready"
"$NSOPS" -n 'a"b\nc\d\x01\xff' unshare uts >/dev/null
sleep 0.2; kill -INT $hr; wait $hr
expect_eq "hostile comm: recorded with the same escaping" \
	"$(grep -ho '"comm":"a[^,]*",' "$TMP"/hlog/nsaudit-*.log)" '"comm":"a\"b\nc\\d\u0001\u00ff",'
check "hostile comm: the recorded log verifies" "$NSAUDIT" verify --log-dir "$TMP/hlog" -q
expect_eq "hostile comm: read back by search and written again the same way" \
	"$("$NSAUDIT" search --log-dir "$TMP/hlog" --op unshare --format json |
		grep -o '"comm":"a[^,]*",')" '"comm":"a\"b\nc\\d\u0001\u00ff",'
"$NSAUDIT" trace >"$TMP/text" 2>"$TMP/text.err" & tp=$!
wait_ready "$TMP/text.err" $tp || fail "hostile comm: text trace did not become ready"
"$NSOPS" -n 'x\ny' unshare uts >/dev/null
"$NSOPS" -n 'v\xffw' unshare uts >/dev/null
sleep 0.2; kill -INT $tp; wait $tp
expect_eq "hostile comm: text format stays one line per record" \
	"$(grep -c 'comm="x\\x0ay"' "$TMP/text")" 1
expect_eq "hostile comm: text format shows a byte that is not UTF-8 as \\xff" \
	"$(grep -c 'comm="v\\xffw"' "$TMP/text")" 1

# --- hostile paths: a bind mount whose mount point has a newline and quote
OUT=$TMP/path.jsonl
evil=$(printf '%s/pin"\n\001x' "$TMP")
touch "$evil"
trace_start "$OUT" --op mount,umount
mount --bind /proc/self/ns/uts "$evil" && umount "$evil"
sleep 0.2
trace_stop
check "hostile path: valid JSON lines" jq -e . "$OUT"
expect_eq "hostile path: mount and umount records, each one line" "$(wc -l <"$OUT")" 2
expect_eq "hostile path: exact bytes round-trip through JSON" \
	"$(jq -j 'select(.op=="mount") | .path' "$OUT" | od -An -tx1 | tr -d ' \n')" \
	"$(printf '%s' "$evil" | od -An -tx1 | tr -d ' \n')"

# --- a refused pin: an unprivileged nsenter against root's process
OUT=$TMP/denied.jsonl
sleep 30 & sl=$!
trace_start "$OUT" --op open --uid 65534	# not trace's own canaries (--hearing-interval), nor others' opens
setpriv --reuid=65534 --regid=65534 --clear-groups nsenter -t $sl -n true 2>/dev/null
setpriv --reuid=65534 --regid=65534 --clear-groups cat /proc/$sl/environ 2>/dev/null
sleep 0.2
trace_stop
kill $sl
expect_eq "refused open: one record, EACCES, uid 65534" \
	"$(jq -r '[.op, .result, .error, .uid, .comm] | join(" ")' "$OUT")" "open -13 EACCES 65534 nsenter"
expect_eq "refused open: names the target and the namespace it tried to pin" \
	"$(jq -r '[.ns_type, .ns_inum, .target_pid] | join(" ")' "$OUT")" \
	"net $(ns_inum /proc/$sl/ns/net 2>/dev/null || ns_inum /proc/self/ns/net) $sl"

# --- filters
OUT=$TMP/filter.jsonl
trace_start "$OUT" --type uts --op unshare
"$NSOPS" unshare net,uts,ipc >/dev/null
"$NSOPS" open /proc/self/ns/uts >/dev/null
sleep 0.2
trace_stop
expect_eq "--type uts --op unshare: only the uts unshare" \
	"$(jq -r '[.op, .ns_type] | join(":")' "$OUT" | sort -u | tr '\n' ' ')" "unshare:uts "
OUT=$TMP/pid.jsonl
unshare -u sleep 30 & sl=$!
sleep 0.2
trace_start "$OUT" --pid $sl
"$NSOPS" unshare uts >/dev/null
sleep 0.2
trace_stop
kill $sl
expect_eq "--pid: nothing from other processes" "$(wc -l <"$OUT")" 0
OUT=$TMP/comm.jsonl
trace_start "$OUT" --comm nsops-x
"$NSOPS" -n nsops-x unshare uts >/dev/null
"$NSOPS" -n nsops-y unshare uts >/dev/null
sleep 0.2
trace_stop
expect_eq "--comm: only that command" "$(jq -r .comm "$OUT" | sort -u)" nsops-x

# --- loss is reported: a 4 KiB ring cannot hold 20000 setns between drains
# (one record per call: coalesced, they would fit)
OUT=$TMP/lost.jsonl
# (--comm: other processes' setns on the machine neither fill the ring nor count)
trace_start "$OUT" --ring-size 4096 --op setns --no-coalesce --comm nsops-ring
"$NSOPS" -n nsops-ring setns-loop 20000 /proc/self/ns/net >/dev/null
sleep 0.3
trace_stop
got=$(jq -c 'select(.op=="setns")' "$OUT" | wc -l)
lost=$(jq -s '[.[] | select(.op=="lost") | .count] | add // 0' "$OUT")
expect_eq "small ring: delivered + lost == 20000" "$((got + lost))" 20000
[ "$lost" -gt 0 ] && pass "small ring: lost records reported with a count" ||
	fail "small ring: lost records reported with a count (lost=$lost)"

# --- bad arguments: exit 2 and one line naming the problem
bad() {	# bad "what" "expected text" ARGS...
	local what=$1 want=$2; shift 2
	"$NSAUDIT" "$@" >/dev/null 2>"$TMP/err"
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err"; then
		pass "bad input: $what"
	else
		fail "bad input: $what (rc=$rc, stderr: $(head -c 200 "$TMP/err"))"
	fi
}
bad "--pid abc" "not a process id" trace --pid abc
bad "--pid -5" "not a process id" trace --pid -5
bad "--pid of no process" "no such process" trace --pid 1073741823
bad "--format xml" "not text, json, ocsf or ecs" trace --format xml
bad "--type foo" "unknown namespace type 'foo'" trace --type net,foo
bad "--op bogus" "unknown operation 'bogus'" trace --op bogus
bad "--ring-size 1000" "power of two" trace --ring-size 1000
bad "unknown option" "unknown option '--frobnicate'" trace --frobnicate
bad "missing value" "needs a value" trace --pid
bad "unknown command" "unknown command 'frob'" frob
"$NSAUDIT" trace --help | grep -q -- '--type LIST' && pass "trace --help documents the filters" ||
	fail "trace --help documents the filters"
