#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
#
# progcost.sh - the kernel's own timing (kernel.bpf_stats_enabled) of each
# nsaudit program a load passes, and of the floor's empty programs on the
# same hooks: a quick, repeatable look at what one hook costs per call,
# without the rest of "make bench".
#
#   bench/progcost.sh [LOAD...]       as root, after "make" and the bench
#                                     binaries (make build/bench/driver
#                                     build/bench/floor)
#
# LOADs (driver lat OP, see bench/driver.c): fork exec ioctl mount setns
# openclose (all by default). PROGCOST_REPS (3) runs of each; PROGCOST_FLOOR=0 skips the floor;
# PROGCOST_RECORD_ARGS adds options to "nsaudit record".
#
# Per program: runs per call, ns per run, ns per call (run_time_ns and
# run_cnt deltas over the runs, divided by the driver's calls). Programs
# are told apart by id: only the recorder's (and the floor's) own count,
# never another session's programs of the same name. Every program runs
# for the whole machine, so other work's calls land in the figures (runs
# per call above the load's own say how much); ns per run does not move
# with that.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
NSAUDIT=${NSAUDIT:-$BUILD/nsaudit}
DRIVER=${DRIVER:-$BUILD/bench/driver}
FLOOR=${FLOOR:-$BUILD/bench/floor}
REPS=${PROGCOST_REPS:-3}
LOADS=("$@")
[ ${#LOADS[@]} -gt 0 ] || LOADS=(fork exec ioctl mount setns openclose)

die() { echo "progcost: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root"
for x in "$NSAUDIT" "$DRIVER" "$FLOOR"; do [ -x "$x" ] || die "$x missing: make"; done
command -v bpftool >/dev/null && command -v jq >/dev/null || die "needs bpftool and jq"

# calls per run of each load (the driver makes N/10 + 1 more: warm-up, check)
n_of() {
	case $1 in
	fork) echo 2000 ;; exec) echo 300 ;; ioctl) echo 200000 ;; mount) echo 2000 ;;
	setns) echo 20000 ;; openclose) echo 200000 ;;
	*) die "unknown load $1" ;;
	esac
}

T=$(mktemp -d /tmp/progcost.XXXXXX)
PIN_DIR=/sys/fs/bpf/progcost-$$	# bpffs refuses names with a dot
TOOL_PID="" STATS_PID="" STATS0=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$STATS_PID" ] && kill "$STATS_PID" 2>/dev/null && wait "$STATS_PID" 2>/dev/null
	[ -n "$TOOL_PID" ] && kill -TERM "$TOOL_PID" 2>/dev/null && wait "$TOOL_PID" 2>/dev/null
	[ -e "$PIN_DIR" ] && "$NSAUDIT" detach --pin-dir "$PIN_DIR" >/dev/null 2>&1
	sysctl -qw kernel.bpf_stats_enabled="$STATS0"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for FILE PATTERN: until PATTERN is in FILE (20 s) and TOOL_PID lives
