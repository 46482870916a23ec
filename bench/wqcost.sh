#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
#
# wqcost.sh - what op freed's workqueue_queue_work hook (tp_wq_queue,
# bpf/nsaudit/freed.bpf.c) adds to every queued work of the machine: ns
# per run of it against the floor's empty program on that tracepoint
# alone, by the kernel's own timing (kernel.bpf_stats_enabled), under a
# load that queues a work per call (a write to a pty: flush_to_ldisc),
# alternated A B A B in one run.
#
#   bench/wqcost.sh [ROUNDS]     as root, after "make" and
#                                "make build/bench/floor" (ROUNDS: 4)
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
NSAUDIT=${NSAUDIT:-$BUILD/nsaudit}
FLOOR=${FLOOR:-$BUILD/bench/floor}
ROUNDS=${1:-4}
WRITES=${WQCOST_WRITES:-200000}
die() { echo "wqcost: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root"
for x in "$NSAUDIT" "$FLOOR"; do [ -x "$x" ] || die "$x missing: make"; done
command -v bpftool >/dev/null && command -v jq >/dev/null || die "needs bpftool and jq"
T=$(mktemp -d /tmp/wqcost.XXXXXX)
P="" STATS0=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$P" ] && kill -INT "$P" 2>/dev/null && wait "$P" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$STATS0"
	rm -rf "$T"
}
trap cleanup EXIT
sysctl -qw kernel.bpf_stats_enabled=1

load() {
	python3 - "$WRITES" <<'PY'
import os, sys, tty
m, s = os.openpty()
tty.setraw(s)
os.set_blocking(s, False)
for i in range(int(sys.argv[1])):
	os.write(m, b"x")
	if i % 64 == 63:
		try:
			while os.read(s, 4096):
				pass
		except BlockingIOError:
			pass
PY
}
# ns per run of program ID over one load
measure() {
	local t0 c0 t1 c1
	read -r t0 c0 < <(bpftool prog show id "$1" -j | jq -r '"\(.run_time_ns // 0) \(.run_cnt // 0)"')
	load
	read -r t1 c1 < <(bpftool prog show id "$1" -j | jq -r '"\(.run_time_ns // 0) \(.run_cnt // 0)"')
	awk -v dt=$((t1 - t0)) -v dc=$((c1 - c0)) 'BEGIN { if (dc > 0) printf "%.1f %d\n", dt / dc, dc; else print "- 0" }'
}
# the id of the program NAME that process PID holds (the newest of that
# name where bpftool does not tell the holder's pid)
prog_of() {
	bpftool prog show -j | jq -r --arg n "$1" --argjson p "$2" \
		'[.[] | select(.name == $n and (.pids == null or
			((.pids // []) | map(.pid) | index($p)) != null)) | .id] | max // empty'
}
# until FILE has PATTERN (20 s), while $P lives
wait_ready() {
	timeout 20 sh -c 'until grep -q "$1" "$2" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || exit 1; sleep 0.05; done' _ "$2" "$1" "$P"
}
printf "%-6s %-8s %9s %8s\n" round who ns/run runs
for ((r = 1; r <= ROUNDS; r++)); do
	"$NSAUDIT" trace --op freed --format json >/dev/null 2>"$T/trace.err" &
	P=$!
	wait_ready "$T/trace.err" "^nsaudit: ready" || die "trace did not start: $(head -c 300 "$T/trace.err")"
	id=$(prog_of tp_wq_queue "$P")
	[ -n "$id" ] || die "no tp_wq_queue loaded (op freed without cleanup_net or free_user_ns in kallsyms?)"
	printf "%-6s %-8s %9s %8s\n" "$r" nsaudit $(measure "$id")
	kill -INT "$P"; wait "$P"
	"$FLOOR" raw_tp:workqueue_queue_work 2>"$T/floor.err" &
	P=$!
	wait_ready "$T/floor.err" "floor: ready" || die "floor did not start: $(cat "$T/floor.err")"
	printf "%-6s %-8s %9s %8s\n" "$r" floor $(measure "$(prog_of floor_raw_tp "$P")")
	kill "$P"; wait "$P" 2>/dev/null
	P=""
done
