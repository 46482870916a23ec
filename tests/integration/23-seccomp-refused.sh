#!/bin/bash
# Calls a seccomp filter refuses are records (issue 47). A filter that
# returns SECCOMP_RET_ERRNO (docker's default profile, for a container
# without CAP_SYS_ADMIN) makes the kernel skip the call before
# the sys_enter tracepoint; only the exit fires. The helper seccompdeny
# installs such a filter (EPERM for unshare, setns, mount, umount2, clone3,
# and clone with CLONE_NEW*) and makes each call N times, under strace
# (ground truth: every call strace saw refused). The records: the op, the
# namespace type(s), -1 EPERM, "refused_by":"seccomp", the helper's pid, a
# repeat summing to strace's count; mount names the source's namespace
# (stat -L) and the target; umount names the pin (root's, made while
# tracing) and its path; mount(8) under the filter binding another
# process's /proc/PID/ns/uts names that namespace (6.13+: the exit
# resolves it by pid, as the entry does). setns has no entry hook on a
# stock kernel: a
# record, but which layer refused it is not told (no refused_by). Calls
# the kernel refused, by a process under a filter that lets namespace calls
# through (nobody's unshare -n), are not marked.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "seccomp refusals"
require_cmd jq "seccomp refusals"
require_cmd strace "seccomp refusals"
require_cmd setpriv "seccomp refusals"
SD=$(dirname "$NSAUDIT")/helpers/seccompdeny
require_built "$SD" "seccomp refusals"
N=${SECCOMP_N:-7}
D=$TMP/d
mkdir -p "$D"
chmod 755 "$TMP" "$D"
: >"$D/pin"
: >"$D/target"
OUT=$TMP/trace.jsonl
trap 'umount -l "$D/pin" 2>/dev/null; trace_stop >/dev/null 2>&1; cleanup_testlib' EXIT

trace_start "$OUT" --comm seccompdeny --comm unshare --comm mount || { fail "trace starts"; exit 0; }
mount --bind /proc/self/ns/ipc "$D/pin" || { fail "root binds its ipc namespace on $D/pin"; exit 0; }
strace -f -qq -e trace=unshare,mount,umount2,clone,clone3,setns -o "$TMP/strace" \
	"$SD" probe "$N" "$D/target" "$D/pin" >"$TMP/probe" 2>&1
rc=$?
# another process's namespace: a sleep of root's in a uts namespace of its
# own, bound by a process under the filter (bpf_task_from_vpid: 6.13+)
unshare -u sleep 60 &
OTHER=$!
for i in $(seq 1 50); do [ "$(readlink /proc/$OTHER/ns/uts)" != "$(readlink /proc/self/ns/uts)" ] && break; sleep 0.05; done
"$SD" exec ns mount --bind /proc/$OTHER/ns/uts "$D/target" >/dev/null 2>&1 &
OPID=$!
wait $OPID
setpriv --reuid=65534 --regid=65534 --clear-groups "$SD" exec other unshare -n true \
	>/dev/null 2>&1 &
KPID=$!
wait $KPID
setpriv --reuid=65534 --regid=65534 --clear-groups "$SD" exec ns unshare -n true \
	>/dev/null 2>&1 &
SPID=$!
wait $SPID
sleep 0.5
trace_stop
umount "$D/pin"
OTHER_UTS=$(ns_inum /proc/$OTHER/ns/uts)
kill $OTHER 2>/dev/null

expect_eq "the helper's calls were all refused EPERM" "$rc" 0
P=$(sed -n 's/^pid //p' "$TMP/probe")
# strace's count of refused calls per syscall, e.g. unshare 14
st() { grep -cE "^$P +$1\(.*= -1 EPERM" "$TMP/strace"; }
expect_eq "strace saw each call refused N times" \
	"$(st unshare) $(st mount) $(st umount2) $(st clone) $(st clone3) $(st setns)" \
	"$((2 * N)) $N $N $N $N $N"
