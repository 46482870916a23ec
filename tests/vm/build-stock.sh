#!/bin/bash
# Build, or reuse, a stock (unpatched) guest kernel of nsaudit's kernel
# matrix: Debian's linux-source-6.1 or linux-source-6.12, configured as the
# patched guest is (x86_64 tinyconfig + kernel-patch/nsaudit.config), so
# the only difference nsaudit sees is the kernel itself.
#
#   tests/vm/build-stock.sh 6.1|6.12   # last line of stdout: the cache directory
#
# Cached outside the clone in $NSAUDIT_CACHE/vm/stock-VER-KEY/ (default
# /var/cache/nsaudit), KEY a hash of the source package's version, the
# fragment and this script. Built out of tree in one fixed place per
# version ($CACHE/vm/stock-VER/{src,build}) so that a rebuild after a
# change of the fragment is incremental; one build at a time on the
# machine ($CACHE/vm/lock, shared with kernel-patch/build.sh). Progress on
# stderr, the full log in $CACHE/vm/stock-VER/build.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
frag=$here/../../kernel-patch/nsaudit.config
ver=${1:?usage: build-stock.sh 6.1|6.12}
case $ver in 6.1 | 6.12) ;; *) echo "build-stock.sh: no stock kernel '$ver' (6.1, 6.12)" >&2; exit 2 ;; esac
CACHE=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm
pkg=linux-source-$ver
TARBALL=/usr/src/$pkg.tar.xz
dir=$CACHE/stock-$ver
tree=$dir/src
build=$dir/build
log=$dir/build.log
say() { echo "vmtest: stock $ver: $*" >&2; }
die() { echo "vmtest: stock $ver: $*" >&2; exit 1; }

[ -f "$TARBALL" ] || die "no $TARBALL: apt-get install $pkg (tests/lib/deps.sh)"
version=$(dpkg-query -W -f='${Version}' "$pkg")
key=$( (cat "$frag" "$0"; echo "$version") | sha256sum | cut -c1-16)
out=$CACHE/stock-$ver-$key
if [ -f "$out/bzImage" ]; then
	say "cached ($out)"
	echo "$out"
	exit 0
fi

mkdir -p "$dir"
exec 9>"$CACHE/lock"
if ! flock -n 9; then
	say "waiting for another kernel build (lock $CACHE/lock)"
	flock 9
	# the build waited for may have been this one
	if [ -f "$out/bzImage" ]; then
		say "cached ($out)"
		echo "$out"
		exit 0
	fi
fi
start=$(date +%s)
if [ "$(cat "$dir/extracted" 2>/dev/null)" != "$version" ]; then
	say "extracting $pkg $version into $tree"
	rm -rf "$tree" "$build"
	mkdir -p "$tree"
	tar -xf "$TARBALL" -C "$tree" --strip-components=1
	echo "$version" >"$dir/extracted"
fi

say "configuring (tinyconfig + kernel-patch/nsaudit.config)"
mkdir -p "$build"
{
	make -C "$tree" O="$build" ARCH=x86_64 tinyconfig
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$frag"
	make -C "$tree" O="$build" ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configuring failed (log: $log)"; }
for opt in DEBUG_INFO_BTF BPF_JIT FUNCTION_TRACER BPF_EVENTS TIME_NS USER_NS NET_NS IPC_NS; do
	grep -q "^CONFIG_$opt=y" "$build/.config" || die "the config lost CONFIG_$opt (see $log)"
done

say "building bzImage with $(nproc) jobs (cold: 15-45 minutes on 2 shared cores)"
make -C "$tree" O="$build" ARCH=x86_64 -j"$(nproc)" bzImage >>"$log" 2>&1 &
mk=$!
while kill -0 $mk 2>/dev/null; do
	sleep 30
	kill -0 $mk 2>/dev/null &&
		say "  ... $(( $(date +%s) - start ))s, $(grep -c '^  CC ' "$log") files compiled"
done
wait $mk || { tail -n 30 "$log" >&2; die "kernel build failed (log: $log)"; }
say "kernel built in $(( $(date +%s) - start ))s"
mkdir -p "$out.tmp"
cp "$build/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$build/.config" "$out.tmp/config"
echo "$(( $(date +%s) - start ))" >"$out.tmp/build-seconds"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