wait_for() {
	local i
	for ((i = 0; i < 2000; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$TOOL_PID" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}

# the ids of the programs TOOL_PID has attached: "id name" lines
tool_progs() {
	bpftool perf show -j | jq -r --argjson pid "$TOOL_PID" \
		'.[] | select(.pid == $pid) | .prog_id' | sort -un >"$T/ids"
	bpftool prog show -j | jq -r --slurpfile ids <(jq -s . "$T/ids") \
		'.[] | select(.id as $i | $ids[0] | index($i)) | "\(.id) \(.name)"'
}

# "id run_time_ns run_cnt" of the programs in $T/progs
snap() {
	bpftool prog show -j | jq -r --slurpfile ids <(awk '{ print $1 }' "$T/progs" | jq -s .) \
		'.[] | select(.id as $i | $ids[0] | index($i)) |
		 "\(.id) \(.run_time_ns // 0) \(.run_cnt // 0)"'
}

# measure WHO: every load, REPS times; prints a table per load
measure() {
	local who=$1 load n calls r
	for load in "${LOADS[@]}"; do
		n=$(n_of "$load")
		calls=$(((n + n / 10 + 1) * REPS))
		snap >"$T/s0"
		for ((r = 0; r < REPS; r++)); do
			"$DRIVER" lat "$load" "$n" >/dev/null || echo "progcost: driver lat $load failed" >&2
		done
		snap >"$T/s1"
		awk -v who="$who" -v load="$load" -v calls="$calls" '
			FILENAME == ARGV[1] { name[$1] = $2; next }
			FILENAME == ARGV[2] { t0[$1] = $2; c0[$1] = $3; next }
			{ dt = $2 - t0[$1]; dc = $3 - c0[$1]
			  if (dc <= 0) next
			  rt[name[$1]] += dt; rc[name[$1]] += dc }
			END {
				total = 0
				for (p in rt) {
					printf "%-7s %-6s %-24s %8.2f %9.1f %9.1f\n", who, load, p,
						rc[p] / calls, rt[p] / rc[p], rt[p] / calls
					# the load own programs; other work adds a trickle
					if (rc[p] / calls >= 0.5)
						total += rt[p] / calls
				}
				printf "%-7s %-6s %-24s %8s %9s %9.1f\n", who, load, "TOTAL(>=0.5/call)", "", "", total
			}' "$T/progs" "$T/s0" "$T/s1" | sort -k2,2 -k3,3
	done
}

# Stats on by a reference of our own (BPF_ENABLE_STATS: an fd, held by a
# sleeping helper) as well as the sysctl: another session that sets the
# sysctl back to 0 meanwhile (its bench's cleanup) must not stop our count.
python3 -c '
import ctypes, os, signal, struct
libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(struct.pack("I", 0), 8)	# BPF_STATS_RUN_TIME
fd = libc.syscall(321, 32, attr, 8)	# bpf(BPF_ENABLE_STATS): x86_64
print("ok" if fd >= 0 else "no", flush=True)
signal.pause()' >"$T/stats.out" 2>/dev/null &
STATS_PID=$!
sysctl -qw kernel.bpf_stats_enabled=1
printf "%-7s %-6s %-24s %8s %9s %9s\n" who load program runs/call ns/run ns/call

mkdir -p "$T/log"
"$NSAUDIT" record --log-dir "$T/log" --pin-dir "$PIN_DIR" ${PROGCOST_RECORD_ARGS:-} \
	>"$T/record.out" 2>"$T/record.err" &
TOOL_PID=$!
wait_for "$T/record.err" "nsaudit: ready" || die "record did not start: $(cat "$T/record.err")"
tool_progs >"$T/progs"
bpftool perf show -j | jq -r --argjson pid "$TOOL_PID" \
	'.[] | select(.pid == $pid) | "\(.fd_type) \(.tracepoint)"' >"$T/hooks"
measure nsaudit
kill -TERM "$TOOL_PID"
wait "$TOOL_PID"
TOOL_PID=""
"$NSAUDIT" detach --pin-dir "$PIN_DIR" >/dev/null 2>&1

[ "${PROGCOST_FLOOR:-1}" = 1 ] || exit 0
# the floor: one empty program per hook nsaudit attached (bench/run.sh's
# discover_hooks), tracepoints as floor_tp, raw_tp and tp_btf as floor_raw_tp
hooks=()
while read -r kind name; do
	case $kind in
	tracepoint)
		cat=$(cd /sys/kernel/tracing/events && ls -d -- */"$name" 2>/dev/null | head -n1)
		[ -n "$cat" ] && hooks+=("tp:${cat%%/*}:$name") ;;
	raw_tracepoint) hooks+=("raw_tp:$name") ;;
	esac
done <"$T/hooks"
"$FLOOR" "${hooks[@]}" 2>"$T/floor.err" &
TOOL_PID=$!
wait_for "$T/floor.err" "floor: ready" || die "floor did not start: $(cat "$T/floor.err")"
tool_progs >"$T/progs"
measure floor
