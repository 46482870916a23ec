#!/bin/bash
# op freed on the stock kernel (bpf/nsaudit/freed.bpf.c): the moment each
# namespace dies follows the holder that really let go last, for holders
# of each kind, against the moments this script makes them let go:
#   a sleeping process (all eight types), an fd in another process, a bind
#   mount (ipc, mnt, net: "ip netns add; ip netns del", user: the umounter
#   the actor), "ip netns exec NAME sleep 3" outliving "ip netns del", a
#   bind mount in an exiting task's own mount namespace (net), a socket in
#   another process, a child user namespace.
# And each holder that goes before the last (stage let_go): a task's
# nsproxy (the actor is the task this script kills first), the nsfs
# dentry (a bind mount removed while a process holds it) and sockets of a
# net namespace (UNIX, UDP, TCP), with the count left, against the holders
# this script leaves.
# Bound: a record at most FREED_BOUND seconds after the release (the RCU
# grace periods and workqueues of a loaded machine), never before it.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "freed"
require_cmd unshare "freed"
require_cmd ip "freed"
require_cmd jq "freed"
require_cmd python3 "freed"
require_built "$NSAUDIT" "freed"

BOUND=${FREED_BOUND:-3}
# An nsfs inode's memory goes after a grace period, its RCU callback lazy
# where the kernel batches those (rcutree.enable_rcu_lazy: up to 10 s
# unless memory pressure or a hurried callback flushes them first): the
# moments told from it get that much more.
NSFS_BOUND=$BOUND
[ "$(cat /sys/module/rcutree/parameters/enable_rcu_lazy 2>/dev/null)" = Y ] &&
	NSFS_BOUND=$((BOUND + 10))
NS=nsaudit-fr-$$
PIDS=
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	umount "$TMP/bind" 2>/dev/null
	umount "$TMP/ubind" 2>/dev/null
	umount -l "$TMP/mbind" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip netns del "$NS-s" 2>/dev/null
	ip netns del "$NS-l" 2>/dev/null
	ip netns del "$NS-m" 2>/dev/null
	cleanup_testlib
}
trap cleanup EXIT

OUT=$TMP/trace
trace_start "$OUT" --op freed,unshare || { fail "freed: the tracer starts"; exit 0; }
check "hooks: kmem_cache_free, kfree and the workqueue's" \
	bash -c 'for h in kmem_cache_free kfree workqueue_execute_start; do
		grep -q "^nsaudit: ready (hooks: .*tp_btf/$h[ )]" "$0" || exit 1; done' "$OUT.err"

