#!/bin/bash
# bench/run.sh - "make bench": what nsaudit costs the system it watches,
# side by side with bpftrace and the kernel's own audit.
#
# Every figure is a ratio against an untraced run measured right before it,
# in the same round; rounds are repeated and the order of the tools rotates
# from round to round, so that the noise of a shared machine (other builds,
# other tests) falls on both sides of each ratio. Reported: median and
# [min-max] over the rounds. See bench/README.md for what each number means.
#
# The floor: empty BPF programs (build/bench/floor) on the entry and exit
# tracepoints of every syscall nsaudit traces, the cost below which no
# design that sees a call and its return can go; nsaudit's added cost is
# given as a ratio to the floor's. Where nsaudit traces a syscall at its
# exit alone (setns), "floor_exit" is the stricter floor: empty programs on
# exactly nsaudit's hooks.
#
# Writes build/bench.json and prints a table. Runs as root; takes ~8 min.
# Knobs (environment): BENCH_ROUNDS (5), BENCH_RATE_SECS (5), BENCH_QUICK=1
# (2 rounds, 2 s max-rate: a smoke test, not a measurement), BENCH_ONLY
# (a subset of the configurations, e.g. "aa floor record rate"; "kmem" the
# rows of op freed's kmem hooks (run_kmem); "rate" is
# the max-rate runs, "logread" search and verify over logs (bench/logread.sh),
# "startup" where a start goes (bench/startup.sh), "anchorlag" the tail
# anchors' lag at the maximum rate (bench/anchorlag.sh), "harness" the recorder
# alone and its parts per record: for trying the bench out, not for figures).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build}
NSAUDIT=${NSAUDIT:-$ROOT/$BUILD/nsaudit}
DRIVER=${DRIVER:-$ROOT/$BUILD/bench/driver}
FLOOR=${FLOOR:-$ROOT/$BUILD/bench/floor}
HARNESS=${HARNESS:-$ROOT/$BUILD/perf/recorder_rate}
OUT_JSON=${BENCH_JSON:-$ROOT/$BUILD/bench.json}
ROUNDS=${BENCH_ROUNDS:-5}
RATE_SECS=${BENCH_RATE_SECS:-5}
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	ROUNDS=${BENCH_ROUNDS:-2} RATE_SECS=2
fi
# paced setns: bursts of 1000 calls, 25 ms apart (40k setns/s offered)
N_PACED=20000 PACE_BATCH=1000 PACE_US=25000
N_BURST=50000		# setns back to back, as fast as one thread can
N_FORK=1000		# fork + exit + wait, for the fork hooks' bpf_stats figure
N_EXEC=200		# fork + exec /bin/true + exit + wait: the exec hook's
N_IOCTL=100000		# ioctl(FIONREAD) on a pipe: the ioctl hooks'
N_MOUNT=1000		# tmpfs mount + umount in a private mount ns: the mount hooks'
N_OC=100000		# open+close of an unrelated file, back to back
N_SYNC=10000		# paced setns under each --sync setting
N_HARNESS=1000000	# records through the recorder alone (run_harness)
N_RARE=$((RATE_SECS * 40))	# rounds of rare operations during a mixed flood
COMM=nsbench		# the driver's process name (prctl), to find its records
RARE_COMM=nsrare	# the mixed flood's process of rare operations
STOP_TIMEOUT=20		# seconds a tool gets to drain and exit before SIGKILL

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (BPF, audit)"
[ -x "$NSAUDIT" ] || die "$NSAUDIT missing: run 'make bench' (or make)"
[ -x "$DRIVER" ] || die "$DRIVER missing: run 'make bench'"
[ -x "$FLOOR" ] || die "$FLOOR missing: run 'make bench'"
command -v jq >/dev/null || die "jq missing: run 'make deps'"
"$ROOT/tests/lib/mount-fs.sh"

T=$(mktemp -d /tmp/nsaudit-bench.XXXXXX)
chmod 700 "$T"
SAMPLES=$T/samples.tsv NA=$T/na.tsv
: >"$SAMPLES"
: >"$NA"
echo cold >"$T/bench-file"	# the unrelated file of open+close
export BENCH_FILE=$T/bench-file BENCH_COMM=$COMM BENCH_RARE_COMM=$RARE_COMM BENCH_TMP=$T

# a sleep without a fork: read from a fifo nobody writes
mkfifo "$T/sleep.fifo"
exec {SLEEPFD}<>"$T/sleep.fifo"
nap() { read -r -t "$1" -u "$SLEEPFD" _ 2>/dev/null || true; }

# ---------------------------------------------------------------------------
# state to restore, whatever happens

TOOL_PID="" AUDITD_PID="" AUDIT_ENABLED0="" PIN_DIR="" PINS_OURS=0 STATS0=""

is_running() {	# a child that has not exited (a zombie has)
	[ -r "/proc/$1/stat" ] && ! awk '{ sub(/^.*\) /, ""); exit $1 != "Z" }' "/proc/$1/stat" 2>/dev/null
}

stop_pid() {	# stop_pid PID SIGNAL: signal, wait up to STOP_TIMEOUT, then SIGKILL
	local pid=$1 sig=$2 i
	[ -n "$pid" ] || return 0
	kill -"$sig" "$pid" 2>/dev/null
	for ((i = 0; i < STOP_TIMEOUT * 20; i++)); do
		is_running "$pid" || break
		nap 0.05
	done
	if is_running "$pid"; then
		log "warning: pid $pid did not exit ${STOP_TIMEOUT}s after SIG$sig: killing it"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}

AUDIT_RULE=(always,exit -F arch=b64 -S setns -S unshare)
audit_pid() { auditctl -s 2>/dev/null | awk '$1 == "pid" { print $2 }'; }

# Undo what the bench did to audit, and only that: other sessions on this
# machine start their own auditd (tests), whose state is not ours to reset.
audit_restore() {
	[ -n "$AUDITD_PID" ] || return 0
	if [ "$(audit_pid)" = "$AUDITD_PID" ]; then
		# there were no rules before ours (checked): deleting ours is
		# "auditctl -D" without taking anyone else's added since
		[ "$AUDIT_RULE_ADDED" = 1 ] && auditctl -d "${AUDIT_RULE[@]}" >/dev/null 2>&1
		auditctl -e "${AUDIT_ENABLED0:-0}" >/dev/null 2>&1
	fi
	AUDIT_RULE_ADDED=0
	stop_pid "$AUDITD_PID" TERM
	AUDITD_PID=""
}
AUDIT_RULE_ADDED=0

detach_pins() {	# only pins this bench created
	[ "$PINS_OURS" = 1 ] && [ -n "$PIN_DIR" ] && [ -e "$PIN_DIR" ] || return 0
	"$NSAUDIT" detach --pin-dir "$PIN_DIR" >/dev/null 2>&1 ||
		log "warning: could not detach $PIN_DIR"
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$TOOL_PID" ]; then
		stop_pid "$TOOL_PID" INT
		TOOL_PID=""
	fi
	detach_pins
	audit_restore
	stats_restore
	rm -rf "$T"
	exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted: restoring"; exit 130' INT TERM

# ---------------------------------------------------------------------------
# what can run here

HAVE_RECORD=0 HAVE_BPFTRACE=0 HAVE_AUDIT=0 RECORD_PIN_OPT=0
if "$NSAUDIT" record --help >"$T/record-help" 2>&1; then
	HAVE_RECORD=1
	grep -q -- '--pin-dir' "$T/record-help" && RECORD_PIN_OPT=1
	grep -q -- '--sync' "$T/record-help" || log "note: nsaudit record has no --sync option"
fi
NA_RECORD="n/a (nsaudit record not built)"
# the MAC key, made once: a recorder's first start would otherwise make one
if [ "$HAVE_RECORD" = 1 ] && ! "$NSAUDIT" keygen "$T/key" >/dev/null 2>&1; then
	log "nsaudit keygen failed: nsaudit record rows skipped"
	HAVE_RECORD=0 NA_RECORD="n/a (nsaudit keygen failed)"
fi

if [ "$HAVE_RECORD" = 1 ]; then
	if [ "$RECORD_PIN_OPT" = 1 ]; then
		PIN_DIR=/sys/fs/bpf/nsaudit-bench-$$
	else
		PIN_DIR=/sys/fs/bpf/nsaudit
	fi
	if [ -e "$PIN_DIR" ]; then
		# a recorder's programs are pinned: the machine is being traced,
		# every "untraced" baseline would be traced too
		log "$PIN_DIR exists (a recorder is attached): nsaudit record rows skipped"
		HAVE_RECORD=0
		NA_RECORD="n/a ($PIN_DIR exists: a recorder is already attached)"
	fi
fi

# In-kernel coalescing of identical consecutive records: record then has
# --no-coalesce, and coalesces by default.
HAVE_COALESCE=0
NA_COALESCE="n/a (nsaudit record has no --no-coalesce: no in-kernel coalescing in this build)"
if [ "$HAVE_RECORD" = 1 ] && grep -q -- '--no-coalesce' "$T/record-help"; then
	HAVE_COALESCE=1
fi
NOCOALESCE_ARGS=()
[ "$HAVE_COALESCE" = 1 ] && NOCOALESCE_ARGS=(--no-coalesce)

# Forward-secure sealing is record's default with a key from nsaudit keygen;
# "today's" recording is a key of the previous kind (64 hex digits: one
# keyed MAC per record, the key never evolves). Both are timed in a round.
HAVE_SEAL=0 NA_SEAL="n/a (nsaudit record not built)"
if [ "$HAVE_RECORD" = 1 ]; then
	if [ "$(wc -l <"$T/key")" -le 1 ] && grep -Eqx '[0-9a-fA-F]{64}' "$T/key"; then
		NA_SEAL="n/a (no forward-secure sealing in this build: nsaudit keygen makes a plain MAC key)"
	else
		HAVE_SEAL=1
		(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$T/legacy-key" &&
			echo >>"$T/legacy-key")
	fi
fi
KEY_FILE=$T/key	# the key the next recorder starts with
RECORD_EXTRA=()	# more options for the next recorder

if command -v bpftrace >/dev/null; then HAVE_BPFTRACE=1; fi
NA_BPFTRACE="n/a (bpftrace not installed)"

NA_AUDIT="n/a (auditd/auditctl not installed)"
if command -v auditd >/dev/null && command -v auditctl >/dev/null; then
	st=$(auditctl -s 2>&1)
	apid=$(awk '$1 == "pid" { print $2 }' <<<"$st")
	AUDIT_ENABLED0=$(awk '$1 == "enabled" { print $2 }' <<<"$st")
	if [ -z "$apid" ]; then
		NA_AUDIT="n/a (auditctl -s failed: $(head -n1 <<<"$st"))"
	elif [ "$apid" != 0 ]; then
		log "auditd is already running (pid $apid): left alone, audit row skipped"
		NA_AUDIT="n/a (auditd already running, pid $apid: left alone)"
	elif [ "$AUDIT_ENABLED0" = 2 ]; then
		NA_AUDIT="n/a (audit configuration is locked, enabled=2)"
	elif [ "$(auditctl -l 2>/dev/null)" != "No rules" ]; then
		NA_AUDIT="n/a (audit rules are loaded: not ours to delete)"
	else
		HAVE_AUDIT=1
	fi
fi

# Other tracers of setns (other people's tests run nsaudit trace on this
# machine) make a baseline a traced run: wait for them to go, within a budget.
FOREIGN_WAIT_BUDGET=${BENCH_FOREIGN_WAIT:-90}	# seconds, over the whole run
foreign_tracers() {	# processes other than our tool with a setns tracepoint,
	# plus setns programs no process holds (links pinned by a recorder)
	local procs pinned
	procs=$(bpftool perf show 2>/dev/null | awk -v self="${TOOL_PID:-0}" \
		'/sys_e[a-z]*_setns/ && $2 != self { p[$2] = 1 } END { print length(p) }')
	pinned=$(bpftool prog show -j 2>/dev/null |
		jq '[.[] | select((.name // "" | test("setns")) and (.pids == null))] | length' 2>/dev/null)
	echo $((procs + ${pinned:-0} / 2))
}
wait_quiet() {
	local n i=0
	n=$(foreign_tracers)
	[ "$n" = 0 ] && return 0
	[ "$FOREIGN_WAIT_BUDGET" -gt 0 ] && [ "$FOREIGN_WAITED" = 0 ] &&
		log "$n other process(es) trace setns: waiting for quiet moments (budget ${FOREIGN_WAIT_BUDGET}s in all)"
	FOREIGN_WAITED=1
	while [ "$n" != 0 ] && [ "$FOREIGN_WAIT_BUDGET" -gt 0 ]; do
		nap 1
		FOREIGN_WAIT_BUDGET=$((FOREIGN_WAIT_BUDGET - 1))
		n=$(foreign_tracers)
	done
	[ "$n" = 0 ] && return 0
	[ "$FOREIGN_ROUNDS" = 0 ] && log "warning: $n other setns tracer(s) still attached: baselines are traced too (counted in bench.json)"
	FOREIGN_ROUNDS=$((FOREIGN_ROUNDS + 1))
}
FOREIGN_ROUNDS=0 FOREIGN_WAITED=0

# ---------------------------------------------------------------------------
# measuring

sample() {	# a value that is not a number is a bug of ours: say so, keep none
	if [[ $2 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
		printf '%s\t%s\t%s\n' "$ROUND" "$1" "$2" >>"$SAMPLES"
	else
		log "warning: $1: '$2' is not a number (round $ROUND): not counted"
	fi
}
na() { grep -q "^$1	" "$NA" || printf '%s\t%s\n' "$1" "$2" >>"$NA"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'; }
r2() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (a + b) / 2 }'; }

# measure KIND: run the driver; sets M_SETNS_CPU M_SETNS_WALL M_OC_CPU M_BURST_CPU
# KIND full: paced setns, open+close, burst setns; sync: paced setns only
measure() {
	local out
	M_SETNS_CPU=0 M_SETNS_WALL=0 M_OC_CPU=0 M_BURST_CPU=0 M_CALLS=0
	local n=$N_PACED
	[ "$1" = sync ] && n=$N_SYNC
	out=$("$DRIVER" lat setns "$n" "$PACE_BATCH" "$PACE_US") || log "driver failed: $out"
	M_SETNS_CPU=$(field cpu_ns "$out") M_SETNS_WALL=$(field wall_ns "$out")
	M_CALLS=$((n + n / 10 + 1))	# + warm-up + the first, checked call
	[ "$1" = sync ] && return 0
	out=$("$DRIVER" lat openclose "$N_OC") || log "driver failed: $out"
	M_OC_CPU=$(field cpu_ns "$out")
	out=$("$DRIVER" lat setns "$N_BURST") || log "driver failed: $out"
	M_BURST_CPU=$(field cpu_ns "$out")
	M_CALLS=$((M_CALLS + N_BURST + N_BURST / 10 + 1))
}

# "run_time_ns run_cnt" summed over the programs whose name matches RE
prog_stats() {
	bpftool prog show -j 2>/dev/null | jq -r --arg re "$1" '
		[.[] | select(.name != null and (.name | test($re)))] |
		"\(map(.run_time_ns // 0) | add // 0) \(map(.run_cnt // 0) | add // 0)"'
}

# stats_per_call RE CALLS CMD...: run CMD, which makes CALLS calls; the
# run time of the programs matching RE, in ns per call (whatever number of
# programs a call runs: entry and exit, or the exit alone)
stats_per_call() {
	local re=$1 calls=$2 s0 s1
	shift 2
	s0=$(prog_stats "$re")
	"$@" >/dev/null
	s1=$(prog_stats "$re")
	awk -v a="$s0" -v b="$s1" -v n="$calls" 'BEGIN { split(a, x); split(b, y);
		if (y[2] > x[2] && n > 0) printf "%.1f", (y[1] - x[1]) / n }'
}

# prog_ns NAME: the kernel's own timing (bpf_stats) of the programs NAME
# (record or floor) runs on the open and setns hooks, in ns per call; sets
# P_OC_NS P_SETNS_NS. The CPU ratios cannot resolve a difference of tens
# of ns per call on a busy machine; this can. A run of its own, after the
# pair's traced run: the stats' two clock reads per program run must not
# be in the ratios. The sysctl goes back to what it was (cleanup too).
prog_ns() {
	local oc setns fork exec ioctl mount
	P_OC_NS="" P_SETNS_NS="" P_FORK_NS="" P_EXEC_NS="" P_IOCTL_NS="" P_MOUNT_NS=""
	case $1 in
	record)
		oc='^tp_exit_openat(_fops)?$' setns='^tp_(enter|exit)_setns$'
		fork='^tp_(fork|enter_clone|exit_clone|exit_flush)$'
		# an exec's loader opens its libraries: the open hook is passed too
		exec='^tp_(exec|fork|enter_clone|exit_clone|exit_flush|exit_openat)$'
		ioctl='^tp_(enter|exit)_ioctl$' mount='^tp_(enter|exit)_u?mount$' ;;
	floor | floor_exit)
		# fork, exec and exit are raw tracepoints: floor_raw_tp
		oc='^floor_tp$' setns='^floor_tp$' fork='^floor_(raw_)?tp$' exec='^floor_(raw_)?tp$'
		ioctl='^floor_tp$' mount='^floor_tp$' ;;
	*) return 0 ;;
	esac
	STATS0=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null) || return 0
	sysctl -qw kernel.bpf_stats_enabled=1 2>/dev/null || return 0
	# the driver's calls: one probe, N/10 to warm up, N measured
	P_OC_NS=$(stats_per_call "$oc" $((N_OC + N_OC / 10 + 1)) "$DRIVER" lat openclose "$N_OC")
	P_SETNS_NS=$(stats_per_call "$setns" $((N_PACED + N_PACED / 10 + 1)) \
		"$DRIVER" lat setns "$N_PACED" "$PACE_BATCH" "$PACE_US")
	if [ "$1" != floor_exit ]; then
		P_FORK_NS=$(stats_per_call "$fork" $((N_FORK + N_FORK / 10 + 1)) "$DRIVER" lat fork "$N_FORK")
		P_EXEC_NS=$(stats_per_call "$exec" $((N_EXEC + N_EXEC / 10 + 1)) "$DRIVER" lat exec "$N_EXEC")
		P_IOCTL_NS=$(stats_per_call "$ioctl" $((N_IOCTL + N_IOCTL / 10 + 1)) \
			"$DRIVER" lat ioctl "$N_IOCTL")
		P_MOUNT_NS=$(stats_per_call "$mount" $((N_MOUNT + N_MOUNT / 10 + 1)) \
			"$DRIVER" lat mount "$N_MOUNT")
	fi
	stats_restore
}
stats_restore() {
	[ -n "$STATS0" ] && sysctl -qw kernel.bpf_stats_enabled="$STATS0"
	STATS0=""
}

