#!/bin/bash
# Docker as ground truth for attribution (issue 33; seccomp: issue 47). The test starts its
# own dockerd (Debian's docker.io: dockerd + containerd + containerd-shim-
# runc-v2 + runc) with its own data root, exec root, socket and pid file
# under a temp dir, no bridge, no iptables, the vfs storage driver, and an
# image imported from a local busybox rootfs (no registry). nsaudit reads
# docker's state through --runtime-root. Ground truth comes from the
# workload: docker inspect (id, name, init pid), readlink and stat -L of
# /proc/PID/ns/* and of the files run, never from nsaudit.
#   - docker run: the namespaces runc makes and enters name the container
#     (id and docker's name), every one of every container, also when
#     runc's stage exited before its record was read (issue 41: by the
#     cgroup at the call); docker exec: the exec'd process's records
#     have its container as actor_container (id and name)
#   - a container's copy of a host runtime binary (/usr/sbin/runc) run in
#     the container and by a host process joined to the container's mount
#     namespace: same exe path as the host's runc, told apart by exe_dev,
#     exe_ino and exe_mntns (and actor_pidns / actor_container)
#   - busybox applets: exe is this process's, not the last path the file ran
#   - container A's init joining B's mount namespace: container B, actor A
#   - a container's init entering a host namespace: actor_container stays
#   - two containers in a row whose namespaces share an inode: each named
#     by its own id (ns_id keeps them apart)
#   - --container NAME finds a docker container's records
#   - docker's default seccomp profile (a container without
#     CAP_SYS_ADMIN): its refused unshare -n and bind of /proc/self/ns/net
#     are records, "refused_by":"seccomp", with its container; its refused
#     nsenter (setns) a record without it (no entry hook: cannot tell)
. "$(dirname "$0")/../lib/testlib.sh"
require_root "docker"
"$TESTS_DIR/lib/deps.sh" runtimes >"$TMP/deps.out" 2>&1 ||
	fail "docker: installing the runtimes (tests/lib/deps.sh runtimes): $(tail -1 "$TMP/deps.out")"
for c in dockerd docker containerd runc jq busybox python3; do require_cmd "$c" "docker"; done
NSOPS=$(dirname "$NSAUDIT")/helpers/nsops
require_built "$NSOPS" "docker"
D=$TMP/dk
export DOCKER_HOST=unix://$D/exec/docker.sock
OUT=$TMP/trace.jsonl
T=nsa$$
BG=()
cleanup() {
	local p
	for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done
	trace_stop >/dev/null 2>&1
	if [ -s "$D/exec/docker.pid" ]; then
		timeout 60 docker ps -aq 2>/dev/null | xargs -r timeout 60 docker rm -f >/dev/null 2>&1
		kill "$(cat "$D/exec/docker.pid")" 2>/dev/null
		for i in $(seq 1 100); do kill -0 "$DOCKERD" 2>/dev/null || break; sleep 0.1; done
	fi
	umount -R "$D/data" 2>/dev/null
	[ -n "${KEEP:-}" ] && rm -rf "$KEEP" && mkdir -p "$KEEP" && cp "$OUT"* "$KEEP/"
	cleanup_testlib
}
trap cleanup EXIT

# --- dockerd, started here, stopped at the end
mkdir -p "$D/data" "$D/exec"
dockerd --data-root "$D/data" --exec-root "$D/exec" -H "$DOCKER_HOST" --pidfile "$D/exec/docker.pid" \
	--bridge=none --iptables=false --ip-masq=false --storage-driver=vfs >"$D/dockerd.log" 2>&1 &
DOCKERD=$!
for i in $(seq 1 300); do timeout 5 docker version >/dev/null 2>&1 && break; kill -0 $DOCKERD 2>/dev/null || break; sleep 0.1; done
if ! timeout 5 docker version >/dev/null 2>&1; then
	fail "docker: dockerd does not start: $(tail -3 "$D/dockerd.log" | tr '\n' ' ')"
	exit 0
