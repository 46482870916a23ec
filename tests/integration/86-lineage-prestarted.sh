#!/bin/bash
# Processes already running when nsaudit starts (issue 41): the start-up
# snapshot tells where one found away from the host's namespaces came from
# by its ancestors, as the kernel holds them (bpf/nsaudit/lineage.bpf.h,
# lineage_origin), and its children made later keep that:
#
# - a host service in private mount and pid namespaces (unshare -m -p -f,
#   started by this shell, no runtime) whose shell runs nsenter -t HOST -n
#   after the trace started: lineage "other", no alert at warning or
#   above (before: no lineage, and container-escape crit "pid:[N]");
# - a "runtime" (a copy of unshare made trusted by --rules trusted_exes)
#   whose workload (sh, another file, in a pid namespace the runtime made)
#   runs the same nsenter: lineage "container", one container-escape crit
#   naming its pid namespace;
# - host services in pid namespaces of their own with their own /proc
#   (unshare -p -f --mount-proc: "nsenter -t 1 -n" is their own shell's),
#   one with a private network reaching the host's through a bind of it,
#   started before nsaudit and after it: lineage "other", no alert.
# Every shell lives until the trace has stopped: a pid namespace's inode
# is reused at once after it dies (the runtime's workload's and post-net's
# were the same number in one run), and the checks select by it.
# Ground truth: /proc (each shell's pid namespace and parent), stat -L of
# the host's net namespace, nsenter's exit status. "The host" is a sleep
# this test starts (/proc/1/ns is closed on this machine).
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pre-started lineage"
for c in unshare nsenter jq; do require_cmd "$c" "pre-started lineage"; done
BG=()
cleanup() {
	local p
	touch "$TMP/end"	# the shells' hold (at most 90 s in any case)
	sleep 0.3
	for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] && rm -rf "$KEEP" && cp -a "$TMP" "$KEEP"
	cleanup_testlib
}
trap cleanup EXIT
wait_for() { local i; for i in $(seq 1 "${WAIT:-100}"); do "$@" && return 0; sleep 0.1; done; return 1; }
child_of() { ps -o pid= --ppid "$1" | tr -d ' ' | head -1; }

sleep 600 &	# "the host"
HP=$!
BG+=($HP)
HOST_NET=$(ns_inum /proc/$HP/ns/net)
HOST_PIDNS=$(ns_inum /proc/$HP/ns/pid)
mkfifo "$TMP/go-svc" "$TMP/go-rt"
# started before nsaudit: each shell waits for its go, then enters the host's net namespace
unshare -m -p -f --propagation private sh -c \
	"read x <'$TMP/go-svc'; nsenter -t $HP -n true; echo \$? >'$TMP/svc.rc'; n=0; while [ ! -e '$TMP/end' ] && [ \$n -lt 900 ]; do sleep 0.1; n=\$((n + 1)); done" &
SVC_U=$!
BG+=($SVC_U)
cp "$(command -v unshare)" "$TMP/rt"
printf 'trusted_exes: [%s]\n' "$TMP/rt" >"$TMP/rules.yaml"
"$TMP/rt" -p -f sh -c "read x <'$TMP/go-rt'; nsenter -t $HP -n true; echo \$? >'$TMP/rt.rc'; n=0; while [ ! -e '$TMP/end' ] && [ \$n -lt 900 ]; do sleep 0.1; n=\$((n + 1)); done" &
RT_U=$!
BG+=($RT_U)
wait_for bash -c "[ -n \"\$(ps -o pid= --ppid $SVC_U)\" ] && [ -n \"\$(ps -o pid= --ppid $RT_U)\" ]" ||
	{ fail "pre-started lineage: the shells started"; exit 0; }
SVC=$(child_of $SVC_U)
RT=$(child_of $RT_U)
SVC_PIDNS=$(ns_inum /proc/$SVC/ns/pid)
RT_PIDNS=$(ns_inum /proc/$RT/ns/pid)
[ "$SVC_PIDNS" != "$HOST_PIDNS" ] && [ "$RT_PIDNS" != "$HOST_PIDNS" ] ||
	fail "pre-started lineage: the shells run in pid namespaces of their own (/proc)"
expect_eq "pre-started lineage: the runtime's workload runs another file than the runtime (/proc/PID/exe)" \
	"$([ "$(stat -L -c %i /proc/$RT/exe)" != "$(stat -L -c %i /proc/$RT_U/exe)" ] && echo other)" "other"

