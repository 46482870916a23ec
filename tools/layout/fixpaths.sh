#!/bin/bash
# fixpaths.sh - rewrite mentions of loader/OLD.[ch] (comments, docs, tests)
# to their room path, from rooms.txt. Run from the top of the worktree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
expr=()
while read -r f room new; do
	case $f in ''|'#'*) continue ;; esac
	[ -n "$new" ] || new=$f
	expr+=(-e "s|loader/${f//./\\.}\\b|loader/$room/$new|g")
	# a renamed file, named bare in a comment
	[ "$new" != "$f" ] && expr+=(-e "s|\\b${f//./\\.}\\b|$new|g")
done <"$here/rooms.txt"
expr+=(-e 's|loader/cmd_NAME\.c|loader/cmd/cmd_NAME.c|g')
git ls-files | grep -v -e '^build/' -e 'vmlinux\.h$' -e '\.png$' | while read -r p; do
	[ -f "$p" ] || continue
	grep -Iq . "$p" 2>/dev/null || continue
	sed -i "${expr[@]}" "$p"
done
git diff --stat | tail -1
