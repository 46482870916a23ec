#!/bin/bash
# Every attempt to get hold of a namespace is a record, also when the
# kernel refuses it (issue 33): open_by_handle_at of an nsfs handle
# (ESTALE: no such namespace; EPERM: not through nsfs' root, no
# CAP_DAC_READ_SEARCH), PIDFD_GET_NET_NAMESPACE (ESRCH: the process was
# reaped; EACCES: nobody on root's process), pidfd_getfd of another's nsfs
# fd (EPERM) and NS_GET_PARENT / NS_GET_USERNS (EPERM). Ground truth: the
# helper's own errno, stat -L of the namespace files, the handle's bytes.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "failed attempts"
require_cmd jq "failed attempts"
NSF=$(dirname "$NSAUDIT")/helpers/nsfail
require_built "$NSF" "failed attempts"
OUT=$TMP/trace.jsonl
BG=()
trap 'for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done; cleanup_testlib' EXIT
# nobody must be able to run the helper
setpriv --reuid=65534 --regid=65534 --clear-groups "$NSF" >/dev/null 2>&1
[ $? -eq 2 ] || { skip "failed attempts" "nobody (65534) cannot run $NSF"; exit 0; }

# a namespace nobody is not in, and a root process holding an fd of it
unshare -n sleep 120 &
BG+=($!)
NETP=$!
for i in $(seq 1 50); do [ "$(readlink /proc/$NETP/ns/net)" != "$(readlink /proc/self/ns/net)" ] && break; sleep 0.05; done
bash -c 'exec 7</proc/'$NETP'/ns/net; exec sleep 120' &
BG+=($!)
HOLDER=$!
sleep 0.2
net_inum=$(ns_inum /proc/$NETP/ns/net)

trace_start "$OUT" --op nsfd,query || { fail "trace starts"; exit 0; }
o_stale=$("$NSF" handle-stale); rc_stale=$?
o_eperm=$("$NSF" handle-eperm /proc/$NETP/ns/net); rc_eperm=$?
o_esrch=$("$NSF" pidfd-ns-esrch); rc_esrch=$?
o_eacces=$("$NSF" pidfd-ns-eacces $NETP); rc_eacces=$?
o_getfd=$("$NSF" getfd-eperm $HOLDER 7); rc_getfd=$?
o_parent=$("$NSF" ns-ioctl-eperm parent /proc/self/ns/pid); rc_parent=$?
o_userns=$("$NSF" ns-ioctl-eperm userns /proc/self/ns/user); rc_userns=$?
sleep 0.3
trace_stop

val() { sed -n "s/^$1 //p" <<<"$2" | head -1; }
# the records of one helper run
recs() { jq -c --argjson p "$1" "select(.pid == \$p and ($2))" "$OUT"; }

if [ $rc_stale -eq 3 ]; then
	skip "open_by_handle_at of nsfs" "kernel $(uname -r) has no nsfs file handles"
else
	expect_eq "handle naming no namespace: the helper saw ESTALE" "$(val errno "$o_stale")" ESTALE
	r=$(recs "$(val pid "$o_stale")" '.op=="nsfd" and .via=="handle"')
	expect_eq "failed open_by_handle_at (ESTALE): one record, the type and ids the handle named" \
		"$(jq -sc 'map([.result, .error, .ns_type, .ns_id, .ns_inum])' <<<"$r")" \
		"[[-116,\"ESTALE\",\"net\",$(val ns_id "$o_stale"),$(val inum "$o_stale")]]"
	expect_eq "handle as nobody, not from nsfs' root: the helper saw EPERM" "$(val errno "$o_eperm")" EPERM
	r=$(recs "$(val pid "$o_eperm")" '.op=="nsfd" and .via=="handle"')
	expect_eq "failed open_by_handle_at (EPERM): the namespace (stat -L) and who (uid)" \
		"$(jq -sc 'map([.result, .error, .ns_type, .ns_inum, .uid])' <<<"$r")" \
		"[[-1,\"EPERM\",\"net\",$net_inum,65534]]"
fi

if [ $rc_esrch -eq 3 ]; then
	skip "PIDFD_GET_*_NAMESPACE" "kernel $(uname -r) has no such ioctl"
else
	expect_eq "pidfd of a reaped child: the helper saw ESRCH" "$(val errno "$o_esrch")" ESRCH
	r=$(recs "$(val pid "$o_esrch")" '.op=="nsfd" and .via=="pidfd"')
	expect_eq "failed PIDFD_GET_NET_NAMESPACE (ESRCH): a record with the type asked for" \
		"$(jq -sc 'map([.result, .error, .ns_type, .target_pid])' <<<"$r")" \
		"[[-3,\"ESRCH\",\"net\",$(val target "$o_esrch")]]"
	expect_eq "nobody on root's process: the helper saw EACCES" "$(val errno "$o_eacces")" EACCES
	r=$(recs "$(val pid "$o_eacces")" '.op=="nsfd" and .via=="pidfd"')
	expect_eq "failed PIDFD_GET_NET_NAMESPACE (EACCES): whose namespace, who" \
		"$(jq -sc 'map([.result, .error, .ns_type, .target_pid, .uid])' <<<"$r")" \
		"[[-13,\"EACCES\",\"net\",$NETP,65534]]"
fi