# wait_ready FILE PATTERN TIMEOUT_S PID: 0 once PATTERN is in FILE
wait_ready() {
	local i
	for ((i = 0; i < $3 * 500; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		is_running "$4" || return 1
		nap 0.002
	done
	return 1
}

ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", (b - a) * 1000 }'; }

# start_tool NAME: start a tracer, wait until it is attached; sets TOOL_PID
# and ATTACH_MS; returns 1 (and leaves nothing running) if it does not start
start_tool() {
	local name=$1 t0 i
	TOOL_PID="" ATTACH_MS=""
	rm -rf "$T/log" "$T/tool.out" "$T/tool.err"
	t0=$EPOCHREALTIME
	case $name in
	record | sync_*)
		# rotation must not delete segments of the run before they are
		# counted: big segments, and plenty of them (deleted after it)
		# --log-budget 0: these rows measure the writer's capacity and
		# cost per record; what the per-actor log budget keeps under a
		# flood is the retention rows' own measure (one flooding actor
		# is otherwise mostly counted in lost records, not written)
		local args=(record --log-dir "$T/log" --key "$KEY_FILE" --max-size 1G --keep 64
			--log-budget 0 "${RECORD_EXTRA[@]}")
		[ "$RECORD_PIN_OPT" = 1 ] && args+=(--pin-dir "$PIN_DIR")
		[ "$name" != record ] && args+=(--sync "${name#sync_}")
		mkdir -p "$T/log"
		PINS_OURS=1
		"$NSAUDIT" "${args[@]}" >"$T/tool.out" 2>"$T/tool.err" &
		TOOL_PID=$!
		;;
	trace)
		"$NSAUDIT" trace --format json >/dev/null 2>"$T/tool.err" &
		TOOL_PID=$!
		;;
	floor | floor_exit)	# empty programs; nothing pinned
		if [ "$name" = floor ]; then
			"$FLOOR" "${FLOOR_CALL_HOOKS[@]}" 2>"$T/tool.err" &
		else
			"$FLOOR" "${FLOOR_HOOKS[@]}" 2>"$T/tool.err" &
		fi
		TOOL_PID=$!
		if ! wait_ready "$T/tool.err" '^floor: ready' 30 "$TOOL_PID"; then
			log "floor did not attach: $(tail -n 3 "$T/tool.err")"
			stop_pid "$TOOL_PID" KILL
			TOOL_PID=""
			return 1
		fi
		ATTACH_MS=$(ms_since "$t0")
		return 0
		;;
	trace_file)	# max rate without a recorder: trace into a file
		"$NSAUDIT" trace --format json >"$T/trace.json" 2>"$T/tool.err" &
		TOOL_PID=$!
		;;
	bpftrace)
		bpftrace "$ROOT/bench/setns.bt" >/dev/null 2>"$T/tool.err" &
		TOOL_PID=$!
		# attached = the kernel lists both tracepoints for it; then give
		# its reader a moment to enter its poll loop
		for ((i = 0; i < 3000; i++)); do
			[ "$(bpftool perf show 2>/dev/null |
				grep -c "^pid $TOOL_PID .*sys_e[a-z]*_setns")" = 2 ] && break
			is_running "$TOOL_PID" || break
			nap 0.01
		done
		ATTACH_MS=$(ms_since "$t0")
		if [ "$i" = 3000 ] || ! is_running "$TOOL_PID"; then
			log "bpftrace did not attach: $(tail -n 3 "$T/tool.err")"
			stop_pid "$TOOL_PID" KILL
			TOOL_PID=""
			return 1
		fi
		nap 0.3
		return 0
		;;
	audit)
		local other
		other=$(audit_pid)
		if [ "$other" != 0 ]; then
			log "an auditd is running (pid ${other:-?}, not ours): audit skipped this round"
			return 1
		fi
		if [ "$(auditctl -l 2>/dev/null)" != "No rules" ]; then
			log "audit rules are loaded (not ours): audit skipped this round"
			return 1
		fi
		AUDIT_ENABLED0=$(auditctl -s 2>/dev/null | awk '$1 == "enabled" { print $2 }')
		rm -rf "$T/audit"
		mkdir -m 700 "$T/audit" "$T/audit/plugins.d"
		cat >"$T/audit/auditd.conf" <<-EOF
			local_events = yes
			write_logs = yes
			log_file = $T/audit/audit.log
			log_format = ENRICHED
			flush = INCREMENTAL_ASYNC
			freq = 50
			max_log_file = 4096
			num_logs = 2
			max_log_file_action = IGNORE
			space_left = 75
			space_left_action = IGNORE
			admin_space_left = 50
			admin_space_left_action = IGNORE
			disk_full_action = IGNORE
			disk_error_action = IGNORE
			q_depth = 2000
			overflow_action = IGNORE
			plugin_dir = $T/audit/plugins.d
			end_of_event_timeout = 2
		EOF
		chmod 640 "$T/audit/auditd.conf"
		auditd -n -c "$T/audit" >"$T/tool.out" 2>"$T/tool.err" &
		AUDITD_PID=$!
		for ((i = 0; i < 500; i++)); do
			[ "$(audit_pid)" = "$AUDITD_PID" ] && break
			is_running "$AUDITD_PID" || break
			nap 0.01
		done
		if [ "$(audit_pid)" != "$AUDITD_PID" ]; then
			# another auditd won the race, or ours failed: touch nothing
			log "our auditd did not become the audit daemon (pid $(audit_pid)): audit skipped this round"
			stop_pid "$AUDITD_PID" TERM
			AUDITD_PID=""
			return 1
		fi
		if ! auditctl -a "${AUDIT_RULE[@]}" 2>"$T/tool.err"; then
			log "auditctl -a failed: $(tail -n 3 "$T/tool.err")"
			audit_restore
			return 1
		fi
		AUDIT_RULE_ADDED=1
		ATTACH_MS=$(ms_since "$t0")
		return 0
		;;
	esac
	if ! wait_ready "$T/tool.err" '^nsaudit: ready' 30 "$TOOL_PID"; then
		log "$name did not become ready: $(tail -n 3 "$T/tool.err")"
		stop_pid "$TOOL_PID" KILL
		TOOL_PID=""
		detach_pins
		return 1
	fi
	ATTACH_MS=$(ms_since "$t0")
	return 0
}

stop_tool() {
	case $1 in
	audit) audit_restore ;;
	record | sync_*)
		stop_pid "$TOOL_PID" TERM
		detach_pins
		;;
	*) stop_pid "$TOOL_PID" INT ;;
	esac
	TOOL_PID=""
}

