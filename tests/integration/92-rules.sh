#!/bin/bash
# Detections on real runtimes (nsaudit/rules/, docs/rules.md). While
# "nsaudit trace --format json" runs with its default rules:
#
# Benign corpus, in its own trace: podman run and exec (crun and runc),
# runc and crun run/exec with an OCI bundle, bwrap --unshare-all, ip netns
# add/exec/del, rootless unshare -r, an admin's nsenter -t CONTAINERPID -n
# from the host. Not one alert at warning or above.
#
# Attack corpus, each scenario with its own container, the alert counted
# for that container (actor_container or target_container = its id):
#   escape-pidhost  podman --privileged --pid=host: nsenter -t HOSTPID -m -u -n -i
#   escape-hostproc a privileged container given the host's /proc enters
#                   /hostproc/HOSTPID/ns/{net,uts}
#   cross           a container enters another container's netns
#   denied          an unprivileged container sharing the host's pid
#                   namespace tries to open /proc/HOSTPID/ns/net: EACCES
#   pidfd           a container (--pid=host) setns through a pidfd
#   persist         a container's netns bind-mounted on the host, left
#                   there after the container stopped
#   netns-held      an ip netns name deleted while a process still runs in it
# Each raises exactly one alert of its rule, with the right actor, target
# and severity. /proc/1/ns is closed on this machine: "the host" is a
# sleep the test starts in the host's namespaces.
# Then the same alerts through record: in the log (verify intact) and
# found by search --op alert --rule ID; and --rules: a rule turned off, a
# severity changed, an exception, one's own rule; a bad file fails at once.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "rules"
"$TESTS_DIR/lib/deps.sh" runtimes >"$TMP/deps.out" 2>&1 ||
	fail "rules: installing the runtimes (tests/lib/deps.sh runtimes): $(tail -1 "$TMP/deps.out")"
for c in podman runc crun bwrap jq setpriv busybox ip; do require_cmd "$c" "rules"; done
HELPERS=${HELPERS:-$(dirname "$NSAUDIT")/helpers}
require_built "$HELPERS/nsops" "rules"
IMG=localhost/nsaudit-bb:1
TAG=nsr$$
ULIM=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
PRIV=(--privileged "${ULIM[@]}")
BG=()
cleanup() {
	local p
	for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done
	timeout 30 podman rm -f -t 0 $(podman ps -aq --filter "name=$TAG" 2>/dev/null) >/dev/null 2>&1
	for r in runc crun; do timeout 10 $r delete -f "$TAG-$r" >/dev/null 2>&1; done
	umount "$TMP/pin" 2>/dev/null
	ip netns del "$TAG-held" 2>/dev/null
	ip netns del "$TAG-b" 2>/dev/null
	[ -n "${KEEP:-}" ] && rm -rf "$KEEP" && cp -a "$TMP" "$KEEP"
	cleanup_testlib
}
trap cleanup EXIT
wait_for() { local i; for i in $(seq 1 "${WAIT:-100}"); do "$@" && return 0; sleep 0.1; done; return 1; }
cpid() { timeout 10 podman inspect -f '{{.State.Pid}}' "$1" 2>/dev/null; }
cid() { timeout 10 podman inspect -f '{{.Id}}' "$1" 2>/dev/null; }
running() { [ "$(cpid "$1")" -gt 0 ] 2>/dev/null; }

# --- image (busybox rootfs + the nsops helper), OCI bundle, crun's hugetlb
ROOTFS=$TMP/bundle/rootfs
mkdir -p "$ROOTFS"/{bin,proc,sys,dev,etc,tmp,run,hostproc}
cp "$(command -v busybox)" "$ROOTFS/bin/busybox"
cp "$HELPERS/nsops" "$ROOTFS/bin/nsops"
for c in sh sleep true cat ls echo nsenter; do ln -s busybox "$ROOTFS/bin/$c"; done
echo "root:x:0:0:root:/:/bin/sh" >"$ROOTFS/etc/passwd"
IMG=localhost/nsaudit-rules:$(cksum <"$HELPERS/nsops" | cut -d' ' -f1)
if ! timeout 60 podman image exists "$IMG"; then
	tar -C "$ROOTFS" -cf "$TMP/bb.tar" . &&
		timeout 120 podman import "$TMP/bb.tar" "$IMG" >"$TMP/import.out" 2>&1 ||
		{ fail "rules: podman import of a busybox rootfs: $(tail -1 "$TMP/import.out")"; exit 0; }