now() { date +%s.%N; }
# id_of TYPE INUM SELECTOR: the ns_id of the namespace an unshare record
# made (SELECTOR: a jq test on the record, .pid == N): inodes are reused
# at once on this machine (other tests make namespaces all the time)
# FROM (optional): only records after that many lines of the trace: the
# namespace a case made may have the inode of one an earlier case deleted,
# and its own record may not be drained yet when the look-up starts
id_of() {
	local i
	for i in $(seq 1 50); do
		v=$(tail -n +$((${4:-0} + 1)) "$OUT" | jq -r --arg t "$1" --argjson i "$2" "select(.op == \"unshare\" and .ns_type == \$t and .ns_inum == \$i and ($3)) | .ns_id" 2>/dev/null | tail -n 1)
		[ -n "$v" ] && { echo "$v"; return 0; }
		sleep 0.1
	done
	echo 0
}
# freed records of TYPE ID (ns_id) as "time stage holder pid comm" lines (time in
# seconds since the epoch, from the record's RFC 3339 time)
freed_of() {
	jq -r --arg t "$1" --argjson i "$2" 'select(.op == "freed" and .ns_type == $t and .ns_id == $i) |
		((.time | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601) as $s |
		 (.time | capture("(?<f>\\.[0-9]+)Z").f | tonumber) as $f |
		 "\($s + $f) \(.stage) \(.holder) \(.pid // 0) \(.comm // "-") \(.ns_refs // 0)")' "$OUT" 2>/dev/null
}
# wait_freed TYPE INUM STAGE: until such a record is there (25 s: NSFS_BOUND and more)
wait_freed() {
	local i
	for i in $(seq 1 250); do
		freed_of "$1" "$2" | grep -q " $3 " && return 0
		sleep 0.1
	done
	return 1
}
# settle TYPE PID: until PID's TYPE namespace is not this script's (its
# unshare done; 5 s at most)
settle() {
	local i
	for i in $(seq 1 100); do
		[ "$(ns_inum "/proc/$2/ns/$1" 2>/dev/null)" != "$(ns_inum "/proc/self/ns/$1")" ] && return 0
		sleep 0.05
	done
}
# in_window T LO HI: LO <= T <= HI
in_window() { awk -v t="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(t >= lo && t <= hi) }'; }
# check_moment WHAT TYPE INUM STAGE LO HI [HOLDER [PID]]: the first STAGE record
# lies in [LO, HI] and names HOLDER (and PID)
check_moment() {
	local what=$1 type=$2 inum=$3 stage=$4 lo=$5 hi=$6 holder=$7 pid=$8 line t h p
	if ! wait_freed "$type" "$inum" "$stage"; then
		fail "$what: no freed $stage record for $type ns_id $inum"
		return
	fi
	line=$(freed_of "$type" "$inum" | grep " $stage " | head -n 1)
	read -r t _ h p _ <<<"$line"
	if in_window "$t" "$lo" "$hi"; then pass "$what: $type $stage at the release (+$(awk -v a="$t" -v b="$lo" 'BEGIN{printf "%.3f", a-b}') s)"
	else fail "$what: $type $stage at $t, not in [$lo, $hi]"; fi
	# the kernel's own count can say the expected holder was not the last:
	# a holder nsaudit does not see (another process's look at
	# /proc/PID/ns, a transient reference of the kernel's) took one while
	# it went and let go after it; then the record must say so (no actor,
	# holder kernel) and the expected holder's let_go must have the count
	# it left (read from the kernel at its free), never a guess
	if [ "$stage" = last_ref ] && [ -n "$pid" ] && [ "$h:$p" = kernel:0 ] &&
		[ "$h:$p" != "$holder:$pid" ] && other_let_go_last "$type" "$inum" "$holder" "$pid" "$lo"; then
		pass "$what: $type holder: $holder $pid let go with $OTHER_REFS reference(s) left (the kernel's count), so the last put was a holder nsaudit does not see: kernel, no actor"
		return
	fi
	[ -n "$holder" ] && expect_eq "$what: $type holder" "$h" "$holder"
	[ -n "$pid" ] && expect_eq "$what: $type: the actor is the holder that let go last" "$p" "$pid"
}
# other_let_go_last TYPE ID HOLDER PID LO: HOLDER PID let go of it since LO with
# references left (in OTHER_REFS), before its last_ref
other_let_go_last() {
	local line t r lt
	line=$(let_go_of "$1" "$2" "$3" "$4" "$5")
	[ -n "$line" ] || return 1
	read -r t _ _ _ _ r <<<"$line"
	lt=$(freed_of "$1" "$2" | grep " last_ref " | head -n 1 | cut -d' ' -f1)
	[ "${r:-0}" -ge 1 ] && [ -n "$lt" ] && awk -v a="$t" -v b="$lt" 'BEGIN { exit !(a <= b) }' || return 1
	OTHER_REFS=$r
}
# check_let_go WHAT TYPE ID LO HI HOLDER PID REFS: the first let_go record
# of HOLDER (and PID, 0: no actor) since LO lies in [LO, HI], names REFS
# left, and comes before the namespace's last_ref; an actor's let_go never
# before LO. (An nsfs let_go before LO is the script's own: each stat of
# /proc/PID/ns/TYPE makes an nsfs dentry and lets it go.)
let_go_of() {
	freed_of "$1" "$2" | awk -v h="$3" -v p="$4" -v lo="$5" \
		'$2 == "let_go" && $3 == h && $4 == p && $1 >= lo' | head -n 1
}
check_let_go() {
	local what=$1 type=$2 id=$3 lo=$4 hi=$5 holder=$6 pid=$7 refs=$8 line t r lt i
	for i in $(seq 1 250); do
		line=$(let_go_of "$type" "$id" "$holder" "$pid" "$lo")
		[ -n "$line" ] && break
		sleep 0.1
	done
	if [ -z "$line" ]; then
		fail "$what: no let_go record of $holder ${pid/#0/(no actor)} for $type ns_id $id since $lo"
		return
	fi
	read -r t _ _ _ _ r <<<"$line"
	if in_window "$t" "$lo" "$hi"; then pass "$what: $type let_go of $holder when it went (+$(awk -v a="$t" -v b="$lo" 'BEGIN{printf "%.3f", a-b}') s)"
	else fail "$what: $type let_go of $holder at $t, not in [$lo, $hi]"; fi
	expect_eq "$what: $type let_go: references left" "$r" "$refs"
	[ "$pid" = 0 ] || expect_eq "$what: $type: no let_go by pid $pid before it went" \
		"$(let_go_of "$type" "$id" "$holder" "$pid" 0 | awk -v lo="$lo" '$1 < lo' | wc -l)" 0
	lt=$(freed_of "$type" "$id" | grep " last_ref " | head -n 1 | cut -d' ' -f1)
	[ -z "$lt" ] || check "$what: $type let_go before its last_ref" \
		awk -v a="$t" -v b="$lt" 'BEGIN { exit !(a <= b) }'
}

# --- a sleeping process holds one namespace of each type -------------------
unshare -U -u -i -n -m -p -f -C -T --map-root-user sleep 300 2>/dev/null & U=$!
PIDS="$PIDS $U"
C=
for i in $(seq 1 100); do
	C=$(pgrep -P "$U" sleep) && [ "$(ns_inum /proc/$C/ns/time 2>/dev/null)" != "$(ns_inum /proc/self/ns/time)" ] && break
	sleep 0.05
done
declare -A IN
for t in net uts ipc mnt pid user cgroup time; do
	IN[$t]=$(id_of $t "$(ns_inum /proc/$C/ns/$t)" ".pid == $U")
done
sleep 0.3
# (its holders come and go meanwhile: each stat of /proc/PID/ns/TYPE above
# makes an nsfs dentry and lets it go, a let_go)
before=$(for t in net uts ipc mnt pid user cgroup time; do freed_of $t "${IN[$t]}"; done | grep -vc " let_go ")
expect_eq "process: no freed record while it lives" "$before" 0
T0=$(now)
kill -KILL "$C"	# pid 1 of its pid namespace: TERM is ignored
wait "$U" 2>/dev/null
T1=$(now)
HI=$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')
# the last holder of what free_nsproxy puts is unshare, which outlives
# its child by the moment it takes to see it die
for t in uts ipc mnt cgroup time net; do
	check_moment "process" $t "${IN[$t]}" last_ref "$T0" "$HI" task "$U"
done
# the child (pid 1 of the pid namespace; its own nsproxy, for the time
# namespace it entered) went first: one reference, unshare's, was left
for t in uts ipc mnt cgroup net; do
	check_let_go "process, its child first" $t "${IN[$t]}" "$T0" "$HI" task "$C" 1
done
check_moment "process" net "${IN[net]}" cleanup "$T0" "$HI"
check_moment "process" pid "${IN[pid]}" released "$T0" "$HI" kernel
check_moment "process" ipc "${IN[ipc]}" released "$T0" "$HI" kernel
check_moment "process" user "${IN[user]}" last_ref "$T0" "$HI" owner_work

# --- an fd in another process outlives the namespace's own process ----------
unshare -u sleep 300 & S=$!
PIDS="$PIDS $S"
settle uts $S
UTS=$(id_of uts "$(ns_inum /proc/$S/ns/uts)" ".pid == $S")
TH=$(now)	# the fd holder's sleep 2 ends 2 s after this at the earliest
bash -c "exec 7</proc/$S/ns/uts; exec sleep 2" & H=$!
sleep 0.3
TK=$(now)
kill "$S"; wait "$S" 2>/dev/null
T0=$(now)
wait "$H"
T1=$(now)
# the namespace's own process went first, the fd's nsfs dentry was left
check_let_go "fd" uts "$UTS" "$TK" "$(awk -v a="$T0" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" \
	task "$S" 1
check_moment "fd" uts "$UTS" last_ref "$(awk -v a="$TH" 'BEGIN{printf "%.3f", a+2}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" fd "$H"
check "fd: not when its first holder died" awk -v a="$T0" -v b="$T1" 'BEGIN { exit !(b - a > 1) }'

# --- a task moves to a new nsproxy that still names it: no holder went -------
# unshare -u, then the same process unshares ipc: its first nsproxy is
# freed, but the task holds the uts namespace on through the new one
T0=$(now)
unshare -u sh -c 'sleep 0.5; exec unshare -i sleep 1' & S=$!
PIDS="$PIDS $S"
settle uts $S
UTS=$(id_of uts "$(ns_inum /proc/$S/ns/uts)" ".pid == $S")
wait "$S"
T1=$(now)
check_moment "a new nsproxy of the same task" uts "$UTS" last_ref \
	"$(awk -v a="$T0" 'BEGIN{printf "%.3f", a+1.5}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$S"
expect_eq "a new nsproxy of the same task: no let_go by the task that held it on" \
	"$(freed_of uts "$UTS" | awk '$2 == "let_go" && $3 == "task"' | wc -l)" 0

# --- a bind mount outlives its process --------------------------------------
unshare -i sleep 300 & S=$!
PIDS="$PIDS $S"
settle ipc $S
IPC=$(id_of ipc "$(ns_inum /proc/$S/ns/ipc)" ".pid == $S")
touch "$TMP/bind"
setup "bind mount /proc/$S/ns/ipc" mount --bind "/proc/$S/ns/ipc" "$TMP/bind"
TK=$(now)
kill "$S"; wait "$S" 2>/dev/null
sleep 1
expect_eq "bind mount: not freed while mounted" "$(freed_of ipc "$IPC" | grep -vc " let_go ")" 0
check_let_go "bind mount" ipc "$IPC" "$TK" "$(now)" task "$S" 1
T1=$(now)
# the umount lets it go (its exit proves the bind mount held the last
# reference): last_ref holder mount, the umounter the actor
bash -c 'echo $$ >"$1"; exec umount "$2"' _ "$TMP/umounter-ipc" "$TMP/bind"
check_moment "bind mount" ipc "$IPC" last_ref "$T1" \
	"$(awk -v a="$T1" -v b="$NSFS_BOUND" 'BEGIN{printf "%.3f", a+b}')" mount "$(cat "$TMP/umounter-ipc")"
check_moment "bind mount" ipc "$IPC" released "$T1" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" kernel

# --- a bind mount removed while its process lives: the nsfs dentry goes first -
unshare -i sleep 300 & S=$!
PIDS="$PIDS $S"
settle ipc $S
IPC=$(id_of ipc "$(ns_inum /proc/$S/ns/ipc)" ".pid == $S")
setup "bind mount /proc/$S/ns/ipc (umount first)" mount --bind "/proc/$S/ns/ipc" "$TMP/bind"
sleep 0.5
T0=$(now)
umount "$TMP/bind"
# the nsfs inode goes after a grace period, on whatever runs then: no
# actor; the process's reference is left
check_let_go "umount before the process" ipc "$IPC" "$T0" \
	"$(awk -v a="$(now)" -v b="$NSFS_BOUND" 'BEGIN{printf "%.3f", a+b}')" nsfs 0 1
expect_eq "umount before the process: no death while it lives" \
	"$(freed_of ipc "$IPC" | grep -vc " let_go ")" 0
T0=$(now)
kill "$S"; wait "$S" 2>/dev/null
T1=$(now)
check_moment "umount before the process" ipc "$IPC" last_ref "$T0" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$S"

# --- a mount namespace held last by a bind mount: its umount lets it go ------
# The umount's exit proves that the bind mount it removed held the last
# reference (bpf/nsaudit/freed_mount.bpf.h): last_ref holder mount, the
# umounter the actor (a shell that execs umount: its pid is known here).
# The same with a lazy umount (ip netns del's way). And one whose process
# still holds it when its bind mount goes: no claim of mount, the process
# lets go last.
# mnt_bind WHAT: a process in a new mount namespace, its nsfs file bind
# mounted on $TMP/mbind; sets S (the process) and MNT (its ns_id)
mnt_bind() {
	unshare -m sleep 300 & S=$!
	PIDS="$PIDS $S"
	settle mnt $S
	MNT=$(id_of mnt "$(ns_inum /proc/$S/ns/mnt)" ".pid == $S")
	touch "$TMP/mbind"
	setup "$1: bind mount /proc/$S/ns/mnt" mount --bind "/proc/$S/ns/mnt" "$TMP/mbind"
}
# umount_as FLAGS: umount $TMP/mbind from a process whose pid goes to U
umount_as() {
	bash -c 'echo $$ >"$1"; exec umount $2 "$3"' _ "$TMP/umounter" "$1" "$TMP/mbind"
	U=$(cat "$TMP/umounter")
}
for flags in "" -l; do
	what="mnt bind mount${flags:+ (umount $flags)}"
	mnt_bind "$what"
	kill "$S"; wait "$S" 2>/dev/null
	sleep 0.5
	expect_eq "$what: not freed while mounted" "$(freed_of mnt "$MNT" | grep -vc " let_go ")" 0
	T1=$(now)
	umount_as "$flags"
	# told at the nsfs inode's free: a grace period, lazy here maybe
	check_moment "$what" mnt "$MNT" last_ref "$T1" \
		"$(awk -v a="$(now)" -v b="$NSFS_BOUND" 'BEGIN{printf "%.3f", a+b}')" mount "$U"
done
what="mnt bind mount removed while its process lives"
mnt_bind "$what"
sleep 0.3
umount_as ""
sleep 0.5
expect_eq "$what: no death while it lives" "$(freed_of mnt "$MNT" | grep -vc " let_go ")" 0
T0=$(now)
kill "$S"; wait "$S" 2>/dev/null
check_moment "$what" mnt "$MNT" last_ref "$T0" \
	"$(awk -v a="$(now)" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$S"
expect_eq "$what: the umount is no holder that let go last" \
	"$(freed_of mnt "$MNT" | awk '$3 == "mount"' | wc -l)" 0

# --- ip netns exec NAME sleep 3 holds it 3 s past ip netns del ---------------
FROM=$(wc -l <"$OUT")
setup "ip netns add" ip netns add "$NS"
NET=$(id_of net "$(ns_inum "/run/netns/$NS")" '.comm == "ip"' "$FROM")
ip netns exec "$NS" sleep 3 & E=$!
sleep 0.3
T0=$(now)
ip netns del "$NS"
wait "$E"
T1=$(now)
# The last holder is the sleep: its nsproxy, or what its exit put after
# the nsproxy (a mount of the private mount namespace ip netns exec made
# for it: task too, freed_exit.bpf.h). The kernel's "cannot tell" only
# where the sleep's own let_go shows a holder left that nsaudit does not
# see (check_moment: another process's look at /proc/PID/ns/net).
check_moment "ip netns exec sleep 3" net "$NET" last_ref "$(awk -v a="$T1" 'BEGIN{printf "%.3f", a-0.2}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$E"
expect_eq "ip netns exec sleep 3: net: ip netns del's umount is no holder that let go last" \
	"$(freed_of net "$NET" | awk '$3 == "mount"' | wc -l)" 0
check_moment "ip netns exec sleep 3" net "$NET" cleanup "$(awk -v a="$T1" 'BEGIN{printf "%.3f", a-0.2}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" kernel
check "ip netns exec sleep 3: seen 2.5 s and more after ip netns del" \
	awk -v a="$T0" -v b="$T1" 'BEGIN { exit !(b - a >= 2.5) }'

# --- ip netns add, ip netns del: the bind mount at /run/netns/NAME is last ----
# ip netns del's umount removes the name (a bind mount of the nsfs file);
# its cleanup, run by ip before it returns from umount2, puts the
# namespace and queues cleanup_net: last_ref holder mount, ip netns del
# the actor (a shell that execs it: its pid is known here), at once (not
# a grace period later: the queue is the put's own moment)
FROM=$(wc -l <"$OUT")
setup "ip netns add (bind mount last)" ip netns add "$NS"
NET=$(id_of net "$(ns_inum "/run/netns/$NS")" '.comm == "ip"' "$FROM")
sleep 0.3
T0=$(now)
bash -c 'echo $$ >"$1"; exec ip netns del "$2"' _ "$TMP/netns-del" "$NS"
D=$(cat "$TMP/netns-del")
check_moment "ip netns del (bind mount last)" net "$NET" last_ref "$T0" \
	"$(awk -v a="$(now)" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" mount "$D"
check_moment "ip netns del (bind mount last)" net "$NET" cleanup "$T0" \
	"$(awk -v a="$(now)" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" kernel
expect_eq "ip netns del (bind mount last): one last_ref" \
	"$(freed_of net "$NET" | grep -c " last_ref ")" 1

# --- a bind mount in the exiting task's own mount namespace is last ---------
# ip netns exec NAME unshare -m: the sleep's private mount namespace has a
# bind mount of the namespace's nsfs file (and its copy of /run/netns/NAME);
# ip netns del removes only the host's. At the sleep's exit its nsproxy
# goes first (1 reference left: the nsfs inode), then its exit's task
# works clean up its mount namespace's mounts, the last put: last_ref
# holder task, the sleep the actor
FROM=$(wc -l <"$OUT")
setup "ip netns add (private mount)" ip netns add "$NS"
NET=$(id_of net "$(ns_inum "/run/netns/$NS")" '.comm == "ip"' "$FROM")
touch "$TMP/pbind"
ip netns exec "$NS" unshare -m --propagation private sh -c \
	'mount --bind "$1" "$2" && exec sleep 1.5' _ "/run/netns/$NS" "$TMP/pbind" & E=$!
sleep 0.5
ip netns del "$NS"
T0=$(now)
wait "$E"
T1=$(now)
check_let_go "exit, a bind mount in its mount namespace" net "$NET" \
	"$(awk -v a="$T0" 'BEGIN{printf "%.3f", a+0.5}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$E" 1
check_moment "exit, a bind mount in its mount namespace" net "$NET" last_ref \
	"$(awk -v a="$T0" 'BEGIN{printf "%.3f", a+0.5}')" \
	"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" task "$E"
# told, not the kernel's "cannot tell" that check_moment also takes when
# the count showed a holder left (the exit's own task works are seen)
read -r _ _ h p _ <<<"$(freed_of net "$NET" | grep " last_ref " | head -n 1)"
expect_eq "exit, a bind mount in its mount namespace: net: the exit is named, not the kernel" \
	"$h:$p" "task:$E"

# --- a user namespace held last by a bind mount -------------------------------
# its process gone (its credentials freed a grace period later), the bind
# mount holds it alone; the umount's cleanup puts it and queues its free
# work: last_ref holder mount, the umounter the actor (not the work's
# owner_work)
unshare -U --map-root-user sleep 300 & S=$!
PIDS="$PIDS $S"
settle user $S
UNS=$(id_of user "$(ns_inum /proc/$S/ns/user)" ".pid == $S")
touch "$TMP/ubind"
setup "bind mount /proc/$S/ns/user" mount --bind "/proc/$S/ns/user" "$TMP/ubind"
kill "$S"; wait "$S" 2>/dev/null
sleep 1
expect_eq "user bind mount: not freed while mounted" "$(freed_of user "$UNS" | grep -vc " let_go ")" 0
T1=$(now)
bash -c 'echo $$ >"$1"; exec umount "$2"' _ "$TMP/umounter-user" "$TMP/ubind"
check_moment "user bind mount" user "$UNS" last_ref "$T1" \
	"$(awk -v a="$(now)" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" mount "$(cat "$TMP/umounter-user")"
expect_eq "user bind mount: one last_ref" "$(freed_of user "$UNS" | grep -c " last_ref ")" 1

# --- sockets made in it, held by a process in the host's namespace ----------
# A UNIX datagram, a UNIX stream, a UDP and a TCP socket hold the namespace
# (sk_net_refcnt: one reference each); its name goes first, then the
# process closes them one at a time, printing the moment before each
# close: each socket's going is a let_go with the count left (holders'
# own accounting: 1 per socket), the last one the last_ref, of a socket.
FROM=$(wc -l <"$OUT")
setup "ip netns add (socket)" ip netns add "$NS-s"
NET=$(id_of net "$(ns_inum "/run/netns/$NS-s")" '.comm == "ip"' "$FROM")
python3 - "/run/netns/$NS-s" "$TMP/sock.go" >"$TMP/sock.out" <<'EOF' & P=$!
import ctypes, os, socket, sys, time
libc = ctypes.CDLL(None, use_errno=True)
host = os.open("/proc/self/ns/net", os.O_RDONLY)
ns = os.open(sys.argv[1], os.O_RDONLY)
if libc.setns(ns, 0x40000000):
	sys.exit(1)
socks = [("unix_dgram", socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)),
	 ("unix_stream", socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)),
	 ("udp", socket.socket(socket.AF_INET, socket.SOCK_DGRAM)),
	 ("tcp", socket.socket(socket.AF_INET, socket.SOCK_STREAM))]