# count_records: what the last tool wrote; sets C_SETNS (setns calls of the
# bench's producers accounted for: a coalesced record counts its "repeat",
# absent = 1), C_LOST (sum of lost records' counts), C_ALL (records, i.e.
# lines), C_BYTES (bytes on disk), and for the rare process of a mixed flood
# C_RARE_unshare, _open, _mount, _umount, _setns_fail (calls accounted for)
count_records() {
	local files=()
	C_SETNS=0 C_LOST=0 C_ALL=0 C_BYTES=0
	C_RARE_unshare=0 C_RARE_open=0 C_RARE_mount=0 C_RARE_umount=0 C_RARE_setns_fail=0
	case $1 in
	# segments, not the lock and state files
	record | sync_*) mapfile -t files < <(find "$T/log" -type f ! -name '.*' 2>/dev/null | sort) ;;
	trace_file) files=("$T/trace.json") ;;
	*) return 0 ;;
	esac
	[ ${#files[@]} -gt 0 ] || return 0
	C_BYTES=$(cat "${files[@]}" | wc -c)
	local f
	for f in "${files[@]}"; do
		case $f in
		*.gz) zcat -f "$f" ;;
		*.zst) zstdcat "$f" ;;
		*.xz) xzcat "$f" ;;
		*) cat "$f" ;;
		esac
	done 2>/dev/null | awk -v comm="\"comm\":\"$COMM\"" -v rare="\"comm\":\"$RARE_COMM\"" '
		function num(key,   v) {	# the integer value of "key":N, or -1
			if (!match($0, "\"" key "\":-?[0-9]+"))
				return -1
			v = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
			return v + 0
		}
		/^\{/ {
			all++
			n = num("repeat")
			if (n < 1)
				n = 1
		}
		/"op":"setns"/ && index($0, comm) { setns += n }
		/"op":"lost"/ { c = num("count"); if (c > 0) lost += c }
		index($0, rare) {
			if (match($0, /"op":"[a-z_]+"/)) {
				op = substr($0, RSTART + 6, RLENGTH - 7)
				if (op == "setns")
					op = num("result") < 0 ? "setns_fail" : ""
				if (op != "")
					r[op] += n
			}
		}
		END {
			printf "%d %d %d %d %d %d %d %d\n", setns, lost, all, r["unshare"],
				r["open"], r["mount"], r["umount"], r["setns_fail"]
		}' >"$T/count"
	read -r C_SETNS C_LOST C_ALL C_RARE_unshare C_RARE_open C_RARE_mount C_RARE_umount \
		C_RARE_setns_fail <"$T/count"
}

# one tool in one round: untraced, the same under the tool, untraced again;
# the tool's figures are against the mean of the two untraced runs, so that
# a drift of the machine during the pair (a neighbour's build starting)
# falls on both sides
run_config() {
	local name=$1 kind=full b_setns b_wall b_oc b_burst r
	local t_setns t_wall t_oc t_burst t_calls
	ATTACH_MS=""
	case $name in sync_*) kind=sync ;; esac
	wait_quiet
	measure "$kind"
	b_setns=$M_SETNS_CPU b_wall=$M_SETNS_WALL b_oc=$M_OC_CPU b_burst=$M_BURST_CPU

	if [ "$name" != aa ]; then
		start_tool "$name" || return 0
	fi
	case $name in
	record) sample attach_ms "$ATTACH_MS" ;;
	trace) sample attach_ms_trace "$ATTACH_MS" ;;
	floor) sample attach_ms_floor "$ATTACH_MS" ;;
	bpftrace) sample attach_ms_bpftrace "$ATTACH_MS" ;;
	audit)
		sample attach_ms_audit "$ATTACH_MS"
		local w0
		w0=$(auditctl -s | awk '$1 == "backlog_wait_time_actual" { print $2 }')
		sample audit_backlog_limit "$(auditctl -s | awk '$1 == "backlog_limit" { print $2 }')"
		;;
	esac
	measure "$kind"
	t_setns=$M_SETNS_CPU t_wall=$M_SETNS_WALL t_oc=$M_OC_CPU t_burst=$M_BURST_CPU
	t_calls=$M_CALLS
	local suffix=$name added=setns_added_ns_$name oc=openclose_ratio_$name msg disk=""
	[ "$name" = record ] && suffix=nsaudit added=setns_added_ns_nsaudit oc=openclose_ratio_nsaudit
	# the floor's two figures go by the names issue 16 gave them
	[ "$name" = floor ] && added=floor_setns_added_ns oc=floor_openclose_ratio
	[ "$name" = floor_exit ] && added=floor_exit_setns_added_ns oc=floor_exit_openclose_ratio
	if [ "$name" = record ] || [ "$name" = floor ] || [ "$name" = floor_exit ]; then
		prog_ns "$name"
		[ -n "$P_OC_NS" ] && sample "openclose_prog_ns_$suffix" "$P_OC_NS"
		[ -n "$P_SETNS_NS" ] && sample "setns_prog_ns_$suffix" "$P_SETNS_NS"
		[ -n "$P_FORK_NS" ] && sample "fork_prog_ns_$suffix" "$P_FORK_NS"
		[ -n "$P_EXEC_NS" ] && sample "exec_prog_ns_$suffix" "$P_EXEC_NS"
		[ -n "$P_IOCTL_NS" ] && sample "ioctl_prog_ns_$suffix" "$P_IOCTL_NS"
		[ -n "$P_MOUNT_NS" ] && sample "mount_prog_ns_$suffix" "$P_MOUNT_NS"
		[ "$name" = floor ] && sample floor_openclose_cpu_ns "$t_oc"
		t_calls=$((t_calls + N_PACED + N_PACED / 10 + 1))
	fi
	if [ "$name" = audit ]; then
		local w1
		w1=$(auditctl -s | awk '$1 == "backlog_wait_time_actual" { print $2 }')
		[ -n "$w0" ] && [ -n "$w1" ] && sample audit_backlog_wait_ms $((w1 - w0))
		stop_tool audit
		local ab
		ab=$(stat -c %s "$T/audit/audit.log" 2>/dev/null || echo 0)
		sample audit_bytes_per_setns "$(ratio "$ab" "$t_calls")"
	elif [ "$name" != aa ]; then
		stop_tool "$name"
		count_records "$name"
		if [ "$name" = record ] && [ "$C_ALL" -gt 0 ]; then
			sample record_bytes "$(ratio "$C_BYTES" "$C_ALL")"
		fi
		case $name in record | sync_*)
			# record: paced and back-to-back runs together
			local lname=lost_paced_$suffix
			[ "$name" = record ] && lname=lost_paced_burst_$suffix
			sample "$lname" $((t_calls - C_SETNS))
			disk=", $C_SETNS/$t_calls setns on disk, $C_BYTES bytes"
			;;
		esac
	fi

	# untraced again; the baseline is the mean of the two
	measure "$kind"
	b_setns=$(mean "$b_setns" "$M_SETNS_CPU") b_wall=$(mean "$b_wall" "$M_SETNS_WALL")
	b_oc=$(mean "$b_oc" "$M_OC_CPU") b_burst=$(mean "$b_burst" "$M_BURST_CPU")
	sample untraced_setns_cpu_ns "$b_setns"
	[ "$kind" = full ] && sample untraced_openclose_cpu_ns "$b_oc"
	[ "$kind" = full ] && sample untraced_setns_burst_cpu_ns "$b_burst"

	local plus
	plus=$(awk -v a="$t_setns" -v b="$b_setns" 'BEGIN { printf "%.0f", a - b }')
	sample "setns_ratio_$suffix" "$(ratio "$t_setns" "$b_setns")"
	sample "setns_wall_ratio_$suffix" "$(ratio "$t_wall" "$b_wall")"
	sample "$added" "$plus"
	msg="setns x$(r2 "$t_setns" "$b_setns") (${plus#-} ns $([ "${plus:0:1}" = - ] && echo less || echo more))"
	if [ "$kind" = full ]; then
		sample "$oc" "$(ratio "$t_oc" "$b_oc")"
		sample "setns_burst_ratio_$suffix" "$(ratio "$t_burst" "$b_burst")"
		msg="$msg, wall x$(r2 "$t_wall" "$b_wall"), open+close x$(r2 "$t_oc" "$b_oc"), back-to-back setns x$(r2 "$t_burst" "$b_burst")"
	fi
	[ -n "$ATTACH_MS" ] && [ "$name" != aa ] && msg="$msg, attach ${ATTACH_MS} ms"
	log "[round $ROUND/$ROUNDS] $name: $msg$disk"
}

# CPU time (user + system, all threads) of a process, in ns
proc_cpu_ns() {
	awk -v hz="$CLK_TCK" '{ sub(/^.*\) /, ""); printf "%.0f", ($12 + $13) * 1e9 / hz }' \
		"/proc/$1/stat" 2>/dev/null || echo 0
}
CLK_TCK=$(getconf CLK_TCK)

# wait_idle PID: until the process has used (almost) no CPU for 0.2 s (it
# drained what the producers left in the ring), at most 10 s
wait_idle() {
	local c0 c1 i
	c0=$(proc_cpu_ns "$1")
	for ((i = 0; i < 50; i++)); do
		nap 0.2
		c1=$(proc_cpu_ns "$1")
		[ $((c1 - c0)) -le $((2 * 1000000000 / CLK_TCK)) ] && return 0
		c0=$c1
	done
	return 1
}