fi
(cd "$TMP/bundle" && runc spec && jq '.process.rlimits = [] | .process.terminal = false |
	.process.args = ["/bin/sleep", "3"]' config.json >c.json && mv c.json config.json) ||
	{ fail "rules: an OCI bundle (runc spec, jq)"; exit 0; }
if grep -q . /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null; then
	mkdir -p "$TMP/hugetlb"
	unshare -m --propagation private sh -c \
		"mount -t cgroup -o hugetlb cgroup '$TMP/hugetlb' && exec sleep 3600" 2>/dev/null &
	BG+=($!)
	WAIT=50 wait_for bash -c '! grep -q . /sys/fs/cgroup/unified/cgroup.controllers'
fi
sleep 600 &	# "the host": a process in the host's namespaces
HP=$!
BG+=($HP)

# alerts of a trace at warning or above about this test's workloads (other
# tests may run on the machine meanwhile): "rule actor target summary"
OURS=("$TAG")
loud() {
	jq -r --argjson ours "$(printf '%s\n' "${OURS[@]}" | jq -R . | jq -s .)" '
	select(.op=="alert" and (.severity|IN("emerg","alert","crit","err","warning")))
	| select([.actor_container, .target_container, .actor_container_name,
		.target_container_name] - [null] | any(. as $c | $ours | index($c)) or
		(.summary as $s | $ours | any(. as $o | $s | contains($o))))
	| "\(.rule) \(.actor_container) \(.target_container) \(.summary)"' "$1"
}

# ============================ benign corpus ================================
B=$TMP/benign.jsonl
trace_start "$B" || { fail "rules: nsaudit trace starts"; exit 0; }
for r in runc crun; do
	(cd "$TMP/bundle" && timeout 30 $r run "$TAG-$r" >"$TMP/$r.out" 2>&1) &
	WAIT=50 wait_for bash -c "timeout 5 $r state $TAG-$r 2>/dev/null | grep -q running"
	timeout 30 $r exec "$TAG-$r" /bin/true >>"$TMP/$r.out" 2>&1 ||
		fail "rules: benign: $r exec ($(tail -1 "$TMP/$r.out"))"
	wait $!
done
for r in crun runc; do
	n=$TAG-b${r:0:1}
	timeout 60 podman --runtime $r run -d --name "$n" "${ULIM[@]}" "$IMG" /bin/sleep 30 \
		>"$TMP/p$r.out" 2>&1 || fail "rules: benign: podman --runtime $r run ($(tail -1 "$TMP/p$r.out"))"
	OURS+=("$(cid "$n")" "$(timeout 10 podman inspect -f '{{.NetworkSettings.SandboxKey}}' "$n" | sed 's|.*/||')")
	timeout 60 podman exec "$n" /bin/true || fail "rules: benign: podman exec ($r)"
	# an admin looks at the container's network from the host
	timeout 10 nsenter -t "$(cpid "$n")" -n ip -o link >/dev/null ||
		fail "rules: benign: nsenter -t CONTAINERPID -n ($r)"
	timeout 60 podman rm -f -t 0 "$n" >/dev/null 2>&1
done
timeout 20 bwrap --unshare-all --ro-bind "$ROOTFS" / --proc /proc --dev /dev /bin/true ||
	fail "rules: benign: bwrap --unshare-all"
ip netns add "$TAG-b" && ip netns exec "$TAG-b" ip -o link >/dev/null && ip netns del "$TAG-b" ||
	fail "rules: benign: ip netns add/exec/del"
chmod 755 "$TMP"
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r -n -u true ||
	fail "rules: benign: rootless unshare -r"
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r -m true ||
	fail "rules: benign: rootless unshare -r -m"
sleep 4	# a persistence check runs seconds after a container goes
trace_stop
nb=$(jq -c 'select(.op!="alert" and .op!="lost")' "$B" | wc -l)
[ "$nb" -gt 50 ] && pass "rules: benign: the workloads were traced ($nb records)" ||
	fail "rules: benign: only $nb records traced"
expect_eq "rules: benign corpus: no alert at warning or above" "$(loud "$B")" ""
expect_eq "rules: rootless unshare -r -m as uid 65534: one userns-privilege, info" \
	"$(jq -r 'select(.op=="alert" and .rule=="userns-privilege" and .uid==65534 and
		(.summary|contains("mnt namespace"))) | .severity' "$B")" "info"
