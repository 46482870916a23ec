#!/bin/bash
# Host side of "nsaudit on every kernel of the matrix"
# (tests/vm/guest.d/60-nsaudit-matrix.sh): each step the guest workload took
# is one record of the right type naming the namespace /proc showed, with
# the namespace left, and every namespace any record of the workload's
# processes names is one /proc showed. Prints PASS:/FAIL: lines.
dir=${1:-build/vmtest}
ev=$dir/matrix-events.jsonl
truth=$dir/matrix-truth.txt
kernel=$(cat "$dir/kernel" 2>/dev/null)
if [ ! -s "$truth" ] || [ ! -f "$ev" ]; then
	echo "FAIL: matrix events: the guest returned no matrix-truth.txt/matrix-events.jsonl"
	exit 0
fi
if ! jq -e . "$ev" >/dev/null 2>&1; then
	echo "FAIL: matrix events: matrix-events.jsonl is not valid JSON lines"
	exit 0
fi
host() { sed -n "s/^host $1 \([0-9]*\)$/\1/p" "$truth"; }
pids=()
steps=0
while read -r op pid rest; do
	case $op in unshare | setns) ;; *) continue ;; esac
	pids+=("$pid")
	set -- $rest
	while [ $# -ge 2 ]; do
		t=$1 inum=$2 old=$(host "$1")
		shift 2
		steps=$((steps + 1))
		n=$(jq -s --argjson pid "$pid" --arg op "$op" --arg t "$t" \
			'[.[] | select(.pid == $pid and .op == $op and .ns_type == $t)] | length' "$ev")
		r=$(jq -c --argjson pid "$pid" --arg op "$op" --arg t "$t" \
			'select(.pid == $pid and .op == $op and .ns_type == $t)' "$ev" | head -n 1)
		if [ "$n" != 1 ]; then
			echo "FAIL: matrix events: $op of $t by pid $pid is $n records, not 1"
			continue
		fi
		if [ "$(jq .ns_inum <<<"$r")" = "$inum" ] && [ "$(jq .old_inum <<<"$r")" = "$old" ]; then
			echo "PASS: matrix events: $op of $t by pid $pid: $t:[$old] -> $t:[$inum], as /proc showed"
		else
			echo "FAIL: matrix events: $op of $t by pid $pid: /proc showed $old -> $inum, the record: $r"
		fi
	done
done <"$truth"
[ "$steps" = 6 ] || echo "FAIL: matrix events: the guest workload ran $steps of its 6 steps ($(tr '\n' ';' <"$truth"))"

# every namespace a record of the workload's processes names is one /proc
# showed: the host's or one the workload made (by type)
known=$(awk '$1 == "host" { print $2 " " $3 }
	$1 == "unshare" || $1 == "setns" { for (i = 3; i < NF; i += 2) print $i " " $(i + 1) }' "$truth" |
	jq -R -s 'split("\n") | map(select(length > 0) | split(" ")) | map({(.[0] + ":" + .[1]): true}) | add')
bad=$(jq -c --argjson known "$known" --argjson pids "$(printf '%s\n' "${pids[@]}" | jq -s .)" '
	select(.pid as $p | $pids | index($p)) |
	[ (if .ns_inum and .ns_type then "\(.ns_type):\(.ns_inum)" else empty end),
	  (if .old_inum and .ns_type then "\(.ns_type):\(.old_inum)" else empty end),
	  (if .actor_mntns then "mnt:\(.actor_mntns)" else empty end),
	  (if .actor_pidns then "pid:\(.actor_pidns)" else empty end),
	  (if .actor_userns then "user:\(.actor_userns)" else empty end),
	  (if .actor_cgroupns then "cgroup:\(.actor_cgroupns)" else empty end) ] as $ids |
	select([$ids[] | select($known[.] | not)] | length > 0) | {op, pid, ns_type, ids: $ids}' "$ev" | head -n 3)
nrec=$(jq -s --argjson pids "$(printf '%s\n' "${pids[@]}" | jq -s .)" \
	'[.[] | select(.pid as $p | $pids | index($p))] | length' "$ev")
if [ -z "$bad" ] && [ "$nrec" -gt 0 ]; then
	echo "PASS: matrix events: all $nrec records of the workload name only namespaces /proc showed (ns, old, actor's)"
else
	echo "FAIL: matrix events: records naming a namespace /proc never showed ($nrec records): $bad"
fi
# neither 6.1 nor 6.12 has ns_common.ns_id (6.18): no record may claim one
case $kernel in
*-6.1 | *-6.12)
	ids=$(jq -c 'with_entries(select(.key | test("(^|_)ns_id$|ns_id$|^actor_.*_id$|^exe_mntns_id$"))) | select(length > 0)' "$ev" | head -n 2)
	if [ -z "$ids" ]; then
		echo "PASS: matrix events: no record carries an ns_id ($kernel has none)"
	else
		echo "FAIL: matrix events: records carry ns_id fields on $kernel, which has no ns_common.ns_id: $ids"
	fi ;;
esac