# run_rate P MODE: P producers calling setns as fast as they can for
# RATE_SECS under nsaudit record (nsaudit trace into a file while record is
# not built). MODE:
#   default     record as it starts by default (coalescing, if it has it)
#   nocoalesce  record --no-coalesce: one record per call, the recorder's
#               own throughput (records/s and CPU per record)
#   legacy      as nocoalesce, with a key of the previous kind (no sealing)
#   flood       default record; the producers alternate net and uts setns
#               (nothing to coalesce) while a process makes N_RARE rounds
#               of rare operations: how many of those arrive
run_rate() {
	local p=$1 mode=$2 tool=record out calls rate hwm lost cpu0 cpu1 t0 busy
	local tag=""
	[ "$HAVE_RECORD" = 1 ] || tool=trace_file
	case $mode in
	nocoalesce) tag=nocoalesce_ ;;
	legacy) tag=legacy_ ;;
	flood) tag=flood_ ;;
	esac
	wait_quiet
	if [ "$mode" = default ]; then
		out=$("$DRIVER" rate "$p" 2)
		sample "untraced_rate_${p}p" "$(field rate "$out")"
	fi
	KEY_FILE=$T/key RECORD_EXTRA=()
	[ "$mode" = nocoalesce ] && RECORD_EXTRA=("${NOCOALESCE_ARGS[@]}")
	[ "$mode" = legacy ] && KEY_FILE=$T/legacy-key RECORD_EXTRA=("${NOCOALESCE_ARGS[@]}")
	start_tool "$tool"
	local started=$?
	KEY_FILE=$T/key RECORD_EXTRA=()
	if [ "$started" != 0 ]; then
		[ "$mode" = legacy ] && log "record with a key of the previous kind did not start: $(tail -n 1 "$T/tool.err")"
		return 0
	fi
	[ "$tool" = record ] && sample attach_ms "$ATTACH_MS"
	[ "$tool" = trace_file ] && sample attach_ms_trace "$ATTACH_MS"
	cpu0=$(proc_cpu_ns "$TOOL_PID")
	t0=$EPOCHREALTIME
	if [ "$mode" = flood ]; then
		out=$("$DRIVER" flood "$p" "$RATE_SECS" "$N_RARE" | tr '\n' ' ')
	else
		out=$("$DRIVER" rate "$p" "$RATE_SECS")
	fi
	hwm=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$TOOL_PID/status" 2>/dev/null)
	wait_idle "$TOOL_PID" || log "warning: the recorder was still busy 10 s after the producers stopped"
	cpu1=$(proc_cpu_ns "$TOOL_PID")
	# busy: the producers' start until the recorder went idle (less the
	# idle 0.2 s that told us so)
	busy=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a - 0.2 }')
	stop_tool "$tool"
	calls=$(field calls "$out") rate=$(field rate "$out")
	count_records "$tool"
	lost=$((calls - C_SETNS))
	[ "$lost" -lt 0 ] && lost=0
	# lost records also count other processes' events: a positive rest is
	# setns calls of ours that vanished without a lost record
	local silent=$((lost - C_LOST))
	[ "$silent" -lt 0 ] && silent=0
	local msg="$rate setns/s offered, $C_SETNS of $calls accounted for, $C_LOST reported lost, $C_ALL records"
	case $mode in
	default)
		# sustained: setns calls that reached the disk, per second
		sample "max_rate_${p}p" "$(awk -v n="$C_SETNS" -v s="$(field seconds "$out")" 'BEGIN { printf "%.0f", n / s }')"
		sample "offered_rate_${p}p" "$rate"
		sample "lost_at_max_${p}p" "$lost"
		sample "lost_reported_${p}p" "$C_LOST"
		sample "lost_silent_${p}p" "$silent"
		[ -n "$hwm" ] && sample "rss_kib_${p}p" "$hwm"
		[ "$tool" = record ] && [ "$C_ALL" -gt 0 ] && sample record_bytes "$(ratio "$C_BYTES" "$C_ALL")"
		RATE_LOST=$((RATE_LOST + lost))
		RATE_HWM=$(( ${hwm:-0} > RATE_HWM ? ${hwm:-0} : RATE_HWM ))
		if [ "$HAVE_COALESCE" = 1 ]; then
			sample "lost_at_max_coalesced_${p}p" "$lost"
			sample "records_at_max_coalesced_${p}p" "$C_ALL"
			RATE_LOST_C=$((RATE_LOST_C + lost))
		elif [ "$tool" = record ]; then
			# no coalescing: the default is the non-coalesced case
			sample "lost_at_max_nocoalesce_${p}p" "$lost"
			RATE_LOST_NC=$((RATE_LOST_NC + lost))
		fi
		;;
	nocoalesce)
		sample "lost_at_max_nocoalesce_${p}p" "$lost"
		sample "lost_silent_nocoalesce_${p}p" "$silent"
		RATE_LOST_NC=$((RATE_LOST_NC + lost))
		[ -n "$hwm" ] && sample "rss_kib_nocoalesce_${p}p" "$hwm"
		;;
	flood)
		local op miss=0 want found
		for op in unshare open mount umount setns_fail; do
			want=$(field "$op" "$out") found=C_RARE_$op
			found=${!found}
			[ "${want:-0}" -gt "$found" ] && miss=$((miss + want - found))
		done
		sample "rare_lost_under_flood_${p}p" "$miss"
		sample "flood_offered_rate_${p}p" "$rate"
		sample "flood_lost_${p}p" "$lost"
		RARE_LOST=$((RARE_LOST + miss))
		msg="$msg; rare: $C_RARE_unshare/$C_RARE_open/$C_RARE_mount/$C_RARE_umount/$C_RARE_setns_fail of $(field unshare "$out") each (unshare/open/mount/umount/failed setns) arrived"
		;;
	esac
	# the recorder's own throughput: records it wrote per second while
	# busy, and its CPU per record (after attaching: the verifier's time
	# is attach_ms)
	if [ "$tool" = record ] && [ "$p" = 1 ] && [ "$C_ALL" -gt 0 ] &&
		{ [ "$mode" = nocoalesce ] || [ "$mode" = legacy ] ||
			{ [ "$mode" = default ] && [ "$HAVE_COALESCE" = 0 ]; }; }; then
		local rps cpr
		rps=$(awk -v n="$C_ALL" -v s="$busy" 'BEGIN { printf "%.0f", n / s }')
		cpr=$(awk -v c="$((cpu1 - cpu0))" -v n="$C_ALL" 'BEGIN { printf "%.1f", c / n }')
		if [ "$mode" = legacy ]; then
			sample seal_legacy_records_per_s "$rps"
			sample seal_legacy_cpu_ns_per_record "$cpr"
		else
			sample max_rate_records_per_s "$rps"
			sample recorder_cpu_ns_per_record "$cpr"
			sample recorder_records_per_cpu_s "$(awk -v c="$cpr" 'BEGIN { printf "%.0f", (c > 0 ? 1e9 / c : 0) }')"
		fi
		msg="$msg; recorder $rps records/s, $cpr ns CPU per record"
	fi
	log "[round $ROUND/$ROUNDS] max rate, $p producer(s), $tool${tag:+ ${tag%_}}: $msg, VmHWM ${hwm:-?} KiB"
	rm -f "$T/trace.json"
	rm -rf "$T/log"
}

# ---------------------------------------------------------------------------
# the floods of issue 32: for each call an unprivileged user can repeat
# (tests/helpers/nsflood: open of /proc/self/ns/net, NS_GET_USERNS,
# PIDFD_GET_NET_NAMESPACE, failed setns, unshare in its own user namespace),
# nobody floods for RATE_SECS under the default recorder while root makes
# N_FLOOD_RARE rounds of rare operations (unshare, clone, setns, failed
# setns, open of another process's ns file, bind mount, umount, pidfd
# ioctl), each in a fresh child that prints what it did. Samples
# rare_lost_under_flood_<kind> (root's records that did not arrive with the
# pid, op and namespace the workload saw) and
# recorder_cpu_ns_per_flooded_call_<kind> (the recorder's CPU from the
# flood's start until it went idle, over the flooder's calls).
NSFLOOD=${NSFLOOD:-$ROOT/$BUILD/helpers/nsflood}
FLOOD_KINDS="open ioctl pidfd setns_fail unshare"
N_FLOOD_RARE=20

# flood_rare_missing: root's rare operations (T/rare.out) with no record in
# the log that says the same (pid, op, namespace, and the child of a clone,
# the path of a mount)
flood_rare_missing() {
	find "$T/log" -type f ! -name '.*' -exec cat {} + 2>/dev/null |
		jq -r 'select(.op != null and .pid != null) |
			if .op == "clone" then "clone \(.pid) \(.ns_inum) \(.target_pid)"
			elif .op == "setns" and (.result // 0) < 0 then "setns_fail \(.pid) \(.ns_inum)"
			elif .op == "nsfd" and .via == "pidfd" then "pidfd \(.pid) \(.ns_inum)"
			elif .op == "mount" or .op == "umount" then "\(.op) \(.pid) \(.ns_inum) \(.path)"
			else "\(.op) \(.pid) \(.ns_inum)" end' 2>/dev/null >"$T/have.keys"
	awk '{ if ($1 == "clone" || $1 == "mount" || $1 == "umount")
			print $1, $2, $4, $5
		else
			print $1, $2, $4 }' "$T/rare.out" >"$T/want.keys"
	awk 'NR == FNR { have[$0] = 1; next } !($0 in have) { m++ } END { print m + 0 }' \
		"$T/have.keys" "$T/want.keys"
}

run_flood_kinds() {
	local kind fpid calls miss cpu0 cpu1 total=0
	if [ ! -x "$NSFLOOD" ] || ! command -v setpriv >/dev/null; then
		for kind in $FLOOD_KINDS; do
			na "rare_lost_under_flood_$kind" "n/a ($NSFLOOD or setpriv missing: make test builds the helper)"
			na "recorder_cpu_ns_per_flooded_call_$kind" "n/a (no flood helper)"
		done
		return 0
	fi
	mkdir -p "$T/pins"
	for kind in $FLOOD_KINDS; do
		wait_quiet
		start_tool record || continue
		cpu0=$(proc_cpu_ns "$TOOL_PID")
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$NSFLOOD" flood "$kind" "$RATE_SECS" >"$T/flood.out" 2>&1 &
		fpid=$!
		"$NSFLOOD" rare "$N_FLOOD_RARE" \
			"$(awk -v s="$RATE_SECS" 'BEGIN { printf "%.2f", s * 0.9 }')" "$T/pins" \
			>"$T/rare.out" 2>&1
		wait "$fpid"
		wait_idle "$TOOL_PID" || log "warning: the recorder was still busy 10 s after the $kind flood"
		cpu1=$(proc_cpu_ns "$TOOL_PID")
		stop_tool record
		calls=$(awk '$1 == "calls" { print $2 }' "$T/flood.out")
		miss=$(flood_rare_missing)
		sample "rare_lost_under_flood_$kind" "$miss"
		total=$((total + miss))
		[ "${calls:-0}" -gt 0 ] && sample "recorder_cpu_ns_per_flooded_call_$kind" \
			"$(awk -v c="$((cpu1 - cpu0))" -v n="$calls" 'BEGIN { printf "%.1f", c / n }')"
		log "[round $ROUND/$ROUNDS] $kind flood by nobody: ${calls:-?} calls; $miss of root's $(wc -l <"$T/rare.out") rare records missing"
		rm -rf "$T/log"
	done
	sample rare_lost_under_flood_kinds "$total"
}

# ---------------------------------------------------------------------------
# the log's retention under a flood (issue 47): `record` with its default
# retention (64M x 10) and --no-coalesce, nobody floods NS_GET_USERNS for
# RETENTION_SECS while root makes N_FLOOD_RARE rounds of rare operations;
# then how many of root's records are still in the log. Side by side in
# one round: the default log budget and --log-budget 0 (none). Samples
# rare_kept_under_flood_record (fraction of root's rare records in the
# log, target 1), rare_kept_under_flood_record_nobudget, and the log's
# growth during the flood (log_mb_per_s_under_flood_record[_nobudget]).
RETENTION_SECS=${BENCH_RETENTION_SECS:-20}

run_retention() {
	local budget tag fpid calls miss n bytes args
	if [ ! -x "$NSFLOOD" ] || ! command -v setpriv >/dev/null; then
		for tag in "" _nobudget; do
			na "rare_kept_under_flood_record$tag" "n/a ($NSFLOOD or setpriv missing)"
			na "log_mb_per_s_under_flood_record$tag" "n/a (no flood helper)"
		done
		return 0
	fi
	mkdir -p "$T/pins"
	for budget in 1024 0; do
		tag=$([ "$budget" = 0 ] && echo _nobudget)
		wait_quiet
		rm -rf "$T/log"
		mkdir -p "$T/log"
		args=(record --log-dir "$T/log" --key "$KEY_FILE" --no-coalesce --log-budget "$budget")
		[ "$RECORD_PIN_OPT" = 1 ] && args+=(--pin-dir "$PIN_DIR")
		PINS_OURS=1
		"$NSAUDIT" "${args[@]}" >"$T/tool.out" 2>"$T/tool.err" &
		TOOL_PID=$!
		if ! wait_ready "$T/tool.err" '^nsaudit: ready' 30 "$TOOL_PID"; then
			log "retention: record did not start: $(tail -n 2 "$T/tool.err")"
			stop_tool record
			continue
		fi
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$NSFLOOD" flood ioctl "$RETENTION_SECS" >"$T/flood.out" 2>&1 &
		fpid=$!
		"$NSFLOOD" rare "$N_FLOOD_RARE" \
			"$(awk -v s="$RETENTION_SECS" 'BEGIN { printf "%.2f", s * 0.9 }')" "$T/pins" \
			>"$T/rare.out" 2>&1
		wait "$fpid"
		wait_idle "$TOOL_PID" || log "warning: the recorder was still busy 10 s after the flood"
		stop_tool record
		calls=$(awk '$1 == "calls" { print $2 }' "$T/flood.out")
		miss=$(flood_rare_missing)
		n=$(wc -l <"$T/rare.out")
		bytes=$(du -sb "$T/log" | cut -f1)
		[ "$n" -gt 0 ] && sample "rare_kept_under_flood_record$tag" \
			"$(awk -v m="$miss" -v n="$n" 'BEGIN { printf "%.4f", (n - m) / n }')"
		sample "log_mb_per_s_under_flood_record$tag" \
			"$(awk -v b="$bytes" -v s="$RETENTION_SECS" 'BEGIN { printf "%.2f", b / s / 1048576 }')"
		log "[round $ROUND/$ROUNDS] retention, log budget $budget: nobody's ${calls:-?} ioctls; root's records kept $((n - miss)) of $n; log $((bytes >> 20)) MiB"
		rm -rf "$T/log"
	done
}

# Root's umount2 while nobody holds PINS_N (10,000) nsfs bind mounts in its
# own mount namespace (issue 47): the median of 300 bind + umount2 cycles
# of root's in the host namespace, without the pins and with them held,
# with nsaudit trace attached (--op mount,umount) and, in the same round,
# with no tool. Samples umount_us_no_pins and umount_us_pins_held (traced),
# umount_pins_ratio (held / none, traced; target <= 2) and its floor
# umount_pins_ratio_floor (no tool), and pins_death_report_s: from the
# holder's death until trace reported every one of its pins.
PINS_N=${BENCH_PINS_N:-10000}
PINHOLD=${PINHOLD:-$ROOT/$BUILD/helpers/pinhold}

pins_umlat() { "$PINHOLD" umlat 300 "$T" | awk '$1 == "median_us" { print $2 }'; }

pins_reported() {	# pins_reported PID: inferred umount records of PID's pins
	grep '"origin":"inferred"' "$T/pins.json" 2>/dev/null | grep -c "\"maker_pid\":$1,"
}

