#!/bin/sh
# Guest side of "nsaudit on every kernel of the matrix" (patched 6.1, stock
# 6.1, stock 6.12): the tracer with the hook set it chooses by itself loads,
# and a busybox workload (unshare, setns through nsenter, a mount namespace)
# is traced; what /proc said before and after each step goes to
# /out/matrix-truth.txt, the stream to /out/matrix-events.jsonl, and the
# host compares them (tests/vm/host.d/60-matrix-events.sh).
k=${NSAUDIT_KERNEL:-unknown}
if [ ! -x /bin/nsaudit ]; then
	echo "FAIL: guest: matrix: no static nsaudit in the initramfs"
	exit 0
fi
mkdir -p /out
T=/out/matrix-truth.txt
ino() { stat -L -c %i "/proc/$1/ns/$2"; }
: >$T
for t in net uts ipc mnt pid user cgroup; do
	echo "host $t $(ino self $t)" >>$T
done
/bin/nsaudit trace --format json >/out/matrix-events.jsonl 2>/out/matrix.err &
tp=$!
i=0
while ! grep -q '^nsaudit: ready' /out/matrix.err 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 600 ] && break
	kill -0 $tp 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^nsaudit: ready' /out/matrix.err; then
	echo "FAIL: guest: matrix: nsaudit trace loads with the hook set it chooses on $(uname -r):"
	tail -n 40 /out/matrix.err	# a verifier log says why at its end
	exit 0
fi
echo "PASS: guest: matrix: nsaudit trace loads with the hook set it chooses on $(uname -r)"
hooks=$(sed -n 's/^nsaudit: ready (hooks: \(.*\))$/\1/p' /out/matrix.err)
case $k:$hooks in
patched-*:*tp_btf/ns_change*fexit/__x64_sys_setns* | patched-*:*fexit/__x64_sys_setns*tp_btf/ns_change*)
	echo "PASS: guest: matrix: the patched hook set (fexit on setns, tp_btf/ns_change)" ;;
stock-*:*tp_btf/ns_*) echo "FAIL: guest: matrix: a stock kernel got namespace:* tracepoint hooks: $hooks" ;;
stock-*:*fexit/__x64_sys_setns* | stock-*:*fentry/__x64_sys_setns*)
	echo "FAIL: guest: matrix: a stock kernel got the patched fentry hooks on setns: $hooks" ;;
stock-*:tracepoint/syscalls:*)
	case ,${hooks%% *}, in
	*[:,]setns,*unshare,* | *[:,]unshare,*setns,*)
		echo "PASS: guest: matrix: the stock hook set (syscall tracepoints for setns and unshare)" ;;
	*)	echo "FAIL: guest: matrix: the stock hook set lacks setns or unshare: $hooks" ;;
	esac ;;
*)	echo "FAIL: guest: matrix: unexpected hook set on $k: $hooks" ;;
esac
if grep -qiE 'libbpf: .*(fail|error)|verifier|invalid' /out/matrix.err; then
	echo "FAIL: guest: matrix: libbpf reported a failure while loading: $(grep -iE 'fail|error|verifier|invalid' /out/matrix.err | head -n 3)"
else
	echo "PASS: guest: matrix: no program failed to load (no libbpf error)"
fi

# unshare of uts, ipc and net; the shell stays as the holder to enter
unshare -u -i -n sh -c "echo \"unshare \$\$ uts \$(stat -L -c %i /proc/self/ns/uts) ipc \$(stat -L -c %i /proc/self/ns/ipc) net \$(stat -L -c %i /proc/self/ns/net)\" >>$T; exec sleep 6" &
i=0
while ! grep -q '^unshare ' $T && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
holder=$(sed -n 's/^unshare \([0-9]*\) .*/\1/p' $T | head -n 1)
# setns into the holder's uts and net (nsenter opens /proc/PID/ns/*)
nsenter -t "$holder" -u -n sh -c "echo \"setns \$\$ uts \$(stat -L -c %i /proc/self/ns/uts) net \$(stat -L -c %i /proc/self/ns/net)\" >>$T"
# a mount namespace
unshare -m sh -c "echo \"unshare \$\$ mnt \$(stat -L -c %i /proc/self/ns/mnt)\" >>$T"
sleep 2
kill -INT $tp
wait $tp
rc=$?
kill "$holder" 2>/dev/null
[ $rc -eq 0 ] && echo "PASS: guest: matrix: trace drains and exits 0 on SIGINT" ||
	echo "FAIL: guest: matrix: trace drains and exits 0 on SIGINT (exit $rc)"
