#!/bin/bash
# Run scripts/checkpatch.pl on every patch of the series, against the
# pristine linux-source-6.1 tree that build.sh keeps. Exit 1 unless every
# patch has 0 errors, 0 warnings and 0 checks (--strict).
# UNKNOWN_COMMIT_ID is the one check left out: the tree is a one-commit
# import of linux-source-6.1 without mainline's history, so every mainline
# commit id (the "commit ... upstream" line of the backported 0005) is
# unknown to it; the ids are the real ones (see README.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tree=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm/src
[ -x "$tree/scripts/checkpatch.pl" ] || { echo "check.sh: no kernel tree at $tree (run build.sh first)" >&2; exit 2; }
rc=0
while read -r p; do
	out=$(cd "$tree" && ./scripts/checkpatch.pl --no-tree --strict --ignore UNKNOWN_COMMIT_ID "$here/$p" 2>&1 | grep '^total:')
	echo "$p: $out"
	case $out in *" 0 errors, 0 warnings, 0 checks"*) ;; *) rc=1 ;; esac
done <"$here/series"
exit $rc
