#!/bin/bash
# Flood fairness (issue 32): one actor's flood never costs another actor's
# record. For each flood kind an unprivileged user can repeat (open of
# /proc/self/ns/net, NS_GET_USERNS ioctl, pidfd PIDFD_GET_NET_NAMESPACE,
# failed setns, unshare in its own user namespace), and (issue 47) mixed
# NS_GET_* ioctls in turn (each record unlike the one before: nothing
# coalesces, even in the default mode), opens by a container root mapped
# to 100000 and ioctls by a second root process,
# in the default mode and
# with --no-coalesce: while nobody floods for FLOOD_SECS, root makes
# FLOOD_RARE_ROUNDS rounds of rare operations at random moments (unshare,
# clone CLONE_NEWUTS, setns into another netns, failed setns, open of
# another process's ns file, bind mount, umount, pidfd ioctl), each in a
# fresh child. Every one of root's records must arrive exact (pid, op,
# namespace = what the workload read itself), and the flood must add up:
# the flooder's records (sum of repeat) + the lost records that name it
# (pid, lost_op) == the calls it counted.
#
# The mount and umount assertions need the namespace of a bind mount and
# its unpin decided at the call (issue 25, branch "pins"): until that is
# merged they can fail under a flood (the reader resolves them from
# mountinfo, too late); they are marked "[needs pins]".
#
# Duration: 2 modes x 5 kinds x FLOOD_SECS (default 6 s, the issue asks
# 10: FLOOD_SECS=10 for that) + two attaches, and reading the records:
# ~450 MB of JSON with --no-coalesce. 3-5 minutes on the shared 2-core
# machine at load 16.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "flood fairness"
require_cmd jq "flood fairness"
require_cmd setpriv "flood fairness"
NSFLOOD=$(dirname "$NSAUDIT")/helpers/nsflood
require_built "$NSFLOOD" "flood fairness"
SECS=${FLOOD_SECS:-6}
ROUNDS=${FLOOD_RARE_ROUNDS:-20}
# a kind alone is nobody's; WHO:KIND names another flooder: mapped (uid
# 100000, root of its own user namespace: a container root mapped to
# 100000) or root (a second root process, the rare one's uid)
KINDS=${FLOOD_KINDS:-"open ioctl pidfd setns_fail unshare mixed mapped:open root:ioctl"}
PINS=$TMP/pins
mkdir -p "$PINS"
RARE_SECS=$(awk -v s="$SECS" 'BEGIN { printf "%.2f", s * 0.9 }')
trap 'for f in "$PINS"/pin.*; do umount "$f" 2>/dev/null; done; cleanup_testlib' EXIT

# the op a flood kind's records have (an alternation: mixed has two)
flood_op() {
	case ${1#*:} in
	open) echo open ;;
	ioctl | pidfd) echo nsfd ;;
	mixed) echo "nsfd|query" ;;
	setns_fail) echo setns ;;
	unshare) echo unshare ;;
	esac
}

