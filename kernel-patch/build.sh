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
# record absolute paths). A change to the selftests alone (tools/) reuses
# the kernel of an earlier entry whose kernel source, fragment and
# version are the same, and only recompiles the selftest, without waiting
# for the build lock. Progress goes to stderr, the full log to
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

g() { git -C "$1" -c user.name=nsaudit -c user.email=nsaudit@localhost "${@:2}"; }

# the selftest, static, from a tree with the series applied
build_selftest() {	# TREE OUTDIR
	gcc -static -O2 -g -Wall -I "$1/tools/testing/selftests" \
		"$1/tools/testing/selftests/nsfd/nsfd_test.c" -o "$2/nsfd_test" -pthread >>"$log.selftest" 2>&1 ||
		{ tail -n 20 "$log.selftest" >&2; die "selftest build failed"; }
}

# The series applied in a scratch worktree (git metadata only: no lock).
# The kernel it makes depends on everything but tools/ (plus the fragment,
# the package version and this script): an entry built from the same
# kernel side gives its bzImage to this one.
if [ -d "$tree/.git" ]; then
	scratch=$CACHE/apply-$key.tmp
	rm -rf "$scratch"
	git -C "$tree" worktree prune
	if g "$tree" worktree add -q --detach "$scratch" pristine 2>/dev/null; then
		ok=1
		while read -r p; do
			g "$scratch" am -q --whitespace=error-all "$here/$p" || { ok=0; break; }
		done <"$here/series"
		if [ $ok = 1 ]; then
			kkey=$( (git -C "$scratch" ls-tree HEAD | grep -v $'\ttools$'
				cat "$here/nsaudit.config" "$0"; echo "$version") | sha256sum | cut -c1-16)
			for d in "$CACHE"/kernel-*/; do
				[ "$(cat "$d/kernel-key" 2>/dev/null)" = "$kkey" ] && [ -f "$d/bzImage" ] || continue
				say "kernel unchanged since ${d%/} (selftests changed): building the selftest only"
				rm -rf "$out.tmp"
				mkdir -p "$out.tmp"
				: >"$log.selftest"
				build_selftest "$scratch" "$out.tmp"
				cp "$d/bzImage" "$d/config" "$d/kernel-key" "$out.tmp/"
				git -C "$tree" worktree remove --force "$scratch"
				rm -rf "$out"
				mv "$out.tmp" "$out"
				echo "$out"
				exit 0
			done
		fi
		g "$scratch" am --abort 2>/dev/null || true
		git -C "$tree" worktree remove --force "$scratch"
	fi
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

# Apply the series as commits on top of pristine in a scratch worktree, then
# check that commit out in the build tree: git rewrites only the files that
# differ from what the tree holds, so a change to one patch (or only to the
# selftest) does not touch syscalls.h and the syscall tables again, and make
# rebuilds only what really changed.
if [ "$(cat "$CACHE/applied" 2>/dev/null)" != "$key" ]; then
	say "applying the series ($(wc -l <"$here/series") patches)"
	scratch=$CACHE/apply.tmp
	rm -rf "$scratch"
	git -C "$tree" worktree prune
	g "$tree" worktree add -q --detach "$scratch" pristine
	while read -r p; do
		g "$scratch" am -q --whitespace=error-all "$here/$p" || {
			g "$scratch" am --abort 2>/dev/null
			git -C "$tree" worktree remove --force "$scratch"
			die "$p does not apply to linux-source-6.1 $version"
		}
	done <"$here/series"
	commit=$(git -C "$scratch" rev-parse HEAD)
	git -C "$tree" worktree remove --force "$scratch"
	# an older build.sh left the series as uncommitted changes: keep their
	# files as they are by committing them, so the checkout is a diff
	if [ -n "$(git -C "$tree" status --porcelain --ignored=no | head -n 1)" ]; then
		git -C "$tree" add -f -A .
		g "$tree" commit -q -m "previously applied series"
	fi
	git -C "$tree" checkout -q --detach "$commit" ||
		die "cannot check out the applied series in $tree"
	git -C "$tree" clean -q -f -d
	echo "$key" >"$CACHE/applied"
fi

say "configuring (tinyconfig + kernel-patch/nsaudit.config)"
mkdir -p "$build"
{
	make -C "$tree" O="$build" ARCH=x86_64 tinyconfig
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$here/nsaudit.config"
	make -C "$tree" O="$build" ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configuring failed (log: $log)"; }
for opt in DEBUG_INFO_BTF BPF_JIT FUNCTION_TRACER BPF_EVENTS TIME_NS USER_NS NET_NS FAILSLAB; do
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
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
: >"$log.selftest"
build_selftest "$tree" "$out.tmp"
cp "$build/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$build/.config" "$out.tmp/config"
( git -C "$tree" ls-tree HEAD | grep -v $'\ttools$'
	cat "$here/nsaudit.config" "$0"; echo "$version") | sha256sum | cut -c1-16 >"$out.tmp/kernel-key"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