# How late the tail anchors leave at the maximum rate (issue 40): the
# recorder of the max-rate rows sends its anchors to a private rsyslogd
# while one producer calls setns as fast as it can (bench/anchorlag.sh):
# the largest gap between two anchors at the receiver while records came,
# and the median from a record to the anchor naming it at the receiver.
run_anchorlag() {
	local out gap med

	if ! command -v rsyslogd >/dev/null; then
		na anchor_gap_s "n/a (no rsyslogd)"
		na anchor_lag_median_s "n/a (no rsyslogd)"
		return 0
	fi
	out=$(NSAUDIT="$NSAUDIT" DRIVER="$DRIVER" "$ROOT/bench/anchorlag.sh" 1 "$RATE_SECS" \
		2>"$T/anchorlag.err" | tail -n 1)
	gap=$(sed -n 's/.* came \([0-9.]*\) s;.*/\1/p' <<<"$out")
	med=$(sed -n 's/.*median \([0-9.]*\) s,.*/\1/p' <<<"$out")
	if [ -z "$gap" ] || [ -z "$med" ]; then
		log "anchorlag: no figures: $out $(tail -n 2 "$T/anchorlag.err")"
		return 0
	fi
	sample anchor_gap_s "$gap"
	sample anchor_lag_median_s "$med"
}

run_pins() {
	local tool dir H a0 a1 t0 i tag what pid
	if [ ! -x "$PINHOLD" ] || ! command -v setpriv >/dev/null || ! command -v unshare >/dev/null; then
		for tag in umount_us_no_pins umount_us_pins_held umount_pins_ratio \
			umount_pins_ratio_floor pins_death_report_s; do
			na "$tag" "n/a ($PINHOLD, setpriv or unshare missing)"
		done
		return 0
	fi
	for tool in none trace; do
		wait_quiet
		if [ "$tool" = trace ]; then
			"$NSAUDIT" trace --op mount,umount --no-rules --format json \
				>"$T/pins.json" 2>"$T/tool.err" &
			TOOL_PID=$!
			if ! wait_ready "$T/tool.err" '^nsaudit: ready' 30 "$TOOL_PID"; then
				log "pins: trace did not start: $(tail -n 2 "$T/tool.err")"
				stop_tool trace
				continue
			fi
		fi
		a0=$(pins_umlat)
		# the holder's files: in a directory of its own that nobody can use
		dir=$(mktemp -d /tmp/nsaudit-bench-pins.XXXXXX)
		chmod 777 "$dir"
		setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -Urm \
			"$PINHOLD" hold "$PINS_N" "$dir" >"$T/hold.out" 2>&1 &
		H=$!
		for ((i = 0; i < 1200; i++)); do
			grep -q '^held\|^failed' "$T/hold.out" && break
			nap 0.1
		done
		read -r what pid <"$T/hold.out"
		if [ "$what" = held ]; then
			a1=$(pins_umlat)
		else
			log "pins: the holder failed: $(head -n 1 "$T/hold.out")"
			a1=
		fi
		t0=$EPOCHREALTIME
		kill "$H" 2>/dev/null
		wait "$H" 2>/dev/null
		if [ "$tool" = trace ] && [ -n "$a1" ]; then
			for ((i = 0; i < 1200; i++)); do
				[ "$(pins_reported "$pid")" -ge "$PINS_N" ] && break
				nap 0.1
			done
			[ "$(pins_reported "$pid")" -ge "$PINS_N" ] &&
				sample pins_death_report_s "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
		fi
		[ "$tool" = trace ] && stop_tool trace
		rm -rf "$dir" "$T/pins.json"
		[ -n "$a0" ] && [ -n "$a1" ] || continue
		if [ "$tool" = trace ]; then
			sample umount_us_no_pins "$a0"
			sample umount_us_pins_held "$a1"
			sample umount_pins_ratio "$(ratio "$a1" "$a0")"
		else
			sample umount_pins_ratio_floor "$(ratio "$a1" "$a0")"
		fi
		log "[round $ROUND/$ROUNDS] pins, $tool: root's umount2 median ${a0} us, ${a1} us with nobody's $PINS_N pins held"
	done
}

# value NAME: this round's sample of NAME (empty if none)
# The recorder's user-space half alone (tests/perf/recorder_rate): 1 M
# synthetic setns records through the enrichment, the formatter, the MAC
# and --sync batch writes into a log in the bench's tmp dir, on one core,
# with no producer to limit it (on this 2-CPU machine the producers of the
# max-rate runs offer far less than 1 M setns/s).
run_harness() {
	local out
	[ -x "$HARNESS" ] || { na recorder_disk_records_per_s "tests/perf/recorder_rate not built"; return; }
	rm -rf "$T/harness"
	out=$("$HARNESS" -n "$N_HARNESS" -p fields -s batch -d "$T/harness" 2>/dev/null) ||
		{ log "recorder_rate failed: $out"; return; }
	rm -rf "$T/harness"
	log "[round $ROUND/$ROUNDS] recorder alone: $out"
	sample recorder_disk_records_per_s "$(field records_per_s "$out")"
	sample recorder_disk_cpu_ns_per_record "$(field cpu_ns_per_record "$out")"
	sample recorder_disk_records_per_cpu_s "$(awk -v c="$(field cpu_ns_per_record "$out")" 'BEGIN { printf "%.0f", (c > 0 ? 1e9 / c : 0) }')"
	# the detection rules (nsaudit/rules/, on by default): their own CPU per
	# record, measured apart (the same records with and without them), and
	# that as a share of what the recorder spends per record (budget: 10 %)
	out=$("$HARNESS" -n "$N_HARNESS" -p fields -s batch -r -P -d "$T/harness" 2>/dev/null) ||
		{ log "recorder_rate -r failed: $out"; return; }
	rm -rf "$T/harness"
	log "[round $ROUND/$ROUNDS] recorder alone, rules on: $out"
	sample rules_ns_per_record "$(field rules_ns_per_record "$out")"
	sample recorder_harness_rules_cpu_ns_per_record "$(field cpu_ns_per_record "$out")"
	# where the rest goes, each step apart (recorder_rate -P): the
	# enrichment look-ups, formatting, the chained MAC, the batch and write
	sample recorder_part_enrich_ns "$(field part_enrich_ns "$out")"
	sample recorder_part_format_ns "$(field part_format_ns "$out")"
	sample recorder_part_mac_ns "$(field part_mac_ns "$out")"
	sample recorder_part_write_ns "$(field part_write_ns "$out")"
	sample recorder_part_harness_ns "$(field part_synth_ns "$out")"
	sample rules_cpu_percent "$(awk -v r="$(field rules_ns_per_record "$out")" \
		-v c="$(field cpu_ns_per_record "$out")" 'BEGIN { printf "%.1f", (c > r ? 100 * r / (c - r) : 0) }')"
}

value() { awk -F'\t' -v r="$ROUND" -v m="$1" '$1 == r && $2 == m { v = $3 } END { print v }' "$SAMPLES"; }

# op freed's hooks (opt-in, --op freed): what nsaudit's programs on
# kmem:kfree and kmem:kmem_cache_free cost per run, and what the floor's
# empty programs on the same tracepoints cost, by the kernel's own timing
# (bench/progcost.sh, both in one run, the same loads): the difference is
# what op freed adds to every kfree and kmem_cache_free on the machine,
# unrelated objects included. Loads: open+close (filp and names_cache
# frees), fork (the kfrees and cache frees of a process's life).
run_kmem() {
	local out load k c f
	[ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" kmem "* ]] || return 0
	if ! out=$(PROGCOST_REPS=1 PROGCOST_RECORD_ARGS="--op freed" NSAUDIT="$NSAUDIT" \
		DRIVER="$DRIVER" FLOOR="$FLOOR" "$ROOT/bench/progcost.sh" openclose fork 2>"$T/kmem.err"); then
		log "kmem: bench/progcost.sh failed: $(tail -n 2 "$T/kmem.err")"
		return 0
	fi
	for load in openclose fork; do
		k=$(awk -v l="$load" '$1 == "nsaudit" && $2 == l && $3 == "tp_kfree" { print $5 }' <<<"$out")
		c=$(awk -v l="$load" '$1 == "nsaudit" && $2 == l && $3 == "tp_kmem_cache_free" { print $5 }' <<<"$out")
		f=$(awk -v l="$load" '$1 == "floor" && $2 == l && $3 == "floor_raw_tp" { print $5 }' <<<"$out")
		[ -n "$k" ] && [ -n "$c" ] && [ -n "$f" ] || { log "kmem: no figures for $load"; continue; }
		sample "kmem_floor_ns_per_run_$load" "$f"
		sample "kfree_ns_per_run_$load" "$k"
		sample "kmem_cache_free_ns_per_run_$load" "$c"
		sample "kfree_added_ns_$load" "$(awk -v a="$k" -v b="$f" 'BEGIN { printf "%.1f", a - b }')"
		sample "kmem_cache_free_added_ns_$load" "$(awk -v a="$c" -v b="$f" 'BEGIN { printf "%.1f", a - b }')"
	done
	# and its hook on workqueue:workqueue_queue_work (bench/wqcost.sh: a
	# pty write queues a work per call; nsaudit's program, then the
	# floor's empty one, by the kernel's own timing)
	if ! out=$(NSAUDIT="$NSAUDIT" FLOOR="$FLOOR" "$ROOT/bench/wqcost.sh" 1 2>"$T/wq.err"); then
		log "kmem: bench/wqcost.sh failed: $(tail -n 2 "$T/wq.err")"
		return 0
	fi
	k=$(awk '$2 == "nsaudit" { print $3 }' <<<"$out")
	f=$(awk '$2 == "floor" { print $3 }' <<<"$out")
	[[ "$k" =~ ^[0-9.]+$ && "$f" =~ ^[0-9.]+$ ]] || { log "kmem: no figures from bench/wqcost.sh"; return 0; }
	sample wq_queue_floor_ns_per_run "$f"
	sample wq_queue_ns_per_run "$k"
	sample wq_queue_added_ns "$(awk -v a="$k" -v b="$f" 'BEGIN { printf "%.1f", a - b }')"
}

# search and verify over logs of the recorder's records (bench/logread.sh)
. "$ROOT/bench/logread.sh"
# where the recorder's start goes (bench/startup.sh)
. "$ROOT/bench/startup.sh"

# sample_diff METRIC A B: sample A - B, when both are there
sample_diff() {
	[ -n "$2" ] && [ -n "$3" ] || return 0
	sample "$1" "$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", a - b }')"
}

# ratios of this round's samples, measured side by side in the round
round_ratios() {
	local a b
	a=$(value setns_added_ns_nsaudit) b=$(value floor_setns_added_ns)
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && sample setns_added_over_floor "$(ratio "$a" "$b")"
	a=$(value setns_added_ns_trace)
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && sample setns_added_over_floor_trace "$(ratio "$a" "$b")"
	a=$(value openclose_ratio_nsaudit) b=$(value floor_openclose_ratio)
	[ -n "$a" ] && [ -n "$b" ] && sample openclose_over_floor "$(ratio "$a" "$b")"
	# the same from the kernel's timing of the programs: what nsaudit's
	# open programs cost beyond empty ones, on top of an open+close with
	# the floor attached
	a=$(value openclose_prog_ns_nsaudit) b=$(value openclose_prog_ns_floor)
	if [ -n "$a" ] && [ -n "$b" ]; then
		sample_diff openclose_prog_added_ns "$a" "$b"
		local f
		f=$(value floor_openclose_cpu_ns)
		[ -n "$f" ] && sample openclose_over_floor_kernel \
			"$(awk -v a="$a" -v b="$b" -v f="$f" 'BEGIN { printf "%.4f", (f > 0 ? (f + a - b) / f : 0) }')"
	fi
	a=$(value setns_added_ns_nsaudit) b=$(value floor_exit_setns_added_ns)
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && sample setns_added_over_exit_floor "$(ratio "$a" "$b")"
	sample_diff fork_prog_added_ns "$(value fork_prog_ns_nsaudit)" "$(value fork_prog_ns_floor)"
	sample_diff exec_prog_added_ns "$(value exec_prog_ns_nsaudit)" "$(value exec_prog_ns_floor)"
	sample_diff ioctl_prog_added_ns "$(value ioctl_prog_ns_nsaudit)" "$(value ioctl_prog_ns_floor)"
	sample_diff mount_prog_added_ns "$(value mount_prog_ns_nsaudit)" "$(value mount_prog_ns_floor)"
	# beyond empty programs on the same hooks
	a=$(value setns_prog_ns_nsaudit) b=$(value setns_prog_ns_floor_exit)
	[ -n "$b" ] || b=$(value setns_prog_ns_floor)
	sample_diff setns_prog_added_ns "$a" "$b"
	# sealing: throughput of one recorder core (CPU per record, inverted),
	# which the share of a 2-CPU machine the recorder gets does not move;
	# and the wall records/s, which it does
	# what the harness leaves out of the real recorder's CPU per record
	# (reading the rings, the drain loop, the loss ledger, the group fsync):
	# the rest of recorder_cpu_ns_per_record beyond the harness's parts
	sample_diff recorder_part_drain_ns "$(value recorder_cpu_ns_per_record)" \
		"$(value recorder_harness_rules_cpu_ns_per_record)"
	a=$(value seal_legacy_cpu_ns_per_record) b=$(value recorder_cpu_ns_per_record)
	[ -n "$a" ] && [ -n "$b" ] && sample seal_throughput_ratio "$(ratio "$a" "$b")"
	a=$(value max_rate_records_per_s) b=$(value seal_legacy_records_per_s)
	[ -n "$a" ] && [ -n "$b" ] && sample seal_wall_throughput_ratio "$(ratio "$a" "$b")"
}

