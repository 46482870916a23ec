#!/bin/bash
# Host side of "the stock hook set on every kernel" (tests/vm/guest.d/55-nsaudit-stock.sh):
# setns traced at its exit alone names the namespace entered and the one
# left, also after an unshare that was not recorded. Prints PASS:/FAIL:/SKIP:.
dir=${1:-build/vmtest}
ev=$dir/stock-events.jsonl
info=$dir/stock.txt
if [ ! -s "$info" ] || [ ! -f "$ev" ]; then
	echo "SKIP: guest stock hooks (the guest returned no stock.txt/stock-events.jsonl)"
	exit 0
fi
inum() { sed -n "s/^$1 uts:\[\([0-9]*\)\].*/\1/p" "$info"; }
host=$(inum host) unshared=$(inum unshared)
pid=$(sed -n 's/^unshared uts:\[[0-9]*\] \([0-9]*\)$/\1/p' "$info")
if [ -z "$host" ] || [ -z "$unshared" ] || [ -z "$pid" ] || [ "$host" = "$unshared" ]; then
	echo "FAIL: guest stock hooks: stock.txt is not what the guest script writes: $(tr '\n' ' ' <"$info")"
	exit 0
fi
r=$(jq -c --argjson pid "$pid" 'select(.pid == $pid and .op == "setns" and .ns_type == "uts")' "$ev")
if [ "$(jq -r .probe <<<"$r")" = "tracepoint/syscalls" ]; then
	echo "PASS: guest stock hooks: setns is recorded by the syscall tracepoint"
else
	echo "FAIL: guest stock hooks: setns is recorded by the syscall tracepoint (got: ${r:-no record})"
fi
if [ "$(jq .ns_inum <<<"$r")" = "$host" ]; then
	echo "PASS: guest stock hooks: setns names the uts entered (pid 1's)"
else
	echo "FAIL: guest stock hooks: setns names the uts entered: $(jq .ns_inum <<<"$r"), not $host"
fi
if [ "$(jq .old_inum <<<"$r")" = "$unshared" ]; then
	echo "PASS: guest stock hooks: the uts left is the unshared one (cache refilled at unshare's exit)"
else
	echo "FAIL: guest stock hooks: the uts left: $(jq .old_inum <<<"$r"), not the unshared $unshared"
fi
if [ "$(jq -s 'map(select(.op == "unshare")) | length' "$ev")" = 0 ]; then
	echo "PASS: guest stock hooks: --op setns records no unshare"
else
	echo "FAIL: guest stock hooks: --op setns records no unshare"
fi