if libc.setns(host, 0x40000000):
	sys.exit(1)
os.close(ns)
os.close(host)
print("ready", flush=True)
while not os.path.exists(sys.argv[2]):
	time.sleep(0.02)
for name, s in socks:
	time.sleep(0.5)
	print(name, "%.6f" % time.time(), flush=True)
	s.close()
EOF
PIDS="$PIDS $P"
for i in $(seq 1 100); do grep -q ready "$TMP/sock.out" && break; sleep 0.05; done
check "socket: the holder made its sockets" grep -q ready "$TMP/sock.out"
expect_eq "socket: holders counts 4 sockets and the name" \
	"$("$NSAUDIT" holders "/run/netns/$NS-s" --format json | jq -c '[.refs, .accounting.socket]')" "[5,4]"
ip netns del "$NS-s"
touch "$TMP/sock.go"
wait "$P"
at() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/sock.out"; }
plus() { awk -v a="$1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}'; }
left=3
for k in unix_dgram unix_stream udp; do
	check_let_go "socket ($k)" net "$NET" "$(at $k)" "$(plus "$(at $k)")" socket 0 "$left"
	left=$((left - 1))
done
check_moment "socket (tcp, the last)" net "$NET" last_ref "$(at tcp)" "$(plus "$(at tcp)")" socket
check_moment "socket" net "$NET" cleanup "$(at tcp)" "$(plus "$(at tcp)")" kernel

# --- a child user namespace holds its parent ---------------------------------
# the sleep ends 1 s after its start at the earliest; wait may return
# seconds later on a loaded machine: the window is [start + 1 s, wait + BOUND]
# holder_ns_of TYPE ID STAGE: the ns_id of the child a record of holder
# child names (old_ns_id)
holder_ns_of() {
	jq -r --arg t "$1" --argjson i "$2" --arg s "$3" 'select(.op == "freed" and
		.ns_type == $t and .ns_id == $i and .stage == $s and .holder == "child") |
		.old_ns_id' "$OUT" 2>/dev/null | head -n 1
}
T0=$(now)
unshare -U --map-root-user unshare -U sleep 1 & Q=$!
PIDS="$PIDS $Q"
sleep 0.3
mapfile -t UNS < <(jq -r --argjson p "$Q" 'select(.op == "unshare" and .pid == $p and .ns_type == "user") | .ns_id' "$OUT")
wait "$Q"
T1=$(now)
LO=$(awk -v a="$T0" 'BEGIN{printf "%.3f", a+1}')
if [ "${#UNS[@]}" = 2 ]; then
	check_moment "child user ns" user "${UNS[1]}" last_ref "$LO" \
		"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" owner_work
	# its only holder after the unshare was the child (the process's
	# credentials moved to the child): the child's free work put it last
	check_moment "parent user ns, held by its child" user "${UNS[0]}" last_ref "$LO" \
		"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" child
	expect_eq "parent user ns: the last holder named is its child" \
		"$(holder_ns_of user "${UNS[0]}" last_ref)" "${UNS[1]}"
	check "parent user ns: freed after its child" awk \
		-v c="$(freed_of user "${UNS[1]}" | grep " last_ref " | head -n 1 | cut -d' ' -f1)" \
		-v p="$(freed_of user "${UNS[0]}" | grep " last_ref " | head -n 1 | cut -d' ' -f1)" \
		'BEGIN { exit !(c != "" && p != "" && c <= p) }'
