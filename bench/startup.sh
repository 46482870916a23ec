# bench/startup.sh - sourced by bench/run.sh: where nsaudit's start goes.
#
# attach_ms (run.sh) is the wall time from starting "nsaudit record" to its
# ready line. Here, once per round, "nsaudit record --verbose" prints where
# its tracer's time went (tracer_open(): nsaudit/tracer/tracer.c) and these
# rows take it apart, ms:
#   startup_ms           start to ready, the recorder's own clock
#   startup_names_ms     names, /proc, mounts, container runtime state
#   startup_open_ms      the BPF object opened, the hooks chosen
#   startup_load_ms      the verifier: every program loaded (on two CPUs)
#   startup_verifier_ms  the kernel's verification times summed, whatever
#                        CPU each ran on (NSAUDIT_VERIFIER_STATS=1)
#   startup_attach_ms    attach, the open check primed
#   startup_snapshot_ms  the task iterator (threads and their namespaces)
#   startup_ring_ms      ring buffers mapped
#   startup_outside_ms   the rest: log, key, rules, sinks, privileges
#   startup_empty_ms     "nsaudit --version": a process that loads nothing
# Uses from run.sh: NSAUDIT T KEY_FILE RECORD_PIN_OPT PIN_DIR PINS_OURS sample log
# wait_ready stop_pid ms_since detach_pins.

# startup_field NAME: NAME's figure from the start-up line in $T/startup.err
startup_field() {
	sed -n 's/^nsaudit: start-up \([0-9.]*\) ms: \(.*\)$/total \1, \2/p' "$T/startup.err" |
		tr ',' '\n' | awk -v k="$1" '$1 == k { print $2; exit }'
}

run_startup() {
	local pid t0 v k
	rm -rf "$T/startup"
	mkdir -p "$T/startup"
	t0=$EPOCHREALTIME
	"$NSAUDIT" --version >/dev/null 2>&1
	sample startup_empty_ms "$(ms_since "$t0")"
	local args=(record --verbose --log-dir "$T/startup" --key "$KEY_FILE")
	# the bench's own pin directory, as start_tool's: never another recorder's
	[ "$RECORD_PIN_OPT" = 1 ] && args+=(--pin-dir "$PIN_DIR")
	# A cold start: a recorder finding the programs an earlier one left
	# pinned (after a kill) takes them over and loads nothing, ~50 ms
	# that would pass for a start-up figure.
	detach_pins
	PINS_OURS=1
	NSAUDIT_VERIFIER_STATS=1 "$NSAUDIT" "${args[@]}" >/dev/null 2>"$T/startup.err" &
	pid=$!
	if ! wait_ready "$T/startup.err" '^nsaudit: ready' 30 "$pid"; then
		log "start-up: the recorder did not start: $(tail -n 2 "$T/startup.err")"
		stop_pid "$pid" KILL
		return 0
	fi
	stop_pid "$pid" INT
	for k in total names open load attach snapshot ring; do
		v=$(startup_field "$k")
		[ -n "$v" ] || continue
		if [ "$k" = total ]; then sample startup_ms "$v"; else sample "startup_${k}_ms" "$v"; fi
	done
	v=$(sed -n 's/.*, outside the tracer \([0-9.]*\)$/\1/p' "$T/startup.err")
	[ -n "$v" ] && sample startup_outside_ms "$v"
	v=$(sed -n 's/^nsaudit: verifier: all \([0-9.]*\) ms.*/\1/p' "$T/startup.err")
	[ -n "$v" ] && sample startup_verifier_ms "$v"
	log "[round $ROUND/$ROUNDS] start-up: $(sed -n 's/^nsaudit: start-up //p' "$T/startup.err")"
	rm -rf "$T/startup"
}