expect_eq "rules: benign corpus: userns-privilege is informational" \
	"$(jq -r 'select(.op=="alert" and .rule=="userns-privilege") | .severity' "$B" | sort -u | grep -v '^info$')" ""

# ============================ attack corpus ================================
A=$TMP/attack.jsonl
trace_start "$A" || { fail "rules: nsaudit trace starts (attacks)"; exit 0; }
# a victim container for cross-container and persistence
timeout 60 podman --runtime runc run -d --name "$TAG-victim" "${ULIM[@]}" "$IMG" /bin/sleep 120 >/dev/null 2>&1
timeout 60 podman --runtime runc run -d --name "$TAG-persist" "${ULIM[@]}" "$IMG" /bin/sleep 6 >/dev/null 2>&1
WAIT=100 wait_for running "$TAG-victim" || fail "rules: the victim container runs"
WAIT=100 wait_for running "$TAG-persist" || fail "rules: the persist container runs"
VPID=$(cpid "$TAG-victim")
# persistence: the host pins the container's netns with a bind mount
touch "$TMP/pin"
mount --bind "/proc/$(cpid "$TAG-persist")/ns/net" "$TMP/pin" || fail "rules: bind-mount a container's netns"
PIN_INUM=$(stat -L -c %i "$TMP/pin")
ID_PERSIST=$(cid "$TAG-persist")

# the attack containers run on runc: crun needs hugetlb kept off cgroup v2,
# which other tests on this machine may change meanwhile (the benign corpus
# covers podman on crun)
run_c() {	# run_c NAME PODMAN-ARGS... -- CMD...: a container, run to its end
	local n=$1; shift
	timeout 60 podman --runtime runc run --name "$TAG-$n" "${ULIM[@]}" "$@" >"$TMP/$n.out" 2>&1
	echo $? >"$TMP/$n.rc"
	eval "ID_${n//-/_}=$(cid "$TAG-$n")"
}
run_c esc-pidhost --privileged --pid=host "$IMG" \
	/bin/nsenter -t "$HP" -m -u -n -i /bin/sleep 2
run_c esc-hostproc --privileged -v /proc:/hostproc "$IMG" \
	/bin/sh -c "nsenter --net=/hostproc/$HP/ns/net --uts=/hostproc/$HP/ns/uts /bin/sleep 2"
run_c cross --privileged -v /proc:/hostproc "$IMG" \
	/bin/sh -c "nsenter --net=/hostproc/$VPID/ns/net /bin/sleep 2; true"
run_c denied --pid=host "$IMG" \
	/bin/sh -c "nsenter -t $HP -n /bin/true; sleep 2"
run_c pidfd --privileged --pid=host "$IMG" \
	/bin/sh -c "sleep 1; /bin/nsops setns-pidfd $HP net; sleep 2"
# an ip netns whose name is deleted while a process runs in it
ip netns add "$TAG-held"
HELD_INUM=$(stat -L -c %i "/run/netns/$TAG-held")
ip netns exec "$TAG-held" sleep 30 &
BG+=($!)
sleep 1
ip netns del "$TAG-held"
# the persist container stops; its runtime state goes; the mount stays
WAIT=150 wait_for bash -c "! podman ps -q --filter name=$TAG-persist | grep -q ."
timeout 30 podman rm -f -t 0 "$TAG-persist" >/dev/null 2>&1
sleep 5
trace_stop
umount "$TMP/pin"

