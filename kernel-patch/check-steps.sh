#!/bin/bash
# Build the kernel after every patch of the series, to show that each step
# compiles and links on its own (bisectable): a small x86_64 config
# (tinyconfig, every namespace type, NET, SYSVIPC, CGROUPS and event
# tracing on), in a scratch worktree of build.sh's tree and a build
# directory of its own, one incremental build per patch. Not part of
# vmtest (about 3 minutes on 2 cores); run it after changing the series.
#
#   kernel-patch/check-steps.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm
tree=$CACHE/src
wt=$CACHE/steps.src
b=$CACHE/build-steps
g() { git -C "$1" -c user.name=nsaudit -c user.email=nsaudit@localhost "${@:2}"; }
[ -d "$tree/.git" ] || { echo "check-steps.sh: no tree at $tree (run build.sh first)" >&2; exit 2; }

# the series as commits, made in a scratch worktree; the build worktree
# only ever checks commits out, so git touches just the files that differ
# and make stays incremental from one step (and one run) to the next
scratch=$CACHE/steps.tmp
rm -rf "$scratch"
git -C "$tree" worktree prune
g "$tree" worktree add -q --detach "$scratch" pristine
commits=()
while read -r p; do
	g "$scratch" am -q --whitespace=error-all "$here/$p"
	commits+=("$(git -C "$scratch" rev-parse HEAD)")
done <"$here/series"
git -C "$tree" worktree remove --force "$scratch"
[ -d "$wt" ] || g "$tree" worktree add -q --detach "$wt" pristine
mkdir -p "$b"
cat >"$b/frag" <<'CFG'
CONFIG_64BIT=y
CONFIG_FTRACE=y
CONFIG_ENABLE_DEFAULT_TRACERS=y
CONFIG_NAMESPACES=y
CONFIG_UTS_NS=y
CONFIG_TIME_NS=y
CONFIG_SYSVIPC=y
CONFIG_POSIX_MQUEUE=y
CONFIG_IPC_NS=y
CONFIG_USER_NS=y
CONFIG_PID_NS=y
CONFIG_NET=y
CONFIG_NET_NS=y
CONFIG_UNIX=y
CONFIG_CGROUPS=y
CONFIG_PROC_FS=y
CONFIG_MULTIUSER=y
CFG
rc=0
for c in "${commits[@]}"; do
	git -C "$wt" checkout -q --detach "$c"
	if [ ! -f "$b/.config" ]; then
		{
			make -C "$wt" O="$b" ARCH=x86_64 tinyconfig
			"$wt/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" "$b/frag"
			make -C "$wt" O="$b" ARCH=x86_64 olddefconfig
		} >/dev/null 2>&1
	fi
	s=$(date +%s)
	if make -C "$wt" O="$b" ARCH=x86_64 -j"$(nproc)" vmlinux >"$b/step.log" 2>&1; then
		w=$(grep -cE '/(fs/nsfd|kernel/nsproxy|kernel/fork|fs/namespace|include/trace/events/namespace)\.[ch]:[0-9]+:[0-9]+: warning' "$b/step.log" || true)
		echo "ok   $(git -C "$wt" log --format=%s -1) ($(( $(date +%s) - s ))s, $w warnings)"
		[ "$w" = 0 ] || rc=1
	else
		echo "FAIL $(git -C "$wt" log --format=%s -1)"
		grep -E 'error' "$b/step.log" | head -n 10
		rc=1
	fi
done
exit $rc
