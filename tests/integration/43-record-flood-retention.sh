#!/bin/bash
# The log's retention is not the flooder's (issue 47). `record`, default
# retention (256M x 16), --no-coalesce (every call a distinct record): while
# an actor floods for FLOOD_SECS, root's rare process makes FLOOD_RARE_ROUNDS
# rounds of rare operations (nsflood rare: unshare, clone, setns, failed
# setns, open, bind mount, umount, pidfd ioctl, each in a fresh child). The
# flooders: nobody's NS_GET_USERNS ioctls, nobody as uid 0 of its own user
# namespace unsharing, nobody's mixed NS_GET_* ioctls in turn (no two
# records alike), a container root mapped to 100000 (uid 100000 as
# root of its own user namespace) opening /proc/self/ns/net, and a second
# root process's ioctls (the same uid as the rare one: rare first, within
# a uid). After the run, from the log:
#   - root's rare records are all there, exact (pid, op, namespace) once;
#   - no segment was dropped (the first is still there) and verify passes;
#   - the flooder's records + the lost records naming it == its calls;
#   - no lost record names root's rare process or its children.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "record flood retention"
require_cmd jq "record flood retention"
require_cmd setpriv "record flood retention"
NSFLOOD=$(dirname "$NSAUDIT")/helpers/nsflood
require_built "$NSFLOOD" "record flood retention"
SECS=${FLOOD_SECS:-10}
ROUNDS=${FLOOD_RARE_ROUNDS:-20}
KINDS=${RETENTION_KINDS:-"nobody:ioctl nobody:unshare nobody:mixed mapped:open root:ioctl"}
PIN=/sys/fs/bpf/nsaudit-it-retention-$$
LOG=$TMP/log
PINS=$TMP/pins
mkdir -p "$PINS"
chmod 755 "$TMP"
RARE_SECS=$(awk -v s="$SECS" 'BEGIN { printf "%.2f", s * 0.9 }')
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; for f in "$PINS"/pin.*; do umount "$f" 2>/dev/null; done
	"$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

"$NSAUDIT" record --log-dir "$LOG" --pin-dir "$PIN" --no-coalesce --no-rules 2>"$TMP/rec.err" &
REC=$!
wait_ready "$TMP/rec.err" $REC || { fail "record starts: $(tail -n 3 "$TMP/rec.err")"; exit 0; }
for k in $KINDS; do
	who=${k%%:*} kind=${k#*:}
	case $who in
	nobody) setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$NSFLOOD" flood "$kind" "$SECS" ;;
	mapped) setpriv --reuid=100000 --regid=100000 --clear-groups unshare -Ur \
			"$NSFLOOD" flood "$kind" "$SECS" ;;
	*) "$NSFLOOD" flood "$kind" "$SECS" ;;
	esac >"$TMP/$k.flood" 2>&1 &
	fpid=$!
	"$NSFLOOD" rare "$ROUNDS" "$RARE_SECS" "$PINS" >"$TMP/$k.rare" 2>&1
	wait $fpid
done
sleep 1
kill -INT $REC
wait $REC
REC=
cat "$LOG"/nsaudit-*.log >"$TMP/all.jsonl"
check "the log verifies" "$NSAUDIT" verify --log-dir "$LOG"
check "no segment was dropped: the first is still there" test -e "$LOG/nsaudit-000001.log"
expect_eq "no record announces a dropped segment" \
	"$(grep -c '"op":"dropped"\|segments_dropped\|"dropped_segment' "$TMP/all.jsonl")" 0

# root's rare records: every op of the rare process's children, by pid
awk '{ print "\"pid\":" $2 "," }' "$TMP"/*.rare | sort -u >"$TMP/rare.pids"
grep -F -f "$TMP/rare.pids" "$TMP/all.jsonl" | grep -F '"uid":0,' |
	jq -r 'select(.op != "lost") | [.op, (.pid // 0), (.ns_type // "-"), (.ns_inum // 0),
	(.result // 0), (.path // "-"), (.target_pid // 0), (.via // "-"), (.repeat // 1)] | @tsv' \
	>"$TMP/rare-cand.tsv"
for k in $KINDS; do
	for o in unshare clone setns setns_fail open mount umount pidfd; do
		want=$(awk -v o="$o" '$1 == o' "$TMP/$k.rare" | wc -l)
		got=$(awk -v o="$o" -f "$TESTS_DIR/lib/rare-match.awk" "$TMP/$k.rare" "$TMP/rare-cand.tsv")
		if [ "$want" -lt "$ROUNDS" ]; then
			fail "flood $k: root made only $want of $ROUNDS $o operations ($(grep -m 2 '^nsflood:' "$TMP/$k.rare" | tr '\n' ' '))"
		else
			expect_eq "flood $k: root's $want $o records are in the log, exact" "$got" "$want"
		fi
	done
	# the flood adds up: records + the lost records naming the flooder
	fpid=$(awk '/^pid/{print $2}' "$TMP/$k.flood")
	calls=$(awk '/^calls/{print $2}' "$TMP/$k.flood")
	if [ -z "$fpid" ] || [ -z "$calls" ]; then
		fail "flood $k: the flooder ran ($(head -c 200 "$TMP/$k.flood"))"
		continue
	fi
	case ${k#*:} in ioctl) op=nsfd ;; mixed) op="nsfd|query" ;; *) op=${k#*:} ;; esac
	set -- $(grep -F "\"pid\":$fpid," "$TMP/all.jsonl" | jq -r --arg op "^($op)\$" \
		'if .op == "lost" then (if (.lost_op // "" | test($op)) then "l \(.count) \(.reason)" else empty end)
		 elif (.op | test($op)) then "r \(.repeat // 1)" else empty end' |
		awk '$1 == "r" { r += $2 } $1 == "l" { l += $2; if ($3 == "log_budget") b += $2 }
			END { printf "%d %d %d", r, l, b }')
	expect_eq "flood $k: records ($1) + the flooder's lost ($2, log_budget $3) == its $calls calls" \
		"$(($1 + $2))" "$calls"
	# the budget held: the flooder wrote at most its budget (1024/s, 2 s of burst)
	if [ "$1" -le $(((SECS + 4) * 1024)) ]; then
		pass "flood $k: the flooder wrote $1 records in ${SECS}s (its budget: 1024/s)"
	else
		fail "flood $k: the flooder wrote $1 records in ${SECS}s (budget 1024/s)"
	fi
done
expect_eq "no lost record names root's rare processes" \
	"$(grep -F '"op":"lost"' "$TMP/all.jsonl" | grep -F -f "$TMP/rare.pids" | wc -l)" 0
echo "# log: $(du -sh "$LOG" | cut -f1) in $(ls "$LOG"/nsaudit-*.log | wc -l) segments"
