#!/bin/bash
# Issue 40, class 9: a path is recorded whole or marked cut, never passed off
# as a whole one (a 4 KiB path's first 255 bytes can be an existing
# directory). Real calls by nobody, traced by uid, checked against what was
# done (the paths made here, stat of the namespace and of the executable):
#   - in its own user and mount namespaces nobody binds /proc/self/ns/net
#     at a ~3.8 KiB path (pinmount), opens it (nsops), umounts it: mount, open and
#     umount records hold the path's first 255 bytes and "path_cut":true,
#     and the namespace the kernel side named (its inode), and the open
#     names no target pid read off the cut path's end; the same three
#     calls at a 255-byte path: whole, not marked;
#   - nobody's umount2 of root's pin at a long path (EPERM): kept, cut,
#     naming no namespace by its first bytes (unresolved says why);
#   - an executable run by a ~3.8 KiB path (bprm's interp) that exec'd
#     something else after its call (so /proc no longer has it):
#     "exe" its first 255 bytes and "exe_cut":true, "exe_ino" the file's;
#     one at a 255-byte path: whole, not marked.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "paths cut"
require_cmd jq "paths cut"
require_cmd setpriv "paths cut"
# nobody runs it: the system's, not a shim in root's home
PY=/usr/bin/python3
[ -x "$PY" ] || { skip "paths cut" "no /usr/bin/python3"; exit 0; }
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops PM=$(dirname "$NSAUDIT")/helpers/pinmount
require_built "$NSOPS" "paths cut"
require_built "$PM" "paths cut"
L=$TMP/p
chmod 711 "$TMP"; mkdir -m 0777 "$L"
comp=$(printf 'd%.0s' $(seq 1 250)); long=$L
for i in $(seq 1 15); do long=$long/$comp; done
mkdir -p "$long"
fit=$L/$(printf 'e%.0s' $(seq 1 $((255 - ${#L} - 1))))
fitx=$L/$(printf 'x%.0s' $(seq 1 $((255 - ${#L} - 1))))
touch "$long/pin" "$long/rootpin" "$fit"
cp "$NSOPS" "$long/nsops"; cp "$NSOPS" "$fitx"
chmod -R a+rwX "$L"
trap 'umount "$long/rootpin" 2>/dev/null; cleanup_testlib' EXIT
setup "root's pin at a long path" mount --bind /proc/self/ns/ipc "$long/rootpin"
cat >"$TMP/umount.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(15, b"w49umount", 0, 0, 0)   # PR_SET_NAME: the trace's --comm
r = libc.umount2(sys.argv[1].encode(), 0)
print(r, ctypes.get_errno())
PY
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# by command name: other tests' floods as nobody stay out
trace_start "$TMP/t" --op mount,umount,open,unshare --comm pinmount --comm w49open \
	--comm w49umount --comm w49exe || { fail "trace starts"; exit 0; }
p_n=0
for p in "$long/pin" "$fit"; do
	p_n=$((p_n + 1))
	# bind, open, umount in nobody's own namespaces; the netns inode
	nobody unshare -Urmn sh -c '"$3" bind /proc/self/ns/net "$1" - &&
		"$2" -n w49open open "$1" >/dev/null && "$3" none - "$1" "$1"' _ "$p" "$NSOPS" "$PM" |
		sed -n 's/^ino //p' >"$TMP/ino.$p_n" ||
		fail "workload: nobody binds, opens and umounts at a ${#p}-byte path"
done
refused=$(nobody "$PY" "$TMP/umount.py" "$long/rootpin")
# three times each: under other tests' exec floods the exec's entry can be
# gone (its struct file's address taken by two later execs) before the
# record is read: then exe is absent and unresolved says so, never wrong
for x in "$long/nsops" "$fitx" "$long/nsops" "$fitx" "$long/nsops" "$fitx"; do
	nobody unshare -Ur "$x" -n w49exe unshare net true >/dev/null ||
		fail "workload: nobody runs an unshare at a ${#x}-byte path"
done
sleep 0.5; trace_stop
expect_eq "workload: nobody's umount2 of root's pin was refused EPERM" "$refused" "-1 1"

# the records of one op at one path (its first 255 bytes when cut)
rec() { jq -c --arg op "$1" --arg p "$2" 'select(.op == $op and .path == $p)' "$TMP/t" | head -n 1; }
ino=$(head -n 1 "$TMP/ino.1") fino=$(head -n 1 "$TMP/ino.2")
cutp=${long:0:255}
for op in mount open umount; do
	r=$(rec "$op" "$cutp")
	[ -n "$r" ] || { fail "$op at a $((${#long} + 4))-byte path: a record ($(grep -c . "$TMP/t") in the trace)"; continue; }
	expect_eq "$op at a $((${#long} + 4))-byte path: its first 255 bytes, marked cut, the namespace" \
		"$(jq -r '"\(.path_cut) \(.ns_type) \(.ns_inum) \(.result)"' <<<"$r")" "true net $ino 0"
	r=$(rec "$op" "$fit")
	expect_eq "$op at a 255-byte path: whole, not marked, the namespace" \
		"$(jq -r '"\(.path_cut // false) \(.ns_type) \(.ns_inum)"' <<<"$r")" "false net $fino"
done
expect_eq "the open at the long path names no target pid read off its cut end" \
	"$(rec open "$cutp" | jq -r '.target_pid // "none"')" none
r=$(jq -c --arg p "$cutp" 'select(.op == "umount" and .path == $p and .result == -1)' "$TMP/t" | head -n 1)
expect_eq "nobody's refused umount of root's pin at a long path: kept, EPERM, cut, no namespace guessed" \
	"$(jq -r '"\(.error) \(.path_cut) \(.ns_inum // "none")"' <<<"$r")" "EPERM true none"
check "... and unresolved says the path was cut" grep -q "cut" <<<"$(jq -r '.unresolved // ""' <<<"$r")"

# the executables: never a prefix passed off as the path
r=$(jq -c 'select(.op == "unshare" and .comm == "w49exe")' "$TMP/t")
for x in "$long/nsops" "$fitx"; do
	want=$([ "$x" = "$fitx" ] && echo "$x false" || echo "$cutp true")
	got=$(jq -r --argjson i "$(stat -c %i "$x")" 'select(.exe_ino == $i and .exe) |
		"\(.exe) \(.exe_cut // false)"' <<<"$r" | sort -u)
	expect_eq "an exec at a ${#x}-byte path, gone from /proc: $([ "$x" = "$fitx" ] &&
		echo "whole, not marked" || echo "its first 255 bytes, marked cut")" "$got" "$want"
done
expect_eq "no record holds a cut path without its mark" \
	"$(jq -r 'select((.path // "" | length) == 255 and .path_cut != true and (.path | startswith("'"$L"'/d"))) |
		.op' "$TMP/t"; jq -r 'select((.exe // "" | length) == 255 and .exe_cut != true and
		(.exe | startswith("'"$L"'/d"))) | .op' "$TMP/t")" ""