for n in esc-pidhost esc-hostproc cross pidfd; do
	[ "$(cat "$TMP/$n.rc")" = 0 ] || fail "rules: attack $n: the container ran ($(tail -1 "$TMP/$n.out"))"
done
grep -q "Permission denied\|EACCES\|Operation not permitted" "$TMP/denied.out" ||
	fail "rules: attack denied: the unprivileged container was refused ($(tail -1 "$TMP/denied.out"))"

# alerts of RULE whose actor or target is container N: "severity actor target" each
alerts() {
	jq -r --arg r "$1" --arg id "$2" 'select(.op=="alert" and .rule==$r and
		(.actor_container==$id or .target_container==$id)) |
		"\(.severity) \(.actor_container) \(.target_container)"' "$A"
}
expect_eq "rules: podman --privileged --pid=host nsenter -t HOST -m -u -n -i: one container-escape (crit, actor the container, target host)" \
	"$(alerts container-escape "$ID_esc_pidhost")" "crit $ID_esc_pidhost host"
expect_eq "rules: a container with the host's /proc entering its ns files: one container-escape" \
	"$(alerts container-escape "$ID_esc_hostproc")" "crit $ID_esc_hostproc host"
ID_VICTIM=$(cid "$TAG-victim")
expect_eq "rules: a container entering another container's netns: one cross-container (err, A -> B)" \
	"$(alerts cross-container "$ID_cross")" "err $ID_cross $ID_VICTIM"
expect_eq "rules: ... and no container-escape for it" "$(alerts container-escape "$ID_cross")" ""
expect_eq "rules: an unprivileged container refused: one attempted-escape (warning)" \
	"$(alerts attempted-escape "$ID_denied" | cut -d' ' -f1,2)" "warning $ID_denied"
expect_eq "rules: attempted-escape says the errno" \
	"$(jq -r --arg id "$ID_denied" 'select(.op=="alert" and .rule=="attempted-escape" and
		.actor_container==$id) | "\(.error) \(.summary | test("refused \\(EACCES\\)"))"' "$A")" \
	"EACCES true"
expect_eq "rules: a pidfd setns from a container: one container-escape" \
	"$(alerts container-escape "$ID_pidfd")" "crit $ID_pidfd host"
expect_eq "rules: a container's netns left bind-mounted after it stopped: one persistence naming the mount" \
	"$(jq -r --arg id "$ID_PERSIST" 'select(.op=="alert" and .rule=="persistence" and
		.target_container==$id) | "\(.severity) \(.holder)"' "$A")" \
	"warning bind mount $TMP/pin"
expect_eq "rules: an ip netns name deleted while held: one persistence naming the holder" \
	"$(jq -r --arg n "$TAG-held" 'select(.op=="alert" and .rule=="persistence" and
		(.summary // "" | contains("\u0027" + $n + "\u0027"))) | "\(.severity) \(.holder|test("^pid [0-9]+ \\(sleep\\)"))"' "$A")" \
	"warning true"
check "rules: every alert names the seq and kseq of a record of the trace" \
	python3 - "$A" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
seqs = {r["seq"]: r for r in recs}
bad = [r for r in recs if r.get("op") == "alert" and r["rule"] != "persistence" and
       (r.get("about_seq") not in seqs or seqs[r["about_seq"]].get("kseq") != r.get("about_kseq"))]
sys.exit(1 if bad or not any(r.get("op") == "alert" for r in recs) else 0)
PY
expect_eq "rules: the host pin's namespace is the one reported" \
	"$(jq -r --arg id "$ID_PERSIST" 'select(.op=="alert" and .rule=="persistence" and
		.target_container==$id) | .summary | test("net:\\['"$PIN_INUM"'\\]")' "$A")" true
