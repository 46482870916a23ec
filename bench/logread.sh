# bench/logread.sh - sourced by bench/run.sh: how fast a log is read back.
#
# The recorder writes ~1 M records/s; a log that cannot be searched and
# verified at a comparable rate is not one a busy host can use. Measured
# on logs of the same records the recorder writes (tests/perf/recorder_rate):
#   search_records_per_s_nomatch  search --comm X that matches nothing
#   search_records_per_s_all      search --format json that matches everything
#                                 (into a file, as grep_all below)
#   search_text_records_per_s_all the same printed as text lines
#   grep_all_records_per_s        grep printing every line of the same
#                                 segments into a file: the disk-speed bar
#   search_all_vs_grep            search_records_per_s_all / grep_all (same
#                                 round): >= 0.5 is "within 2x of grep"
#   verify_records_per_s          verify with the log's key
#   grep_records_per_s, jq_records_per_s
#                                 grep and jq over the same bytes, for scale
#   search_nomatch_vs_grep, verify_vs_grep
#                                 search matching nothing and verify over
#                                 grep -c of the same round: what a loaded
#                                 machine does not change (a regression
#                                 shows here whatever the load)
#   ausearch_records_per_s        ausearch over an audit.log of as many
#                                 setns events as kernel audit writes them
#   search_since_1h_ms            search --since 1h over a log of many
#                                 segments spread over three weeks (written
#                                 under faketime), against
#   search_month_ms               the same search over the whole log
#   search_since_1h_records       how many records the --since 1h search
#                                 printed, and search_since_1h_share the
#                                 share of the log's setns records that is
#                                 (%): the hour must be a small part of the
#                                 log, as on a host, or the ratio says little
# Wall time of one run each, files in the page cache (a warm-up read first).
# Uses from run.sh: NSAUDIT HARNESS T ROUND sample na log field.
#
# The month log: a burst of N_MONTH records on each of the 21 days before
# now (one recorder_rate run each, under faketime, appending to one log in
# segments of 1 MB), one more of N_MONTH two hours ago, and N_MONTH/24 half
# an hour ago: the last hour holds about one part in 500 of the records, as
# a day's load spread evenly would. Bursts append to the segment the last
# one left, so the --since bound falls inside a segment that also holds
# older records (read, its old lines rejected unparsed), after ~100 that
# hold none (not read).

N_LOGREAD=${N_LOGREAD:-1000000}	# records of the big log
N_MONTH=${N_MONTH:-10000}	# records per day written into the month log
MONTH_RECORDS=0			# its setns records, counted once it is written
LOGREAD_READY=0

# logread_rate METRIC RECORDS CMD...: RECORDS / wall seconds of CMD
logread_rate() {
	local m=$1 n=$2 t0 ms
	shift 2
	t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	ms=$(ms_since "$t0")
	sample "$m" "$(awk -v n="$n" -v ms="$ms" 'BEGIN { printf "%.0f", (ms > 0 ? n * 1000 / ms : 0) }')"
}

# logread_rate_out METRIC RECORDS CMD...: the same, CMD's output into a
# file (not /dev/null, which grep notices and then prints nothing) in
# memory (/dev/shm when there is one): half a GB written to disk would
# time the disk's writeback, which lands on whichever run meets it
logread_rate_out() {
	local m=$1 n=$2 t0 ms out=$T/logread.out
	shift 2
	[ -d /dev/shm ] && [ -w /dev/shm ] && out=/dev/shm/nsaudit-bench-logread.$$
	t0=$EPOCHREALTIME
	"$@" >"$out" 2>/dev/null
	ms=$(ms_since "$t0")
	rm -f "$out"
	sample "$m" "$(awk -v n="$n" -v ms="$ms" 'BEGIN { printf "%.0f", (ms > 0 ? n * 1000 / ms : 0) }')"
}

# logread_vs METRIC A B: A / B of this round (the machine's load cancels)
logread_vs() {
	sample "$1" "$(awk -v a="$(value "$2")" -v b="$(value "$3")" \
		'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
}

# An audit.log of n setns events as kernel audit writes them: a SYSCALL
# and a PROCTITLE record each (FACTS.md: ~560 bytes per setns).
logread_audit_log() {
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) {
			t = sprintf("%d.%03d:%d", 1764990000 + int(i / 1000), i % 1000, i)
			printf "type=SYSCALL msg=audit(%s): arch=c000003e syscall=308 success=yes exit=0 a0=3 a1=40000000 a2=0 a3=0 items=0 ppid=4000 pid=4001 auid=4294967295 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm=\"nsbench\" exe=\"/work/build/bench/driver\" subj=unconfined key=\"nsaudit-bench\"\n", t
			printf "type=PROCTITLE msg=audit(%s): proctitle=2F776F726B2F6275696C642F62656E63682F647269766572006C6174007365746E73\n", t
		}
	}'
}

