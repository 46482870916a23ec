#!/bin/bash
# record --metrics-file through a real prometheus-node-exporter (textfile
# collector, on loopback) scraped over HTTP: records and alerts counted as
# the log has them, the ring's size as the kernel's map says, a sink that is
# down shows its queue depth, the seal and anchor gauges move, the file is
# replaced atomically (the exporter never reports a scrape error).
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "metrics"
require_cmd jq "metrics"
require_cmd curl "metrics"
require_cmd bpftool "metrics"
require_cmd prometheus-node-exporter "metrics"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "metrics"
COMM=met$$
PROM=$TMP/textfile
mkdir -p "$PROM"
free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		ss -Htln "( sport = :$p )" | grep -q . || { echo "$p"; return; }
	done
}
PORT=$(free_port)
NEPID= RPID=
trap '[ -n "$RPID" ] && kill $RPID 2>/dev/null; [ -n "$NEPID" ] && kill $NEPID 2>/dev/null; wait; cleanup_testlib' EXIT
prometheus-node-exporter --web.listen-address="127.0.0.1:$PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$PROM" >"$TMP/ne.out" 2>&1 &
NEPID=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && break; sleep 0.05; done
curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null || { fail "node_exporter starts"; cat "$TMP/ne.out"; exit 0; }
scrape() { curl -sf "http://127.0.0.1:$PORT/metrics"; }
# VALUE NAME [LABEL-SUBSTRING]: the value of the first matching series
value() { scrape | grep "^$1{" | grep -F -- "${2:-}" | head -1 | awk '{print $2}'; }

# escaper_start FIFO: a process in a pid+mount namespace of its own, made
# before the tracer loads (one the kernel side saw born of the host stays
# the host); it enters the host's net namespace, a container-escape, when
# escaper_go FIFO is called
escaper_start() {
	rm -f "$1"; mkfifo "$1"
	(unshare -m -p --fork sh -c 'read x <"$1"; exec "$2" -n "$3" setns /proc/self/ns/net net' \
		_ "$1" "$NSOPS" "$COMM" >/dev/null 2>&1 &)
}
escaper_go() { timeout 5 sh -c 'echo go >"$1"' _ "$1"; sleep 0.2; }
LOG=$TMP/log
escaper_start "$TMP/go"
"$NSAUDIT" keygen "$TMP/seal" >"$TMP/vk" 2>/dev/null || { fail "setup: keygen"; exit 0; }
"$NSAUDIT" record --log-dir "$LOG" --key "$TMP/seal" --no-pin --comm "$COMM" --ring-size 1M --seal-interval 2s \
	--sink syslog:unix:$TMP/nobody.sock --metrics-file "$PROM/nsaudit.prom" --metrics-interval 0.2 \
	>"$TMP/rec.out" 2>"$TMP/rec.err" &
RPID=$!
wait_ready "$TMP/rec.err" "$RPID" || { fail "record starts"; cat "$TMP/rec.err"; exit 0; }
for _ in 1 2 3 4 5; do "$NSOPS" -n "$COMM" unshare uts >/dev/null; done
escaper_go "$TMP/go"
sleep 3		# a seal (2 s), anchors, several metric writes
MID=$(cat /etc/machine-id)
recs=$(value nsaudit_records_total)
alerts=$(value nsaudit_alerts_total 'rule="container-escape"')
depth=$(value nsaudit_sink_queue_depth "nobody.sock")
size=$(value nsaudit_ring_size_bytes 'ring="main"')
seal=$(value nsaudit_seal_age_seconds)
lag=$(value nsaudit_anchor_lag_records)
ring_lost=$(value nsaudit_lost_total 'reason="ring"')
kill -TERM $RPID; wait $RPID; RPID=
want=$(cat "$LOG"/*.log | jq -r 'select(.probe != null and .op != "log") | .op' | grep -c .)
want_alerts=$(cat "$LOG"/*.log | jq -r 'select(.op == "alert" and .rule == "container-escape") | .rule' | grep -c .)
expect_eq "metrics: nsaudit_records_total is what the log holds from the tracer" "$recs" "$want"
# a rule that never fired has no series: it counts 0 (the log may hold no
# such alert: a host process in its own pid namespace is no container)
expect_eq "metrics: alerts by rule: container-escape" "${alerts:-0}" "$want_alerts"
check "metrics: at least the 5 unshares and the escape were counted" test "${recs:-0}" -ge 7
check "metrics: the main ring's size is what was asked (1 MiB; got $size)" awk "BEGIN{exit !($size == 1048576)}"
check "metrics: a sink that is down shows its queue depth (>= the records)" test "${depth:-0}" -ge "${recs:-1}"
check "metrics: seal age is below the seal interval after a seal (got $seal)" awk "BEGIN{exit !($seal < 2.5)}"
expect_eq "metrics: anchors caught up when quiet (anchor lag 0)" "$lag" 0
expect_eq "metrics: lost by reason ring is a series from the start (0)" "$ring_lost" 0
check "metrics: every series names the machine" grep -q "machine_id=\"$MID\"" <<<"$(scrape | grep ^nsaudit_records_total)"
expect_eq "metrics: node_exporter read the file without error" \
	"$(scrape | awk '/^node_textfile_scrape_error/ {print $2}')" 0
check "metrics: no temporary file left" test -z "$(ls "$PROM" | grep -v '\.prom$')"
r=$("$NSAUDIT" trace --metrics-file relative.prom 2>&1; echo "rc=$?")
check "metrics: a relative --metrics-file is one clear line and exit 2" grep -q "absolute path.*rc=2" <<<"$(tr '\n' ' ' <<<"$r")"