expect_eq "rules: the deleted netns is the one reported" \
	"$(jq -r --arg n "'$TAG-held'" 'select(.op=="alert" and .rule=="persistence" and
		(.summary // "" | contains($n))) | .summary | test("net:\\['"$HELD_INUM"'\\]")' "$A")" true

# ============================ record, search, tuning =======================
cat >"$TMP/rules.yaml" <<EOF
rules:
  - id: container-escape
    severity: alert
    exceptions:
      - container: $TAG-exempt
  - id: attempted-escape
    enabled: false
  - id: uts-entered
    summary: a uts namespace was entered
    severity: notice
    match: {op: setns, ns_type: uts, host: true, actor_host: false}
EOF
LOG=$TMP/log
"$NSAUDIT" record --no-pin --log-dir "$LOG" --rules "$TMP/rules.yaml" 2>"$TMP/rec.err" &
REC=$!
WAIT=200 wait_for grep -q '^nsaudit: ready' "$TMP/rec.err" || fail "rules: record --rules starts: $(head -c 300 "$TMP/rec.err")"
run_c rec-esc --privileged -v /proc:/hostproc "$IMG" \
	/bin/sh -c "nsenter --net=/hostproc/$HP/ns/net --uts=/hostproc/$HP/ns/uts /bin/sleep 2; true"
run_c exempt --privileged -v /proc:/hostproc "$IMG" \
	/bin/sh -c "nsenter --net=/hostproc/$HP/ns/net /bin/sleep 2; true"
run_c rec-denied --pid=host "$IMG" \
	/bin/sh -c "nsenter -t $HP -n /bin/true; sleep 2"
sleep 1
kill -INT $REC; wait $REC || fail "rules: record exits 0"
for n in rec-esc exempt; do
	[ "$(cat "$TMP/$n.rc")" = 0 ] || fail "rules: record: the container $n ran ($(tail -1 "$TMP/$n.out"))"
done
check "rules: the log with alerts verifies intact" "$NSAUDIT" verify --log-dir "$LOG" --key "$LOG/.key"
S=$("$NSAUDIT" search --log-dir "$LOG" --op alert --rule container-escape --format json)
expect_eq "rules: search --op alert --rule container-escape: the recorded escape, at the severity the file set" \
	"$(jq -r 'select(.actor_container!=null) | "\(.severity) \(.actor_container)"' <<<"$S" | sort -u)" \
	"alert $ID_rec_esc"
expect_eq "rules: --rules: an exception by container name silences its alerts" \
	"$("$NSAUDIT" search --log-dir "$LOG" --op alert --format json | jq -r --arg id "$ID_exempt" 'select(.actor_container==$id) | .rule')" ""
expect_eq "rules: --rules: a rule turned off raises nothing" \
	"$("$NSAUDIT" search --log-dir "$LOG" --op alert --rule attempted-escape | wc -l)" 0
expect_eq "rules: --rules: one's own rule fires once for the escaping uts setns" \
	"$("$NSAUDIT" search --log-dir "$LOG" --op alert --rule uts-entered --format json | jq -r '"\(.severity) \(.actor_container)"')" \
	"notice $ID_rec_esc"
printf 'rules:\n  - id: container-escape\n    severity: loud\n' >"$TMP/bad.yaml"
"$NSAUDIT" trace --rules "$TMP/bad.yaml" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ $rc -ne 0 ] && grep -q "bad.yaml:3: severity 'loud'" "$TMP/bad.err" &&
	pass "rules: a bad rules file: exit $rc at start, with its line" ||
	fail "rules: a bad rules file: exit $rc, '$(head -c 200 "$TMP/bad.err")'"
"$NSAUDIT" trace --no-rules --format json >"$TMP/norules.jsonl" 2>"$TMP/norules.err" &
NR=$!
WAIT=200 wait_for grep -q '^nsaudit: ready' "$TMP/norules.err"
run_c norules --privileged -v /proc:/hostproc "$IMG" \
	/bin/sh -c "nsenter --net=/hostproc/$HP/ns/net /bin/true"
sleep 0.5
kill -INT $NR; wait $NR
expect_eq "rules: --no-rules: records, no alerts" \
	"$(jq -r 'select(.op=="alert")' "$TMP/norules.jsonl")$(grep -c '"op":"setns"' "$TMP/norules.jsonl" | sed 's/^0$/none/;s/^[0-9]*$//')" ""
