#!/bin/bash
# The OCI image (packaging/oci/Containerfile: the static binary, from
# scratch) built with podman and run privileged: it traces a real
# "ip netns add" on the host, naming the host by its machine id; then the
# Pod manifest (packaging/k8s/pod.yaml, the DaemonSet's container) under
# "podman kube play" records the same into a log on the host that verify
# accepts, and a stop of the pod ends it cleanly (close record, pins
# removed). podman 4.3's kube play runs the pod in a pid namespace of its
# own whatever hostPID says (the records' pids are the kernel's anyway).
# podman storage is machine-global: run under flock /work/locks/global.lock.
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "oci image"
require_cmd podman "oci image"
require_cmd jq "oci image"
require_cmd ip "oci image"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
STATIC=$(dirname "$NSAUDIT")/nsaudit-static
require_built "$STATIC" "oci image"
VER=$(cat "$ROOT/VERSION")
IMG=localhost/nsaudit-test$$:$VER
NAME=nsaudit-test$$
NS=oci$$
PIN=/sys/fs/bpf/nsaudit-k$$
ULIM=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
BG=()
cleanup() {
	timeout 30 podman rm -f -t 0 "$NAME" >/dev/null 2>&1
	[ -f "$TMP/pod.yaml" ] && CONTAINERS_CONF=$TMP/containers.conf timeout 60 podman kube down "$TMP/pod.yaml" >/dev/null 2>&1
	timeout 30 podman rmi -f "$IMG" >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
	ip netns del "${NS}k" 2>/dev/null
	[ -d "$PIN" ] && "$NSAUDIT" detach --pin-dir "$PIN" >/dev/null 2>&1
	for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done
	cleanup_testlib
}
trap cleanup EXIT

mkdir -p "$TMP/ctx"
cp "$STATIC" "$TMP/ctx/nsaudit-static"
if ! timeout 300 podman build -q -f "$ROOT/packaging/oci/Containerfile" --build-arg VERSION="$VER" \
	-t "$IMG" "$TMP/ctx" >"$TMP/build.out" 2>&1; then
	fail "oci: podman build of the image"
	tail -5 "$TMP/build.out"
	exit 0
fi
expect_eq "oci: the image is one layer from scratch: the binary alone" \
	"$(podman image inspect -f '{{len .RootFS.Layers}} {{.Config.Entrypoint}}' "$IMG")" "1 [/usr/bin/nsaudit]"

# crun refuses the hybrid cgroup layout while hugetlb sits on v2 (see 90-runtimes.sh)
if grep -q . /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null; then
	mkdir -p "$TMP/hugetlb"
	unshare -m --propagation private sh -c \
		"mount -t cgroup -o hugetlb cgroup '$TMP/hugetlb' && exec sleep 3600" 2>/dev/null &
	BG+=($!)
	for _ in $(seq 1 50); do
		grep -q . /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null || break
		sleep 0.1
	done
fi

# wait_log CONTAINER PATTERN: until its log has the pattern
wait_log() {
	local i
	for i in $(seq 1 300); do
		podman logs "$1" 2>&1 | grep -q -- "$2" && return 0
		sleep 0.1
	done
	return 1
}

# --- podman run, privileged, the host's pid namespace
timeout 60 podman run -d --name "$NAME" --privileged --pid=host --uts=host --network=host "${ULIM[@]}" \
	-v /etc/machine-id:/etc/machine-id:ro "$IMG" trace --format json --type net --comm ip \
	>"$TMP/run.out" 2>&1 || { fail "oci: podman run of the image: $(tail -1 "$TMP/run.out")"; exit 0; }
if wait_log "$NAME" "nsaudit: ready"; then
	ip netns add "$NS"
	inum=$(ns_inum "/run/netns/$NS")
	ip netns del "$NS"
	wait_log "$NAME" "\"/run/netns/$NS\"" || true
	rec=$(podman logs "$NAME" 2>/dev/null | grep '^{' | jq -c "select(.op == \"mount\" and .path == \"/run/netns/$NS\")" | head -1)
	expect_eq "oci: the container traces ip netns add: the mount of the new netns (inode by stat)" \
		"$(jq -r .ns_inum <<<"$rec")" "$inum"
	expect_eq "oci: the record names the host: machine id and host name" \
		"$(jq -r '"\(.machine_id) \(.host)"' <<<"$rec")" "$(cat /etc/machine-id) $(uname -n)"
else
	fail "oci: the image's nsaudit becomes ready ($(podman logs "$NAME" 2>&1 | tail -2))"
fi
timeout 30 podman rm -f -t 5 "$NAME" >/dev/null 2>&1

# --- the Pod manifest under podman kube play (the DaemonSet's container)
printf '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n' >"$TMP/containers.conf"
mkdir -p "$TMP/klog"
sed -e "s|image: localhost/nsaudit:.*|image: $IMG|" -e "s|path: /var/log/nsaudit|path: $TMP/klog|" \
	-e "s|/sys/fs/bpf/nsaudit\"|$PIN\"|" -e "s|name: nsaudit$|name: nsaudit-k$$|" \
	"$ROOT/packaging/k8s/pod.yaml" >"$TMP/pod.yaml"
if ! CONTAINERS_CONF=$TMP/containers.conf timeout 120 podman kube play "$TMP/pod.yaml" >"$TMP/play.out" 2>&1; then
	fail "oci: podman kube play of packaging/k8s/pod.yaml: $(tail -2 "$TMP/play.out")"
	exit 0
fi
CTR=nsaudit-k$$-nsaudit-k$$	# pod and container names, both renamed
if wait_log "$CTR" "nsaudit: ready"; then
	ip netns add "${NS}k"
	inum=$(ns_inum "/run/netns/${NS}k")
	ip netns del "${NS}k"
	sleep 1.5	# group commit
	check "oci: the pod keeps its programs pinned in its --pin-dir" test -d "$PIN"
	# podman 4.3's kube down kills at once: stop the pod first, with the
	# manifest's grace period, as a kubelet would
	timeout 60 podman pod stop -t 30 "nsaudit-k$$" >/dev/null 2>&1
	expect_eq "oci: the pod's recorder exits 0 on SIGTERM" \
		"$(podman inspect "$CTR" --format '{{.State.ExitCode}}' 2>&1)" 0
	CONTAINERS_CONF=$TMP/containers.conf timeout 60 podman kube down "$TMP/pod.yaml" >/dev/null 2>&1
	got=$(cat "$TMP"/klog/*.log | jq -r "select(.op == \"mount\" and .path == \"/run/netns/${NS}k\") | .ns_inum" | head -1)
	expect_eq "oci: kube play's recorder logged the ip netns add on the host (inode by stat)" "$got" "$inum"
	check "oci: the pod's log verifies and ends with its close record" \
		sh -c "'$NSAUDIT' verify --log-dir '$TMP/klog' 2>/dev/null && tail -1 '$TMP'/klog/*.log | grep -q '\"action\":\"close\"'"
	check "oci: stopped cleanly: its pins are gone" test ! -e "$PIN"
else
	fail "oci: the pod's nsaudit becomes ready ($(podman logs "$CTR" 2>&1 | tail -2))"
fi
