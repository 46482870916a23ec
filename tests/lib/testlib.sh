# Shared helpers for integration tests (bash). Source it, then call:
#   pass "what"            fail "what"            skip "what" "why"
#   check "what" CMD...    passes when CMD exits 0
#   ns_inum FILE / ns_id FILE   a namespace's inode / the kernel's ns_id
#   expect_eq "what" GOT WANT
#   trace_start OUT [ARGS]  run "nsaudit trace ARGS" in the background,
#                           JSON to OUT, wait for its "nsaudit: ready" line
#   trace_stop              SIGINT it and wait (it drains first)
#   require_root WHAT / require_cmd TOOL WHAT   SKIP (allowed, see
#                           tests/skips-allowed) and exit when missing
#   require_built FILE WHAT FAIL and exit when a build product is missing
#   setup "what" CMD...     a setup step: silent when it works, FAIL if not
# Results are lines PASS:/FAIL:/SKIP: on stdout, counted by tests/run.sh.
NSAUDIT=${NSAUDIT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/nsaudit}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d /tmp/nsaudit-it.XXXXXX)

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; }
skip() { echo "SKIP: $1 ($2)"; }
check() {
	local what=$1; shift
	if "$@" >/dev/null; then pass "$what"; else fail "$what"; fi
}
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}
# inode of a namespace file, like lsns prints it
ns_inum() { stat -L -c %i "$1"; }
# the kernel's ns_id of a namespace file (NS_GET_ID, Linux 6.18: never
# reused, unlike the inode); empty where the kernel has no ids. NS_ID_PY
# defines ns_id(path) for a python3 -c of one's own (run in another
# namespace, say).
NS_ID_PY='import fcntl, os, struct, sys
def ns_id(path):
    try:
        fd = os.open(path, os.O_RDONLY)
        return struct.unpack("Q", fcntl.ioctl(fd, (2 << 30) | (8 << 16) | (0xb7 << 8) | 13, bytes(8)))[0]
    except OSError:
        return ""'
ns_id() { python3 -c "$NS_ID_PY
print(ns_id(sys.argv[1]))" "$1" 2>/dev/null; }

TRACE_PID=
trace_start() {
	local out=$1; shift
	# emptied here, before the tracer starts: its own redirection truncates
	# the file only once the child runs, and a ready line a previous tracer
	# left there would be taken for this one's
	: >"$out.err"
	"$NSAUDIT" trace --format json "$@" >"$out" 2>"$out.err" &
	TRACE_PID=$!
	local i
	for i in $(seq 1 200); do
		grep -q '^nsaudit: ready' "$out.err" 2>/dev/null && return 0
		kill -0 "$TRACE_PID" 2>/dev/null || break
		sleep 0.05
	done
	echo "trace did not become ready:" >&2
	cat "$out.err" >&2
	return 1
}
# wait_ready ERRFILE PID: until a tracer started by hand says it is ready
# (attaching takes seconds on a loaded machine: never a fixed sleep)
wait_ready() {
	local i
	for i in $(seq 1 400); do
		grep -q '^nsaudit: ready' "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
trace_stop() {
	[ -n "$TRACE_PID" ] || return 0
	kill -INT "$TRACE_PID" 2>/dev/null
	wait "$TRACE_PID"
	local rc=$?
	TRACE_PID=
	return $rc
}
# A mount a test left under $TMP (a pin's umount refused EBUSY while a
# foreign reader had it open) is detached lazily: no test leaves the host
# a bind mount of one of its namespaces (50-names would see it as a name).
cleanup_testlib() {
	local m
	trace_stop >/dev/null 2>&1
	awk -v t="$TMP/" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo 2>/dev/null |
		sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup_testlib EXIT

# Needs: a capability or tool; prints SKIP and exits when missing.
# A build product a test needs (make test builds them): missing is a FAIL,
# never a SKIP; a broken build must not look like a skipped test.
require_built() { [ -x "$1" ] || { fail "$2: $1 is missing (make test builds it)"; exit 0; }; }
# A setup step: nothing printed when it works (it is not a test result),
# a FAIL naming it when it does not.
setup() {
	local what=$1; shift
	"$@" >/dev/null 2>&1 || { fail "setup: $what"; return 1; }
}
require_root() { [ "$(id -u)" = 0 ] || { skip "$1" "needs root"; exit 0; }; }
require_cmd() { command -v "$1" >/dev/null || { skip "$2" "no $1"; exit 0; }; }