# host services whose pid namespace has its own /proc (--mount-proc: pid 1
# is their own shell), one with a private network reaching the host's
# through a bind of it (what JoinsNamespaceOf= and ip netns do): each
# shell writes its pid namespace (its inode: the same in any procfs) and
# nsenter's status; "pre" ones run before nsaudit, "post" ones after
touch "$TMP/hostnet"
mount --bind /proc/$HP/ns/net "$TMP/hostnet" || fail "pre-started lineage: bind of the host's net namespace"
mp() {	# mp NAME [unshare options]: the shell waits for go-NAME when it exists
	local n=$1; shift
	unshare -p -f --mount-proc "$@" sh -c "[ -p '$TMP/go-$n' ] && read x <'$TMP/go-$n'
		case $n in *net) nsenter --net='$TMP/hostnet' true;; *) nsenter -t 1 -n true;; esac
		rc=\$?; echo \$(stat -L -c %i /proc/self/ns/pid) \$rc >'$TMP/$n.mp'; n=0; while [ ! -e '$TMP/end' ] && [ \$n -lt 900 ]; do sleep 0.1; n=\$((n + 1)); done"
}
mkfifo "$TMP/go-pre-own" "$TMP/go-pre-net"
mp pre-own &
BG+=($!)
mp pre-net -n &
BG+=($!)

B=$TMP/trace.jsonl
trace_start "$B" --rules "$TMP/rules.yaml" || { fail "pre-started lineage: trace starts"; exit 0; }
echo go >"$TMP/go-svc"
echo go >"$TMP/go-rt"
echo go >"$TMP/go-pre-own"
echo go >"$TMP/go-pre-net"
mp post-own &
BG+=($!)
mp post-net -n &
BG+=($!)
WAIT=300 wait_for test -s "$TMP/svc.rc" -a -s "$TMP/rt.rc" -a -s "$TMP/pre-own.mp" -a -s "$TMP/pre-net.mp" \
	-a -s "$TMP/post-own.mp" -a -s "$TMP/post-net.mp"
umount "$TMP/hostnet"
sleep 1
trace_stop
touch "$TMP/end"
expect_eq "pre-started lineage: both nsenters entered the host's net namespace" \
	"$(cat "$TMP/svc.rc" "$TMP/rt.rc" 2>/dev/null | tr '\n' ' ')" "0 0 "

# the nsenter of each pid namespace: its setns into the host's net namespace
setns_of() {
	jq -r --argjson p "$1" --argjson n "$HOST_NET" \
		'select(.op=="setns" and .result==0 and .actor_pidns==$p and .ns_inum==$n) |
		"\(.comm) \(.lineage)"' "$B"
}
loud_of() {
	jq -r 'select(.op=="alert" and
		(.severity|IN("emerg","alert","crit","err","warning"))) |
		"\(.rule) \(.severity) \(.actor_container) \(.comm)"' "$B" | grep -F "pid:[$1]"
}
expect_eq "pre-started lineage: a host service's nsenter (unshare -m -p -f before nsaudit): one setns record, lineage other" \
	"$(setns_of "$SVC_PIDNS")" "nsenter other"
expect_eq "pre-started lineage: a host service's nsenter: no alert at warning or above" \
	"$(loud_of "$SVC_PIDNS")" ""
expect_eq "pre-started lineage: a runtime's workload's nsenter: one setns record, lineage container" \
	"$(setns_of "$RT_PIDNS")" "nsenter container"
expect_eq "pre-started lineage: a runtime's workload's nsenter: one container-escape crit naming its pid namespace" \
	"$(loud_of "$RT_PIDNS")" "container-escape crit pid:[$RT_PIDNS] nsenter"
# --mount-proc host services, before and after nsaudit (issue 41 C): one
# setns record into the host's net namespace each, lineage other, no alert
# (nsaudit of 02:54 UTC Dec 7 raised container-escape crit for each)
for n in pre-own pre-net post-own post-net; do
	read -r pidns rc <"$TMP/$n.mp" 2>/dev/null
	expect_eq "pre-started lineage: $n (unshare -p -f --mount-proc): nsenter entered the host's net namespace from a pid namespace of its own" \
		"$rc $([ "${pidns:-$HOST_PIDNS}" != "$HOST_PIDNS" ] && echo own)" "0 own"
	expect_eq "pre-started lineage: $n: one setns record, lineage other" \
		"$(setns_of "${pidns:-0}")" "nsenter other"
	expect_eq "pre-started lineage: $n: no alert at warning or above" \
		"$(loud_of "${pidns:-0}")" ""
done
