#!/bin/bash
# Floods nobody named (issue 47's acceptance: "floods not named here").
# tests/helpers/nsstorm makes them; nsflood rare is root's rare process (20
# rounds of unshare, clone, setns, failed setns, open, bind mount, umount,
# pidfd ioctl, each in a fresh child). In `trace` (default coalescing:
# --no-coalesce gives GBs of JSON; FLOOD_UNNAMED_TRACE_ARGS) and in `record`
# (default retention, --no-coalesce), each flood FLOOD_SECS (3) long while
# root makes its rare records, and one (pre:) started before the tracer:
#   - root's rare records are all there, exact, once (rare-match.awk), no
#     lost record names a rare process; in record no segment was dropped
#     and verify passes;
#   - every thread group of the flood is accounted exactly: its records of
#     its ops + the lost records naming it == the calls it counted itself
#     (an exec storm: thousands of thread groups of one uid, each checked
#     by (pid, ppid): pids come back during a storm);
#   - no record of a flooder's pid says uid 0 (unless root floods), also
#     when it calls itself "nsrare" (root's rare comm) or "systemd", or
#     runs a file named systemd-journald (its records name that file); a pin
#     left in a dying mount namespace is told (inferred) once, with its
#     maker's pid and uid, never root's;
#   - in record the flood wrote at most its uid's budget (N + N/8 a second).
# Flood specs: [WHO:]KIND, KIND an nsstorm kind, WHO nobody (default; the
# kinds that make a user namespace then flood as its uid 0), mapped (uid
# 100000 as root of its own user namespace: a container root), root (a
# second root process), roots (two root processes at once: two parents of
# a fork flood each), daemon (nobody running a copy of nsstorm named
# systemd-journald), two (nobody and the mapped root at once), pre
# (nobody, started before the tracer: exact from its "mark", the calls it
# had made when the tracer said ready, to its total). Defaults (~2 min):
# trace execstorm, threads, mntns; record execstorm, two:pidfdns,
# daemon:comm, roots:execstorm, root:forktree (also tried:
# pidfdsetns_fail, unshare, clone3, pidfdsetns, handle, pinchurn,
# forktree; see docs/flood.md);
# pre:pinchurn in trace, pre:threads in record (FLOOD_UNNAMED_PRE: both).
# FLOOD_UNNAMED_KINDS sets both modes' (every kind was run for 8 s in both
# modes: docs/flood.md). root:forktree (a second root's storm of callers
# each with a parent of its own) took root's rare-first reserve until the
# kernel side's anchor (docs/flood.md section 2).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "unnamed floods"
require_cmd jq "unnamed floods"
require_cmd setpriv "unnamed floods"
NSFLOOD=$(dirname "$NSAUDIT")/helpers/nsflood
NSSTORM=$(dirname "$NSAUDIT")/helpers/nsstorm
require_built "$NSFLOOD" "unnamed floods"
require_built "$NSSTORM" "unnamed floods"
SECS=${FLOOD_SECS:-3}
ROUNDS=${FLOOD_RARE_ROUNDS:-20}
# (under 90 s: each mode its own; FLOOD_UNNAMED_KINDS: the same for both)
TRACE_KINDS=${FLOOD_UNNAMED_KINDS:-"execstorm threads mntns"}
RECORD_KINDS=${FLOOD_UNNAMED_KINDS:-"execstorm two:pidfdns daemon:comm roots:execstorm root:forktree"}
# the flood started before the tracer: nsfs pin churn (trace), 16 threads
# mid-call at the start-up snapshot (record: in trace, millions of records)
TRACE_PRE=${FLOOD_UNNAMED_PRE-pre:pinchurn}
RECORD_PRE=${FLOOD_UNNAMED_PRE-pre:threads}
MODES=${FLOOD_UNNAMED_MODES:-"trace record"}
# trace coalesces by default (GBs of JSON otherwise): FLOOD_UNNAMED_TRACE_ARGS=--no-coalesce
TRACE_ARGS=${FLOOD_UNNAMED_TRACE_ARGS-}
PINS=$TMP/pins
mkdir -p "$PINS" "$TMP/bin"
# daemon: nobody's flooder, a copy of nsstorm named like a system daemon
DAEMON=$TMP/bin/systemd-journald
cp "$NSSTORM" "$DAEMON"
chmod 755 "$TMP"
RARE_SECS=$(awk -v s="$SECS" 'BEGIN { printf "%.2f", s * 0.9 }')
PIN=/sys/fs/bpf/nsaudit-it-unnamed-$$
REC=
trap '[ -n "$REC" ] && kill -9 $REC 2>/dev/null; for f in "$PINS"/pin.*; do umount "$f" 2>/dev/null; done
	"$NSAUDIT" detach --pin-dir $PIN >/dev/null 2>&1; cleanup_testlib' EXIT

