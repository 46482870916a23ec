#!/bin/bash
# nsaudit-relp-dedup (the fleet collector's mmexternal plugin) on its own,
# with the inputs a collector restart, a reordering queue, a lost message
# and a hostile host can give it. rsyslog's protocol is one JSON line in,
# one JSON line out; a repeat is answered {"$!":{"nsaudit_dup":"1"}}.
# 61-fleet-relp.sh runs it inside the real collector.
. "$(dirname "$0")/../lib/testlib.sh"
require_cmd awk "relp dedup"
DEDUP=$TESTS_DIR/../packaging/rsyslog/nsaudit-relp-dedup
[ -x "$DEDUP" ] || { fail "packaging/rsyslog/nsaudit-relp-dedup is there and executable"; exit 0; }
FLEET=$TMP/fleet
mkdir -p "$FLEET/duplicates"
A=00000000000000aa B=00000000000000bb C=00000000000000cc D=00000000000000dd
DUP='{"$!":{"nsaudit_dup":"1"}}'

# what the collector wrote before it restarted: run A 1-5. A hostile comm
# spells run B's key inside its (escaped) value, the readable text run C's.
{
	for n in 1 2 3 4 5; do
		printf '2026-12-07T00:00:0%sZ h1 nsaudit 7 unshare [nsaudit@32473 op="unshare" comm="x\\" sink_run=\\"%s\\" sink_seq=\\"9\\"]" machine_id="a43" sink_run="%s" sink_seq="%s"] unshare sink_run="%s" sink_seq="1"]\n' \
			"$n" "$B" "$A" "$n" "$C"
	done
} >"$FLEET/h1-a43.log"
# what it kept apart is not what it wrote
printf 'x [nsaudit@32473 sink_run="%s" sink_seq="1"] y\n' "$D" >"$FLEET/duplicates/h1-a43.log"

msg() {	# RUN SEQ: a message as rsyslog hands it over (fulljson, after mmpstrucdata)
	printf '{ "msg": "t \\"sink_run\\": \\"%s\\", \\"sink_seq\\": \\"2\\"", "structured-data": "[nsaudit@32473 sink_run=\\"%s\\" sink_seq=\\"%s\\"]", "$!": { "rfc5424-sd": { "nsaudit@32473": { "sink_run": "%s", "sink_seq": "%s" } } } }\n' \
		"$C" "$1" "$2" "$1" "$2"
}
answers() { env -i "$DEDUP" "$FLEET" "$@" | tr '\n' ' '; }
r=$( {
	msg $A 3; msg $A 5	# written before the restart: repeats
	msg $A 6; msg $A 6	# new, then RELP sends it again
	msg $A 8; msg $A 7; msg $A 8; msg $A 7	# out of order: new, new, repeats
	msg $B 9		# only a hostile value spelled it: new
	msg $C 2		# only a readable text (and msg) spelled it: new
	msg $D 1		# only the duplicates file has it: new
	echo '{ "msg": "no key" }'
	msg $A 1234567890123456	# no sane seq: not deduplicated
} | answers)
expect_eq "repeats of what the files hold, in-run repeats and reordering are told apart; values, texts and duplicates/ do not count" \
	"$r" "$DUP $DUP {} $DUP {} {} $DUP $DUP {} {} {} {} {} "

# a message lost on its host leaves a gap that never fills: past the
# window (here 3 later keys) the gap is given up and memory stays bounded;
# a message later than that is filed as a repeat (kept in duplicates/)
r=$( { for n in 1 3 4 5 6; do msg $D "$n"; done; msg $D 7; msg $D 2; msg $D 6; } | answers 3)
expect_eq "a gap open for longer than the window is given up; keys above it still dedup" \
	"$r" "{} {} {} {} {} {} $DUP $DUP "
r=$( { for n in 1 3 4 5 6; do msg $D "$n"; done; msg $D 2; msg $D 2; } | answers 65536)
expect_eq "within the window a late message is still new, once" "$r" "{} {} {} {} {} {} $DUP "

# one answer per line, whatever the line holds (a 1 MiB message too)
big=$(head -c 1048576 /dev/zero | tr '\0' 'x')
r=$( { printf '{ "msg": "%s" }\n' "$big"; msg $A 99; msg $A 99; } | answers | wc -w)
expect_eq "one answer per message, a 1 MiB one too" "$r" 3
r=$(env -i "$DEDUP" "$FLEET" x </dev/null 2>&1; echo "rc=$?")
check "a window that is not a number: one line, exit 2" grep -q "GAP_WINDOW must be a number.*rc=2" <<<"$(tr '\n' ' ' <<<"$r")"
