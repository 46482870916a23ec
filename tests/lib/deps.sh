#!/bin/sh
# Install what nsaudit needs to build, test and benchmark on Debian 12.
# Quiet and quick when everything is already there.
# Usage: tests/lib/deps.sh [runtimes|fleet]
#   runtimes: also the container runtimes the ground-truth suite drives
#   (tests/integration/90-runtimes.sh): podman with runc/crun/conmon and
#   their helpers, bubblewrap, strace, Docker, containerd (ctr), LXC,
#   systemd-nspawn (tests/integration/97-benign-corpus.sh).
#   fleet: what the fleet tests drive (55-59): systemd-journald, node_exporter,
#   rsyslog with RELP and TLS, debhelper and lintian, podman.
set -e
PKGS="clang llvm libbpf-dev bpftool linux-source-6.1 linux-source-6.12 qemu-system-x86 busybox-static faketime
libcriterion-dev libjson-c-dev libyaml-dev libsodium-dev libcap-ng-dev libaudit-dev libelf-dev
zlib1g-dev libzstd-dev libsystemd-dev rsyslog auditd bpftrace dwarves flex bison bc cpio xz-utils
libssl-dev pkg-config iproute2 util-linux jq make gcc man-db groff-base valgrind strace
python3"
RUNTIMES="podman runc crun conmon fuse-overlayfs uidmap slirp4netns catatonit iptables
bubblewrap golang-github-containers-common containernetworking-plugins strace docker.io
containerd systemd-container lxc busybox-static jq python3"
FLEET="systemd prometheus-node-exporter curl rsyslog rsyslog-relp rsyslog-gnutls gnutls-bin
debhelper dpkg-dev lintian libsystemd-dev jq iproute2 podman crun conmon fuse-overlayfs
uidmap catatonit"
case ${1:-} in
'') ;;
runtimes) PKGS=$RUNTIMES ;;
fleet) PKGS=$FLEET ;;
*) echo "tests/lib/deps.sh: unknown group '$1' (runtimes, fleet)" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "nsaudit: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