else
	fail "child user ns: the two unshare records (got ${#UNS[@]})"
fi

# --- a child user namespace dies first: its parent lives on --------------------
# the parent's shell holds it until this script says go; its child (a
# sleep in a user namespace of its own) ends after 1 s
rm -f "$TMP/uns.go"
T0=$(now)
unshare -U --map-root-user sh -c "unshare -U sleep 1; while [ ! -e '$TMP/uns.go' ]; do sleep 0.05; done" &
Q=$!
PIDS="$PIDS $Q"
sleep 0.3
PU=$(jq -r --argjson p "$Q" 'select(.op == "unshare" and .pid == $p and .ns_type == "user") | .ns_id' "$OUT" | tail -n 1)
read -r CU CP < <(jq -r --argjson p "${PU:-0}" 'select(.op == "unshare" and .ns_type == "user" and
	.old_ns_id == $p) | "\(.ns_id) \(.pid)"' "$OUT" | tail -n 1)
# ground truth: the child's process (its unshare's, then its sleep) is
# gone, the parent's shell lives
for i in $(seq 1 100); do kill -0 "${CP:-0}" 2>/dev/null || break; sleep 0.05; done
T1=$(now)
check "child first: its sleep exited while the parent's shell lives" \
	sh -c "[ -n '$CP' ] && ! kill -0 '$CP' 2>/dev/null && kill -0 $Q"