# one flooder: WHO KIND SECS, its lines to stdout
flooder() {
	case $1 in
	mapped) setpriv --reuid=100000 --regid=100000 --clear-groups unshare -Ur \
			"$NSSTORM" "$2" "$3" ;;
	root) "$NSSTORM" "$2" "$3" ;;
	daemon) setpriv --reuid=nobody --regid=nogroup --clear-groups "$DAEMON" "$2" "$3" ;;
	*) setpriv --reuid=nobody --regid=nogroup --clear-groups "$NSSTORM" "$2" "$3" ;;
	esac
}

# start the mode's tracer; its records end up in $TMP/$mode.jsonl
start_mode() {
	local mode=$1
	if [ "$mode" = trace ]; then
		"$NSAUDIT" trace --format json $TRACE_ARGS >"$TMP/$mode.jsonl" 2>"$TMP/$mode.err" &
	else
		rm -rf "$TMP/log"
		"$NSAUDIT" record --log-dir "$TMP/log" --pin-dir "$PIN" --no-coalesce --no-rules \
			2>"$TMP/$mode.err" &
	fi
	REC=$!
	wait_ready "$TMP/$mode.err" $REC
}

stop_mode() {
	local mode=$1
	sleep 2		# pins of dead mount namespaces: told within seconds
	kill -INT $REC
	wait $REC
	REC=
	if [ "$mode" = record ]; then
		cat "$TMP/log"/nsaudit-*.log >"$TMP/$mode.jsonl"
		check "record: the log verifies" "$NSAUDIT" verify --log-dir "$TMP/log"
		check "record: no segment was dropped" test -e "$TMP/log/nsaudit-000001.log"
	fi
}

now_utc() { date -u +%Y-%m-%dT%H:%M:%S.%NZ; }

