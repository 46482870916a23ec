#!/bin/bash
# Host side of "nsaudit holders on every kernel of the matrix"
# (tests/vm/guest.d/70-nsaudit-holders.sh): what `holders` listed in the
# guest against what /proc said there (holders-truth.txt: CASE TYPE INODE
# ...; holders-mountinfo.txt: the guest's own bind mounts). Prints
# PASS:/FAIL: lines.
dir=${1:-build/vmtest}
truth=$dir/holders-truth.txt
kernel=$(cat "$dir/kernel" 2>/dev/null)
if [ ! -s "$truth" ]; then
	echo "FAIL: holders: the guest returned no holders-truth.txt"
	exit 0
fi
# jcheck CASE WHAT JQ-ARGS...: the case's JSON satisfies the filter
jcheck() {
	local c=$1 what=$2
	shift 2
	if jq -e "$@" "$dir/holders-$c.json" >/dev/null 2>&1; then
		echo "PASS: holders: $c: $what"
	else
		echo "FAIL: holders: $c: $what ($(head -c 600 "$dir/holders-$c.json" 2>/dev/null)" \
			"$(head -n 3 "$dir/holders-$c.err" 2>/dev/null))"
	fi
}
# the guest's own mount namespace (a bind mount made before another
# mount namespace is cloned is in that one's copy of the tree too: "both"
# and "lone" have the ipc one, and holders lists each copy)
gm=$(cat "$dir/holders-guest-mnt.txt" 2>/dev/null)
gm=${gm:-0}
# the guest's mountinfo has the bind mount at PATH (ground truth)
mounted() { awk -v p="$1" '$5 == p { f = 1 } END { exit !f }' "$dir/holders-mountinfo.txt"; }

n=0
while read -r c type inum a b d; do
	n=$((n + 1))
	rc=$(cat "$dir/holders-$c.rc" 2>/dev/null)
	if [ "$rc" != 0 ]; then
		echo "FAIL: holders: $c: nsaudit holders $type:$inum exited ${rc:-?}: $(head -n 3 "$dir/holders-$c.err" 2>/dev/null)"
		continue
	fi
	jcheck "$c" "names $type:[$inum]" --arg t "$type" --argjson i "$inum" \
		'.ns_type == $t and .ns_inum == $i'
	case $c in
	task)	# a = the process in it
		jcheck "$c" "the process in it (pid $a), as /proc/$a/ns/$type says" --argjson p "$a" \
			'[.holders[] | select(.kind == "task" and .pid == $p)] | length == 1'
		jcheck "$c" "no mount holds it" '[.holders[] | select(.kind == "mount")] | length == 0' ;;
	bind)	# a = the bind mount's path; its process was killed
		mounted "$a" || echo "FAIL: holders: $c: the guest's mountinfo has no bind mount at $a"
		jcheck "$c" "its bind mount at $a, in the guest's mount namespace" --arg p "$a" \
			--argjson g "$gm" \
			'[.holders[] | select(.kind == "mount" and .path == $p and .mnt_ns == $g)] | length == 1'
		jcheck "$c" "no task in it (its process was killed)" \
			'[.holders[] | select(.kind == "task")] | length == 0'
		jcheck "$c" "refs: the nsfs dentry only" '.refs == 1 and .accounting.nsfs_dentry == 1' ;;
	both)	# a = the process, b = the bind mount's path
		mounted "$b" || echo "FAIL: holders: $c: the guest's mountinfo has no bind mount at $b"
		jcheck "$c" "the process in it (pid $a) and its bind mount at $b" \
			--argjson p "$a" --arg m "$b" --argjson g "$gm" \
			'([.holders[] | select(.kind == "task" and .pid == $p)] | length == 1) and
			 ([.holders[] | select(.kind == "mount" and .path == $m and .mnt_ns == $g)] |
			  length == 1)' ;;
	lone)	# a = the task-less mount namespace, b = the path in it,
		# d = its own bind mount in the guest's namespace
		mounted "$d" || echo "FAIL: holders: $c: the guest's mountinfo has no bind mount at $d"
		grep -q " $b " "$dir/holders-lone-mountinfo.txt" ||
			echo "FAIL: holders: $c: the mount namespace mnt:[$a] had no bind mount at $b"
		# statmount(2) gives the path in a namespace no task is in where
		# it can (6.8+; seen without one on 6.12 here); 6.1 has none.
		# Never a wrong path.
		jcheck "$c" "the bind mount inside mnt:[$a], which no task is in (its path $b or none)" \
			--argjson m "$a" --arg p "$b" --arg k "$kernel" \
			'[.holders[] | select(.kind == "mount" and .mnt_ns == $m and
				(.path == $p or (.path == null)) and
				((($k | endswith("-6.1")) | not) or .path == null))] | length == 1' ;;
	esac
done <"$truth"
[ "$n" = 4 ] || echo "FAIL: holders: the guest made $n of its 4 cases"
bind=$(awk '$1 == "bind" { print $3 }' "$truth")
if [ "$(cat "$dir/holders-all.rc" 2>/dev/null)" = 0 ] &&
	jq -e -s --argjson i "${bind:-0}" 'map(select(.ns_type == "ipc" and .ns_inum == $i)) | length == 1' \
		"$dir/holders-all.json" >/dev/null 2>&1; then
	echo "PASS: holders: --all lists the ipc namespace only a bind mount holds"
else
	echo "FAIL: holders: --all: exit $(cat "$dir/holders-all.rc" 2>/dev/null), ipc:[$bind] $(jq -s --argjson i "${bind:-0}" 'map(select(.ns_inum == $i)) | length' "$dir/holders-all.json" 2>/dev/null) times"
fi