# The hooks nsaudit attaches here, as the floor's arguments: read from the
# kernel (bpftool perf) while a recorder runs, so the floor follows
# whatever hook set nsaudit chooses on this kernel.
discover_hooks() {
	local tool=record kind name cat
	[ "$HAVE_RECORD" = 1 ] || tool=trace
	FLOOR_HOOKS=()
	start_tool "$tool" || return 1
	bpftool perf show -j 2>/dev/null | jq -r --argjson pid "$TOOL_PID" \
		'.[] | select(.pid == $pid) | "\(.fd_type) \(.tracepoint)"' >"$T/hooks"
	stop_tool "$tool"
	rm -rf "$T/log"
	while read -r kind name; do
		case $kind in
		tracepoint)
			cat=$(cd /sys/kernel/tracing/events 2>/dev/null && ls -d -- */"$name" 2>/dev/null | head -n1)
			[ -n "$cat" ] && FLOOR_HOOKS+=("tp:${cat%%/*}:$name") ;;
		raw_tracepoint) FLOOR_HOOKS+=("raw_tp:$name") ;;
		*) log "note: nsaudit's $kind hook $name has no floor program" ;;
		esac
	done <"$T/hooks"
	[ ${#FLOOR_HOOKS[@]} -gt 0 ] || return 1
	# a syscall seen at its exit alone gets its entry in the floor too
	local h
	FLOOR_CALL_HOOKS=("${FLOOR_HOOKS[@]}")
	for h in "${FLOOR_HOOKS[@]}"; do
		case $h in tp:syscalls:sys_exit_*)
			[[ " ${FLOOR_HOOKS[*]} " == *" ${h/sys_exit_/sys_enter_} "* ]] ||
				FLOOR_CALL_HOOKS+=("${h/sys_exit_/sys_enter_}") ;;
		esac
	done
}

# ---------------------------------------------------------------------------
# the rounds

HAVE_FLOOR=0 HAVE_FLOOR_EXIT=0 NA_FLOOR="n/a (could not find nsaudit's hooks)"
FLOOR_HOOKS=() FLOOR_CALL_HOOKS=()
# finding the hooks starts a recorder: not for a BENCH_ONLY without a floor
# (e.g. "logread", which attaches nothing)
if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" floor"* ]]; then
	NA_FLOOR="n/a (not in BENCH_ONLY)"
elif discover_hooks; then
	HAVE_FLOOR=1
	log "floor: empty programs on ${FLOOR_CALL_HOOKS[*]}"
	[ ${#FLOOR_CALL_HOOKS[@]} -gt ${#FLOOR_HOOKS[@]} ] && HAVE_FLOOR_EXIT=1 &&
		log "floor_exit: empty programs on ${FLOOR_HOOKS[*]}"
fi

CONFIGS=(aa)
[ "$HAVE_FLOOR" = 1 ] && CONFIGS+=(floor)
[ "$HAVE_FLOOR_EXIT" = 1 ] && CONFIGS+=(floor_exit)
if [ "$HAVE_RECORD" = 1 ]; then
	CONFIGS+=(record sync_none sync_batch sync_every)
fi
CONFIGS+=(trace)
[ "$HAVE_BPFTRACE" = 1 ] && CONFIGS+=(bpftrace)
[ "$HAVE_AUDIT" = 1 ] && CONFIGS+=(audit)
RUN_RATE=1
if [ -n "${BENCH_ONLY:-}" ]; then
	only=" $BENCH_ONLY "
	[[ $only == *" rate "* ]] || RUN_RATE=0
	for k in "${!CONFIGS[@]}"; do
		[[ $only == *" ${CONFIGS[$k]} "* ]] || unset "CONFIGS[$k]"
	done
	CONFIGS=("${CONFIGS[@]}")
fi

log "$(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds of: ${CONFIGS[*]}, max rate (${RATE_SECS}s)"
[ "$HAVE_RECORD" = 1 ] || log "nsaudit record not built: its rows print '$NA_RECORD'; max rate is measured with nsaudit trace into a file"
[ "$HAVE_COALESCE" = 1 ] || log "$NA_COALESCE"
[ "$HAVE_SEAL" = 1 ] || log "$NA_SEAL"
[ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" logread "* ]] && logread_setup
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
START=$EPOCHREALTIME
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
	# rotate the order so that no tool always runs first or last
	n=${#CONFIGS[@]}
	for ((k = 0; k < n; k++)); do
		run_config "${CONFIGS[$(((k + ROUND - 1) % n))]}"
	done
	run_logread
	run_kmem
	[ "$HAVE_RECORD" = 1 ] && { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" startup "* ]]; } &&
		run_startup
	RATE_LOST=0 RATE_LOST_C=0 RATE_LOST_NC=0 RATE_HWM=0 RARE_LOST=0
	[ "$HAVE_RECORD" = 1 ] && { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" retention "* ]]; } &&
		run_retention
	{ [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" pins "* ]]; } && run_pins
	[ "$HAVE_RECORD" = 1 ] && { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" anchorlag "* ]]; } &&
		run_anchorlag
	if [ "$RUN_RATE" = 0 ]; then
		[ "$HAVE_RECORD" = 1 ] && [[ " ${BENCH_ONLY:-} " == *" harness "* ]] && run_harness
		round_ratios
		continue
	fi
	run_rate 1 default
	run_rate 2 default
	sample lost_at_max "$RATE_LOST"
	[ "$HAVE_COALESCE" = 1 ] && sample lost_at_max_coalesced "$RATE_LOST_C"
	if [ "$HAVE_RECORD" = 1 ]; then
		if [ "$HAVE_COALESCE" = 1 ]; then
			run_rate 2 nocoalesce
		fi
		# sealed (the key from keygen) and the previous kind of key side
		# by side, in an order that alternates from round to round
		if [ "$HAVE_SEAL" = 1 ] && [ $((ROUND % 2)) = 0 ]; then
			run_rate 1 legacy
		fi
		[ "$HAVE_COALESCE" = 1 ] && run_rate 1 nocoalesce
		if [ "$HAVE_SEAL" = 1 ] && [ $((ROUND % 2)) = 1 ]; then
			run_rate 1 legacy
		fi
		sample lost_at_max_nocoalesce "$RATE_LOST_NC"
		run_rate 1 flood
		run_rate 2 flood
		sample rare_lost_under_flood "$RARE_LOST"
		run_flood_kinds
		run_harness
	fi
	[ "$RATE_HWM" -gt 0 ] && sample rss_kib "$RATE_HWM"
	round_ratios
done
ELAPSED=$(ms_since "$START")

# ---------------------------------------------------------------------------
# results

if [ "$HAVE_RECORD" != 1 ]; then
	for m in setns_ratio_nsaudit openclose_ratio_nsaudit setns_ratio_sync_none \
		setns_ratio_sync_batch setns_ratio_sync_every record_bytes attach_ms \
		setns_burst_ratio_nsaudit setns_added_ns_nsaudit lost_paced_sync_every; do
		na "$m" "$NA_RECORD"
	done
fi
if [ "$HAVE_BPFTRACE" != 1 ]; then
	for m in setns_ratio_bpftrace setns_burst_ratio_bpftrace attach_ms_bpftrace; do
		na "$m" "$NA_BPFTRACE"
	done
fi
if [ "$HAVE_AUDIT" != 1 ]; then
	for m in setns_ratio_audit setns_wall_ratio_audit setns_burst_ratio_audit \
		audit_bytes_per_setns; do
		na "$m" "$NA_AUDIT"
	done
fi
if [ "$HAVE_RECORD" != 1 ]; then
	for m in max_rate_records_per_s recorder_cpu_ns_per_record recorder_records_per_cpu_s \
		lost_at_max_nocoalesce rare_lost_under_flood rare_lost_under_flood_kinds \
		rare_kept_under_flood_record rare_kept_under_flood_record_nobudget; do
		na "$m" "$NA_RECORD"
	done
fi
if [ "$HAVE_FLOOR" != 1 ]; then
	for m in floor_setns_added_ns floor_openclose_ratio setns_added_over_floor \
		openclose_over_floor; do
		na "$m" "$NA_FLOOR"
	done
fi
if [ "$HAVE_COALESCE" != 1 ]; then
	for m in lost_at_max_coalesced lost_at_max_coalesced_1p lost_at_max_coalesced_2p; do
		na "$m" "$NA_COALESCE"
	done
fi
if [ "$HAVE_SEAL" != 1 ]; then
	for m in seal_throughput_ratio seal_wall_throughput_ratio seal_legacy_records_per_s \
		seal_legacy_cpu_ns_per_record; do
		na "$m" "$NA_SEAL"
	done
fi
# a metric with no sample at all (a tool failed every round)
for m in setns_ratio_nsaudit setns_ratio_trace openclose_ratio_nsaudit setns_ratio_bpftrace \
	setns_ratio_audit max_rate_1p max_rate_2p lost_at_max rss_kib attach_ms record_bytes \
	setns_ratio_sync_none setns_ratio_sync_batch setns_ratio_sync_every \
	floor_setns_added_ns floor_openclose_ratio setns_added_over_floor openclose_over_floor \
	max_rate_records_per_s lost_at_max_coalesced lost_at_max_nocoalesce \
	rare_lost_under_flood seal_throughput_ratio; do
	grep -q "	$m	" "$SAMPLES" || na "$m" "n/a (no successful run)"
done

RECORDER=record
[ "$HAVE_RECORD" = 1 ] || RECORDER="trace (nsaudit record not built)"

mkdir -p "$(dirname "$OUT_JSON")"
jq -n --rawfile samples "$SAMPLES" --rawfile na "$NA" \
	--arg kernel "$(uname -r)" --arg cpus "$(nproc)" --arg date "$(date -u +%FT%TZ)" \
	--arg load "$(cut -d' ' -f1-3 /proc/loadavg)" --arg rounds "$ROUNDS" \
	--arg rate_secs "$RATE_SECS" --arg recorder "$RECORDER" --arg elapsed_ms "$ELAPSED" \
	--arg foreign "$FOREIGN_ROUNDS" --arg load0 "$LOAD0" \
	--arg hooks "${FLOOR_CALL_HOOKS[*]}" --arg exit_hooks "${FLOOR_HOOKS[*]}" --arg coalesce "$HAVE_COALESCE" --arg seal "$HAVE_SEAL" \
	--arg rare "$N_RARE rounds of unshare, open /proc/PID/ns/uts, bind mount, umount, failing setns" \
	--arg version "$("$NSAUDIT" --version 2>/dev/null)" \
	--arg paced "$N_PACED calls in bursts of $PACE_BATCH every $((PACE_US / 1000)) ms" \
	--arg burst "$N_BURST calls back to back" --arg oc "$N_OC open+close back to back" '
def median: sort | if length % 2 == 1 then .[length / 2 | floor]
	else (.[length / 2 - 1] + .[length / 2]) / 2 end;
def rows: split("\n") | map(select(length > 0) | split("\t"));
($samples | rows | map({metric: .[1], value: (.[2] | tonumber)})
	| group_by(.metric)
	| map({key: .[0].metric, value: (map(.value) as $v |
		{median: ($v | median), min: ($v | min), max: ($v | max), n: ($v | length), samples: $v})})
	| from_entries) as $m
