#!/bin/sh
# Guest side of "op freed against the kernel's own ns_free" (every kernel of
# the matrix): the stock-kernel programs of op freed (kmem:kmem_cache_free,
# kmem:kfree, workqueue:workqueue_execute_start; bpf/nsaudit/freed.bpf.c)
# load here, and on the patched kernel ns_free is traced beside them.
#
# The workload makes every namespace it will release first, all alive at
# once (so no two of them share an inode), writes what /proc says of each
# to /out/freed-truth.txt ("CASE TYPE INODE"), then lets go of them one
# case at a time, a second apart, with the holder of each kind that lets
# go last: the process itself (all eight types), an fd in another process
# (its pid the fourth field),
# a bind mount (ipc, mnt, net and user: their umounters' pids in
# /out/freed-umount.txt, "CASE TYPE INODE PID"), a child user namespace's
# death for its parent. The holders that go first (the fd's and the bind mounts' own
# processes) are in /out/freed-letgo.txt ("CASE TYPE INODE PID REFS": the
# process that lets go first, the count it leaves). The host compares
# (tests/vm/host.d/65-freed-events.sh).
k=${NSAUDIT_KERNEL:-unknown}
if [ ! -x /bin/nsaudit ] || [ ! -x /bin/nsops ]; then
	echo "FAIL: guest: freed: no static nsaudit or nsops in the initramfs"
	exit 0
fi
mkdir -p /out /tmp/freed
T=/out/freed-truth.txt
L=/out/freed-letgo.txt
: >$T
: >$L
case $k in
patched-*) ops=freed,ns_free,unshare,clone ;;
*) ops=freed,unshare,clone ;;
esac
/bin/nsaudit trace --format json --op $ops >/out/freed-events.jsonl 2>/out/freed.err &
tp=$!
i=0
while ! grep -q '^nsaudit: ready' /out/freed.err 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 600 ] && break
	kill -0 $tp 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^nsaudit: ready' /out/freed.err; then
	echo "FAIL: guest: freed: nsaudit trace --op $ops loads on $(uname -r):"
	tail -n 40 /out/freed.err
	exit 0
fi
hooks=$(sed -n 's/^nsaudit: ready (hooks: \(.*\))$/\1/p' /out/freed.err)
missing=
for h in kmem_cache_free kfree workqueue_execute_start; do
	case " $hooks " in *" tp_btf/$h "*) ;; *) missing="$missing $h" ;; esac
done
if [ -z "$missing" ]; then
	echo "PASS: guest: freed: op freed's programs load on $(uname -r) (kmem_cache_free, kfree, workqueue_execute_start)"
else
	echo "FAIL: guest: freed: op freed's programs on $(uname -r): no$missing in the hooks ($hooks)"
fi
if grep -qiE 'libbpf: .*(fail|error)|verifier|invalid' /out/freed.err; then
	echo "FAIL: guest: freed: libbpf reported a failure: $(grep -iE 'fail|error|verifier|invalid' /out/freed.err | head -n 3)"
fi

ino() { stat -L -c %i "/proc/$1/ns/$2" 2>/dev/null; }
# the child of PID (busybox unshare -f waits for it)
child_of() {
	for s in /proc/[0-9]*/stat; do
		read -r cpid _ _ ppid _ <"$s" 2>/dev/null
		[ "$ppid" = "$1" ] && { echo "$cpid"; return; }
	done
}
# wait until PID's TYPE namespace is not the guest's own (its exec done)
settled() {
	i=0
	while [ "$(ino "$1" "$2")" = "$(ino 1 "$2")" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# 1. the process itself holds six types (time as its children's: 6.1
# does not enter it at exec)
nsops unshare uts,ipc,net,mnt,cgroup,time sleep 1000 >/dev/null &
task=$!
settled $task time_for_children
for t in uts ipc net mnt cgroup; do
	echo "task $t $(ino $task $t)" >>$T
done
echo "task time $(ino $task time_for_children)" >>$T
# 2. pid: the namespace's init, forked by unshare -f
unshare -p -f sleep 1000 &
pidp=$!
settled $pidp pid_for_children
echo "pid pid $(ino $pidp pid_for_children)" >>$T
# 3. a user namespace (root mapped) whose only holder is its child
unshare -r sh -c "echo \"user-parent user \$(stat -L -c %i /proc/self/ns/user)\" >>$T;
	exec unshare -U sleep 1000" &
user=$!
i=0
# (the parent's line first: read before it, the parent's inode passed for
# the child's, and the host compared the parent with itself)
while { ! grep -q "^user-parent user " $T || [ "$(ino $user user)" = "$(ino 1 user)" ] ||
	grep -q "^user-parent user $(ino $user user)\$" $T; } && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "user-child user $(ino $user user)" >>$T
# 4. uts held last by an fd in another process
unshare -u sleep 1000 &
fdns=$!
settled $fdns uts
sh -c "exec 3</proc/$fdns/ns/uts; exec sleep 1000" &
fdholder=$!
echo "fd uts $(ino $fdns uts) $fdholder" >>$T
echo "fd uts $(ino $fdns uts) $fdns 1" >>$L
# 5. ipc, mnt and net held last by a bind mount
unshare -i -m -n sleep 1000 &
bind=$!
settled $bind mnt
settled $bind net
for t in ipc mnt net; do
	touch /tmp/freed/$t
	mount --bind /proc/$bind/ns/$t /tmp/freed/$t
	echo "bind $t $(ino $bind $t)" >>$T
	echo "bind $t $(ino $bind $t) $bind 1" >>$L
done
# 6. user held last by a bind mount (a process of its own: namespaces a
# user namespace owns hold it too)
unshare -U sleep 1000 &
ubind=$!
settled $ubind user
touch /tmp/freed/user
mount --bind /proc/$ubind/ns/user /tmp/freed/user
echo "bind user $(ino $ubind user)" >>$T
sleep 1

# let go, one case at a time (the holders that are not last go first)
kill -9 $task
sleep 1
kill -9 "$(child_of $pidp)" 2>/dev/null
sleep 1
kill -9 $user
sleep 1
kill -9 $fdns
sleep 1
kill -9 $fdholder
sleep 1
kill -9 $bind $ubind
sleep 1	# (and the user namespace's credentials, a grace period later)
# the umounters' pids: op freed names each as the last holder (mount;
# net and user when their release is queued, by the umount's cleanup)
: >/out/freed-umount.txt
for t in ipc mnt net user; do
	sh -c 'echo "bind $1 $(stat -L -c %i /tmp/freed/$1) $$" >>/out/freed-umount.txt
		exec umount /tmp/freed/$1' _ $t
	sleep 1
done
sleep 1	# grace periods, cleanup_net's work
wait $pidp $task $user $fdns $fdholder $bind $ubind 2>/dev/null
kill -INT $tp
wait $tp
rc=$?
[ $rc -eq 0 ] && echo "PASS: guest: freed: trace drains and exits 0 on SIGINT" ||
	echo "FAIL: guest: freed: trace drains and exits 0 on SIGINT (exit $rc)"
