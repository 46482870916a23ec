#!/bin/bash
# nsaudit trace colours its text only on a terminal, and never with NO_COLOR.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace colour"
require_cmd script "trace colour"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "trace colour"

run() {	# OUT ENV... : trace on a pseudo-terminal (script) while nsops runs
	local out=$1; shift
	# script runs the command with $SHELL -c; under dash that shell stays
	# as nsaudit's parent, so the command records its own pid and execs:
	# the signal goes to nsaudit whatever the shell. timeout is the
	# backstop should the signal ever be missed.
	rm -f "$TMP/trace.pid"
	env "$@" script -qfec "echo \$\$ >$TMP/trace.pid; exec timeout --foreground -s INT 30 $NSAUDIT trace --comm nscolour" \
		/dev/null >"$out" 2>&1 </dev/null &
	local sp=$!
	for i in $(seq 1 400); do grep -q 'nsaudit: ready' "$out" && break; sleep 0.05; done
	"$NSOPS" -n nscolour unshare uts >/dev/null
	sleep 0.3
	pkill -INT -x nsaudit -P "$(cat "$TMP/trace.pid")" 2>/dev/null
	wait "$sp"
}
ESC=$(printf '\033')
run "$TMP/tty" NSAUDIT_X=1
grep -q "unshare.*uts:\[" "$TMP/tty" && pass "on a terminal: the record is printed" ||
	fail "on a terminal: the record is printed: $(cat "$TMP/tty")"
grep -q "$ESC\[1munshare" "$TMP/tty" && pass "on a terminal: coloured" || fail "on a terminal: coloured"
run "$TMP/nocolor" NO_COLOR=1
grep -q "unshare.*uts:\[" "$TMP/nocolor" && ! grep -q "$ESC\[" "$TMP/nocolor" &&
	pass "NO_COLOR=1: no escape sequences" || fail "NO_COLOR=1: no escape sequences"
run "$TMP/empty" NO_COLOR=
grep -q "$ESC\[1munshare" "$TMP/empty" && pass "NO_COLOR empty: colour stays (no-color.org)" ||
	fail "NO_COLOR empty: colour stays"
"$NSAUDIT" trace --comm nscolour >"$TMP/pipe" 2>"$TMP/pipe.err" &
tp=$!
wait_ready "$TMP/pipe.err" $tp || fail "not a terminal: trace did not become ready"
"$NSOPS" -n nscolour unshare uts >/dev/null
sleep 0.3
kill -INT $tp; wait $tp
grep -q "unshare" "$TMP/pipe" && ! grep -q "$ESC\[" "$TMP/pipe" &&
	pass "not a terminal: plain text" || fail "not a terminal: plain text"
