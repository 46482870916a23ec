#!/bin/bash
# A fleet through the project's rsyslog configuration (packaging/rsyslog/):
# three hosts, each a recorder with its own host name (UTS namespace) and
# machine id, and its own rsyslogd (nsaudit-forward.conf) in a network
# namespace of its own, forwarding over RELP with TLS (certificates made
# here with certtool) to a collector rsyslogd (nsaudit-collector.conf) in
# another network namespace, which keeps one file per host. Under load the
# collector is stopped and started again, then host 1's rsyslogd. Then: every record of every
# host's log is in that host's file at the collector exactly once (by
# kseq), anchors arrived, and "verify --anchor" of each host's log passes
# against the collector's copy. RELP is at-least-once: a message the
# collector had taken in but not acknowledged when it stopped comes again;
# nsaudit-relp-dedup (the collector's mmexternal) files such a repeat under
# duplicates/ by its (sink_run, sink_seq) key, and the test checks that
# every one of them is byte for byte a message the host file already has
# (before: host file plus repeats; after: the host file). rsyslog is run
# here, never the system's. Host 3 sends OCSF (--sink ...,format=ocsf):
# every document its file at the collector holds is checked against
# tests/lib/ocsf-check.jq, and its anchors still verify. Forgers on each
# host (uid 65534 on nsaudit's socket, root on the host's /dev/log, both with
# nsaudit's app-name and structured data) reach no collector file.
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "fleet"
for c in rsyslogd certtool jq ip unshare; do require_cmd "$c" "fleet"; done
[ -e /usr/lib/x86_64-linux-gnu/rsyslog/omrelp.so ] || [ -n "$(find /usr/lib -name omrelp.so 2>/dev/null)" ] ||
	{ skip "fleet" "no rsyslog-relp"; exit 0; }
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "fleet"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
HOSTS="1 2 3"
LOAD_S=6		# seconds of load per host
LOAD_N=150		# and at least this many unshare calls
PORT=2514
C=nsac$$		# the collector's netns
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	[ -f "$TMP/col/pid" ] && kill "$(cat "$TMP/col/pid")" 2>/dev/null
	for h in outsider wrongpeer; do
		[ -f "$TMP/$h/pid" ] && kill "$(cat "$TMP/$h/pid")" 2>/dev/null
	done
	for h in $HOSTS; do
		[ -f "$TMP/h$h/pid" ] && kill "$(cat "$TMP/h$h/pid")" 2>/dev/null
		ip netns del "nsah$h$$" 2>/dev/null
	done
	ip netns del "$C" 2>/dev/null
	sleep 0.2
	cleanup_testlib
}
trap cleanup EXIT

