#!/bin/bash
# --sink audit against a real "auditd -n" started here with its own config
# and log file: records arrive as USER messages that ausearch finds and
# decodes. The audit state is restored afterwards (auditd stopped, the
# kernel's enabled flag set back). Skipped when an auditd already runs.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "audit sink"
require_cmd auditd "audit sink"
require_cmd auditctl "audit sink"
require_cmd ausearch "audit sink"
require_cmd jq "audit sink"
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "audit sink"

status=$(auditctl -s 2>&1) || { skip "audit sink" "kernel audit unavailable: $status"; exit 0; }
old_pid=$(awk '$1=="pid"{print $2}' <<<"$status")
old_enabled=$(awk '$1=="enabled"{print $2}' <<<"$status")
old_backlog=$(awk '$1=="backlog_limit"{print $2}' <<<"$status")
if [ "${old_pid:-0}" != 0 ]; then
	skip "audit sink" "an audit daemon (pid $old_pid) is already running"
	exit 0
fi
[ "$old_enabled" = 2 ] && { skip "audit sink" "audit configuration is locked (enabled 2)"; exit 0; }

AD=$TMP/audit
mkdir -p "$AD/plugins.d"
chmod 0750 "$AD"
AUDITD=
restore() {
	if [ -n "$AUDITD" ]; then
		kill -TERM "$AUDITD" 2>/dev/null
		wait "$AUDITD" 2>/dev/null
		AUDITD=
	fi
	auditctl -e "${old_enabled:-0}" >/dev/null 2>&1
	[ -n "$old_backlog" ] && auditctl -b "$old_backlog" >/dev/null 2>&1
}
trap 'restore; cleanup_testlib' EXIT

cat >"$AD/auditd.conf" <<EOF
local_events = yes
write_logs = yes
log_file = $AD/audit.log
log_group = root
log_format = ENRICHED
flush = INCREMENTAL_ASYNC
freq = 1
max_log_file = 8
num_logs = 2
priority_boost = 0
name_format = NONE
max_log_file_action = ROTATE
space_left = 2
space_left_action = IGNORE
admin_space_left = 1
admin_space_left_action = IGNORE
disk_full_action = IGNORE
disk_error_action = IGNORE
tcp_listen_queue = 5
tcp_max_per_addr = 1
tcp_client_max_idle = 0
transport = TCP
distribute_network = no
q_depth = 2000
overflow_action = IGNORE
max_restarts = 0
plugin_dir = $AD/plugins.d
end_of_event_timeout = 2
EOF
chmod 0640 "$AD/auditd.conf"
auditd -n -c "$AD" >"$AD/out" 2>&1 &
AUDITD=$!
for i in $(seq 1 100); do
	[ "$(auditctl -s | awk '$1=="pid"{print $2}')" = "$AUDITD" ] && break
	kill -0 "$AUDITD" 2>/dev/null || break
	sleep 0.05
done
if [ "$(auditctl -s | awk '$1=="pid"{print $2}')" != "$AUDITD" ]; then
	fail "auditd -n starts with a private config"
	cat "$AD/out"
	exit 0
fi
auditctl -e 1 >/dev/null
# other audit traffic on a busy machine (BPF program loads are audited once
# auditing is on) must not push our USER messages out of a 64-entry backlog
auditctl -b 8192 >/dev/null

COMM='au dit"x'
OUT=$TMP/trace.jsonl
trace_start "$OUT" --comm "$COMM" --sink audit || { fail "trace --sink audit starts"; exit 0; }
"$NSOPS" -n "$COMM" unshare uts >/dev/null
"$NSOPS" -n "$COMM" setns-bad >/dev/null
sleep 0.3
trace_stop
expect_eq "trace: two records" "$(wc -l <"$OUT")" 2
inum=$(jq -r 'select(.op=="unshare") | .ns_inum' "$OUT")
actor=$(jq -r 'select(.op=="unshare") | .pid' "$OUT")

# an alert (docs/rules.md): a process outside the host's pid namespace
# enters a host namespace (container-escape)
sleep 60 &
HP=$!
# made before the tracer loads (one the kernel side saw born of the host
# stays the host whatever namespaces it made, 3e435d1) and left to init (a
# process found away from the host whose ancestry reaches this shell, a
# host process, is the host too, 7ac5bdc; one whose parent is gone is of
# unknown origin, as a runtime's daemonized workload is)
mkfifo "$TMP/go"
(unshare -m -p -f sh -c "read x <'$TMP/go'; nsenter --net=/proc/$HP/ns/net sleep 0.5; touch '$TMP/esc.done'" &)
trace_start "$TMP/alert.jsonl" --comm nsenter --sink audit || { fail "trace for an alert starts"; exit 0; }
timeout 5 sh -c 'echo go >"$1"' _ "$TMP/go"
for i in $(seq 1 100); do [ -e "$TMP/esc.done" ] && break; sleep 0.1; done
sleep 0.3
trace_stop
kill $HP
expect_eq "trace: one container-escape alert" \
	"$(jq -r 'select(.op=="alert") | .rule' "$TMP/alert.jsonl")" "container-escape"