| ($na | rows | map({key: .[0], value: .[1]}) | from_entries) as $u
| (if $recorder == "record" then "" else " (with nsaudit trace: record not built)" end) as $by
| def med($k): $m[$k].median;
  def target($metric; $desc; $ok; $extra):
	{metric: $metric, target: $desc}
	+ if $u[$metric] then {value: null, status: $u[$metric]}
	  elif med($metric) == null then {value: null, status: "n/a (no successful run)"}
	  elif $ok == null then {value: med($metric), status: "n/a (nothing to compare with)"}
	  else {value: med($metric), min: $m[$metric].min, max: $m[$metric].max,
		met: $ok, status: ((if $ok then "met" else "MISSED" end) + $extra)} end;
{
  machine: {kernel: $kernel, cpus: ($cpus | tonumber), load_at_start: $load0,
	load_at_end: $load, date: $date},
  nsaudit: $version,
  setup: {rounds: ($rounds | tonumber), max_rate_seconds: ($rate_secs | tonumber),
	max_rate_recorder: $recorder, paced_setns: $paced, burst_setns: $burst,
	openclose: $oc, elapsed_s: (($elapsed_ms | tonumber) / 1000 | floor),
	floor_hooks: ($hooks | split(" ") | map(select(length > 0))),
	floor_exit_hooks: ($exit_hooks | split(" ") | map(select(length > 0))),
	coalescing: ($coalesce == "1"), sealing: ($seal == "1"), mixed_flood_rare: $rare,
	baselines_traced_by_others: ($foreign | tonumber)},
  metrics: $m,
  unavailable: $u,
  targets: [
	target("setns_ratio_nsaudit"; "<= 1.5 (stretch 1.25)";
		(if med("setns_ratio_nsaudit") then med("setns_ratio_nsaudit") <= 1.5 else null end);
		(if (med("setns_ratio_nsaudit") // 9) <= 1.25 then ", stretch met"
		 elif (med("setns_ratio_nsaudit") // 9) <= 1.5 then ", stretch missed" else "" end)),
	target("openclose_ratio_nsaudit"; "<= 1.03";
		(if med("openclose_ratio_nsaudit") then med("openclose_ratio_nsaudit") <= 1.03 else null end); ""),
	target("setns_ratio_nsaudit"; "< setns_ratio_bpftrace";
		(if med("setns_ratio_nsaudit") and med("setns_ratio_bpftrace")
		 then med("setns_ratio_nsaudit") < med("setns_ratio_bpftrace") else null end); ""),
	target("setns_ratio_nsaudit"; "< setns_ratio_audit";
		(if med("setns_ratio_nsaudit") and med("setns_ratio_audit")
		 then med("setns_ratio_nsaudit") < med("setns_ratio_audit") else null end); ""),
	target("lost_at_max"; "== 0";
		(if med("lost_at_max") != null then $m.lost_at_max.max == 0 else null end); $by),
	target("rss_kib"; "<= 20480 (20 MiB)";
		(if med("rss_kib") then med("rss_kib") <= 20480 else null end); $by),
	target("attach_ms"; "<= 300";
		(if med("attach_ms") then med("attach_ms") <= 300 else null end); ""),
	target("startup_ms"; "<= 300 (start to ready, the recorder'"'"'s clock)";
		(if med("startup_ms") then med("startup_ms") <= 300 else null end); ""),
	target("setns_added_over_floor"; "<= 1.3";
		(if med("setns_added_over_floor") then med("setns_added_over_floor") <= 1.3 else null end); ""),
	target("setns_added_over_exit_floor"; "<= 1.3 (the stricter floor: nsaudit'"'"'s one hook)";
		(if med("setns_added_over_exit_floor") then med("setns_added_over_exit_floor") <= 1.3 else null end); ""),
	target("openclose_over_floor"; "<= 1.03";
		(if med("openclose_over_floor") then med("openclose_over_floor") <= 1.03 else null end); ""),
	target("lost_at_max_coalesced"; "== 0";
		(if med("lost_at_max_coalesced") != null then $m.lost_at_max_coalesced.max == 0 else null end); ""),
	target("rare_lost_under_flood"; "== 0";
		(if med("rare_lost_under_flood") != null then $m.rare_lost_under_flood.max == 0 else null end); ""),
	target("rare_lost_under_flood_kinds"; "== 0 (root under an unprivileged flood of each kind)";
		(if med("rare_lost_under_flood_kinds") != null then $m.rare_lost_under_flood_kinds.max == 0 else null end); ""),
	target("rare_kept_under_flood_record"; "== 1 (root'"'"'s records stay in the log under a flood)";
		(if med("rare_kept_under_flood_record") != null then $m.rare_kept_under_flood_record.min == 1 else null end); ""),
	target("umount_pins_ratio"; "<= 2 (10,000 pins held by another user cost root'"'"'s umount2 little)";
		(if med("umount_pins_ratio") then med("umount_pins_ratio") <= 2 else null end); ""),
	target("pins_death_report_s"; "<= 10 (a namespace'"'"'s 10,000 pins reported within seconds)";
		(if med("pins_death_report_s") then $m.pins_death_report_s.max <= 10 else null end); ""),
	target("max_rate_records_per_s"; ">= 1000000 (wall)";
		(if med("max_rate_records_per_s") then med("max_rate_records_per_s") >= 1000000 else null end);
		(if med("max_rate_records_per_s") and med("offered_rate_1p")
		    and med("max_rate_records_per_s") >= 0.9 * med("offered_rate_1p")
		 then " (bounded by the offered rate)" else "" end)),
	target("recorder_records_per_cpu_s"; ">= 1000000 (one core)";
		(if med("recorder_records_per_cpu_s") then med("recorder_records_per_cpu_s") >= 1000000 else null end); ""),
	target("recorder_disk_records_per_s"; ">= 1000000 (wall, recorder alone)";
		(if med("recorder_disk_records_per_s") then med("recorder_disk_records_per_s") >= 1000000 else null end); ""),
	target("seal_throughput_ratio"; ">= 0.90";
		(if med("seal_throughput_ratio") then med("seal_throughput_ratio") >= 0.9 else null end); ""),
	target("search_records_per_s_nomatch"; ">= 1000000 (one core)";
		(if med("search_records_per_s_nomatch") then med("search_records_per_s_nomatch") >= 1000000 else null end); ""),
	target("search_records_per_s_all"; ">= 1000000 (every record printed as JSON)";
		(if med("search_records_per_s_all") then med("search_records_per_s_all") >= 1000000 else null end); ""),
	target("search_all_vs_grep"; ">= 0.5 (within 2x of grep over the same bytes)";
		(if med("search_all_vs_grep") then med("search_all_vs_grep") >= 0.5 else null end); ""),
	target("verify_records_per_s"; ">= 1000000 (one core)";
		(if med("verify_records_per_s") then med("verify_records_per_s") >= 1000000 else null end); ""),
	target("search_since_1h_ms"; "<= search_month_ms / 10 (the last hour of three weeks)";
		(if med("search_since_1h_ms") and med("search_month_ms")
		 then med("search_since_1h_ms") <= med("search_month_ms") / 10 else null end); "")
  ]
}' >"$OUT_JSON" || die "writing $OUT_JSON failed"

# the table: every metric of the issue, then the targets
jq -r --arg recorder "$RECORDER" '
def fmt: if . == null then "-" elif . >= 1000 then (. | round | tostring)
	elif . >= 100 then ((. * 10 | round) / 10 | tostring)
	else ((. * 100 | round) / 100 | tostring) end;
def row($k; $what):
	if .unavailable[$k] then [$k, .unavailable[$k], "", $what]
	elif .metrics[$k] then [$k, (.metrics[$k].median | fmt),
		"[\(.metrics[$k].min | fmt)-\(.metrics[$k].max | fmt)]", $what]
	else [$k, "n/a (no successful run)", "", $what] end;
