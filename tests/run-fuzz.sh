#!/bin/bash
# Run every libFuzzer target in build/fuzz for N seconds (default 10) from
# its seeds; print PASS/FAIL per target. A crash leaves its input in
# build/fuzz/crash-*, to replay with build/fuzz/TARGET FILE.
secs=${1:-10}
cd "$(dirname "$0")/.."
for bin in build/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	seeds=tests/fuzz/seeds/${name#fuzz_}
	corpus=build/fuzz/corpus-$name
	mkdir -p "$corpus"
	[ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null
	if "$bin" -max_total_time="$secs" -rss_limit_mb=1024 -artifact_prefix=build/fuzz/ \
		"$corpus" >"build/fuzz/$name.log" 2>&1; then
		echo "PASS: fuzz: $name ran ${secs}s without findings ($(grep -o 'cov: [0-9]*' "build/fuzz/$name.log" | tail -1))"
	else
		echo "FAIL: fuzz: $name found a crash (build/fuzz/$name.log)"
		grep -m3 -E 'ERROR|SUMMARY' "build/fuzz/$name.log" | sed 's/^/    /'
	fi
done