# each flood's records are the ones of its time window (pids come back in
# a storm): from its start to the next one's (1.5 s later than its end:
# lost records come one reader pass later, the log budget's each second)
run_mode() {
	local mode=$1 spec who kind fp fp2 out prev=
	# the flood that starts before the tracer
	if [ -n "$PRE" ]; then
		prev=$TMP/$mode-$PRE.win
		now_utc >"$prev"
		out=$TMP/$mode-$PRE.flood
		flooder nobody "${PRE#*:}" 120 >"$out" 2>&1 &
		fp=$!
		sleep 1
	fi
	start_mode "$mode" || { fail "$mode starts: $(tail -n 3 "$TMP/$mode.err")"; return 1; }
	if [ -n "$PRE" ]; then
		kill -USR1 "$(awk '/^pid/{print $2; exit}' "$out")"
		"$NSFLOOD" rare "$ROUNDS" "$RARE_SECS" "$PINS" >"$TMP/$mode-$PRE.rare" 2>&1
		kill -TERM "$(awk '/^pid/{print $2; exit}' "$out")"
		wait $fp
		sleep 1.5
	fi
	for spec in $KINDS; do
		who=${spec%%:*} kind=${spec#*:}
		[ "$who" = "$spec" ] && who=nobody
		out=$TMP/$mode-$spec.flood
		fp2=
		[ -n "$prev" ] && now_utc >>"$prev"
		prev=$TMP/$mode-$spec.win
		now_utc >"$prev"
		if [ "$who" = two ]; then
			flooder mapped "$kind" "$SECS" >"$out.2" 2>&1 &
			fp2=$!
			who=nobody
		elif [ "$who" = roots ]; then
			flooder root "$kind" "$SECS" >"$out.2" 2>&1 &
			fp2=$!
			who=root
		fi
		flooder "$who" "$kind" "$SECS" >"$out" 2>&1 &
		fp=$!
		"$NSFLOOD" rare "$ROUNDS" "$RARE_SECS" "$PINS" >"$TMP/$mode-$spec.rare" 2>&1
		wait $fp $fp2
		sleep 1.5
	done
	stop_mode "$mode"
	now_utc >>"$prev"
}

# per actor: "PID CALLS RECORDS LOST UIDS" (UIDS: the uids its records
# say), from a flood file's actor lines and the records of its window
# (WIN: start and end); a record is the actor's by (pid, ppid), a lost
# record (no ppid) by (pid, uid, comm): UID the flooder's; a lost record
# of comm nsrare is a rare child's whose pid a root storm had too (only
# the comm kind calls itself that: SKIPCOMM empty then)
actor_sums() {
	awk -v uid="$3" -v t0="$(sed -n 1p "$4")" -v t1="$(sed -n 2p "$4")" -v skipcomm="$5" '
	FNR == NR {
		# a pid twice (it came back within the flood): one line, both
		# parents (a lost record names the pid only)
		if ($1 == "actor") { ops[$2] = $3; calls[$2] += $4; pp[$2] = pp[$2] " " $5 " "; uids[$2] = "" }
		next
	}
	function num(key,   v) {
		if (!match($0, "\"" key "\":-?[0-9]+"))
			return -1
		return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
	}
	function str(key) {
		if (!match($0, "\"" key "\":\"[^\"]*\""))
			return ""
		return substr($0, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
	}
	{
		p = num("pid")
		if (!(p in ops))
			next
		t = str("time")
		if (t < t0 || t >= t1)
			next
		o = str("op")
		if (o == "lost") {
			if (num("uid") == uid && str("lost_op") ~ "^(" ops[p] ")$" &&
			    (skipcomm == "" || str("comm") != skipcomm))
				lost[p] += num("count")
			next
		}
		if (index(pp[p], " " num("ppid") " ") == 0)
			next
		u = num("uid")
		if (index(uids[p], " " u " ") == 0)
			uids[p] = uids[p] " " u " "
		if (o ~ "^(" ops[p] ")$") {
			n = num("repeat")
			rec[p] += n < 1 ? 1 : n
		}
	}
	END {
		for (p in ops) {
			gsub(/ +/, ",", uids[p])
			printf "%s %d %d %d %s\n", p, calls[p], rec[p], lost[p], uids[p] == "" ? "-" : uids[p]
		}
	}' "$1" "$2"
}

uid_of() {
	case $1 in
	mapped) echo 100000 ;;
	root|roots) echo 0 ;;
	*) echo 65534 ;;
	esac
}

