#!/bin/bash
# bench/anchorlag.sh [PRODUCERS [SECONDS]]: how late the tail anchors leave
# at the bench's maximum rate (issue 40). "nsaudit record --no-coalesce
# --log-budget 0" (the max-rate row's recorder) sends its anchors through a
# private rsyslogd (imuxsock on a socket of its own, each message stamped
# with its reception time), while build/bench/driver calls setns as fast as
# PRODUCERS (default 1) processes can for SECONDS (default 5). Prints, for
# the anchors that arrived: the largest gap between two of them at the
# receiver while records kept coming (what root could rewrite unseen), and
# each one's reception time minus the time of the record it names
# (event -> witnessed). As root; make bench runs it once a round (rows
# anchor_gap_s, anchor_lag_median_s; n/a without rsyslogd).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NSAUDIT=${NSAUDIT:-$ROOT/build/nsaudit} DRIVER=${DRIVER:-$ROOT/build/bench/driver}
P=${1:-1} S=${2:-5}
for x in rsyslogd jq python3; do
	command -v $x >/dev/null || { echo "anchorlag: needs $x" >&2; exit 2; }
done
[ -x "$NSAUDIT" ] && [ -x "$DRIVER" ] || { echo "anchorlag: build nsaudit and $DRIVER first" >&2; exit 2; }
D=$(mktemp -d /tmp/nsaudit-anchorlag.XXXXXX) RS= REC=
trap '[ -n "$REC" ] && kill $REC 2>/dev/null; [ -n "$RS" ] && kill $RS 2>/dev/null; rm -rf "$D"' EXIT
cat >"$D/rs.conf" <<EOF
global(workDirectory="$D")
module(load="imuxsock" SysSock.Use="off")
template(name="t" type="string" string="%timegenerated:::date-rfc3339% %msg%\n")
input(type="imuxsock" Socket="$D/log.sock" UseSpecialParser="off" RateLimit.Interval="0")
action(type="omfile" file="$D/messages" template="t")
EOF
rsyslogd -n -f "$D/rs.conf" -i "$D/pid" >"$D/rs.out" 2>&1 &
RS=$!
for i in $(seq 1 100); do [ -S "$D/log.sock" ] && break; sleep 0.05; done
"$NSAUDIT" keygen "$D/key" >/dev/null
"$NSAUDIT" record --log-dir "$D/log" --key "$D/key" --no-pin --no-coalesce --max-size 1G \
	--keep 64 --log-budget 0 --sink "syslog:unix:$D/log.sock" 2>"$D/rec.err" &
REC=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$D/rec.err" && break; sleep 0.05; done
out=$("$DRIVER" rate "$P" "$S" | tr '\n' ' ')
sleep 2
kill -INT $REC && wait $REC
REC=
sleep 1
echo "anchorlag: $P producer(s), $S s: $out"
cat "$D"/log/nsaudit-*.log | jq -r 'select(.seq) | "\(.seq) \(.time)"' >"$D/times"
grep 'nsaudit-anchor ' "$D/messages" |
	sed -E 's/^([^ ]+) .* seq=([0-9]+) .* why=([a-z]+) .*/\1 \2 \3/' >"$D/anchors"
python3 - "$D/times" "$D/anchors" <<'EOF'
import sys, datetime as dt
def ts(s):
    s = s.replace('Z', '+00:00')
    if '.' in s:
        a, b = s.split('.', 1)
        frac = ''.join(c for c in b if c.isdigit())
        s = a + '.' + frac[:6] + b[len(frac):]
    return dt.datetime.fromisoformat(s).timestamp()
times = {}
for l in open(sys.argv[1]):
    q, s = l.split()
    times[int(q)] = ts(s)
got = []
for l in open(sys.argv[2]):
    r, q, why = l.split()
    if int(q) in times:
        got.append((ts(r), ts(r) - times[int(q)], why))
got.sort()
during = [g for g in got if g[2] not in ('close', 'end')]
gaps = [b[0] - a[0] for a, b in zip(during, during[1:])]
lags = sorted(g[1] for g in during)
print("anchorlag: %d anchors, %d records; largest gap between anchors while records "
      "came %.2f s; event -> witnessed: median %.2f s, max %.2f s" %
      (len(got), len(times), max(gaps) if gaps else 0, lags[len(lags) // 2] if lags else 0,
       lags[-1] if lags else 0))
EOF