if [ -n "$PU" ] && [ -n "$CU" ]; then
	check_moment "child first" user "$CU" last_ref "$(awk -v a="$T0" 'BEGIN{printf "%.3f", a+1}')" \
		"$(awk -v a="$T1" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" owner_work
	for i in $(seq 1 50); do [ -n "$(holder_ns_of user "$PU" let_go)" ] && break; sleep 0.1; done
	expect_eq "child first: the parent's let_go names its child" \
		"$(holder_ns_of user "$PU" let_go)" "$CU"
	r=$(jq -r --argjson i "$PU" 'select(.op == "freed" and .ns_id == $i and .stage == "let_go" and
		.holder == "child") | .ns_refs' "$OUT" | head -n 1)
	check "child first: the parent had references left ($r: its shell's)" test "${r:-0}" -ge 1
	expect_eq "child first: no last_ref of the parent while its shell lives" \
		"$(freed_of user "$PU" | grep -c " last_ref ")" 0
	T2=$(now)
	touch "$TMP/uns.go"
	wait "$Q"
	T3=$(now)
	check_moment "child first, then the parent's shell" user "$PU" last_ref "$T2" \
		"$(awk -v a="$T3" -v b="$BOUND" 'BEGIN{printf "%.3f", a+b}')" owner_work
