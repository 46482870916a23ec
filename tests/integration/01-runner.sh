#!/bin/bash
# tests/run.sh's own policy, on fake suites: an allowed SKIP (named in the
# skips list) is only a skip; any other SKIP, a script killed by a signal,
# one that exits non-zero without a FAIL line and one that prints no
# result are failures; the closing line counts them.
. "$(dirname "$0")/../lib/testlib.sh"
D=$TMP/suite
mkdir -p "$D"
fake() { printf '#!/bin/bash\n%s\n' "$2" >"$D/$1.sh"; chmod +x "$D/$1.sh"; }
fake a 'echo "PASS: a works"; echo "SKIP: a thing (needs root)"'
fake b 'echo "SKIP: lifetime (nsaudit has no lifetime)"'
fake c 'echo "PASS: c before the crash"; kill -SEGV $$'
fake d 'echo "setup only, no result"'
fake e 'echo "PASS: e"; exit 3'
printf '# test list\n \\(needs root\\)$\tnot root\n' >"$TMP/allowed"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
INTEGRATION_DIR=$D SKIPS_ALLOWED=$TMP/allowed "$ROOT/tests/run.sh" integration >"$TMP/out" 2>&1
rc=$?
expect_eq "runner: closing line counts unexpected skips, crashes, silent scripts as failures" \
	"$(tail -n 1 "$TMP/out")" "nsaudit tests: 3 passed, 4 failed, 2 skipped"
expect_eq "runner: exits non-zero when anything failed" "$rc" 1
check "runner: an allowed SKIP is not a failure" bash -c "! grep -q 'FAIL: unexpected SKIP.*a thing' '$TMP/out'"
check "runner: an unexpected SKIP fails, naming the list" \
	grep -q "^FAIL: unexpected SKIP (not in $TMP/allowed): lifetime (nsaudit has no lifetime)" "$TMP/out"
check "runner: a script killed by a signal fails" grep -q "^FAIL: $D/c.sh killed by signal 11" "$TMP/out"
check "runner: a script with no result line fails" grep -q "^FAIL: $D/d.sh printed no result" "$TMP/out"
check "runner: a non-zero exit without a FAIL line fails" grep -q "^FAIL: $D/e.sh exited 3" "$TMP/out"
# the repository's own list: every entry is a valid regex with a reason
bad=$(awk -F'\t' '!/^#/ && NF && (NF < 2 || $2 == "") {print NR}' "$ROOT/tests/skips-allowed")
expect_eq "tests/skips-allowed: every entry gives its reason" "$bad" ""