(["metric", "median", "[min-max]", "what"] | @tsv),
(row("setns_ratio_nsaudit"; "CPU per setns, nsaudit record vs untraced (paced)") | @tsv),
(row("setns_ratio_trace"; "CPU per setns, nsaudit trace --format json >/dev/null") | @tsv),
(row("openclose_ratio_nsaudit"; "CPU per open+close of an unrelated file, nsaudit record") | @tsv),
(row("openclose_ratio_trace"; "CPU per open+close, nsaudit trace") | @tsv),
(row("setns_ratio_bpftrace"; "CPU per setns, bpftrace printf to /dev/null") | @tsv),
(row("setns_ratio_audit"; "CPU per setns, kernel audit -S setns -S unshare, auditd -n") | @tsv),
(row("setns_wall_ratio_audit"; "wall time per setns, kernel audit") | @tsv),
(row("audit_backlog_wait_ms"; "time audited tasks waited for auditd per round (backlog_wait_time_actual)") | @tsv),
(row("audit_backlog_limit"; "the kernel audit backlog limit in force (auditctl -b)") | @tsv),
(row("setns_burst_ratio_nsaudit"; "CPU per setns, back to back (saturating), nsaudit record") | @tsv),
(row("setns_burst_ratio_trace"; "CPU per setns, back to back, nsaudit trace") | @tsv),
(row("setns_burst_ratio_bpftrace"; "CPU per setns, back to back, bpftrace") | @tsv),
(row("setns_burst_ratio_audit"; "CPU per setns, back to back, kernel audit") | @tsv),
(row("setns_ratio_aa"; "untraced vs untraced: the noise floor") | @tsv),
(row("setns_ratio_floor"; "CPU per setns, empty programs at setns'"'"' entry and exit (the floor)") | @tsv),
(row("floor_setns_added_ns"; "CPU added per setns by the floor, ns") | @tsv),
(row("floor_exit_setns_added_ns"; "CPU added per setns by one empty program on nsaudit'"'"'s one setns hook, ns") | @tsv),
(row("floor_openclose_ratio"; "CPU per open+close, the floor vs untraced") | @tsv),
(row("setns_burst_ratio_floor"; "CPU per setns, back to back, the floor") | @tsv),
(row("setns_added_over_floor"; "setns: nsaudit record'"'"'s added CPU / the floor'"'"'s (same round)") | @tsv),
(row("setns_added_over_floor_trace"; "setns: nsaudit trace'"'"'s added CPU / the floor'"'"'s") | @tsv),
(row("setns_added_over_exit_floor"; "setns: nsaudit record'"'"'s added CPU / floor_exit'"'"'s (same round)") | @tsv),
(row("openclose_over_floor"; "open+close CPU, nsaudit record / the floor (same round)") | @tsv),
(row("openclose_prog_ns_nsaudit"; "bpf_stats: ns per open+close in nsaudit'"'"'s open program (exit alone)") | @tsv),
(row("openclose_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("openclose_prog_added_ns"; "bpf_stats: nsaudit'"'"'s open programs beyond empty ones, ns per open+close") | @tsv),
(row("openclose_over_floor_kernel"; "open+close with the floor plus that, / open+close with the floor") | @tsv),
(row("setns_prog_ns_nsaudit"; "bpf_stats: ns per setns in nsaudit'"'"'s setns programs") | @tsv),
(row("setns_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("setns_prog_ns_floor_exit"; "bpf_stats: the same in floor_exit'"'"'s") | @tsv),
(row("fork_prog_ns_nsaudit"; "bpf_stats: ns per fork+exit in the nsaudit programs a fork passes (clone, fork, exit)") | @tsv),
(row("fork_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("fork_prog_added_ns"; "bpf_stats: nsaudit'"'"'s fork programs beyond empty ones, ns per fork") | @tsv),
(row("exec_prog_ns_nsaudit"; "bpf_stats: ns per fork+exec+exit in the nsaudit programs it passes (clone, fork, exec, open, exit)") | @tsv),
(row("exec_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("exec_prog_added_ns"; "bpf_stats: nsaudit'"'"'s programs beyond empty ones, ns per fork+exec+exit") | @tsv),
(row("ioctl_prog_ns_nsaudit"; "bpf_stats: ns per unrelated ioctl in nsaudit'"'"'s ioctl programs") | @tsv),
(row("ioctl_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("ioctl_prog_added_ns"; "bpf_stats: nsaudit'"'"'s ioctl programs beyond empty ones, ns per ioctl") | @tsv),
(row("mount_prog_ns_nsaudit"; "bpf_stats: ns per tmpfs mount+umount in nsaudit'"'"'s mount and umount programs") | @tsv),
(row("mount_prog_ns_floor"; "bpf_stats: the same in the floor'"'"'s empty programs") | @tsv),
(row("mount_prog_added_ns"; "bpf_stats: nsaudit'"'"'s mount programs beyond empty ones, ns per mount+umount") | @tsv),
(row("setns_prog_added_ns"; "bpf_stats: nsaudit'"'"'s setns programs beyond empty ones on the same hooks, ns per setns") | @tsv),
(row("kmem_floor_ns_per_run_openclose"; "op freed (opt-in), open+close load: ns per run of the floor'"'"'s empty kmem program") | @tsv),
(row("kfree_ns_per_run_openclose"; "  nsaudit'"'"'s tp_kfree, ns per run") | @tsv),
(row("kfree_added_ns_openclose"; "  tp_kfree beyond the floor: added to every kfree, ns") | @tsv),
(row("kmem_cache_free_ns_per_run_openclose"; "  nsaudit'"'"'s tp_kmem_cache_free, ns per run") | @tsv),
(row("kmem_cache_free_added_ns_openclose"; "  tp_kmem_cache_free beyond the floor: added to every kmem_cache_free, ns") | @tsv),
(row("kmem_floor_ns_per_run_fork"; "op freed (opt-in), fork load: ns per run of the floor'"'"'s empty kmem program") | @tsv),
(row("kfree_ns_per_run_fork"; "  nsaudit'"'"'s tp_kfree, ns per run") | @tsv),
(row("kfree_added_ns_fork"; "  tp_kfree beyond the floor: added to every kfree, ns") | @tsv),
(row("kmem_cache_free_ns_per_run_fork"; "  nsaudit'"'"'s tp_kmem_cache_free, ns per run") | @tsv),
(row("kmem_cache_free_added_ns_fork"; "  tp_kmem_cache_free beyond the floor: added to every kmem_cache_free, ns") | @tsv),
(row("wq_queue_floor_ns_per_run"; "op freed (opt-in), pty-write load: ns per run of the floor'"'"'s empty workqueue_queue_work program") | @tsv),
(row("wq_queue_ns_per_run"; "  nsaudit'"'"'s tp_wq_queue, ns per run") | @tsv),
(row("wq_queue_added_ns"; "  tp_wq_queue beyond the floor: added to every queued work, ns") | @tsv),
(row("max_rate_1p"; "setns records/s on disk, 1 producer, \($recorder)") | @tsv),
(row("max_rate_2p"; "setns records/s on disk, 2 producers, \($recorder)") | @tsv),
(row("offered_rate_1p"; "setns/s called meanwhile, 1 producer") | @tsv),
(row("offered_rate_2p"; "setns/s called meanwhile, 2 producers") | @tsv),
(row("untraced_rate_1p"; "setns/s, 1 producer, untraced") | @tsv),
(row("untraced_rate_2p"; "setns/s, 2 producers, untraced") | @tsv),
(row("lost_at_max"; "events not recorded, 1p + 2p runs") | @tsv),
(row("lost_at_max_1p"; "events not recorded, 1 producer") | @tsv),
(row("lost_reported_2p"; "events announced by lost records, 2 producers") | @tsv),
(row("lost_silent_1p"; "events lost without a lost record, 1p") | @tsv),
(row("lost_silent_2p"; "events lost without a lost record, 2p") | @tsv),
(row("lost_at_max_coalesced"; "setns not accounted for, coalescing record, 1p + 2p") | @tsv),
(row("lost_at_max_coalesced_1p"; "the same, 1 producer") | @tsv),
(row("lost_at_max_coalesced_2p"; "the same, 2 producers") | @tsv),
(row("records_at_max_coalesced_1p"; "records written for them, 1 producer, coalescing") | @tsv),
(row("lost_at_max_nocoalesce"; "setns not accounted for, one record per call, 1p + 2p") | @tsv),
(row("lost_at_max_nocoalesce_1p"; "the same, 1 producer") | @tsv),
(row("lost_at_max_nocoalesce_2p"; "the same, 2 producers") | @tsv),
(row("max_rate_records_per_s"; "records/s the recorder wrote, one record per call, 1 producer") | @tsv),
(row("recorder_cpu_ns_per_record"; "recorder CPU per record (all threads), ns") | @tsv),
(row("recorder_records_per_cpu_s"; "records per second of recorder CPU") | @tsv),
(row("recorder_disk_records_per_s"; "records/s to disk, recorder alone (synthetic, --sync batch, 1 core)") | @tsv),
(row("recorder_disk_cpu_ns_per_record"; "its CPU per record, ns") | @tsv),
(row("recorder_disk_records_per_cpu_s"; "its records per CPU-second") | @tsv),
(row("rules_ns_per_record"; "CPU of the detection rules per record (on by default), ns") | @tsv),
(row("recorder_part_enrich_ns"; "  recorder alone, per record: enrichment look-ups (exe, cgroup, names, containers), ns") | @tsv),
(row("recorder_part_format_ns"; "  formatting the line (no MAC), ns") | @tsv),
(row("recorder_part_mac_ns"; "  the chained MAC (Poly1305, the log'"'"'s kind), ns") | @tsv),
(row("recorder_part_write_ns"; "  the batch, the log'"'"'s bookkeeping and write(2), ns") | @tsv),
(row("recorder_part_harness_ns"; "  (the harness making its synthetic record: not the recorder'"'"'s), ns") | @tsv),
(row("recorder_part_drain_ns"; "  the real recorder beyond the harness (ring reads, drain loop, loss ledger, group fsync): recorder_cpu_ns_per_record minus the harness'"'"'s total with rules, same round, ns") | @tsv),
(row("rules_cpu_percent"; "CPU of the rules as % of the recorder per record (budget 10)") | @tsv),
(row("seal_legacy_records_per_s"; "the same records/s with a key of the previous kind (no sealing)") | @tsv),
(row("seal_legacy_cpu_ns_per_record"; "recorder CPU per record, key of the previous kind, ns") | @tsv),
(row("seal_throughput_ratio"; "records per recorder CPU-second, sealed / previous kind (same round)") | @tsv),
(row("anchor_gap_s"; "largest gap between tail anchors at a real rsyslogd while records came, s (max rate)") | @tsv),
(row("anchor_lag_median_s"; "a record to its anchor received by rsyslogd, median s (max rate)") | @tsv),
(row("search_records_per_s_nomatch"; "search --comm X matching nothing, records/s (wall)") | @tsv),
(row("search_records_per_s_all"; "search --format json matching every record, records/s (into a file)") | @tsv),
(row("grep_all_records_per_s"; "grep printing every line of the same segments, records/s (into a file)") | @tsv),
(row("search_all_vs_grep"; "search --format json / grep, every record printed (same round)") | @tsv),
(row("search_text_records_per_s_all"; "search --format text matching every record, records/s") | @tsv),
(row("verify_records_per_s"; "verify with the log'"'"'s key, records/s") | @tsv),
(row("grep_records_per_s"; "grep -c over the same segments, records/s (for scale)") | @tsv),
(row("search_nomatch_vs_grep"; "search --comm X matching nothing / grep -c (same round)") | @tsv),
(row("verify_vs_grep"; "verify / grep -c over the same segments (same round)") | @tsv),
(row("jq_records_per_s"; "jq select(.comm == X) over the same segments, records/s") | @tsv),
(row("ausearch_records_per_s"; "ausearch -c X over an audit.log of as many setns events, events/s") | @tsv),
(row("search_since_1h_ms"; "search --since 1h over three weeks of segments, ms") | @tsv),
(row("search_month_ms"; "the same search over the whole three weeks, ms") | @tsv),
(row("search_since_1h_records"; "records the --since 1h search printed") | @tsv),
(row("search_since_1h_share"; "their share of the month log'"'"'s setns records, %") | @tsv),
(row("seal_wall_throughput_ratio"; "records/s (wall), sealed / previous kind (same round)") | @tsv),
(row("rare_lost_under_flood"; "rare records missing under a setns flood, 1p + 2p flood") | @tsv),
(row("rare_lost_under_flood_1p"; "the same, 1 flooding process") | @tsv),
(row("rare_lost_under_flood_2p"; "the same, 2 flooding processes") | @tsv),
(row("flood_lost_2p"; "flood setns not accounted for, 2 flooders (counted in lost records)") | @tsv),
(row("rare_lost_under_flood_kinds"; "root'"'"'s rare records missing under the floods of every kind (issue 32)") | @tsv),
(row("rare_lost_under_flood_open"; "root'"'"'s rare records missing under a open flood by nobody") | @tsv),
(row("recorder_cpu_ns_per_flooded_call_open"; "recorder CPU per flooded call, open flood, ns") | @tsv),
(row("rare_lost_under_flood_ioctl"; "root'"'"'s rare records missing under a ioctl flood by nobody") | @tsv),
(row("recorder_cpu_ns_per_flooded_call_ioctl"; "recorder CPU per flooded call, ioctl flood, ns") | @tsv),
(row("rare_lost_under_flood_pidfd"; "root'"'"'s rare records missing under a pidfd flood by nobody") | @tsv),
(row("recorder_cpu_ns_per_flooded_call_pidfd"; "recorder CPU per flooded call, pidfd flood, ns") | @tsv),
(row("rare_lost_under_flood_setns_fail"; "root'"'"'s rare records missing under a setns_fail flood by nobody") | @tsv),
(row("recorder_cpu_ns_per_flooded_call_setns_fail"; "recorder CPU per flooded call, setns_fail flood, ns") | @tsv),
(row("rare_lost_under_flood_unshare"; "root'"'"'s rare records missing under a unshare flood by nobody") | @tsv),
(row("recorder_cpu_ns_per_flooded_call_unshare"; "recorder CPU per flooded call, unshare flood, ns") | @tsv),
(row("rare_kept_under_flood_record"; "root'"'"'s rare records kept in the log under a no-coalesce ioctl flood by nobody, default retention, fraction (issue 47)") | @tsv),
(row("rare_kept_under_flood_record_nobudget"; "the same with --log-budget 0, same round") | @tsv),
(row("log_mb_per_s_under_flood_record"; "log growth during that flood, MiB/s") | @tsv),
(row("log_mb_per_s_under_flood_record_nobudget"; "the same with --log-budget 0, MiB/s") | @tsv),
(row("umount_us_no_pins"; "root'"'"'s umount2 under trace, median us (issue 47)") | @tsv),
(row("umount_us_pins_held"; "the same while nobody holds 10,000 pins in its own mount namespace, us") | @tsv),
(row("umount_pins_ratio"; "held / none, under trace") | @tsv),
(row("umount_pins_ratio_floor"; "held / none, no tool, same round") | @tsv),
(row("pins_death_report_s"; "the holder dies: all 10,000 pins reported after, s") | @tsv),
(row("rss_kib"; "recorder VmHWM at max rate, KiB") | @tsv),
(row("attach_ms"; "nsaudit record start to ready, ms") | @tsv),
(row("startup_ms"; "the same by the recorder'"'"'s clock (--verbose), ms") | @tsv),
(row("startup_names_ms"; "  of it: names, /proc, mounts, runtime state") | @tsv),
(row("startup_open_ms"; "  of it: BPF object opened, hooks chosen") | @tsv),
(row("startup_load_ms"; "  of it: load (the verifier, on two CPUs)") | @tsv),
(row("startup_verifier_ms"; "  the verifier'"'"'s own times summed, whatever CPU (not a part)") | @tsv),
(row("startup_attach_ms"; "  of it: attach") | @tsv),
(row("startup_snapshot_ms"; "  of it: task snapshot") | @tsv),
(row("startup_ring_ms"; "  of it: ring buffers") | @tsv),
(row("startup_outside_ms"; "  of it: log, key, rules, sinks, privileges") | @tsv),
(row("startup_empty_ms"; "nsaudit --version: a start that loads nothing, ms") | @tsv),
(row("attach_ms_trace"; "nsaudit trace start to ready, ms") | @tsv),
(row("attach_ms_bpftrace"; "bpftrace start to attached, ms") | @tsv),
(row("record_bytes"; "bytes on disk per record, nsaudit record") | @tsv),
(row("audit_bytes_per_setns"; "bytes in audit.log per setns, kernel audit") | @tsv),
(row("setns_ratio_sync_none"; "CPU per setns, record --sync none") | @tsv),
(row("setns_ratio_sync_batch"; "CPU per setns, record --sync batch") | @tsv),
(row("setns_ratio_sync_every"; "CPU per setns, record --sync every") | @tsv),
(row("lost_paced_sync_none"; "paced setns not on disk, --sync none") | @tsv),
(row("lost_paced_sync_batch"; "paced setns not on disk, --sync batch") | @tsv),
(row("lost_paced_sync_every"; "paced setns not on disk, --sync every") | @tsv),
(row("lost_paced_burst_nsaudit"; "setns not on disk, paced + back-to-back runs, record") | @tsv),
(row("untraced_setns_cpu_ns"; "untraced setns CPU, ns (paced)") | @tsv),
(row("untraced_setns_burst_cpu_ns"; "untraced setns CPU, ns (back to back)") | @tsv),
(row("setns_added_ns_nsaudit"; "CPU added per setns by nsaudit record, ns") | @tsv),
(row("setns_added_ns_trace"; "CPU added per setns by nsaudit trace, ns") | @tsv),
(row("attach_ms_floor"; "floor start to attached, ms") | @tsv)
' "$OUT_JSON" >"$T/table.tsv"
jq -r '(["target", "", "median [min-max]", "status"] | @tsv),
	(.targets[] | [.metric, .target,
		(if .value == null then "-" elif .min == null then "\(.value * 1000 | round / 1000)"
		 else "\(.value * 1000 | round / 1000) [\(.min * 1000 | round / 1000)-\(.max * 1000 | round / 1000)]" end),
		.status] | @tsv)' "$OUT_JSON" >"$T/targets.tsv"

echo
echo "nsaudit bench: $(uname -r), $(nproc) CPUs, $ROUNDS rounds, $(awk -v e="$ELAPSED" 'BEGIN { printf "%.0f", e / 1000 }') s, load $LOAD0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end; ratios are traced/untraced in the same round"
column -t -s $'\t' "$T/table.tsv"
echo
column -t -s $'\t' "$T/targets.tsv"
echo
echo "full results: $OUT_JSON"
