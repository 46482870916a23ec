#!/bin/bash
# The filters trace, record and search share (audit/search.h): repeated
# --pid and --uid mean any of them, --comm never lets through a record
# without that comm (the umounts user space makes when a mount namespace
# dies have none), and search answers the same question on the log.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "filters"
require_cmd jq "filters"
require_cmd unshare "filters"
require_cmd setpriv "filters"
trap cleanup_testlib EXIT

# three processes that each make a uts namespace when told to (exec keeps
# the pid the filter names)
for n in a b c; do
	mkfifo "$TMP/go.$n"
	sh -c "read _ <'$TMP/go.$n'; exec unshare -u true" &
	eval "P_$n=\$!"
done
touch "$TMP/pin"
trace_start "$TMP/t.json" --no-rules --pid "$P_a" --pid "$P_b" ||
	{ fail "trace --pid A --pid B starts"; exit 0; }
for n in a b c; do echo >"$TMP/go.$n"; done
wait "$P_a" "$P_b" "$P_c"
sleep 0.3
trace_stop
got=$(jq -r 'select(.op == "unshare") | .pid' "$TMP/t.json" | sort -u | tr '\n' ' ')
want=$(printf '%s\n' "$P_a" "$P_b" | sort | tr '\n' ' ')
expect_eq "trace --pid A --pid B: the unshares of A and B, not C's" "$got" "$want"

# --comm: a mount namespace that dies with a pin in it: user space makes
# its umount records (no comm); --comm unshare must not let them through
trace_start "$TMP/c.json" --no-rules --comm unshare --comm ip ||
	{ fail "trace --comm starts"; exit 0; }
unshare -m --propagation private sh -c "mount --bind /proc/self/ns/uts '$TMP/pin'; sleep 0.3"
sleep 1.5
trace_stop
n=$(jq -s '[.[] | select(.op != "lost")] | length' "$TMP/c.json")
[ "$n" -gt 0 ] && pass "trace --comm unshare --comm ip: $n records" || fail "trace --comm: no records"
expect_eq "trace --comm: every record has one of those comms" \
	"$(jq -r 'select(.op != "lost") | select(.comm != "unshare" and .comm != "ip") | .op' \
		"$TMP/c.json" | sort | uniq -c | tr -s ' ')" ""

# --uid: only the processes of that real user (nobody's unshare -U is
# recorded, allowed or refused; root's is not)
trace_start "$TMP/u.json" --no-rules --uid 65534 --type user ||
	{ fail "trace --uid starts"; exit 0; }
setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U true 2>/dev/null
unshare -U true
sleep 0.3
trace_stop
expect_eq "trace --uid 65534: only nobody's records" \
	"$(jq -r 'select(.op != "lost") | .uid' "$TMP/u.json" | sort -u | tr '\n' ' ')" "65534 "

# search on a recorded log: the same filters, the same answers
"$NSAUDIT" record --no-pin --no-rules --log-dir "$TMP/log" >/dev/null 2>"$TMP/rec.err" &
R=$!
wait_ready "$TMP/rec.err" $R || { fail "record starts: $(head -n 3 "$TMP/rec.err")"; exit 0; }
unshare -m --propagation private sh -c "mount --bind /proc/self/ns/uts '$TMP/pin'; sleep 0.3"
setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U true 2>/dev/null
sleep 1.5
kill -INT $R; wait $R
um=$("$NSAUDIT" search --log-dir "$TMP/log" --op umount --format json 2>/dev/null |
	jq -s '[.[] | select(.comm == "" or .comm == null)] | length')
if [ "$um" -gt 0 ]; then
	"$NSAUDIT" search --log-dir "$TMP/log" --op umount --comm unshare --format json \
		>"$TMP/s.json" 2>/dev/null
	expect_eq "search --comm: none of the $um umounts without a comm" \
		"$(jq -s '[.[] | select(.comm != "unshare")] | length' "$TMP/s.json")" 0
else
	fail "the log has no umount without a comm (the mount namespace's death)"
fi
expect_eq "search --uid 65534 --uid 12345 --type user: nobody's unshare" \
	"$("$NSAUDIT" search --log-dir "$TMP/log" --uid 65534 --uid 12345 --type user \
		--format json | jq -r .uid | sort -u)" 65534
"$NSAUDIT" search --log-dir "$TMP/log" --comm no-such-comm >/dev/null 2>"$TMP/none.err"
expect_eq "search with no match exits 1" $? 1
check "... and says so" grep -q "no match" "$TMP/none.err"
