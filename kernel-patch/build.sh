#!/bin/bash
# Build, or reuse, the patched guest kernel and the nsfd selftest.
#
#   kernel-patch/build.sh        # last line of stdout: the cache directory
#
# The result is cached outside the clone, in $NSAUDIT_CACHE/vm/kernel-KEY/
# (default /var/cache/nsaudit), KEY being a hash of the series, the config
# fragment, linux-source-6.1's version and this script: a fresh clone on a
# machine that built the same inputs before reuses it, any change rebuilds.
# The kernel is built in one fixed tree ($CACHE/vm/src, out of tree in
# $CACHE/vm/build) so that rebuilds after a patch change are incremental:
# a copied tree would rebuild from scratch (objtool and resolve_btfids
# record absolute paths). Progress goes to stderr, the full log to
# $CACHE/vm/build.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm
TARBALL=/usr/src/linux-source-6.1.tar.xz
tree=$CACHE/src
build=$CACHE/build
log=$CACHE/build.log
say() { echo "vmtest: $*" >&2; }
die() { echo "vmtest: $*" >&2; exit 1; }

[ -f "$TARBALL" ] || die "no $TARBALL: apt-get install linux-source-6.1"
mkdir -p "$CACHE"
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$( (cd "$here" && cat series $(cat series) nsaudit.config build.sh; echo "$version") |
	sha256sum | cut -c1-16)
out=$CACHE/kernel-$key
if [ -f "$out/bzImage" ] && [ -x "$out/nsfd_test" ]; then
	say "patched kernel cached ($out)"
	echo "$out"
	exit 0
fi

# one build at a time on this machine
exec 9>"$CACHE/lock"
flock 9

if [ ! -d "$tree/.git" ]; then
	say "extracting linux-source-6.1 $version into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$TARBALL" -C "$tree.tmp" --strip-components=1
	# Debian's top-level .gitignore ignores everything: add with -f
	git -C "$tree.tmp" init -q
	git -C "$tree.tmp" add -f -A .
	git -C "$tree.tmp" -c user.name=nsaudit -c user.email=nsaudit@localhost \
		commit -q -m "linux-source-6.1 $version"
	git -C "$tree.tmp" tag pristine
	mv "$tree.tmp" "$tree"
fi

if [ "$(cat "$CACHE/applied" 2>/dev/null)" != "$key" ]; then
	say "applying the series ($(wc -l <"$here/series") patches)"
	git -C "$tree" reset -q --hard pristine
	git -C "$tree" clean -q -f -d -x
	while read -r p; do
		git -C "$tree" apply --whitespace=error-all "$here/$p" ||
			die "$p does not apply to linux-source-6.1 $version"
	done <"$here/series"
	echo "$key" >"$CACHE/applied"
fi

say "configuring (tinyconfig + kernel-patch/nsaudit.config)"
mkdir -p "$build"
{
	make -C "$tree" O="$build" ARCH=x86_64 tinyconfig
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$here/nsaudit.config"
	make -C "$tree" O="$build" ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configuring failed (log: $log)"; }
for opt in DEBUG_INFO_BTF BPF_JIT FUNCTION_TRACER BPF_EVENTS TIME_NS USER_NS NET_NS; do
	grep -q "^CONFIG_$opt=y" "$build/.config" || die "the config lost CONFIG_$opt (see $log)"
done

say "building bzImage with $(nproc) jobs (a cold build takes about 5-15 minutes)"
start=$(date +%s)
make -C "$tree" O="$build" ARCH=x86_64 -j"$(nproc)" bzImage >>"$log" 2>&1 &
mk=$!
while kill -0 $mk 2>/dev/null; do
	sleep 20
	kill -0 $mk 2>/dev/null &&
		say "  ... $(( $(date +%s) - start ))s, $(grep -c '^  CC ' "$log") files compiled"
done
wait $mk || { tail -n 30 "$log" >&2; die "kernel build failed (log: $log)"; }
say "kernel built in $(( $(date +%s) - start ))s"

say "building the nsfd selftest (static)"
mkdir -p "$out.tmp"
gcc -static -O2 -g -Wall -I "$tree/tools/testing/selftests" \
	"$tree/tools/testing/selftests/nsfd/nsfd_test.c" -o "$out.tmp/nsfd_test" >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "selftest build failed"; }
cp "$build/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$build/.config" "$out.tmp/config"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
