#!/bin/bash
# nsaudit keygen / verify / search on logs written by the audit log writer
# (through tests/lib/audit-writer.c, and through "nsaudit record" with real
# setns calls once the recorder exists): rotation, tampering, garbage,
# hostile names, both formats.
. "$(dirname "$0")/../lib/testlib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)

require_built "$NSAUDIT" "audit log"
"$NSAUDIT" verify --help >/dev/null 2>&1 || { fail "audit log: nsaudit verify --help fails"; exit 0; }
require_cmd cc "audit log"

W=$TMP/audit-writer
if ! cc -std=gnu11 -D_GNU_SOURCE -DNSAUDIT_VERSION='"test"' -I"$ROOT/audit" -I"$ROOT/common" \
	-I"$ROOT/bpf" "$ROOT/tests/lib/audit-writer.c" "$ROOT"/audit/*.c "$ROOT"/common/*.c \
	-o "$W" -ljson-c -lsodium 2>"$TMP/cc.err"; then
	fail "build the audit-writer test driver: $(head -n 3 "$TMP/cc.err")"
	exit 0
fi

# --- keygen -----------------------------------------------------------------
K=$TMP/key
check "keygen writes a key" "$NSAUDIT" keygen "$K"
expect_eq "keygen: key is mode 0600" "$(stat -c %a "$K")" 600
"$NSAUDIT" keygen "$K" 2>"$TMP/err"; rc=$?
expect_eq "keygen refuses to overwrite (exit 1)" $rc 1
check "keygen says to use --force" grep -q -- --force "$TMP/err"
VK=$("$NSAUDIT" keygen --force "$K") && pass "keygen --force replaces" || fail "keygen --force replaces"
# verify with the verification key: a clean stop erases the sealing state's
# key of its last epoch (issue 40), so --key STATE checks epochs from its own
# on only, and one state here writes several logs
"$NSAUDIT" keygen >/dev/null 2>&1; expect_eq "keygen without FILE is a usage error" $? 2
# a fresh host has no /etc/nsaudit: keygen makes it, 0700, as the README says
check "keygen makes missing directories" "$NSAUDIT" keygen "$TMP/fresh/etc/nsaudit/seal"
expect_eq "... mode 0700" "$(stat -c %a "$TMP/fresh/etc/nsaudit")" 700
: >"$TMP/afile"
"$NSAUDIT" keygen "$TMP/afile/seal" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "keygen under a file exits 1" $rc 1
check "... saying which directory and what to do" grep -q "cannot make directory .*afile.*mode 0700" "$TMP/err"

# --- thousands of records across rotated segments ---------------------------
D=$TMP/log
N=3000
check "writer: $N events with --max-size 64K" "$W" --log-dir "$D" --key "$K" --max-size 64K --keep 1000 -n $N
segs=$(ls "$D" | grep -c '^nsaudit-[0-9]*\.log$')
[ "$segs" -ge 4 ] && pass "rotated into $segs segments" || fail "rotated into only $segs segments"
"$NSAUDIT" verify --log-dir "$D" --verification-key "$VK" >"$TMP/out" 2>"$TMP/err"; rc=$?
expect_eq "verify: intact log exits 0" $rc 0
check "verify prints a one-line summary" grep -q "intact: $segs segments" "$TMP/out"
got=$("$NSAUDIT" search --log-dir "$D" --op setns | wc -l)
expect_eq "search finds every event" "$got" $N
got=$("$NSAUDIT" search --log-dir "$D" --op setns --format json | jq -s 'map(.pid) | unique | length')
expect_eq "search --format json: $N distinct events, valid JSON" "$got" $N
got=$("$NSAUDIT" search --log-dir "$D" --ns "net:[4026531840]" --pid 10042)
case $got in *"setns net:[4026532289] from net:[4026531840]"*"pid=10042"*) pass "search --ns --pid, lsns style" ;;
*) fail "search --ns --pid: '$got'" ;; esac
"$NSAUDIT" search --log-dir "$D" --pid 99999 >/dev/null; expect_eq "search: no match exits 1" $? 1
"$NSAUDIT" search --log-dir "$D" --since 1h --until now --op setns >/dev/null
expect_eq "search --since 1h --until now matches" $? 0
"$NSAUDIT" search --log-dir "$D" --pid abc 2>"$TMP/err"; rc=$?
expect_eq "search --pid abc exits 2" $rc 2
expect_eq "search --pid abc: one line on stderr" "$(wc -l <"$TMP/err")" 1

# --- keep, lost records, crash and restart -----------------------------------
D2=$TMP/keep
"$W" --log-dir "$D2" --key "$K" --max-size 8K --keep 3 -n 500 --lost 7
expect_eq "--keep 3 keeps 3 segments" "$(ls "$D2" | grep -c '^nsaudit-')" 3
check "verify: rotated log with dropped oldest is intact" "$NSAUDIT" verify --log-dir "$D2" --verification-key "$VK" -q
check "verify counts lost events" sh -c "'$NSAUDIT' verify --log-dir '$D2' --verification-key '$VK' | grep -q ', 7 lost'"
"$W" --log-dir "$D2" --key "$K" --max-size 8K --keep 3 -n 20 --crash
"$W" --log-dir "$D2" --key "$K" --max-size 8K --keep 3 -n 20 2>/dev/null
check "verify after a crash and restart" "$NSAUDIT" verify --log-dir "$D2" --verification-key "$VK" -q
check "the restart is recorded" sh -c "'$NSAUDIT' search --log-dir '$D2' --op log | grep -q 'action=recover'"

# --- tampering ----------------------------------------------------------------
T=$TMP/tamper
cp -a "$D" "$T"
sed -i '5s/"uid":0/"uid":1/' "$T/nsaudit-000002.log"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"; rc=$?
expect_eq "verify: changed byte exits 1" $rc 1
check "verify names segment and line" grep -q "nsaudit-000002.log line 5" "$TMP/err"
rm -rf "$T"; cp -a "$D" "$T"; sed -i '7d' "$T/nsaudit-000003.log"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"
check "verify: deleted record" grep -q "nsaudit-000003.log line 7.*missing (deleted)" "$TMP/err"
rm -rf "$T"; cp -a "$D" "$T"; rm "$T/nsaudit-000001.log"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"
check "verify: deleted oldest segment" grep -q "nsaudit-000001.log.*older segment deleted" "$TMP/err"
rm -rf "$T"; cp -a "$D" "$T"; last=$(ls "$T" | grep '^nsaudit-' | tail -n 1)
head -n -3 "$T/$last" >"$T/x" && cat "$T/x" >"$T/$last" && rm "$T/x"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"
check "verify: cut tail of a closed log" grep -q "cut short" "$TMP/err"
"$NSAUDIT" keygen "$TMP/k2"
"$NSAUDIT" verify --log-dir "$D" --key "$TMP/k2" 2>"$TMP/err"; rc=$?
expect_eq "verify: wrong key exits 1" $rc 1
check "verify: says wrong key" grep -qi "key" "$TMP/err"

# --- garbage -------------------------------------------------------------------
rm -rf "$T"; cp -a "$D" "$T"
head -c 100000 /dev/urandom >"$T/nsaudit-000002.log"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"; rc=$?
expect_eq "verify: random bytes exit 1" $rc 1
expect_eq "verify: one line on stderr" "$(wc -l <"$TMP/err")" 1
"$NSAUDIT" search --log-dir "$T" --op setns >/dev/null 2>&1; rc=$?
[ $rc -le 1 ] && pass "search over a garbage segment does not crash" || fail "search exited $rc"
: >"$T/nsaudit-000002.log"
"$NSAUDIT" verify --log-dir "$T" --verification-key "$VK" 2>"$TMP/err"; rc=$?
expect_eq "verify: empty segment exits 1" $rc 1
mkdir -p "$TMP/empty"
"$NSAUDIT" verify --log-dir "$TMP/empty" --key "$K" 2>"$TMP/err"; rc=$?
expect_eq "verify: directory without segments exits 1" $rc 1

# --- hostile names, both formats ---------------------------------------------
for fmt in json audit; do
	H=$TMP/hostile-$fmt
	# comm = 'x"\<newline>{"seq":1}<ESC><0xff>'
	"$W" --log-dir "$H" --key "$K" --format $fmt -n 3 --comm-hex 78225c0a7b22736571223a317d1bff
	check "$fmt: hostile comm: log verifies" "$NSAUDIT" verify --log-dir "$H" --verification-key "$VK" -q
	# header, start, 3 events, close, and the seal of its epoch
	expect_eq "$fmt: a newline in comm does not split a record" \
		"$(cat "$H"/nsaudit-*.log | wc -l)" 7
	got=$("$NSAUDIT" search --log-dir "$H" --op setns --format json | jq -s -j '.[0].comm' | od -An -tx1 | tr -d ' \n')
	# jq turns \u00ff into U+00FF (c3 bf): the stray byte is kept, visibly
	expect_eq "$fmt: comm round-trips through search --format json" "$got" 78225c0a7b22736571223a317d1bc3bf
done

# --- real events through "nsaudit record" -------------------------------------
if ! "$NSAUDIT" record --help >/dev/null 2>&1; then
	fail "record real setns calls: nsaudit record --help fails"
	exit 0
fi
require_root "record real setns calls"
R=$TMP/rec
"$NSAUDIT" record --no-pin --log-dir "$R" --key "$K" --max-size 64K --keep 1000 --op setns --comm nsenter >"$TMP/rec.out" 2>"$TMP/rec.err" &
RPID=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/rec.err" && break; sleep 0.05; done
if ! grep -q '^nsaudit: ready' "$TMP/rec.err"; then
	fail "record did not become ready: $(head -n 3 "$TMP/rec.err")"
	kill "$RPID" 2>/dev/null
	exit 0
fi
unshare -n sleep 600 &	# outlives the loop, however loaded the machine
SPID=$!
sleep 0.2
inum=$(stat -L -c %i /proc/$SPID/ns/net)
M=2000
for i in $(seq 1 $((M / 100))); do
	nsenter -t "$SPID" -n sh -c 'for j in $(seq 1 99); do nsenter -t '"$SPID"' -n true; done'
done
kill "$SPID"
sleep 0.5
kill -INT "$RPID"; wait "$RPID"
expect_eq "record exits 0 on SIGINT" $? 0
check "verify a recorded log" "$NSAUDIT" verify --log-dir "$R" --verification-key "$VK"
got=$("$NSAUDIT" search --log-dir "$R" --op setns --ns "net:$inum" | wc -l)
[ "$got" -ge $M ] && pass "search finds all $M real setns calls ($got)" || fail "search found $got of $M setns calls"

# --- search by a name that is gone: ip netns del, then search by its name ----
R=$TMP/gone
"$NSAUDIT" record --no-pin --log-dir "$R" --key "$K" >"$TMP/gone.out" 2>"$TMP/gone.err" &
RPID=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/gone.err" && break; sleep 0.05; done
ip netns add nsaudit-gone
inum=$(stat -L -c %i /run/netns/nsaudit-gone)
gone_id=$(ns_id /run/netns/nsaudit-gone)	# the kernel's own, for ground truth
ip netns exec nsaudit-gone true
ip netns del nsaudit-gone
# the kernel hands the inode on (lowest free first): later namespaces that
# get it are other namespaces, which the name must not bring in
reused=0 reused_ids=""
for i in $(seq 1 40); do
	got=$(unshare -n python3 -c "$NS_ID_PY
print(os.stat('/proc/self/ns/net').st_ino, ns_id('/proc/self/ns/net'))")
	gid=${got#* }
	got=${got%% *}
	[ "$got" = "$inum" ] && { reused=$((reused + 1)); reused_ids+=" $gid"; }
	[ $reused -ge 3 ] && break
	sleep 0.1
done
sleep 0.3
kill -INT "$RPID"; wait "$RPID"
got=$("$NSAUDIT" search --log-dir "$R" --ns /run/netns/nsaudit-gone --format json 2>"$TMP/gone.note")
if [ $reused -ge 1 ]; then
	ids=$("$NSAUDIT" search --log-dir "$R" --ns "net:$inum" --op unshare --format json 2>/dev/null |
		jq -r .ns_id | sort -u | wc -l)
	[ "$ids" -gt 1 ] && pass "the log holds $ids namespaces with inode $inum" ||
		fail "inode $inum reused $reused times, but the log shows $ids ns_id"
	expect_eq "search --ns of a deleted name whose inode was reused: one ns_id only" \
		"$(jq -r '[.ns_id, .old_ns_id] | map(select(. != null and . != 3)) | .[]' <<<"$got" |
			sort -u | wc -l)" 1
	check "... and the note names the one namespace" grep -q 'matching the 1 namespace .*(ns_id' \
		"$TMP/gone.note"
	if [ -n "$gone_id" ]; then
		expect_eq "... that one is the deleted namespace, by the kernel's ns_id (NS_GET_ID)" \
			"$(jq -r '[.ns_id, .old_ns_id] | map(select(. != null and . != 3)) | .[]' <<<"$got" |
				sort -u)" "$gone_id"
		check "... and the note says it" grep -q "matching the 1 namespace .*(ns_id $gone_id)" \
			"$TMP/gone.note"
		bad=""
		for g in $reused_ids; do
			jq -e --argjson g "$g" 'select(.ns_id == $g or .old_ns_id == $g)' <<<"$got" >/dev/null &&
				bad+=" $g"
			"$NSAUDIT" search --log-dir "$R" --ns "ns_id:$g" --op unshare >/dev/null 2>&1 ||
				bad+=" $g(not-in-log)"
		done
		expect_eq "... none of the $reused later ones (their own ns_id:$reused_ids), each in the log by ns_id" \
			"$bad" ""
	fi
else
	skip "search --ns of a deleted name whose inode was reused" "no later namespace got the inode this time"
fi
expect_eq "search --ns of a deleted netns path: its unshare, mount, open, setns and umount" \
	"$(jq -r 'select(.ns_inum == '"$inum"') | .op' <<<"$got" | sort -u | tr '\n' ' ')" \
	"mount open setns umount unshare "
check "search --ns of a deleted name says what it matched" grep -q 'no longer exists' "$TMP/gone.note"
# the unshare of ip netns add comes before the name exists: named by the
# mount that makes the name, which links back to it by seq
un=$(jq -c 'select(.op == "unshare" and .ns_inum == '"$inum"')' <<<"$got" | head -n 1)
mt=$(jq -c 'select(.op == "mount" and .path == "/run/netns/nsaudit-gone")' <<<"$got" | head -n 1)
if [ "$(jq -r .ns_name <<<"$un")" = nsaudit-gone ]; then
	pass "ip netns add: its unshare record is named"
else
	expect_eq "ip netns add: the mount that names it links the unshare (created_seq)" \
		"$(jq .created_seq <<<"$mt")" "$(jq .seq <<<"$un")"
fi
expect_eq "search --ns NAME (ip netns name) finds the same records" \
	"$("$NSAUDIT" search --log-dir "$R" --ns nsaudit-gone --format json 2>/dev/null | wc -l)" \
	"$(wc -l <<<"$got")"
"$NSAUDIT" search --log-dir "$R" --ns /run/netns/never-was >/dev/null 2>"$TMP/never.err"
expect_eq "search --ns of a name the log never saw exits 1" $? 1
check "... and says so in one line" grep -q 'no mount there in the log' "$TMP/never.err"

# --- record says how long its log space lasts at the current rate -------------
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "audit log"
R=$TMP/space
"$NSAUDIT" record --no-pin --no-rules --log-dir "$R" --key "$K" --max-size 16K --keep 4 \
	--no-coalesce --comm nsops >/dev/null 2>"$TMP/space.err" &
RPID=$!
wait_ready "$TMP/space.err" $RPID || fail "record (small log space) did not become ready"
for i in $(seq 1 40); do
	"$NSOPS" setns-loop 200 /proc/self/ns/net >/dev/null
	grep -q "holds about" "$TMP/space.err" && break
	sleep 0.25
done
kill -INT "$RPID"; wait "$RPID"
check "record warns that 4 x 16K holds minutes at this rate" \
	grep -q "warning: at the rate of the last .* the log space (4 x 16K = 64K) holds about" "$TMP/space.err"