check_spec() {
	local mode=$1 spec=$2 flood=$TMP/$1-$2.flood rare=$TMP/$1-$2.rare o want got
	local n bad mark who skipcomm
	# root's candidate records: the window's (a pid and an inode can both
	# come back in another flood's window)
	awk -F '\t' -v t0="$(sed -n 1p "$TMP/$mode-$spec.win")" -v t1="$(sed -n 2p "$TMP/$mode-$spec.win")" \
		'$10 >= t0 && $10 < t1' "$TMP/$mode-rare-cand.tsv" >"$TMP/$mode-$spec.cand"
	for o in unshare clone setns setns_fail open mount umount pidfd; do
		want=$(awk -v o="$o" '$1 == o' "$rare" | wc -l)
		got=$(awk -v o="$o" -f "$TESTS_DIR/lib/rare-match.awk" "$rare" "$TMP/$mode-$spec.cand")
		if [ "$want" -lt "$ROUNDS" ]; then
			fail "$spec ($mode): root made only $want of $ROUNDS $o operations ($(grep -m 2 '^nsflood:' "$rare" | tr '\n' ' '))"
		else
			expect_eq "$spec ($mode): root's $want $o records arrive exact" "$got" "$want"
		fi
	done
	n=$(cat "$flood" "$flood".2 2>/dev/null | grep -c '^actor')
	if [ "$n" -eq 0 ] || grep -q '^nsstorm:\|^usage' "$flood" "$flood".2 2>/dev/null; then
		fail "$spec ($mode): the flooder ran ($(grep -hv '^actor' "$flood" | head -c 300))"
		return
	fi
	who=${spec%%:*}
	[ "$who" = "$spec" ] && who=nobody
	[ "${spec#*:}" = comm ] && skipcomm= || skipcomm=nsrare
	case $who in
	two) actor_sums "$flood" "$TMP/$mode.jsonl" 65534 "$TMP/$mode-$spec.win" "$skipcomm"
		actor_sums "$flood.2" "$TMP/$mode.jsonl" 100000 "$TMP/$mode-$spec.win" "$skipcomm" ;;
	roots) actor_sums "$flood" "$TMP/$mode.jsonl" 0 "$TMP/$mode-$spec.win" "$skipcomm"
		actor_sums "$flood.2" "$TMP/$mode.jsonl" 0 "$TMP/$mode-$spec.win" "$skipcomm" ;;
	*) actor_sums "$flood" "$TMP/$mode.jsonl" "$(uid_of "$who")" "$TMP/$mode-$spec.win" \
		"$skipcomm" ;;
	esac >"$TMP/$mode-$spec.sums"
	# no lost record of the window names one of root's rare processes (by
	# comm too: a root storm's child may have had a rare pid)
	awk '{ print "\"pid\":" $2 "," }' "$rare" | sort -u >"$TMP/$mode-$spec.pids"
	expect_eq "$spec ($mode): no lost record names root's rare processes" "$(grep -F '"op":"lost"' \
		"$TMP/$mode.jsonl" | grep -F -f "$TMP/$mode-$spec.pids" | jq -c --arg t0 "$(sed -n 1p \
		"$TMP/$mode-$spec.win")" --arg t1 "$(sed -n 2p "$TMP/$mode-$spec.win")" \
		'select(.uid == 0 and (.comm == "nsrare" or .comm == "nsflood") and
		.time >= $t0 and .time < $t1)' | head -n 3)" ""
	mark=$(awk '/^mark/{print $2; exit}' "$flood")
	if [ -n "$mark" ]; then
		# started before the tracer: every call after "ready" is there
		bad=$(awk -v m="$mark" '$3 + $4 > $2 || $3 + $4 < $2 - m' "$TMP/$mode-$spec.sums")
		expect_eq "$spec ($mode): the flooder's records + lost are its calls since ready ($(head -c 200 "$TMP/$mode-$spec.sums"), $mark before)" "$bad" ""
	else
		bad=$(awk '$2 != $3 + $4' "$TMP/$mode-$spec.sums" | head -n 5 | tr '\n' ';')
		expect_eq "$spec ($mode): each of $n flooding thread groups: records + lost == calls ($(awk '{c += $2; r += $3; l += $4} END {printf "%d + %d == %d", r, l, c}' "$TMP/$mode-$spec.sums"))" "$bad" ""
	fi
	# whose the records say they are: the flooder's uid only
	case $spec in
	root:*|roots:*) ;;
	*) expect_eq "$spec ($mode): no record of a flooder's pid says uid 0" \
		"$(awk '$5 ~ /,0,/' "$TMP/$mode-$spec.sums" | head -n 3 | tr '\n' ';')" "" ;;
	esac
	if [ "$mode" = record ] && [ "${spec%%:*}" != root ] && [ "${spec%%:*}" != roots ]; then
		# the budget: a uid's N + N/8 per second, two seconds banked
		got=$(awk '{ r += $3 } END { print r + 0 }' "$TMP/$mode-$spec.sums")
		[ "${spec%%:*}" = two ] && max=$(((SECS + 5) * 1152 * 2)) || max=$(((SECS + 5) * 1152))
		if [ "$got" -le "$max" ]; then
			pass "$spec ($mode): the flood wrote $got records (at most $max)"
		else
			fail "$spec ($mode): the flood wrote $got records (budget: at most $max)"
		fi
	fi
	if [ "$who" = daemon ]; then
		# its records name the file it ran, not the daemon's
		bad=$(grep -F "\"pid\":$(awk '/^pid/{print $2; exit}' "$flood")," "$TMP/$mode.jsonl" |
			grep -F '"exe":"' | grep -vcF "\"exe\":\"$DAEMON\"")
		expect_eq "$spec ($mode): its records' exe is the file it ran ($DAEMON)" "$bad" 0
	fi
	if [ "${spec#*:}" = mntns ]; then
		# each pin left in a dying mount namespace: one inferred umount
		# naming its maker (pid and uid), never root
		awk '/^held/{print $2}' "$flood" | sort -u >"$TMP/$mode-$spec.held"
		jq -r --arg t0 "$(sed -n 1p "$TMP/$mode-$spec.win")" \
			--arg t1 "$(sed -n 2p "$TMP/$mode-$spec.win")" \
			'select(.op == "umount" and .origin == "inferred" and .path == "/tmp/pin"
			and .time >= $t0 and .time < $t1) | "\(.maker_pid // 0) \(.uid // "none")"' \
			"$TMP/$mode.jsonl" |
			awk 'FNR == NR { h[$1] = 1; next } $1 in h' "$TMP/$mode-$spec.held" - \
			>"$TMP/$mode-$spec.inferred"
		expect_eq "$spec ($mode): every pin of a dead mount namespace is told once, by maker" \
			"$(sort -u "$TMP/$mode-$spec.inferred" | wc -l) $(wc -l <"$TMP/$mode-$spec.inferred")" \
			"$(wc -l <"$TMP/$mode-$spec.held") $(wc -l <"$TMP/$mode-$spec.held")"
		expect_eq "$spec ($mode): each says its maker's uid" "$(awk -v u="$(uid_of "$who")" \
			'$2 != u' "$TMP/$mode-$spec.inferred" | head -n 3 | tr '\n' ';')" ""
	fi
}

