#!/bin/bash
# move-rooms.sh - git mv loader/*.[ch] into their rooms (rooms.txt).
# Run from the top of the worktree. Lists loader files rooms.txt does not
# place (new ones from a merge): place them in rooms.txt and run again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
missing=0
for f in loader/*.[ch]; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	line=$(awk -v b="$b" '$1 == b { print $2, ($3 == "" ? $1 : $3) }' "$here/rooms.txt")
	if [ -z "$line" ]; then
		echo "move-rooms: no room for $f (add it to rooms.txt)" >&2
		missing=1
		continue
	fi
	set -- $line
	mkdir -p "loader/$1"
	git mv "$f" "loader/$1/$2"
done
exit $missing
