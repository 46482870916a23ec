#!/bin/bash
# Rare first within one uid, in trace (issue 47): root's own fork flood
# (children one after the other, each making 1000 NS_GET_USERNS ioctls,
# --no-coalesce so that each is a record) must not cost root's rare process
# its records. While the flood runs for FORK_FLOOD_SECS (10), root makes
# FORK_FLOOD_ROUNDS (20) rounds of rare operations (nsflood rare: unshare,
# clone, setns, a failed setns, open, bind mount, umount, pidfd ioctl, each
# in a fresh child). Every rare operation has its record (pid, namespace
# type and inode as the workload read them itself); no lost record names a
# rare process; the flood adds up: its children's records + the lost
# records naming them == the calls they made. Before rare first reached
# the rings, the children spent root's uid budget and root's rare records
# went as lost records naming root.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "trace fork flood"
require_cmd jq "trace fork flood"
NSFLOOD=$(dirname "$NSAUDIT")/helpers/nsflood
require_built "$NSFLOOD" "trace fork flood"
SECS=${FORK_FLOOD_SECS:-10}
ROUNDS=${FORK_FLOOD_ROUNDS:-20}
PINS=$TMP/pins
OUT=$TMP/trace.jsonl
mkdir -p "$PINS"
trap 'for f in "$PINS"/pin.*; do umount "$f" 2>/dev/null; done; cleanup_testlib' EXIT

trace_start "$OUT" --no-coalesce --no-rules || { fail "trace starts"; exit 0; }
"$NSFLOOD" forkflood "$SECS" >"$TMP/flood" 2>"$TMP/flood.err" &
FPID=$!
"$NSFLOOD" rare "$ROUNDS" "$(awk -v s="$SECS" 'BEGIN { printf "%.2f", s * 0.9 }')" "$PINS" \
	>"$TMP/rare" 2>&1
wait $FPID
sleep 1		# the reader catches up
trace_stop

calls=$(awk '$1 == "calls" { print $2 }' "$TMP/flood")
nchild=$(awk '$1 == "child"' "$TMP/flood" | wc -l)
expect_eq "workload: the fork flood ran ($nchild children, ${calls:-no} calls)" \
	"$([ "${calls:-0}" -gt 100000 ] && echo yes)" yes
want=$(wc -l <"$TMP/rare")
# (one may fail on a loaded machine: nsflood prints the ones that succeeded)
expect_eq "workload: root made most of $ROUNDS rounds of 8 rare operations ($want)" \
	"$([ "$want" -ge $((ROUNDS * 8 * 9 / 10)) ] && echo yes)" yes

# root's rare operations: "OP PID TYPE INUM [PATH]"; each has a record of
# that pid naming that namespace (the records of the rare pids only)
awk '{ print "\"pid\":" $2 "," }' "$TMP/rare" | sort -u >"$TMP/rare.pids"
grep -F -f "$TMP/rare.pids" "$OUT" >"$TMP/rare.jsonl" || true
jq -r 'select(.op != "lost") | "\(.pid) \(.ns_type) \(.ns_inum)"' "$TMP/rare.jsonl" |
	sort -u >"$TMP/rare.got"
got=$(awk 'NR == FNR { have[$0] = 1; next } ($2 " " $3 " " $4) in have { n++ } END { print n + 0 }' \
	"$TMP/rare.got" "$TMP/rare")
expect_eq "each of root's $want rare operations has its record (pid, namespace)" "$got" "$want"
expect_eq "no lost record names a rare process" \
	"$(jq -c 'select(.op == "lost")' "$TMP/rare.jsonl" | wc -l)" 0

# the flood adds up: one record per call (--no-coalesce) or a lost count
sums=$(awk 'NR == FNR { if ($1 == "child") kid["\"pid\":" $2 ","] = 1; next }
	match($0, /"pid":[0-9]+,/) {
		p = substr($0, RSTART, RLENGTH)
		if (!(p in kid))
			next
		if (index($0, "\"op\":\"lost\"")) {
			if (!index($0, "\"lost_op\":\"nsfd\""))
				next	# its open of the net namespace
			match($0, /"count":[0-9]+/)
			lost += substr($0, RSTART + 8, RLENGTH - 8)
		} else if (index($0, "\"op\":\"nsfd\"")) {
			rec++
		}
	}
	END { printf "%d %d", rec, lost }' "$TMP/flood" "$OUT")
set -- $sums
expect_eq "the flood: its children's records ($1) + lost naming them ($2) == their calls" \
	"$(($1 + $2))" "${calls:-0}"