# --- the fleet's CA, the collector's and each host's certificate
PKI=$TMP/pki
mkdir -p "$PKI"
cert() {	# NAME CN [ca]
	certtool --generate-privkey --key-type=rsa --bits=2048 --outfile "$PKI/$1.key" 2>/dev/null
	if [ "${3:-}" = ca ]; then
		printf 'cn = "%s"\nca\ncert_signing_key\nexpiration_days = 2\n' "$2" >"$PKI/$1.tmpl"
		certtool --generate-self-signed --load-privkey "$PKI/$1.key" --template "$PKI/$1.tmpl" \
			--outfile "$PKI/$1.pem" 2>/dev/null
	else
		printf 'cn = "%s"\ndns_name = "%s"\ntls_www_server\ntls_www_client\nexpiration_days = 2\n' \
			"$2" "$2" >"$PKI/$1.tmpl"
		certtool --generate-certificate --load-privkey "$PKI/$1.key" \
			--load-ca-certificate "$PKI/${3:-ca}.pem" --load-ca-privkey "$PKI/${3:-ca}.key" \
			--template "$PKI/$1.tmpl" --outfile "$PKI/$1.pem" 2>/dev/null
	fi
}
cert ca "nsaudit test fleet CA" ca
cert col collector.fleet.test
for h in $HOSTS; do cert "h$h" "h$h.fleet.test"; done
# an outsider: a certificate of another CA must not get in
cert rogue-ca "someone else" ca
cert rogue rogue.fleet.test rogue-ca	# a name the collector admits, another CA
for f in "$PKI"/*.pem; do [ -s "$f" ] || { fail "setup: certtool made $f"; exit 0; }; done

# --- network: the collector 10.43.H.1, host H 10.43.H.2, one veth each
setup "collector netns" ip netns add "$C" || exit 0
ip -n "$C" link set lo up
for h in $HOSTS; do
	ip netns add "nsah$h$$"
	ip link add "nsav$h$$" type veth peer name "nsaw$h$$"
	ip link set "nsav$h$$" netns "$C"
	ip link set "nsaw$h$$" netns "nsah$h$$"
	ip -n "$C" addr add "10.43.$h.1/24" dev "nsav$h$$"
	ip -n "$C" link set "nsav$h$$" up
	ip -n "nsah$h$$" addr add "10.43.$h.2/24" dev "nsaw$h$$"
	ip -n "nsah$h$$" link set "nsaw$h$$" up
	ip -n "nsah$h$$" link set lo up
done

# --- the collector: the project's configuration, its own work dir
mkdir -p "$TMP/col/fleet"
printf 'global(workDirectory="%s")\ninclude(file="%s")\n' "$TMP/col" \
	"$ROOT/packaging/rsyslog/nsaudit-collector.conf" >"$TMP/col/rsyslog.conf"
start_collector() {
	NSAUDIT_RELP_DEDUP=$ROOT/packaging/rsyslog/nsaudit-relp-dedup NSAUDIT_RELP_PORT=$PORT NSAUDIT_FLEET_DIR=$TMP/col/fleet NSAUDIT_RELP_PEERS='*.fleet.test' \
	NSAUDIT_TLS_CA=$PKI/ca.pem NSAUDIT_TLS_CERT=$PKI/col.pem NSAUDIT_TLS_KEY=$PKI/col.key \
		ip netns exec "$C" rsyslogd -f "$TMP/col/rsyslog.conf" -i "$TMP/col/pid" >>"$TMP/col/out" 2>&1
	local i
	for i in $(seq 1 100); do
		ip netns exec "$C" ss -Htln "( sport = :$PORT )" | grep -q . && return 0
		sleep 0.05
	done
	return 1
}
stop_pidfile() {	# FILE: TERM the daemon, wait until gone
	local p i
	p=$(cat "$1" 2>/dev/null) || return 0
	kill "$p" 2>/dev/null
	for i in $(seq 1 200); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
	rm -f "$1"
}
expect_eq "collector: rsyslogd -N1 finds no error in nsaudit-collector.conf" \
	"$(NSAUDIT_RELP_DEDUP=$ROOT/packaging/rsyslog/nsaudit-relp-dedup NSAUDIT_RELP_PORT=$PORT \
	   NSAUDIT_FLEET_DIR=$TMP/col/fleet NSAUDIT_RELP_PEERS='*.fleet.test' NSAUDIT_TLS_CA=$PKI/ca.pem \
	   NSAUDIT_TLS_CERT=$PKI/col.pem NSAUDIT_TLS_KEY=$PKI/col.key \
	   rsyslogd -N1 -f "$TMP/col/rsyslog.conf" 2>&1 | grep -ci 'error')" 0
start_collector || { fail "collector rsyslogd starts (RELP over TLS)"; cat "$TMP/col/out"; exit 0; }

# --- each host: its rsyslogd (forwarding) and its recorder, by identity
host_env() {	# H CMD...: CMD with host H's rsyslogd environment
	local d=$TMP/h$1 h=$1
	shift
	env NSAUDIT_SYSLOG_SOCKET="$d/run/syslog.sock" NSAUDIT_RELP_TARGET="10.43.$h.1" \
		NSAUDIT_RELP_PORT="$PORT" NSAUDIT_RELP_PEER=collector.fleet.test \
		NSAUDIT_TLS_CA="$PKI/ca.pem" NSAUDIT_TLS_CERT="$PKI/h$h.pem" NSAUDIT_TLS_KEY="$PKI/h$h.key" "$@"
}
start_host() {	# H: its rsyslogd, in its netns, by its name
	local d=$TMP/h$1 i
	host_env "$1" ip netns exec "nsah$1$$" unshare -u \
		sh -c "hostname h$1; exec rsyslogd -f '$d/rsyslog.conf' -i '$d/pid'" >>"$d/rs.out" 2>&1
	for i in $(seq 1 100); do [ -S "$d/run/syslog.sock" ] && [ -S "$d/devlog" ] && return 0; sleep 0.05; done
	return 1
}
for h in $HOSTS; do
	d=$TMP/h$h
	mkdir -p "$d/rs"
	chmod 0711 "$TMP" "$d"	# the forger (uid 65534) reaches the sockets
	printf '%032x\n' $((0xa43000 + h)) >"$d/machine-id"
	"$NSAUDIT" keygen "$d/seal" >"$d/vk" 2>/dev/null || { fail "setup: keygen"; exit 0; }
	cat >"$d/rsyslog.conf" <<EOC
global(workDirectory="$d/rs" localHostName="h$h")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$d/devlog" UseSpecialParser="off" RateLimit.Interval="0")
include(file="$ROOT/packaging/rsyslog/nsaudit-forward.conf")
action(type="omfile" file="$d/local.log" template="RSYSLOG_SyslogProtocol23Format")
EOC
	# rsyslogd goes on past a line it does not understand: its own check
	# of the configuration must find nothing wrong in it
	expect_eq "host $h: rsyslogd -N1 finds no error in nsaudit-forward.conf" \
		"$(host_env "$h" rsyslogd -N1 -f "$d/rsyslog.conf" 2>&1 | grep -ci 'error')" 0
	start_host "$h" || { fail "host $h: rsyslogd starts"; cat "$d/rs.out"; exit 0; }
	# forgers: a user who is not root on nsaudit's socket, and anyone on
	# the host's /dev/log, each with nsaudit's app-name and structured data
	# naming this host: neither may reach the collector, both stay local
	for via in "$d/run/syslog.sock:65534" "$d/devlog:0"; do
		setpriv --reuid "${via##*:}" --regid "${via##*:}" --clear-groups \
			logger -u "${via%:*}" --rfc5424 -t nsaudit --sd-id nsaudit@32473 \
			--sd-param 'op="setns"' --sd-param "machine_id=\"$(cat "$d/machine-id")\"" \
			"forged-by-uid${via##*:}-$(basename "${via%:*}") host $h"
	done
	fmt=; [ "$h" = 3 ] && fmt=,format=ocsf
	NSAUDIT_MACHINE_ID_FILE=$d/machine-id unshare -u sh -c "hostname h$h; exec '$NSAUDIT' record \
		--log-dir '$d/log' --key '$d/seal' --no-pin --comm fleet$h$$ --anchor-interval 200 --sink syslog:unix:$d/run/syslog.sock$fmt" \
		>"$d/rec.out" 2>"$d/rec.err" &
	PIDS+=($!)
	eval "REC$h=$!"
done
for h in $HOSTS; do
	wait_ready "$TMP/h$h/rec.err" "$(eval echo \$REC$h)" ||
		{ fail "host $h: recorder starts"; cat "$TMP/h$h/rec.err"; exit 0; }
done

# what host h's log holds (kseq), and what of it its file at the collector holds
want_of() { jq -r 'select(.kseq != null) | .kseq' "$TMP/h$1"/log/*.log | sort -n; }
file_of() { ls "$TMP/col/fleet/h$1-$(cat "$TMP/h$1/machine-id").log" 2>/dev/null; }
got_of() {	# kseq="N" (OCSF: "kseq":N) of the records in host h's collector file
	local f
	f=$(file_of "$1") || return 0
	if [ "$1" = 3 ]; then
		grep -o '[{,]"kseq":[0-9]*' "$f"
	else
		grep -o ' kseq="[0-9]*"' "$f"
	fi | tr -dc '0-9\n' | sort -n
}

# --- load on every host, the collector restarted in the middle of it
for h in $HOSTS; do
	# LOAD_S seconds, and at least LOAD_N calls: on a machine busy with
	# other work a process start can take 50 ms, and a load counted in
	# seconds alone left under 100 records per host
	(end=$((SECONDS + LOAD_S)) i=0
	 while [ $SECONDS -lt $end ] || [ $i -lt $LOAD_N ]; do
		"$NSOPS" -n "fleet$h$$" unshare uts >/dev/null; sleep 0.005; i=$((i + 1))
	 done) &
	PIDS+=($!)
	eval "LOAD$h=$!"
done
sleep 1.5
old_pid=$(cat "$TMP/col/pid")
down_from=$(date +%s.%N)
stop_pidfile "$TMP/col/pid"
sleep 1.5		# down while the hosts go on
down_to=$(date +%s.%N)
start_collector || { fail "collector restarts"; cat "$TMP/col/out"; exit 0; }
new_pid=$(cat "$TMP/col/pid")
# then host 1's rsyslogd restarts, still under load: what it had queued
# for the collector is saved on shutdown, what its recorder sends meanwhile
# waits in the sink. (Not while the collector is down: the messages RELP
# sent and the collector never acknowledged live in librelp's memory only,
# and a restart then loses them: docs/fleet.md. So the restart waits until
# every message host 1's rsyslogd had taken in when the collector came back
# (its own log has each, with its sink_run/sink_seq key) is in the
# collector's files: the backlog acknowledged, not only resent. A count of
# records is not that: anchors have no kseq, and after a reconnect rsyslog
# delivered later messages before earlier ones (seen), which made up the
# count while an earlier one was still in flight.)
keys_in() { cat "$@" 2>/dev/null | grep -o 'sink_run="[0-9a-f]*" sink_seq="[0-9]*"' | sort -u; }
k1=$(keys_in "$TMP/h1/local.log")
for _ in $(seq 1 300); do
	backlog=$(comm -23 <(echo "$k1") <(keys_in "$TMP"/col/fleet/h1-*.log "$TMP"/col/fleet/duplicates/h1-*.log) |
		grep -c .)
	[ "$backlog" = 0 ] && break
	sleep 0.2
done
expect_eq "host 1: the collector has its backlog ($(grep -c . <<<"$k1") messages) before its rsyslogd restarts" \
	"$backlog" 0
h1_old=$(cat "$TMP/h1/pid")
stop_pidfile "$TMP/h1/pid"
sleep 0.5
start_host 1 || fail "host 1: rsyslogd restarts"
h1_new=$(cat "$TMP/h1/pid")
for h in $HOSTS; do wait "$(eval echo \$LOAD$h)"; done
for h in $HOSTS; do
	p=$(eval echo \$REC$h)
	kill -TERM "$p"; wait "$p"
	expect_eq "host $h: recorder exits 0" "$?" 0
done

# every host's file at the collector: until what the host's log holds arrived
for _ in $(seq 1 150); do
	done_all=1
	for h in $HOSTS; do
		[ "$(got_of "$h" | sort -u | grep -c .)" -ge "$(want_of "$h" | grep -c .)" ] || done_all=0
		grep -q 'why="close"' "$(file_of "$h" || echo /dev/null)" || done_all=0
	done
	[ $done_all = 1 ] && break
	sleep 0.2
done

# --- TLS set up wrong, beside host 1 (its network): an outsider whose
# certificate another CA signed (under a name the collector admits), and a
# host that expects another name of the collector. Neither gets a message
# in; each host's rsyslog says why (the outsider: the collector ends the
# TLS session; a wrong collector name: "authentication error", and rsyslog
# disables the action until it is restarted).
misfit() {	# NAME CERT PEER
	local d=$TMP/$1 i
	mkdir -p "$d/rs"
	printf '%s\n' "global(workDirectory=\"$d/rs\" localHostName=\"$1\")" \
		'module(load="imuxsock" SysSock.Use="off")' \
		"include(file=\"$ROOT/packaging/rsyslog/nsaudit-forward.conf\")" \
		"action(type=\"omfile\" file=\"$d/local.log\")" >"$d/rsyslog.conf"
	env NSAUDIT_SYSLOG_SOCKET="$d/run/syslog.sock" NSAUDIT_RELP_TARGET=10.43.1.1 NSAUDIT_RELP_PORT=$PORT \
		NSAUDIT_RELP_PEER="$3" NSAUDIT_TLS_CA="$PKI/ca.pem" NSAUDIT_TLS_CERT="$PKI/$2.pem" \
		NSAUDIT_TLS_KEY="$PKI/$2.key" ip netns exec "nsah1$$" rsyslogd -f "$d/rsyslog.conf" -i "$d/pid" \
		>"$d/rs.out" 2>&1
	for i in $(seq 1 100); do [ -S "$d/run/syslog.sock" ] && break; sleep 0.05; done
	logger -u "$d/run/syslog.sock" --rfc5424 -t nsaudit --sd-id nsaudit@32473 --sd-param 'op="setns"' \
		--sd-param 'machine_id="0000000000000000000000000000f00d"' "tls-misfit-$1"
	for i in $(seq 1 100); do grep -qi 'omrelp.*error' "$d/local.log" "$d/rs.out" 2>/dev/null && break; sleep 0.1; done
	sleep 1
	stop_pidfile "$d/pid"
}
misfit outsider rogue collector.fleet.test
misfit wrongpeer h1 elsewhere.fleet.test
expect_eq "TLS: nothing of an outsider (another CA) or of a host expecting another collector name arrived" \
	"$(cat "$TMP"/col/fleet/*.log "$TMP"/col/fleet/duplicates/*.log 2>/dev/null | grep -c 'tls-misfit-')" 0
for m in outsider wrongpeer; do
	# (rsyslogd's own errors: its log, or stderr before it is up)
	e=$(grep -hi 'omrelp.*error' "$TMP/$m/local.log" "$TMP/$m/rs.out" | grep -v 'tls-misfit' | tail -n 1)
	if [ -n "$e" ]; then
		pass "TLS: $m: its rsyslog says why in its own log (${e:0:200})"
	else
		fail "TLS: $m: its rsyslog says why in its own log"
		tail -n 5 "$TMP/$m/local.log" "$TMP/$m/rs.out" >&2
	fi
done
stop_pidfile "$TMP/col/pid"
for h in $HOSTS; do stop_pidfile "$TMP/h$h/pid"; done

check "collector: one file per host, named by host name and machine id" \
	test "$(ls "$TMP/col/fleet" | grep -c '^h[123]-0*a4300[123]\.log$')" -eq 3
DUPS_TOTAL=0
for h in $HOSTS; do
	f=$(file_of "$h")
	want=$(want_of "$h")
	got=$(got_of "$h")
	nw=$(grep -c . <<<"$want")
	check "host $h: its log holds the load (>= 100 records, got $nw)" test "$nw" -ge 100
	expect_eq "host $h: every record of its log at the collector exactly once, none missing, none foreign ($nw, kseq by kseq)" \
		"$(md5sum <<<"$got" | cut -c1-32)" "$(md5sum <<<"$want" | cut -c1-32)"
	keys=$(grep -o ' sink_run="[0-9a-f]*" sink_seq="[0-9]*"\]' "$f" | sort)
	nk=$(grep -c . <<<"$keys")
	expect_eq "host $h: every line of its file at the collector has a dedup key of its own ($nk lines)" \
		"$(uniq -d <<<"$keys" | grep -c .)/$nk" "0/$(grep -c . "$f")"
	# what RELP sent again: kept apart, each the same bytes as a line the
	# host file has (a repeat, never a record of its own taken for one)
	d=$TMP/col/fleet/duplicates/$(basename "$f")
	dups=$( (cat "$d" 2>/dev/null || true) | grep -c .)
	notdup=$( (cat "$d" 2>/dev/null || true) | grep -o '\[nsaudit@32473 .*' | grep -vxFf <(grep -o '\[nsaudit@32473 .*' "$f") | grep -c .)
	expect_eq "host $h: each of the $dups messages RELP sent twice, kept apart, is one the host file has" "$notdup" 0
	echo "host $h: $nw records; resent across the collector restart: $dups (before dedup: $((nk + dups)) lines for $nk messages; after: $nk)" >>"$TMP/summary"
	DUPS_TOTAL=$((DUPS_TOTAL + dups))
	other=$(grep -v "machine_id=\"$(cat "$TMP/h$h/machine-id")\"" "$f" | grep -c .)
	expect_eq "host $h: nothing of another host in its file" "$other" 0
	if [ "$h" = 3 ]; then	# OCSF: every message but the anchors is a document
		docs=$(grep -v 'nsaudit-anchor ' "$f" | sed 's/^[^]]*\] //')
		nd=$(grep -c . <<<"$docs")
		expect_eq "host 3: all $nd OCSF documents at the collector carry what their OCSF class requires" \
			"$(jq -c -f "$TESTS_DIR/lib/ocsf-check.jq" <<<"$docs" 2>&1 | jq -s -c add)" "[]"
	fi
	na=$(grep -c 'nsaudit-anchor ' "$f")
	if grep -q 'action="anchor".*why="close"' "$f"; then
		pass "host $h: anchors arrived ($na, the closing one too)"
	else
		fail "host $h: anchors arrived ($na), the closing one too"
		grep 'nsaudit-anchor' "$f" | tail -1 >&2
		grep -o 'why="[a-z]*"' "$TMP/h$h/local.log" | tail -2 >&2
		tail -2 "$TMP/h$h/rec.err" >&2
	fi
	check "host $h: verify --anchor (and its verification key) passes against the collector's copy" \
		"$NSAUDIT" verify --log-dir "$TMP/h$h/log" --verification-key "$TMP/h$h/vk" --anchor "$f" --quiet
done
cat "$TMP/summary"
forged=$(cat "$TMP"/col/fleet/*.log "$TMP"/col/fleet/duplicates/*.log 2>/dev/null | grep -c 'forged-by-')
expect_eq "collector: nothing a non-root user sent to nsaudit's socket, nor anything sent to /dev/log, was forwarded" "$forged" 0
for h in $HOSTS; do
	expect_eq "host $h: both forgeries stay in the host's own log, seen" \
		"$(grep -c "forged-by-.* host $h\$" "$TMP/h$h/local.log")" 2
done
# the collector really was down while the hosts recorded: their queues held it
check "collector: restarted under load (pid $old_pid, then $new_pid)" test "$old_pid" != "$new_pid"
check "host 1: its rsyslogd restarted under load (pid $h1_old, then $h1_new)" \
	test "$h1_old" != "$h1_new"
while_down=$(cat "$TMP"/h*/log/*.log | jq -r --argjson a "$down_from" --argjson b "$down_to" \
	'select(.kseq != null and (.time | sub("\\.[0-9]+Z$"; "Z") | fromdate) >= ($a | floor) and
		(.time | sub("\\.[0-9]+Z$"; "Z") | fromdate) < ($b | floor)) | .kseq' | grep -c .)
check "collector: records were made while it was down ($while_down), and arrived (above)" test "$while_down" -gt 0
