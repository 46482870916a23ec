#!/bin/bash
# Pins by identity, records by their maker (issue 47). nobody, as uid 0 of
# its own user namespace, bind-mounts /proc/self/ns/ipc on N files in its
# own mount namespace and exits: that namespace dies with N pins in it.
# Meanwhile root makes new mount namespaces (the slab hands them the dead
# one's address) and pins and unpins its uts namespace in each, under strace.
#   - root's umount records are exactly its umount2 calls (strace), and
#     none claims one of nobody's pins (no pin fields: ns_type, mnt_id);
#   - every one of nobody's pins gets one umount record, origin
#     "inferred", with its maker (uid 65534, maker_pid, maker_comm), never
#     a pid or a uid 0; within seconds of the namespace's death.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "pins-identity"
require_cmd jq "pins-identity"
require_cmd strace "pins-identity"
require_cmd setpriv "pins-identity"
N=${PINS_IDENTITY_N:-200}
ROUNDS=${PINS_IDENTITY_ROUNDS:-60}
OUT=$TMP/trace.jsonl
D=$TMP/nobody
R=$TMP/root
mkdir -p "$D" "$R"
: >"$R/pin"
chmod 755 "$TMP"
chmod 777 "$D"
[ -n "$KEEP_TMP" ] && trap "trace_stop; echo kept \$TMP" EXIT
trace_start "$OUT" --op mount,umount || { fail "trace starts"; exit 0; }
# nobody's pins, its mount calls under its own strace (the makers' pids);
# it notes its mount namespace
setpriv --reuid=65534 --regid=65534 --clear-groups \
	strace -f -qq -e trace=mount -e signal=none -o "$D/strace" unshare -Urm sh -c '
	d=$1; n=$2
	stat -L -c %i /proc/self/ns/mnt >"$d/.who"
	i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		: >"$d/p$i" && mount --bind /proc/self/ns/ipc "$d/p$i" || exit 1
	done
	exit 0' sh "$D" "$N"
MADE=$?
T_DIED=$(date +%s.%N)
expect_eq "workload: nobody made its $N pins in its own mount namespace" "$MADE" 0
# root: new mount namespaces at once, one pin made and removed in each
strace -f -qq -e trace=umount2 -e signal=none -o "$TMP/strace" sh -c '
	r=$1; n=$2; i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		unshare -m --propagation private \
			sh -c "mount --bind /proc/self/ns/uts $r/pin && umount $r/pin"
	done' sh "$R" "$ROUNDS"
# until every pin's death is reported (or 30 s)
for i in $(seq 1 300); do
	[ "$(jq -c "select(.op==\"umount\" and .origin==\"inferred\" and
		(.path // \"\" | startswith(\"$D/\")))" "$OUT" 2>/dev/null | wc -l)" -ge "$N" ] && break
	sleep 0.1
done
T_SEEN=$(date +%s.%N)
trace_stop
read -r MAKER_MNT <"$D/.who"
grep -E '^[0-9]+ +mount\("/proc/self/ns/ipc".* = 0$' "$D/strace" | awk '{print $1}' | sort \
	>"$TMP/makers"
grep -E '^[0-9]+ +umount2\("'"$R/pin"'".* = 0$' "$TMP/strace" | awk '{print $1}' | sort >"$TMP/want"
jq -r "select(.op==\"umount\" and .path==\"$R/pin\") | .pid" "$OUT" | sort >"$TMP/got"
expect_eq "workload: root made $ROUNDS umounts" "$(wc -l <"$TMP/want")" "$ROUNDS"
expect_eq "root's umount records are exactly its umount2 calls (strace pids)" \
	"$(comm -3 "$TMP/want" "$TMP/got" | wc -l)" 0
expect_eq "each of root's umounts names its own pin only (uts, uid 0, its namespace)" \
	"$(jq -r "select(.op==\"umount\" and .path==\"$R/pin\") |
		\"\(.ns_type) \(.uid) \(.ns_inum)\"" "$OUT" | sort -u)" "uts 0 $(ns_inum /proc/self/ns/uts)"
expect_eq "no record of a call names nobody's pins (nobody made no umount call)" \
	"$(jq -c "select(.op==\"umount\" and .origin != \"inferred\" and
		(.path // \"\" | startswith(\"$D/\")))" "$OUT" | wc -l)" 0
jq -c "select(.op==\"umount\" and .origin==\"inferred\" and
	(.path // \"\" | startswith(\"$D/\")))" "$OUT" >"$TMP/inferred"
expect_eq "every pin of nobody's dead namespace is reported once" \
	"$(jq -r .path "$TMP/inferred" | sort -u | wc -l) $(wc -l <"$TMP/inferred")" "$N $N"
expect_eq "workload: strace saw nobody's $N mount calls" "$(wc -l <"$TMP/makers")" "$N"
expect_eq "each names its maker: uid 65534, comm mount" \
	"$(jq -r '"\(.uid) \(.maker_comm)"' "$TMP/inferred" | sort -u)" "65534 mount"
expect_eq "the makers' pids are the mount calls' (strace)" \
	"$(jq -r .maker_pid "$TMP/inferred" | sort | comm -3 - "$TMP/makers" | wc -l)" 0
expect_eq "none carries an actor (pid, euid, auid, comm) nor uid 0" \
	"$(jq -c 'select(.pid != null or .euid != null or .auid != null or .comm != null or
		.uid == 0)' "$TMP/inferred" | wc -l)" 0
expect_eq "each names the pin (ipc namespace) and the dead mount namespace" \
	"$(jq -r '"\(.ns_type) \(.mnt_ns) \(.cause | test("died"))"' "$TMP/inferred" | sort -u)" \
	"ipc $MAKER_MNT true"
SECS=$(awk -v a="$T_DIED" -v b="$T_SEEN" 'BEGIN { printf "%.1f", b - a }')
if awk -v s="$SECS" 'BEGIN { exit !(s < 20) }'; then
	pass "the $N deaths were reported ${SECS}s after the namespace died (< 20 s)"
else
	fail "the $N deaths took ${SECS}s to be reported (want < 20 s)"
fi