# the records of the helper's pid: per op and type, their repeats summed
sums() {
	jq -sc --argjson p "$P" --arg op "$1" '[.[] | select(.pid == $p and .op == $op)] |
		group_by(.ns_type) | map([.[0].ns_type, (map(.repeat // 1) | add),
		(map([.result, .error, .refused_by]) | unique)])' "$OUT"
}
expect_eq "unshare refused by seccomp: one record per type and call, marked" "$(sums unshare)" \
	"[[\"net\",$N,[[-1,\"EPERM\",\"seccomp\"]]],[\"user\",$N,[[-1,\"EPERM\",\"seccomp\"]]],[\"uts\",$N,[[-1,\"EPERM\",\"seccomp\"]]]]"
expect_eq "unshare's records name the namespaces it had (old_inum, stat -L)" \
	"$(jq -sc --argjson p "$P" '[.[] | select(.pid == $p and .op == "unshare") |
		[.ns_type, .old_inum]] | unique' "$OUT")" \
	"[[\"net\",$(ns_inum /proc/self/ns/net)],[\"user\",$(ns_inum /proc/self/ns/user)],[\"uts\",$(ns_inum /proc/self/ns/uts)]]"
expect_eq "clone (CLONE_NEWNET) and clone3 (CLONE_NEWUSER) refused: records, marked" \
	"$(sums clone)" \
	"[[\"net\",$N,[[-1,\"EPERM\",\"seccomp\"]]],[\"user\",$N,[[-1,\"EPERM\",\"seccomp\"]]]]"
expect_eq "bind of /proc/self/ns/net refused: the namespace (stat -L), the target, marked" \
	"$(jq -sc --argjson p "$P" '[.[] | select(.pid == $p and .op == "mount")] |
		[(map(.repeat // 1) | add), (map([.ns_type, .ns_inum, .path, .refused_by]) | unique)]' "$OUT")" \
	"[$N,[[\"net\",$(ns_inum /proc/self/ns/net),\"$D/target\",\"seccomp\"]]]"
if [ "$(uname -r | awk -F. '{ print ($1 > 6 || ($1 == 6 && $2 >= 13)) }')" = 1 ]; then
	expect_eq "bind of another process's /proc/PID/ns/uts refused: that namespace (stat -L), marked" \
		"$(jq -sc --argjson p "$OPID" '[.[] | select(.pid == $p and .op == "mount") |
			[.ns_type, .ns_inum, .path, .error, .refused_by]]' "$OUT")" \
		"[[\"uts\",$OTHER_UTS,\"$D/target\",\"EPERM\",\"seccomp\"]]"
fi
expect_eq "umount2 of root's pin refused: the pin's namespace and path, marked" \
	"$(jq -sc --argjson p "$P" '[.[] | select(.pid == $p and .op == "umount")] |
		[(map(.repeat // 1) | add), (map([.ns_type, .ns_inum, .path, .error, .refused_by]) | unique)]' "$OUT")" \
	"[$N,[[\"ipc\",$(ns_inum /proc/self/ns/ipc),\"$D/pin\",\"EPERM\",\"seccomp\"]]]"
expect_eq "setns (exit hook alone): a record, which layer refused it not told" "$(sums setns)" \
	"[[\"uts\",$N,[[-1,\"EPERM\",null]]]]"
expect_eq "nobody's unshare -n under a filter that lets it through: the kernel's EPERM, not marked" \
	"$(jq -sc --argjson p "$KPID" '[.[] | select(.pid == $p and .op == "unshare") |
		[.ns_type, .error, .refused_by, .uid]]' "$OUT")" '[["net","EPERM",null,65534]]'
expect_eq "nobody's unshare -n under the namespace filter: marked" \
	"$(jq -sc --argjson p "$SPID" '[.[] | select(.pid == $p and .op == "unshare") |
		[.ns_type, .error, .refused_by, .uid]]' "$OUT")" '[["net","EPERM","seccomp",65534]]'
expect_eq "no lost record names the test's processes" \
	"$(jq -c --argjson p "[$P,$KPID,$SPID]" 'select(.op == "lost" and (.pid as $x | $p | index($x)))' "$OUT" | head -3)" ""