else
	fail "child first: the two unshare records (parent '$PU', child '$CU')"
	touch "$TMP/uns.go"
fi

trace_stop
check "no freed record names a wrong type for its hook" \
	sh -c "! jq -e 'select(.op == \"freed\" and .stage == \"cleanup\" and .ns_type != \"net\")' '$OUT' | grep -q ."

# --- lifetime tells the story from a recorded log -----------------------------
"$NSAUDIT" record --log-dir "$TMP/log" --no-pin --keep 1000 --type net \
	--op setns,unshare,clone,open,mount,umount,freed >/dev/null 2>"$TMP/rec.err" & R=$!
PIDS="$PIDS $R"
wait_ready "$TMP/rec.err" "$R" || fail "lifetime: the recorder starts"
# lifetime_of NS: its lifetime from the log in out, once its cleanup is there (5 s)
lifetime_of() {
	local i
	for i in $(seq 1 50); do
		out=$("$NSAUDIT" lifetime "$1" --log-dir "$TMP/log" 2>/dev/null)
		grep -q "cleanup_net began" <<<"$out" && return 0
		sleep 0.1
	done
}
setup "ip netns add (lifetime)" ip netns add "$NS-l"
NET=$(ns_inum "/run/netns/$NS-l")
ip netns exec "$NS-l" sleep 2 & E=$!
sleep 0.3
ip netns del "$NS-l"
wait "$E"
lifetime_of "net:$NET"
check "lifetime: the last holder is the sleep that outlived ip netns del" \
	grep -Eq "freed +\(its last reference went: the last task holding it .*last holder: pid=$E \(sleep\)" <<<"$out"
