#!/bin/sh
# Guest side of "the stock hook set on every kernel": NSAUDIT_HOOKS=stock makes
# nsaudit load what it loads on an unpatched kernel (setns at its exit
# tracepoint alone, the thread's namespace cache kept by fork, the start-up
# snapshot and unshare's exit) on every kernel of the matrix, whose verifier and BTF
# differ from the host's. The host checks the stream
# (tests/vm/host.d/55-stock-events.sh).
if [ ! -x /bin/nsaudit ]; then
	echo "SKIP: guest: stock hook set (no static nsaudit in the initramfs)"
	exit 0
fi
mkdir -p /out
NSAUDIT_HOOKS=stock /bin/nsaudit trace --format json --op setns -v \
	> /out/stock-events.jsonl 2> /out/stock.err &
tp=$!
i=0
while ! grep -q '^nsaudit: ready' /out/stock.err 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 600 ] && break
	kill -0 $tp 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^nsaudit: ready' /out/stock.err; then
	echo "FAIL: guest: the stock hook set loads on $(uname -r): $(tail -n 3 /out/stock.err)"
	exit 0
fi
echo "PASS: guest: the stock hook set loads on $(uname -r)"
# a process that unshares uts (not recorded: --op setns) and then, the
# same task, enters pid 1's: the uts it left is the unshared one
unshare -u sh -c 'echo "unshared $(readlink /proc/self/ns/uts) $$" > /out/stock.txt;
	exec nsenter -t 1 -u true'
echo "host $(readlink /proc/self/ns/uts)" >> /out/stock.txt
sleep 1
kill -INT $tp
wait $tp
rc=$?
[ $rc -eq 0 ] && echo "PASS: guest: stock hook set: trace drains and exits 0 on SIGINT" ||
	echo "FAIL: guest: stock hook set: trace drains and exits 0 on SIGINT (exit $rc)"