fi
# --- the image: busybox, and a static binary at the host runtime's path
R=$TMP/rootfs
mkdir -p "$R"/{bin,proc,sys,dev,etc,tmp,run,usr/sbin}
cp "$(command -v busybox)" "$R/bin/busybox"
for c in sh sleep true cat ls unshare nsenter readlink; do ln -s busybox "$R/bin/$c"; done
cp "$NSOPS" "$R/usr/sbin/runc"
echo "root:x:0:0:root:/:/bin/sh" >"$R/etc/passwd"
tar -C "$R" -cf "$TMP/bb.tar" . && timeout 120 docker import "$TMP/bb.tar" nsa-bb:1 >/dev/null 2>"$TMP/import.err" ||
	{ fail "docker: docker import of a busybox rootfs: $(tail -1 "$TMP/import.err")"; exit 0; }
RUN=(timeout 120 docker run -d --cap-add SYS_ADMIN --security-opt seccomp=unconfined --network none)

trace_start "$OUT" --runtime-root docker-exec="$D/exec" --runtime-root docker-data="$D/data" ||
	{ fail "trace starts"; exit 0; }

# --- docker run, docker exec
"${RUN[@]}" --name "$T-a" nsa-bb:1 /bin/sleep 600 >/dev/null || { fail "docker run"; exit 0; }
read -r A_ID A_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-a")
A_MNT=$(ns_inum /proc/$A_PID/ns/mnt)
E_OUT=$(timeout 60 docker exec "$T-a" /bin/unshare -u /bin/readlink /proc/self/ns/uts)
sleep 0.5

# --- the container's copy of the host's runc path, run inside and by a
# host process that joined the container's mount namespace
O_IN=$(timeout 60 docker exec "$T-a" /usr/sbin/runc unshare uts)
O_HOSTJOIN=$(nsenter -t "$A_PID" -m /usr/sbin/runc unshare uts)
# --- busybox applets: one file, run as nsenter and unshare in a row
O_BB=$(timeout 60 docker exec "$T-a" /bin/sh -c 'unshare -i true; nsenter -t 1 -i /bin/true')

# --- container B; A2's init joins B's mount namespace; A3's init enters
# a host uts namespace (a sleep of ours: /proc/1 is not ours to read here)
"${RUN[@]}" --name "$T-b" nsa-bb:1 /bin/sleep 600 >/dev/null
read -r B_ID B_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-b")
sleep 600 &
BG+=($!)
HOSTP=$!
# (a uts namespace: a container's mount namespace cannot be bound into
# another container's, newer mount namespace: the kernel sees a loop)
"${RUN[@]}" --name "$T-a2" -v /proc/$B_PID/ns/uts:/buts nsa-bb:1 \
	/bin/sh -c 'sleep 1; exec nsenter --uts=/buts /bin/sleep 600' >/dev/null
"${RUN[@]}" --name "$T-a3" -v /proc/$HOSTP/ns/uts:/hostuts nsa-bb:1 \
	/bin/sh -c 'sleep 1; exec nsenter --uts=/hostuts /bin/sleep 600' >/dev/null
read -r A2_ID A2_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-a2")
read -r A3_ID A3_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-a3")
sleep 2

# --- two containers in a row: the second may get the first's inodes
ids_of() { python3 - "$1" <<'PY'
import fcntl, os, struct, sys
for t in ("mnt", "uts", "ipc", "net", "pid", "cgroup"):
    fd = os.open("/proc/%s/ns/%s" % (sys.argv[1], t), os.O_RDONLY)
    buf = bytearray(8)
    try:
        fcntl.ioctl(fd, 0x8008b70d, buf)  # NS_GET_ID (6.18)
        nsid = struct.unpack("Q", buf)[0]
    except OSError:
        nsid = 0
    print(t, os.fstat(fd).st_ino, nsid)
    os.close(fd)
PY
}
# up to three pairs: inode reuse is the kernel's to give or not
shared=
"${RUN[@]}" --name "$T-r0" nsa-bb:1 /bin/sleep 600 >/dev/null
read -r R1_ID R1_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-r0")
for n in 1 2 3; do
	R1_NS=$(ids_of "$R1_PID")
	sleep 0.5	# its records named while it lives
	timeout 60 docker rm -f "$T-r$((n - 1))" >/dev/null
	"${RUN[@]}" --name "$T-r$n" nsa-bb:1 /bin/sleep 600 >/dev/null
	read -r R2_ID R2_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-r$n")
	R2_NS=$(ids_of "$R2_PID")
	R2_NAME=$T-r$n
	# type inode id (first) inode id (second): same inode, another namespace
	shared=$(join <(sort <<<"$R1_NS") <(sort <<<"$R2_NS") | awk '$2 == $4 && $3 != $5 {print $1, $2, $5}' | head -1)
	[ -n "$shared" ] && break
	R1_PID=$R2_PID
