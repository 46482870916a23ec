#!/bin/bash
# Build the patched kernel with every namespace type configured out, to
# show that the series compiles and links there too: x86_64 tinyconfig
# (NAMESPACES, NET, SYSVIPC and CGROUPS are all off in it) plus event
# tracing, so that the namespace:* tracepoints are compiled as well.
#
#   kernel-patch/check-nons.sh KDIR    # KDIR: build.sh's output directory
#
# It uses build.sh's tree (the series applied for KDIR) with a build
# directory of its own, $CACHE/vm/build-nons, and remembers success per
# KDIR: the first run is a small full build (a few minutes), a later one
# after a patch change is incremental, and an unchanged series costs
# nothing. Progress and errors on stderr, the log in $CACHE/vm/nons.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm
tree=$CACHE/src
build=$CACHE/build-nons
log=$CACHE/nons.log
say() { echo "vmtest: $*" >&2; }
die() { echo "vmtest: $*" >&2; exit 1; }

kdir=${1:?usage: check-nons.sh KDIR}
# the kernel side of the series (build.sh's kernel-key): a change to the
# selftests alone needs no new build
key=$(cat "$kdir/kernel-key" 2>/dev/null || echo "${kdir##*/kernel-}")
stamp=$CACHE/nons-$key-$(sha256sum "$0" | cut -c1-8).ok
[ -f "$stamp" ] && { say "CONFIG_*_NS=n build cached"; exit 0; }

exec 9>"$CACHE/lock"
flock 9
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
tkey=$( (git -C "$tree" ls-tree HEAD | grep -v $'\ttools$'
	cat "$here/nsaudit.config" "$here/build.sh"; echo "$version") | sha256sum | cut -c1-16)
[ "$tkey" = "$key" ] || [ "$(cat "$CACHE/applied" 2>/dev/null)" = "$key" ] ||
	die "the tree holds another series than $kdir (run build.sh first)"

say "building the series with CONFIG_NAMESPACES=n (tinyconfig, event tracing on)"
mkdir -p "$build"
frag=$build/nons.config
cat >"$frag" <<'CFG'
CONFIG_64BIT=y
CONFIG_FTRACE=y
CONFIG_ENABLE_DEFAULT_TRACERS=y
CONFIG_NAMESPACES=n
CONFIG_NET=n
CONFIG_SYSVIPC=n
CONFIG_CGROUPS=n
CFG
start=$(date +%s)
{
	make -C "$tree" O="$build" ARCH=x86_64 tinyconfig
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$frag"
	make -C "$tree" O="$build" ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configuring failed (log: $log)"; }
for opt in NAMESPACES UTS_NS IPC_NS USER_NS PID_NS NET_NS TIME_NS CGROUPS NET; do
	! grep -q "^CONFIG_$opt=y" "$build/.config" ||
		die "CONFIG_$opt is still on in $build/.config"
done
grep -q '^CONFIG_EVENT_TRACING=y' "$build/.config" ||
	die "no CONFIG_EVENT_TRACING in $build/.config"
make -C "$tree" O="$build" ARCH=x86_64 -j"$(nproc)" vmlinux >>"$log" 2>&1 ||
	{ grep -E 'error|warning' "$log" | tail -n 20 >&2; die "the CONFIG_NAMESPACES=n build failed (log: $log)"; }
# the series' own files must have been compiled, not skipped
for o in fs/nsfd.o kernel/nsproxy.o kernel/fork.o fs/namespace.o; do
	[ -f "$build/$o" ] || die "$o was not built"
done
if grep -E "/(fs/nsfd|kernel/nsproxy|kernel/fork|fs/namespace)\.c:[0-9]+:[0-9]+: warning" "$log" >&2; then
	die "the series' files warn with CONFIG_NAMESPACES=n"
fi
say "CONFIG_NAMESPACES=n build done in $(( $(date +%s) - start ))s"
rm -f "$CACHE"/nons-*.ok
touch "$stamp"
