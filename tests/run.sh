#!/bin/bash
# Run nsaudit's test suites and print one closing line:
#   nsaudit tests: N passed, N failed, N skipped
# Usage: tests/run.sh [unit|asan|fuzz|integration|vm|all]...   (default: all)
#
# Every suite prints result lines "PASS: what", "FAIL: what" or
# "SKIP: what (why)"; this script shows them and counts them. A SKIP is
# never counted as a pass, and only the SKIPs that tests/skips-allowed
# names (no root, a missing tool, ...) are allowed: any other SKIP is
# also counted as a failure ("FAIL: unexpected SKIP: ..."), so a test that
# quietly stopped running fails the run. A script that exits non-zero
# without a FAIL line (a crash, a timeout, a killed process) or that prints
# no result at all is a failure too.
#
# Environment: BUILD (build dir), NSAUDIT (the binary),
#   INTEGRATION_DIR (default tests/integration), SKIPS_ALLOWED (default
#   tests/skips-allowed), TEST_TIMEOUT (seconds per integration script).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export NSAUDIT="${NSAUDIT:-$PWD/$BUILD/nsaudit}"
INTEGRATION_DIR=${INTEGRATION_DIR:-tests/integration}
SKIPS_ALLOWED=${SKIPS_ALLOWED:-tests/skips-allowed}
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(unit asan fuzz integration vm)
[ "${suites[0]}" = all ] && suites=(unit asan fuzz integration vm)

log=$(mktemp -d /tmp/nsaudit-tests.XXXXXX)
pass=0 fail=0 skip=0

# The allowed SKIPs: one extended regular expression per line, matched
# against the text after "SKIP: ", then a tab and why it may be skipped.
allowed=()
if [ -r "$SKIPS_ALLOWED" ]; then
	while IFS=$'\t' read -r re why; do
		case $re in '' | '#'*) continue ;; esac
		allowed+=("$re")
	done <"$SKIPS_ALLOWED"
fi

skip_allowed() {	# skip_allowed "what (why)"
	local re
	for re in "${allowed[@]}"; do
		[[ $1 =~ $re ]] && return 0
	done
	return 1
}

count() {	# count PASS/FAIL/SKIP lines of one suite's output file
	local f=$1 p q s line
	while IFS= read -r line; do
		skip_allowed "${line#SKIP: }" && continue
		echo "FAIL: unexpected SKIP (not in $SKIPS_ALLOWED): ${line#SKIP: }" | tee -a "$f"
	done < <(grep '^SKIP: ' "$f")
	p=$(grep -c '^PASS: ' "$f"); q=$(grep -c '^FAIL: ' "$f"); s=$(grep -c '^SKIP: ' "$f")
	pass=$((pass + p)) fail=$((fail + q)) skip=$((skip + s))
}

run_unit() {	# run_unit [BINARY LABEL]
	local bin=${1:-$BUILD/unit-tests} label=${2:-}
	echo "== unit tests (Criterion${label:+, $label})"
	# --tap makes every test one line we can count like the others.
	"$bin" --jobs 2 --tap=- 2>&1 | tee "$log/unit.raw" |
		sed -n -e 's/^ok \([0-9]* \)\{0,1\}- \(.*\) # SKIP \(.*\)/SKIP: \2 (\3)/p' \
		       -e '/# SKIP/!s/^ok \([0-9]* \)\{0,1\}- \(.*\)/PASS: \2/p' \
		       -e 's/^not ok \([0-9]* \)\{0,1\}- \(.*\)/FAIL: \2/p' |
		sed "s/^\(PASS\|FAIL\|SKIP\): /&${label:+[$label] }/" |
		tee "$log/unit.out"
	grep -q '^1\.\.' "$log/unit.raw" || echo "FAIL: unit tests did not run" | tee -a "$log/unit.out"
	# a binary that dies at exit (a sanitizer's report) loses the TAP lines
	# stdio still held: every test the plan announced must have a result
	local planned reported
	planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log/unit.raw" | head -n 1)
	reported=$(grep -cE '^(PASS|FAIL|SKIP): ' "$log/unit.out")
	[ -n "$planned" ] && [ "$reported" -lt "$planned" ] &&
		echo "FAIL: unit tests${label:+ ($label)}: $reported results for the $planned tests planned (output cut short)" |
		tee -a "$log/unit.out"
	count "$log/unit.out"
}

