#!/bin/bash
# Regenerate tests/fuzz/seeds/verify from real logs written by "nsaudit
# record" with fuzz_verify's fixed key: rotated (--max-size 1K), with
# dropped segments (--keep), a SIGHUP reopen after the segment was moved
# away, and both formats. Needs root and build/nsaudit, build/helpers/nsops.
set -eu
cd "$(dirname "$0")/../.."
N=$PWD/build/nsaudit NSOPS=$PWD/build/helpers/nsops OUT=$PWD/tests/fuzz/seeds/verify
KEY_HEX=$(sed -n 's/^#define KEY_HEX "\(.*\)"/\1/p' tests/fuzz/fuzz_verify.c)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "$KEY_HEX" >"$T/key"
mkdir -p "$OUT"

record() {	# record NAME FORMAT KEEP HUP
	local d=$T/$1 p
	"$N" record --log-dir "$d" --key "$T/key" --no-pin --format "$2" --max-size 1K \
		--keep "$3" --op setns --comm fuzzseed 2>"$T/err" &
	p=$!
	until grep -q '^nsaudit: ready' "$T/err"; do sleep 0.05; done
	"$NSOPS" -n fuzzseed setns-loop 4 /proc/self/ns/net >/dev/null
	sleep 0.2
	if [ "$4" = hup ]; then
		mv "$d/$(ls "$d" | grep '^nsaudit-' | tail -1)" "$T/moved"
		kill -HUP $p; sleep 0.2
		"$NSOPS" -n fuzzseed setns-loop 2 /proc/self/ns/net >/dev/null
		sleep 0.2
	fi
	kill -TERM $p; wait $p
	"$N" verify --log-dir "$d" --key "$T/key" -q
}

seed() {	# seed NAME MODE: mode byte, segments, state file, "--8<--" between
	local d=$T/$1 mode=$2 first last n f sep=
	first=$(ls "$d" | grep '^nsaudit-' | head -1 | sed 's/nsaudit-0*\([0-9]*\)\.log/\1/')
	mode=$((mode | ((first - 1) & 7) << 2))
	{
		printf "\\x$(printf %02x $mode)"
		last=$(ls "$d" | grep '^nsaudit-' | tail -1 | sed 's/nsaudit-0*\([0-9]*\)\.log/\1/')
		for n in $(seq "$first" "$last"); do	# a missing number: empty section
			f=$d/$(printf 'nsaudit-%06d.log' "$n")
			printf '%s' "$sep"; if [ -f "$f" ]; then cat "$f"; fi; sep=$'--8<--\n'
		done
		if [ $((mode & 2)) -eq 0 ]; then printf '%s' "$sep"; cat "$d/.nsaudit-state"; fi
	} >"$OUT/$1-mode$mode"
}

record json-rotated json 1000 no;  seed json-rotated 0;  seed json-rotated 3
record audit-rotated audit 1000 no; seed audit-rotated 0; seed audit-rotated 3
record json-keep json 2 no;        seed json-keep 0
record json-hup json 1000 hup;     seed json-hup 0;      seed json-hup 3
ls -l "$OUT"