for mode in $MODES; do
	if [ "$mode" = trace ]; then KINDS=$TRACE_KINDS PRE=$TRACE_PRE
	else KINDS=$RECORD_KINDS PRE=$RECORD_PRE; fi
	run_mode "$mode" || continue
	awk '{ print "\"pid\":" $2 "," }' "$TMP/$mode"-*.rare | sort -u >"$TMP/$mode.pids"
	grep -F -f "$TMP/$mode.pids" "$TMP/$mode.jsonl" >"$TMP/$mode-rare.jsonl"
	jq -r 'select(.op != "lost" and .uid == 0) | [.op, (.pid // 0), (.ns_type // "-"),
		(.ns_inum // 0), (.result // 0), (.path // "-"), (.target_pid // 0), (.via // "-"),
		(.repeat // 1), .time] | @tsv' "$TMP/$mode-rare.jsonl" >"$TMP/$mode-rare-cand.tsv"
	echo "# $mode: floods done at ${SECONDS}s"
	for spec in $PRE $KINDS; do
		check_spec "$mode" "$spec"
	done
	echo "# $mode: checked at ${SECONDS}s"
	[ -n "$FLOOD_UNNAMED_KEEP" ] && cp "$TMP/$mode"* "$FLOOD_UNNAMED_KEEP"/
	rm -f "$TMP/$mode.jsonl"
done
