#!/bin/bash
# Host side of "nsaudit on the patched kernel": compare what the guest
# workload did (build/vmtest/workload.txt) with what nsaudit traced there
# (build/vmtest/guest-events.jsonl). Prints PASS:/FAIL:/SKIP: lines.
dir=${1:-build/vmtest}
ev=$dir/guest-events.jsonl
wl=$dir/workload.txt
case $(cat "$dir/kernel" 2>/dev/null) in
stock-*) echo "SKIP: guest events of the nsfd workload (stock kernel: no nsfd())"; exit 0 ;;
esac
if [ ! -s "$wl" ] || [ ! -f "$ev" ]; then
	echo "SKIP: guest events (the guest returned no workload.txt/guest-events.jsonl)"
	exit 0
fi
if ! jq -e . "$ev" >/dev/null 2>&1; then
	echo "FAIL: guest events: guest-events.jsonl is not valid JSON lines"
	exit 0
fi
has() {	# has "what" JQ-CONDITION
	if jq -e -s "any(.[]; $2)" "$ev" >/dev/null; then
		echo "PASS: guest events: $1"
	else
		echo "FAIL: guest events: $1 (no record with $2)"
	fi
}
count() {	# count "what" N JQ-CONDITION: exactly N records match
	local n
	n=$(jq -s "[.[] | select($3)] | length" "$ev")
	if [ "$n" = "$2" ]; then
		echo "PASS: guest events: $1"
	else
		echo "FAIL: guest events: $1 ($n records, not $2, with $3)"
	fi
}
grep '^error' "$wl" | sed 's/^/FAIL: guest workload: /'
while read -r what a b c d; do
	case $what in
	nsfd)	has "nsfd $a (fd $b) names $a:[$c]" \
		"(.op==\"nsfd\" and .ns_type==\"$a\" and .ns_inum==$c and .result==0 and .fd==$b and .via==\"nsfd\" and .probe==\"fexit/__x64_sys_nsfd\")" ;;
	denied)	has "nsfd denied by the access check is recorded with -$a (EACCES)" \
		"(.op==\"nsfd\" and .result==-$a and .result==-13 and .uid==65534 and .target_pid==1)" ;;
	esrch)	has "nsfd of a missing pid names the pid asked for ($a)" \
		"(.op==\"nsfd\" and .result==-3 and .target_pid==$a and .ns_type==\"uts\")" ;;
	pidfd)	has "PIDFD_GET_NET_NAMESPACE (fd $b) is an nsfd record via pidfd naming $a:[$c]" \
		"(.op==\"nsfd\" and .via==\"pidfd\" and .ns_type==\"$a\" and .ns_inum==$c and .fd==$b and .probe==\"tp_btf/nsfd\")"
		count "the pidfd ioctl is recorded once" 1 \
		"(.op==\"nsfd\" and .ns_inum==$c and .fd==$b and .via==\"pidfd\")" ;;
	children) has "nsfd NSFD_FOR_CHILDREN: pid:[$b], for_children" \
		"(.op==\"nsfd\" and .ns_type==\"pid\" and .ns_inum==$b and .for_children==true)" ;;
	timeleft)
		# the fixed bug: the time namespace left is the task's own ($a),
		# not time_for_children ($b)
		has "setns time after unshare without fork leaves time:[$a] (the task's own)" \
		"(.op==\"setns\" and .ns_type==\"time\" and .ns_inum==$a and .old_inum==$a and .probe==\"tp_btf/ns_change\")"
		count "no setns time record claims time_for_children:[$b] was left" 0 \
		"(.op==\"setns\" and .ns_type==\"time\" and .old_inum==$b)" ;;
	setns)	has "setns into $a:[$b] via nsfd, the kernel's ns_change with the old namespace" \
		"(.op==\"setns\" and .probe==\"tp_btf/ns_change\" and .ns_type==\"$a\" and .ns_inum==$b and .via==\"nsfd\" and .old_inum > 0 and .old_inum != $b)"
		count "one setns into $a:[$b] is one record (search and lifetime count it once)" 1 \
		"(.op==\"setns\" and .ns_type==\"$a\" and .ns_inum==$b)" ;;
	pinned)	has "bind-mount pin of the nsfd fd: mount $a:[$b]" \
		"(.op==\"mount\" and .ns_type==\"$a\" and .ns_inum==$b)"
		has "setns through the bind-mounted nsfd: via=bind" \
		"(.op==\"setns\" and .via==\"bind\" and .ns_inum==$b)" ;;
	unshared)
		has "unshare $a: $a:[$b] -> $a:[$c], old namespace from the kernel's ns_change" \
		"(.op==\"unshare\" and .ns_type==\"$a\" and .old_inum==$b and .ns_inum==$c and .result==0 and .probe==\"tp_btf/ns_change\")"
		count "one unshare into $a:[$c] is one record" 1 \
		"(.op==\"unshare\" and .ns_type==\"$a\" and .ns_inum==$c)" ;;
	cloned)	read -r pid old new <<<"$b $c $d"
		has "clone with a new $a namespace: child $pid in $a:[$new], parent's $a:[$old], from ns_change" \
		"(.op==\"clone\" and .ns_type==\"$a\" and .target_pid==$pid and .old_inum==$old and .ns_inum==$new and .probe==\"tp_btf/ns_change\")"
		count "the clone is one record for $a (no raw_tp/sched_process_fork twin)" 1 \
		"(.op==\"clone\" and .ns_type==\"$a\" and .ns_inum==$new)" ;;
	freed)	has "ns_free of $a:[$b] when its last reference went" \
		"(.op==\"ns_free\" and .ns_type==\"$a\" and .ns_inum==$b and .probe==\"tp_btf/ns_free\")" ;;
	esac
done < <(tr -d '\r' <"$wl")
for w in denied esrch pidfd children timeleft setns pinned unshared cloned; do
	grep -q "^$w " "$wl" || echo "FAIL: guest workload: no '$w' step ran"
done
for t in net uts ipc mnt pid user cgroup time; do
	grep -q "^nsfd $t " "$wl" || echo "FAIL: guest workload: nsfd $t did not run"
done
has "unshare is traced on the 6.1 guest too (CO-RE)" '(.op=="unshare" and .ns_type=="ipc")'
# exe comes from the identity the 6.1 kernel's records carry (exe_ino/dev)
has "exe of the workload's records, from the exec hook (CO-RE on 6.1)" \
	'(.op=="nsfd" and .exe=="/bin/nsfd_workload")'
