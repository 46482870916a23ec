#!/bin/bash
# The kernel's verifier has a budget of 1,000,000 instructions processed
# per program, and its time is most of nsaudit's start-up. A change that
# makes it walk a program many times over (a branch that splits every
# later path: 9b24959 took tp_exit_umount from 22,936 to 545,730, the
# load from 0.3 to 1 s) still loads, until it does not on some kernel.
# With NSAUDIT_VERIFIER_STATS=1 trace prints each program's count (the
# verifier's own, log level 4): every one of the default hook set and the
# set with freed stays within PROG_BUDGET (4x the largest today, a quarter
# of the kernel's limit), and all of them together within ALL_BUDGET.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "verifier budget"
PROG_BUDGET=${PROG_BUDGET:-250000}
ALL_BUDGET=${ALL_BUDGET:-500000}
for ops in "" "--op setns,unshare,clone,open,mount,umount,nsfd,query,freed"; do
	what="verifier budget${ops:+ ($ops)}"
	NSAUDIT_VERIFIER_STATS=1 NSAUDIT_SERIAL_LOAD=1 "$NSAUDIT" trace -v $ops \
		>/dev/null 2>"$TMP/err" &
	T=$!
	if ! wait_ready "$TMP/err" $T; then
		fail "$what: trace starts ($(grep -v verifier: "$TMP/err" | head -c 300))"
		kill -INT $T 2>/dev/null; wait $T 2>/dev/null
		continue
	fi
	kill -INT $T; wait $T
	awk '/^nsaudit: verifier: .* instructions/ { gsub(",", "", $6); print $3, $6 }' \
		"$TMP/err" >"$TMP/counts"
	n=$(wc -l <"$TMP/counts")
	if [ "$n" -lt 10 ]; then
		fail "$what: the verifier's counts were printed ($n programs)"
		continue
	fi
	expect_eq "$what: no program over $PROG_BUDGET instructions processed ($n programs)" \
		"$(awk -v b="$PROG_BUDGET" '$2 > b { printf "%s %s ", $1, $2 }' "$TMP/counts")" ""
	expect_eq "$what: all $n programs within $ALL_BUDGET instructions processed" \
		"$(awk -v b="$ALL_BUDGET" '{ s += $2 } END { if (s > b) print s }' "$TMP/counts")" ""
done
