#!/bin/sh
# Guest side of "nsaudit on the patched kernel": trace the nsfd workload with
# the static nsaudit and leave the stream in /out for the host to check
# (tests/vm/host.d/50-guest-events.sh).
if [ ! -x /bin/nsaudit ] || [ ! -x /bin/nsfd_workload ]; then
	echo "SKIP: guest: nsaudit trace (no static nsaudit or nsfd_workload in the initramfs)"
	exit 0
fi
if [ ! -e /proc/sys/kernel/nsfd_syscall_nr ]; then
	echo "SKIP: guest: nsaudit trace of the nsfd workload (stock kernel: no nsfd())"
	exit 0
fi
mkdir -p /out
/bin/nsaudit probe > /out/probe.txt 2>&1
/bin/nsaudit trace --format json > /out/guest-events.jsonl 2> /out/trace.err &
tp=$!
i=0
while ! grep -q '^nsaudit: ready' /out/trace.err 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 600 ] && break
	kill -0 $tp 2>/dev/null || break
	sleep 0.1
done
if grep -q '^nsaudit: ready' /out/trace.err; then
	echo "PASS: guest: nsaudit trace attaches on the patched kernel"
else
	echo "FAIL: guest: nsaudit trace attaches on the patched kernel"
	tail -n 40 /out/trace.err	# a verifier log says why at its end
	exit 0
fi
if grep -q 'tp_btf/ns_change' /out/trace.err && grep -q 'fexit/__x64_sys_setns' /out/trace.err; then
	echo "PASS: guest: the patched hook set is chosen (fentry/fexit, tp_btf/ns_change, tp_btf/ns_free)"
else
	echo "FAIL: guest: the patched hook set is chosen: $(cat /out/trace.err)"
fi
/bin/nsfd_workload > /out/workload.txt 2>&1
sleep 2
kill -INT $tp
wait $tp
rc=$?
[ $rc -eq 0 ] && echo "PASS: guest: nsaudit trace drains and exits 0 on SIGINT" ||
	echo "FAIL: guest: nsaudit trace drains and exits 0 on SIGINT (exit $rc)"