# one mode: a trace, every flood kind in turn with root's rare operations
run_mode() {
	local mode=$1 out=$TMP/$1.jsonl kind fpid
	shift
	trace_start "$out" "$@" || { fail "flood fairness ($mode): trace starts"; return 1; }
	for kind in $KINDS; do
		case $kind in
		mapped:*) setpriv --reuid=100000 --regid=100000 --clear-groups unshare -Ur \
				"$NSFLOOD" flood "${kind#*:}" "$SECS" ;;
		root:*) "$NSFLOOD" flood "${kind#*:}" "$SECS" ;;
		*) setpriv --reuid=nobody --regid=nogroup --clear-groups \
				"$NSFLOOD" flood "$kind" "$SECS" ;;
		esac >"$TMP/$mode-$kind.flood" 2>&1 &
		fpid=$!
		"$NSFLOOD" rare "$ROUNDS" "$RARE_SECS" "$PINS" >"$TMP/$mode-$kind.rare" 2>&1
		wait $fpid
	done
	sleep 1		# the held records of the last flood: the reader's timer
	trace_stop
	# the records of root's rare processes (by pid: a shared machine has
	# other root floods too), one line each with the fields the checks need
	awk '{ print "\"pid\":" $2 "," }' "$TMP/$mode"-*.rare | sort -u >"$TMP/$mode.pids"
	grep -F -f "$TMP/$mode.pids" "$out" | grep -F '"uid":0,' |
		jq -r 'select(.op != "lost") | [.op, (.pid // 0),
		(.ns_type // "-"), (.ns_inum // 0), (.result // 0), (.path // "-"),
		(.target_pid // 0), (.via // "-"), (.repeat // 1)] | @tsv' >"$TMP/$mode-rare-cand.tsv"
	# root's pins that came back as vanished (no actor, probe user): an
	# umount the reader saw late must still be the umount call's record
	grep -F "\"path\":\"$PINS/" "$out" | grep -F '"op":"umount"' |
		jq -c 'select(.cause != null or (.pid // 0) == 0 or .probe == "user")' >"$TMP/$mode-vanished.jsonl"
	# (no lost record at all is fine: grep's status must not end the mode)
	grep -F '"op":"lost"' "$out" >"$TMP/$mode-lost.jsonl" || true
}

# the flood adds up: records + lost records naming the flooder == calls
check_flood() {
	local mode=$1 kind=$2 fpid calls op sums
	fpid=$(awk '/^pid/{print $2}' "$TMP/$mode-$kind.flood")
	calls=$(awk '/^calls/{print $2}' "$TMP/$mode-$kind.flood")
	if [ -z "$fpid" ] || [ -z "$calls" ]; then
		fail "flood $kind ($mode): the flooder ran ($(head -c 200 "$TMP/$mode-$kind.flood"))"
		return
	fi
	op=$(flood_op "$kind")
	# the flooder's records: hundreds of thousands with --no-coalesce, so
	# awk on the raw lines (one JSON object per line, nsaudit's field order)
	sums=$(grep -F "\"pid\":$fpid," "$TMP/$mode.jsonl" | awk -v op="\"op\":\"($op)\"" \
		-v lop="\"lost_op\":\"($op)\"" '
		function num(key,   v) {
			if (!match($0, "\"" key "\":[0-9]+"))
				return -1
			return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
		}
		index($0, "\"op\":\"lost\"") { if ($0 ~ lop) lost += num("count"); next }
		$0 ~ op { n = num("repeat"); rec += (n < 1 ? 1 : n); nrec++ }
		END { printf "%d %d %d", rec, lost, nrec }')
	set -- $sums
	expect_eq "flood $kind ($mode): records ($1 in $3) + the flooder's lost ($2) == its $calls calls" \
		"$(($1 + $2))" "$calls"
}

# every one of root's rare operations arrives exact, once
check_rare() {
	local mode=$1 kind=$2 rare=$TMP/$1-$2.rare o want got
	for o in unshare clone setns setns_fail open mount umount pidfd; do
		want=$(awk -v o="$o" '$1 == o' "$rare" | wc -l)
		got=$(awk -v o="$o" -f "$TESTS_DIR/lib/rare-match.awk" "$rare" "$TMP/$mode-rare-cand.tsv")
		case $o in
		mount | umount) tag=" [needs pins]" ;;
		*) tag= ;;
		esac
		if [ "$want" -lt "$ROUNDS" ]; then
			fail "flood $kind ($mode): root made only $want of $ROUNDS $o operations$tag ($(grep -m 2 '^nsflood:' "$rare" | tr '\n' ' '))"
		else
			expect_eq "flood $kind ($mode): root's $want $o records arrive exact$tag" "$got" "$want"
		fi
	done
}

for mode in default nocoalesce; do
	if [ $mode = default ]; then run_mode $mode; else run_mode $mode --no-coalesce; fi || continue
	for kind in $KINDS; do
		check_flood $mode "$kind"
		check_rare $mode "$kind"
	done
	# no lost record names a root actor (root's rare process or its
	# children: by pid, other root processes on a shared machine flood too)
	rl=$(grep -F -f "$TMP/$mode.pids" "$TMP/$mode-lost.jsonl" | jq -c 'select(.uid == 0)' | wc -l)
	expect_eq "flood ($mode): no lost record names a root actor" "$rl" 0
	n=$(jq -c 'select(.pid == null)' "$TMP/$mode-lost.jsonl" | wc -l)
	expect_eq "flood ($mode): no anonymous lost record (every loss names its actor)" "$n" 0
	n=$(wc -l <"$TMP/$mode-vanished.jsonl")
	expect_eq "flood ($mode): no umount of root's pins arrives without its actor (vanished)" \
		"$n" 0
	rm -f "$TMP/$mode.jsonl"	# hundreds of MB with --no-coalesce
done