expect_eq "pidfd_getfd as nobody: the helper saw EPERM" "$(val errno "$o_getfd")" EPERM
r=$(recs "$(val pid "$o_getfd")" '.op=="nsfd" and .via=="pidfd_getfd"')
expect_eq "failed pidfd_getfd of an nsfs fd (EPERM): the fd's namespace (stat -L), its owner" \
	"$(jq -sc 'map([.result, .error, .ns_type, .ns_inum, .target_pid])' <<<"$r")" \
	"[[-1,\"EPERM\",\"net\",$net_inum,$HOLDER]]"

expect_eq "NS_GET_PARENT of the initial pid namespace: EPERM" "$(val errno "$o_parent")" EPERM
r=$(recs "$(val pid "$o_parent")" '.op=="nsfd"')
expect_eq "failed NS_GET_PARENT: a record of the namespace asked about" \
	"$(jq -sc 'map([.result, .error, .ns_type, .ns_inum])' <<<"$r")" \
	"[[-1,\"EPERM\",\"pid\",$(ns_inum /proc/self/ns/pid)]]"
expect_eq "NS_GET_USERNS of the initial user namespace: EPERM" "$(val errno "$o_userns")" EPERM
r=$(recs "$(val pid "$o_userns")" '.op=="nsfd"')
expect_eq "failed NS_GET_USERNS: a record of the namespace asked about" \
	"$(jq -sc 'map([.result, .error, .ns_type, .ns_inum])' <<<"$r")" \
	"[[-1,\"EPERM\",\"user\",$(ns_inum /proc/self/ns/user)]]"

# --- refused opens of "ns/TYPE" relative to a /proc/PID directory (the
# working directory, or a dirfd), by processes that exit at once: the
# namespace is read in the kernel at the call (the record has its ns_id,
# which only the kernel side gives), not through the actor's cwd later.
# Ground truth: stat -L of the namespace files, the process's own errors.
OUT2=$TMP/rel.jsonl
trace_start "$OUT2" --op open || { fail "trace --op open starts"; exit 0; }
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo \$\$; cd /proc/$NETP && exec cat ns/net" \
	>"$TMP/rel-cwd.out" 2>"$TMP/rel-cwd.err"
REL_CWD=$(head -1 "$TMP/rel-cwd.out")
o_rel=$("$NSF" open-rel-eacces /proc/$NETP ns/pid); rc_rel=$?
sleep 0.3
trace_stop
expect_eq "relative ns/net from a /proc/PID cwd as nobody: cat saw EACCES" \
	"$(grep -c 'ns/net: Permission denied' "$TMP/rel-cwd.err")" 1
expect_eq "refused relative open (cwd /proc/PID): the namespace (stat -L), read at the call (ns_id), whose" \
	"$(jq -sc --argjson p "${REL_CWD:-0}" 'map(select(.op=="open" and .pid==$p and .result<0) |
		[.error, .path, .ns_type, .ns_inum, (.ns_id != null), .target_pid])' "$OUT2")" \
	"[[\"EACCES\",\"ns/net\",\"net\",$net_inum,true,$NETP]]"
expect_eq "openat(/proc/PID dirfd, ns/pid) as nobody: the helper saw EACCES" "$rc_rel $(val errno "$o_rel")" "0 EACCES"
expect_eq "refused relative open (dirfd /proc/PID, ns/pid): the namespace (stat -L), read at the call, whose" \
	"$(jq -sc --argjson p "$(val pid "$o_rel")" 'map(select(.op=="open" and .pid==$p and .result<0) |
		[.error, .path, .ns_type, .ns_inum, (.ns_id != null), .target_pid])' "$OUT2")" \
	"[[\"EACCES\",\"ns/pid\",\"pid\",$(ns_inum /proc/$NETP/ns/pid),true,$NETP]]"

# --- a target 32 pid namespaces deep (MAX_PID_NS_LEVEL; an unprivileged
# user reaches it by nesting): a refused relative open of its ns/pid names
# its own pid namespace (stat -L), never the host's (level 32 masked with
# 31 once read as level 0, the initial pid namespace)
DEEP=$TMP/deep.sh
cat >"$DEEP" <<'SH'
#!/bin/sh
if [ "$1" -gt 0 ]; then exec unshare -p -f "$0" $(($1 - 1)); fi
exec sleep 60
SH
chmod 755 "$DEEP"
"$DEEP" 32 &
BG+=($!)
DP=
for i in $(seq 1 100); do
	DP=$(pgrep -P "$(pgrep -f "unshare -p -f $DEEP 0" | head -1)" sleep 2>/dev/null | head -1)
	[ -n "$DP" ] && break
	sleep 0.1
done
expect_eq "a process 32 pid namespaces deep (NSpid has 33 ids)" \
	"$(awk '/^NSpid:/ { print NF - 1 }' "/proc/${DP:-0}/status" 2>/dev/null)" 33
OUT3=$TMP/deep.jsonl
trace_start "$OUT3" --op open || { fail "trace --op open starts"; exit 0; }
o_deep=$("$NSF" open-rel-eacces "/proc/$DP" ns/pid)
sleep 0.3
trace_stop
expect_eq "refused relative open of ns/pid of a task at pid level 32: its own namespace (stat -L), not the host's" \
	"$(jq -sc --argjson p "$(val pid "$o_deep")" 'map(select(.op=="open" and .pid==$p and .result<0) |
		[.error, .ns_type, .ns_inum, .target_pid])' "$OUT3")" \
	"[[\"EACCES\",\"pid\",$(ns_inum "/proc/$DP/ns/pid"),$DP]]"
kill "$DP" 2>/dev/null