check "lifetime: the cleanup moment" grep -q "freed    (cleanup_net began taking it apart)" <<<"$out"
# each holder gone before: ip netns add's own process (it made the
# namespace and exits; the name is left), the name (the nsfs dentry, as
# ip netns del removed it; the sleep is left)
check "lifetime: ip netns add's process let go, the name left" \
	grep -Eq "let_go +a task holding it exited, exec'd or moved away; [1-9][0-9]* references? left pid=[0-9]+ \(ip\)" <<<"$out"
check "lifetime: the name's nsfs file let go, the sleep left" \
	grep -Eq "let_go +its nsfs file went: .*; [1-9][0-9]* references? left" <<<"$out"
check "lifetime: how long it lived after its last name was removed" \
	grep -Eq "^lived [0-9.]+ s; died (1\.[5-9]|[2-9]\.)[0-9]* s after its last name was removed" <<<"$out"
# ip netns add, ip netns del: the name was the last holder, ip netns del
# (its pid known here) let go last
setup "ip netns add (lifetime, bind mount last)" ip netns add "$NS-m"
bash -c 'echo $$ >"$1"; exec ip netns del "$2"' _ "$TMP/netns-del-l" "$NS-m"
D=$(cat "$TMP/netns-del-l")
lifetime_of "$NS-m"
check "lifetime NAME: the last holder is the bind mount ip netns del removed" \
	grep -Eq "freed +\(its last reference went: its last bind mount was removed, by the umount of the actor\) last holder: pid=$D \(ip\)" <<<"$out"
kill -INT "$R"; wait "$R"