# Built once, before the first round.
logread_setup() {
	local d
	[ -x "$HARNESS" ] || { na search_records_per_s_nomatch "tests/perf/recorder_rate not built"; return 1; }
	log "log reading: writing a ${N_LOGREAD}-record log"
	"$HARNESS" -n "$N_LOGREAD" -p fields -s none -k 1000 -d "$T/logread" >/dev/null 2>&1 ||
		{ na search_records_per_s_nomatch "recorder_rate could not write the log"; return 1; }
	if command -v faketime >/dev/null; then
		# three weeks: every day, then 2 h ago and the last hour (above)
		log "log reading: writing a month log, ${N_MONTH} records a day"
		rm -rf "$T/month"
		for d in $(seq 21 -1 1 | sed 's/$/d:1/') 2h:1 30m:24; do
			faketime -f "-${d%%:*}" "$HARNESS" -a -m 1000000 -k 100000 \
				-n $((N_MONTH / ${d#*:})) -p fields -s none -d "$T/month" \
				>/dev/null 2>&1 || { rm -rf "$T/month"; break; }
		done
	fi
	if [ -d "$T/month" ]; then
		MONTH_RECORDS=$(cat "$T"/month/nsaudit-*.log | grep -c '"op":"setns"')
		log "log reading: month log of $(ls "$T"/month/nsaudit-*.log | wc -l) segments, $MONTH_RECORDS setns records"
	else
		na search_since_1h_ms "faketime missing or failed (make deps)"
	fi
	if command -v ausearch >/dev/null; then
		logread_audit_log "$N_LOGREAD" >"$T/audit.log"
	else
		na ausearch_records_per_s "ausearch missing (auditd)"
	fi
	cat "$T"/logread/*.log "$T"/audit.log >/dev/null 2>&1 # into the page cache
	LOGREAD_READY=1
}

run_logread() {
	local n=$N_LOGREAD t0 got
	[ "$LOGREAD_READY" = 1 ] || return 0
	logread_rate search_records_per_s_nomatch "$n" \
		"$NSAUDIT" search --log-dir "$T/logread" --comm nsaudit-nomatch
	logread_rate_out search_records_per_s_all "$n" \
		"$NSAUDIT" search --log-dir "$T/logread" --format json
	logread_rate_out grep_all_records_per_s "$n" grep -h '' "$T"/logread/nsaudit-*.log
	logread_vs search_all_vs_grep search_records_per_s_all grep_all_records_per_s
	logread_rate_out search_text_records_per_s_all "$n" \
		"$NSAUDIT" search --log-dir "$T/logread"
	logread_rate verify_records_per_s "$n" \
		"$NSAUDIT" verify --log-dir "$T/logread" --key "$T/logread/.key" --quiet
	logread_rate grep_records_per_s "$n" grep -c nsaudit-nomatch "$T"/logread/nsaudit-*.log
	logread_vs search_nomatch_vs_grep search_records_per_s_nomatch grep_records_per_s
	logread_vs verify_vs_grep verify_records_per_s grep_records_per_s
	logread_rate jq_records_per_s "$n" \
		sh -c 'exec jq -c "select(.comm == \"nsaudit-nomatch\")" "$@"' jq "$T"/logread/nsaudit-*.log
	[ -s "$T/audit.log" ] &&
		logread_rate ausearch_records_per_s "$n" ausearch -if "$T/audit.log" -c nsaudit-nomatch
	if [ -d "$T/month" ]; then
		t0=$EPOCHREALTIME
		"$NSAUDIT" search --log-dir "$T/month" --since 1h --op setns >/dev/null 2>&1
		sample search_since_1h_ms "$(ms_since "$t0")"
		t0=$EPOCHREALTIME
		"$NSAUDIT" search --log-dir "$T/month" --op setns >/dev/null 2>&1
		sample search_month_ms "$(ms_since "$t0")"
		# what the timed search found (counted apart: not in its time)
		got=$("$NSAUDIT" search --log-dir "$T/month" --since 1h --op setns 2>/dev/null | wc -l)
		sample search_since_1h_records "$got"
		sample search_since_1h_share \
			"$(awk -v a="$got" -v b="$MONTH_RECORDS" 'BEGIN { printf "%.3f", (b > 0 ? 100 * a / b : 0) }')"
	fi
	log "[round $ROUND/$ROUNDS] log reading: search $(value search_records_per_s_nomatch)/s (no match), verify $(value verify_records_per_s)/s, since 1h $(value search_since_1h_ms) ms ($(value search_since_1h_records) records), month $(value search_month_ms) ms"
}