for i in $(seq 1 100); do
	ausearch -if "$AD/audit.log" -m USER -i >"$TMP/found" 2>/dev/null &&
		[ "$(grep -c 'op=setns' "$TMP/found")" -ge 1 ] && break
	sleep 0.1
done
raw=$(ausearch -if "$AD/audit.log" -m USER 2>/dev/null)
un=$(grep 'op="unshare"\|op=unshare' <<<"$raw" | head -n 1)
check "ausearch -m USER finds the unshare record" test -n "$un"
grep -q "ns_inum=$inum " <<<"$un" && pass "USER message carries ns_inum" ||
	fail "USER message carries ns_inum: $un"
grep -q "actor_pid=$actor " <<<"$un" && pass "the actor's pid is actor_pid (auditd's pid= is nsaudit's)" ||
	fail "actor_pid: $un"
want_hex=$(printf '%s' "$COMM" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
grep -q "comm=$want_hex " <<<"$un" && pass "a comm with a space and a quote is hex-encoded" ||
	fail "comm hex-encoded as $want_hex: $un"
grep -q "res=success" <<<"$un" && pass "unshare: res=success" || fail "unshare: res=success: $un"
al=$(grep 'op="alert"\|op=alert' <<<"$raw" | head -n 1)
grep -q 'rule="container-escape"' <<<"$al" && grep -q 'severity="crit"' <<<"$al" &&
	pass "the alert reaches auditd: USER message with rule and severity" ||
	fail "the alert reaches auditd: '$al'"
bad=$(grep 'op="setns"\|op=setns' <<<"$raw" | head -n 1)
grep -q "res=failed" <<<"$bad" && grep -q ' exit=-22 ' <<<"$bad" &&
	pass "failed setns: res=failed, exit=-22" || fail "failed setns: $bad"
grep -q ' exit=EINVAL(' "$TMP/found" && pass "ausearch -i shows exit=EINVAL" ||
	fail "ausearch -i shows exit=EINVAL: $(grep -m1 setns "$TMP/found")"
grep -qF "comm=$COMM " "$TMP/found" && pass "ausearch -i decodes the name back" ||
	fail "ausearch -i decodes the name back: $(grep -m1 unshare "$TMP/found")"

# nsaudit record sends its chain head (anchors) through the same sink:
# verify --anchor reads them back from auditd's log
"$NSAUDIT" keygen "$TMP/key" >"$TMP/vk"
"$NSAUDIT" record --log-dir "$TMP/rlog" --key "$TMP/key" --no-pin --comm auditanchor \
	--sink audit >/dev/null 2>"$TMP/record.err" &
rp=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/record.err" && break; sleep 0.05; done
"$NSOPS" -n auditanchor unshare uts >/dev/null
sleep 0.3
kill -TERM $rp; wait $rp
for i in $(seq 1 50); do
	[ "$(grep -c 'action="anchor"' "$AD/audit.log")" -ge 2 ] && break
	sleep 0.1
done
"$NSAUDIT" verify --log-dir "$TMP/rlog" --verification-key "$TMP/vk" --anchor "$AD/audit.log" \
	>"$TMP/v.out" 2>&1
expect_eq "verify --anchor an auditd log ($(cut -c1-160 "$TMP/v.out"))" $? 0
check "the anchors in audit.log cover the close" grep -q "anchored up to seq" "$TMP/v.out"
last=$(ls "$TMP/rlog" | grep '^nsaudit-' | tail -n 1)
head -n -2 "$TMP/rlog/$last" >"$TMP/cut" && cat "$TMP/cut" >"$TMP/rlog/$last"
"$NSAUDIT" verify --log-dir "$TMP/rlog" --verification-key "$TMP/vk" --anchor "$AD/audit.log" \
	>"$TMP/v.out" 2>&1
expect_eq "tail cut: not intact against audit.log's anchors" $? 1
check "tail cut: says so" grep -q "NOT INTACT: tail cut" "$TMP/v.out"

restore
st=$(auditctl -s)
expect_eq "afterwards: no audit daemon registered" "$(awk '$1=="pid"{print $2}' <<<"$st")" 0
expect_eq "afterwards: the enabled flag is restored" "$(awk '$1=="enabled"{print $2}' <<<"$st")" \
	"${old_enabled:-0}"
expect_eq "afterwards: the backlog limit is restored" "$(awk '$1=="backlog_limit"{print $2}' <<<"$st")" \
	"$old_backlog"