# A test run killed with SIGKILL (a timeout, a lost session) skips its EXIT
# traps, and its recorder's pinned programs stay attached: later tests and
# the bench's "untraced" baselines would run traced. The tests' and the
# bench's pin directories end in their shell's pid: one whose process is
# gone is detached here, and the run says so.
clear_stale_pins() {
	local d pid
	for d in /sys/fs/bpf/nsaudit-it-*[0-9] /sys/fs/bpf/nsaudit-soak-*[0-9] \
		 /sys/fs/bpf/nsaudit-bench-*[0-9]; do
		[ -d "$d" ] || continue
		pid=${d##*-}
		kill -0 "$pid" 2>/dev/null && continue
		"$BUILD/nsaudit" detach --pin-dir "$d" >/dev/null 2>&1 &&
			echo "note: detached the pins a killed run left in $d"
	done
}

run_integration() {
	local t out rc
	echo "== integration tests (real BPF on $(uname -r))"
	[ "$(id -u)" = 0 ] && tests/lib/mount-fs.sh && clear_stale_pins
	for t in "$INTEGRATION_DIR"/*.sh; do
		[ -x "$t" ] || continue
		echo "-- $t"
		out="$log/$(basename "$t").out"
		timeout -k 10 "${TEST_TIMEOUT:-600}" "$t" >"$out" 2>&1
		rc=$?
		grep -E '^(PASS|FAIL|SKIP): ' "$out"
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			echo "FAIL: $t timed out after ${TEST_TIMEOUT:-600}s" | tee -a "$out"
		elif [ $rc -ge 128 ]; then
			echo "FAIL: $t killed by signal $((rc - 128))" | tee -a "$out"
		elif [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out"; then
			echo "FAIL: $t exited $rc" | tee -a "$out"
		elif ! grep -qE '^(PASS|FAIL|SKIP): ' "$out"; then
			echo "FAIL: $t printed no result" | tee -a "$out"
		fi
		[ $rc -ne 0 ] && tail -n 20 "$out" | grep -vE '^(PASS|FAIL|SKIP): ' | sed 's/^/    /'
		count "$out"
	done
}

run_vm() {
	echo "== guest tests (patched 6.1 kernel under QEMU)"
	out="$log/vm.out"
	if [ -x tests/vm/run.sh ]; then
		tests/vm/run.sh 2>&1 | tee "$out"
		rc=${PIPESTATUS[0]}
		[ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out" && echo "FAIL: tests/vm/run.sh exited $rc" | tee -a "$out"
	else
		echo "FAIL: guest tests: tests/vm/run.sh not present" | tee "$out"
	fi
	count "$out"
}

for s in "${suites[@]}"; do
	case $s in
	unit) run_unit ;;
	asan)	# libcriterion's own runner leaks 48 bytes under --jobs 2;
		# LeakSanitizer's exit would cut the TAP output short
		LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS} \
			run_unit "$BUILD/unit-tests-asan" "ASan+UBSan" ;;
	fuzz)
		echo "== fuzzers (libFuzzer, ${FUZZ_SECONDS:-10}s each)"
		tests/run-fuzz.sh "${FUZZ_SECONDS:-10}" | tee "$log/fuzz.out"
		grep -qE '^(PASS|FAIL): ' "$log/fuzz.out" ||
			echo "FAIL: fuzzers: no fuzz target ran (make builds build/fuzz/fuzz_*)" | tee -a "$log/fuzz.out"
		count "$log/fuzz.out" ;;
	integration) run_integration ;;
	vm) run_vm ;;
	*) echo "tests/run.sh: unknown suite '$s' (unit, asan, fuzz, integration, vm, all)" >&2; exit 2 ;;
	esac
done
echo "logs: $log"
echo "nsaudit tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