done
# --- docker's default seccomp profile (no CAP_SYS_ADMIN): unshare and a
# bind of an nsfs file refused before the kernel runs them (issue 47)
timeout 120 docker run -d --network none --name "$T-sc" nsa-bb:1 /bin/sleep 600 >/dev/null
read -r SC_ID SC_PID < <(docker inspect -f '{{.Id}} {{.State.Pid}}' "$T-sc")
SC_OUT=$(timeout 60 docker exec "$T-sc" /bin/sh -c \
	'unshare -n true; echo "unshare rc $?"; mount --bind /proc/self/ns/net /tmp; echo "mount rc $?"
	nsenter -t 1 -u true; echo "nsenter rc $?"' 2>&1)
sleep 1
trace_stop

# --- --container NAME: docker's name finds the container's records only
OUT2=$TMP/by-name.jsonl
trace_start "$OUT2" --runtime-root docker-exec="$D/exec" --runtime-root docker-data="$D/data" \
	--container "$T-a" || fail "trace --container starts"
timeout 60 docker exec "$T-a" /bin/unshare -u /bin/true
timeout 60 docker exec "$T-b" /bin/unshare -u /bin/true
unshare -u true
sleep 0.5
trace_stop

j() { jq -c "$@" "$OUT"; }
expect_eq "--container NAME (docker's name): the exec'd unshare in it is there" \
	"$(jq -c 'select(.op=="unshare" and .ns_type=="uts" and .comm=="unshare") | [.actor_container, .actor_container_name]' "$OUT2" | sort -u)" \
	"[\"$A_ID\",\"$T-a\"]"
expect_eq "--container NAME: nothing of another container or the host" \
	"$(jq -c 'select(.container != "'"$A_ID"'") | .pid' "$OUT2" | head -3)" ""

# --- docker run: the records of the container's making name it
got=$(j --arg id "$A_ID" 'select(.op=="unshare" and .ns_type=="mnt" and .ns_inum=='"$A_MNT"') |
	[.container, .container_name, .ns_name]' | sort -u)
expect_eq "docker run: runc's unshare of the container's mount namespace names it (id, docker's name)" \
	"$got" "[\"$A_ID\",\"$T-a\",\"container:$A_ID\"]"
# every namespace runc's stage makes for a container (its unshare, which
# exits at once: no runtime state knows the container yet) names that
# container, also when the stage is gone before its record is read: by
# the cgroup the record says it was in at the call (issue 41). Ground
# truth: docker inspect (id, pid), the namespaces' inode and ns_id from
# /proc/PID/ns (NS_GET_ID); A2's and A3's uts were entered afterwards.
made_ok=0 made_n=0 made_bad=
for c in "$A_ID $A_PID mnt uts ipc net pid" "$B_ID $B_PID mnt uts ipc net pid" \
	"$A2_ID $A2_PID mnt ipc net pid" "$A3_ID $A3_PID mnt ipc net pid" "$R2_ID $R2_PID mnt uts ipc net pid"; do
	read -r cid cpid types <<<"$c"
	nsids=$(ids_of "$cpid")
	for t in $types; do
		made_n=$((made_n + 1))
		read -r _ ino nsid < <(grep "^$t " <<<"$nsids")
		got=$(j --arg t "$t" 'select(.op=="unshare" and .result==0 and .ns_type==$t and
			.ns_inum=='"${ino:-0}"' and .ns_id=='"${nsid:-0}"') | .ns_container' | sort -u | tr -d '"' | tr '\n' ' ')
		if [ "$got" = "$cid " ]; then
			made_ok=$((made_ok + 1))
		else
			made_bad+="${cid:0:12} $t: [$got]; "
		fi
	done
done
expect_eq "docker run: every namespace runc's stage made (unshare) names its container (docker inspect id; /proc inode and ns_id; 5 containers)" \
	"$made_bad" ""
expect_eq "docker run: each of the 23 namespaces checked" "$made_ok of $made_n" "23 of 23"
# --- docker exec: unshare -u by the exec'd process (busybox applet by path)
UTS_NEW=$(sed -n 's/^uts:\[\([0-9]*\)\]$/\1/p' <<<"$E_OUT")
# the first one made it (the inode is free again once it is gone)
r=$(jq -sc '[.[] | select(.op=="unshare" and .ns_type=="uts" and .ns_inum=='"${UTS_NEW:-0}"' and .actor_pidns=='"$(ns_inum /proc/$A_PID/ns/pid)"')][0]' "$OUT")
expect_eq "docker exec: the exec'd process's unshare: actor_container id and name, exe this process's" \
	"$(jq -sc 'map([.actor_container, .actor_container_name, .exe, .comm]) | unique' <<<"$r")" \
	"[[\"$A_ID\",\"$T-a\",\"/bin/unshare\",\"unshare\"]]"

# --- the container's /usr/sbin/runc vs the host's
HOST_RUNC="$(stat -L -c '%Hd:%Ld %i' /usr/sbin/runc)"
CTR_RUNC="$(stat -L -c '%Hd:%Ld %i' /proc/$A_PID/root/usr/sbin/runc)"
[ "$HOST_RUNC" != "$CTR_RUNC" ] || fail "setup: the container's runc is another file than the host's"
A_PIDNS=$(ns_inum /proc/$A_PID/ns/pid)
HJ_PID=$(sed -n 's/^pid //p' <<<"$O_HOSTJOIN")	# a host pid
# (the one in the container printed its pid in the container's pid namespace)
IN_PID=$(jq -r 'select(.comm=="runc" and .op=="unshare" and .ns_type=="uts" and .actor_pidns=='"$A_PIDNS"') | .pid' "$OUT" | head -1)
ident() { jq -r 'select(.pid=='"${1:-0}"' and .op=="unshare") | "\(.exe) \(.exe_dev) \(.exe_ino) \(.exe_mntns) \(.actor_mntns) \(.actor_pidns) \(.actor_container)"' "$OUT" | sort -u; }
check "the container's runc: its unshare is traced" test -n "$IN_PID"
expect_eq "container's runc run in the container: its own file and mount namespace, its container" \
	"$(ident "$IN_PID")" \
	"/usr/sbin/runc $CTR_RUNC $A_MNT $A_MNT $A_PIDNS $A_ID"
expect_eq "container's runc run by a host process joined to its mount namespace: the container's file, a host process" \
	"$(ident "$HJ_PID")" \
	"/usr/sbin/runc $CTR_RUNC $A_MNT $A_MNT $(ns_inum /proc/self/ns/pid) host"
HOSTID=$(stat -L -c '%Hd:%Ld %i' /usr/sbin/runc)
check "neither is taken for the host's runc (exe_dev/exe_ino differ from stat -L /usr/sbin/runc)" \
	test -z "$(jq -r 'select(.exe=="/usr/sbin/runc" and .pid=='"${IN_PID:-0}"' or .pid=='"${HJ_PID:-0}"') | select("\(.exe_dev) \(.exe_ino)"=="'"$HOSTID"'") | .pid' "$OUT")"

# --- busybox applets by the container's sh (re-exec of /proc/self/exe)
BB=$(stat -L -c '%Hd:%Ld %i' /proc/$A_PID/root/bin/busybox)
# An exe not known is an honest answer, never another path: the
# applets exec busybox several times in a row, each exec's struct file
# may take the address of the one before, and when more execs than the
# exe history keeps took it before the record was read and the process
# is gone, the path is left out (exe_dev/exe_ino still name the file).
got=$(j 'select((.op=="unshare" or .op=="setns") and .ns_type=="ipc" and .result==0 and (.comm=="unshare" or .comm=="nsenter") and .actor_pidns=='"$A_PIDNS"') | "\(.comm) \(.exe) \(.exe_dev) \(.exe_ino) \(.exe_mntns)"' | tr -d '"' |
	sed "s#^\(unshare\|nsenter\) null $BB null\$#\1 /bin/busybox $BB $A_MNT#" | sort -u)
expect_eq "busybox applets: the file this process runs, not the path the file last ran by" \
	"$got" "nsenter /bin/busybox $BB $A_MNT
unshare /bin/busybox $BB $A_MNT"

# --- A2's init joins B's uts namespace
B_UTS=$(ns_inum /proc/$B_PID/ns/uts)
r=$(j 'select(.op=="setns" and .ns_type=="uts" and .ns_inum=='"$B_UTS"' and .pid=='"$A2_PID"')')
expect_eq "container A's init joining B's namespace: its owner B, the record's container B, actor A (ids and names)" \
	"$(jq -sc 'map([.ns_container, .ns_container_name, .container, .actor_container, .actor_container_name]) | unique' <<<"$r")" \
	"[[\"$B_ID\",\"$T-b\",\"$B_ID\",\"$A2_ID\",\"$T-a2\"]]"
check "... and its actor_mntns is A's own" \
	test "$(jq -sc 'map(.actor_mntns) | unique' <<<"$r")" = "[$(ns_inum /proc/$A2_PID/ns/mnt)]"
# --- A3's init enters the host's uts namespace
r=$(j 'select(.op=="setns" and .ns_type=="uts" and .ns_inum=='"$(ns_inum /proc/$HOSTP/ns/uts)"' and .pid=='"$A3_PID"')')
check "the init's setns into the host uts is traced" test -n "$r"
expect_eq "a container's init entering a host namespace keeps its actor container (id, name), in every record" \
	"$(jq -sc 'map([.actor_container, .actor_container_name, .ns_container]) | unique' <<<"$r")" \
	"[[\"$A3_ID\",\"$T-a3\",\"host\"]]"

# --- two containers in a row sharing a namespace inode
if [ -z "$shared" ]; then
	skip "inode reuse" "docker's second container got no inode of the first this time"
else
	read -r st si sid <<<"$shared"
	r=$(j 'select((.op=="unshare" or .op=="setns") and .ns_type=="'"$st"'" and .ns_inum=='"$si"' and .ns_id=='"$sid"' and .result==0)')
	expect_eq "inode $si ($st) reused by the second container: its records name the second, not the dead first" \
		"$(jq -sc 'map([.ns_container, .container, .container_name]) | unique' <<<"$r")" "[[\"$R2_ID\",\"$R2_ID\",\"$R2_NAME\"]]"
fi

# --- docker's default seccomp profile: refused calls are records, marked
expect_eq "default profile: the container's unshare -n (EPERM), bind mount and nsenter -u failed" \
	"$(grep -c 'unshare.*Operation not permitted' <<<"$SC_OUT") $(grep -c '^unshare rc [1-9]' <<<"$SC_OUT") $(grep -c '^mount rc [1-9]' <<<"$SC_OUT") $(grep -c '^nsenter rc [1-9]' <<<"$SC_OUT")" "1 1 1 1"
SC_NET=$(ns_inum /proc/$SC_PID/ns/net)
expect_eq "default profile: unshare refused by seccomp: one record, its container (docker inspect), the net namespace it had" \
	"$(j --arg id "$SC_ID" 'select(.op=="unshare" and .actor_container==$id and .comm=="unshare") |
		[.ns_type, .error, .refused_by, .old_inum, .actor_container_name, .comm]')" \
	"[\"net\",\"EPERM\",\"seccomp\",$SC_NET,\"$T-sc\",\"unshare\"]"
expect_eq "default profile: nsenter's setns refused: a record, its container, which layer refused it not told" \
	"$(j --arg id "$SC_ID" 'select(.op=="setns" and .actor_container==$id and .comm=="nsenter") |
		[.ns_type, .error, .refused_by, .ns_inum]')" \
	"[\"uts\",\"EPERM\",null,$(ns_inum /proc/$SC_PID/ns/uts)]"
expect_eq "default profile: bind of /proc/self/ns/net refused by seccomp: the namespace (stat -L), target, container" \
	"$(j --arg id "$SC_ID" 'select(.op=="mount" and .actor_container==$id) |
		[.ns_type, .ns_inum, .path, .error, .refused_by]')" \
	"[\"net\",$SC_NET,\"/tmp\",\"EPERM\",\"seccomp\"]"
