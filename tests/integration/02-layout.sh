#!/bin/bash
# The source layout keeps its rules (docs/architecture.md):
#  - loader/ rooms include only from rooms below them (the order of
#    LOADER_ROOMS in the Makefile), and no room includes a command;
#  - audit/ and common/ include nothing from loader/, common/ nothing from audit/;
#  - no source file over 650 lines, no function over 100 (the same
#    measure as the project's before-stop check).
. "$(dirname "$0")/../lib/testlib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
rooms=$(sed -n 's/^LOADER_ROOMS *:= *//p' Makefile)
[ -n "$rooms" ] || { fail "layout: no LOADER_ROOMS in the Makefile"; exit 1; }
rank() { local i=0 r; for r in $rooms; do [ "$r" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }

bad=""
for d in loader/*/; do
	room=$(basename "$d")
	[ "$(rank "$room")" -ge 0 ] || bad+=" loader/$room/ is not in LOADER_ROOMS;"
done
for f in loader/*/*.[ch]; do
	room=$(basename "$(dirname "$f")")
	me=$(rank "$room")
	while read -r inc; do
		to=${inc%%/*}
		[ "$to" = "$inc" ] && continue
		r=$(rank "$to")
		[ "$r" -lt 0 ] && continue
		if [ "$r" -gt "$me" ] || { [ "$to" = cmd ] && [ "$room" != cmd ]; }; then
			bad+=" $f includes $inc;"
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$bad" ]; then
	pass "layout: every loader room includes only rooms below it ($rooms)"
else
	fail "layout: includes against the room order:$bad"
fi

lhdrs=$(cd loader && ls */*.h | xargs -n1 basename | tr '\n' '|')
bad=""
for f in audit/*.[ch] common/*.[ch]; do
	grep -Eq "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([a-z]+/)?(${lhdrs%|})\"" "$f" && bad+=" $f"
done
for f in common/*.[ch]; do
	for h in audit/*.h; do
		grep -q "#include \"$(basename "$h")\"" "$f" && bad+=" $f($(basename "$h"))"
	done
done
if [ -z "$bad" ]; then
	pass "layout: audit/ and common/ include nothing from above them"
else
	fail "layout: a lower layer includes from above it:$bad"
fi

srcs=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v -e '^tests/' -e 'vmlinux\.h$' -e '\.skel\.h$')
[ -n "$srcs" ] || srcs=$(find bpf common audit loader bench -name '*.[ch]' ! -name vmlinux.h)
# The limits are a signal, not a seam: a file may be longer where its
# design says so, if its opening comment says why ("Longer than 650
# lines: ..." within its first 30 lines).
big=$(wc -l $srcs | awk '$2 != "total" && $1 > 650 { print $2 }' | while read -r f; do
	head -n 30 "$f" | grep -q 'Longer than 650 lines:' || printf ' %s (%d lines)' "$f" "$(wc -l <"$f")"
done)
if [ -z "$big" ]; then
	pass "layout: no source file over 650 lines without its reason in its opening comment"
else
	fail "layout: source files over 650 lines, no reason given:$big"
fi

# A room's *_impl.h is that room's own: no other room (and no lower layer)
# reaches into another room's internals except through its public header.
bad=""
for f in loader/*/*.[ch] audit/*.[ch] common/*.[ch]; do
	dir=$(dirname "$f")
	while read -r inc; do
		case $inc in */*_impl.h) [ "${inc%%/*}" = "$(basename "$dir")" ] || bad+=" $f includes $inc;" ;;
		*_impl.h) [ -f "$dir/$inc" ] || bad+=" $f includes $inc;" ;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$bad" ]; then
	pass "layout: no file includes another room's *_impl.h"
else
	fail "layout: a file reaches another room's internals:$bad"
fi

# One number per integration test: the number is the run order, and two
# scripts with one number leave it to the shell's collation.
dup=$(ls tests/integration/ | sed -n 's/^\([0-9][0-9]*\)-.*\.sh$/\1/p' | sort | uniq -d | tr '\n' ' ')
if [ -z "$dup" ]; then
	pass "layout: every integration test has a number of its own"
else
	fail "layout: integration tests share the numbers: $dup"
fi
long=$(awk -v LIMIT=100 '
	FNR == 1 { start = 0; sig = "" }
	/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { sig = $0; sigline = FNR }
	/^\{/ { if (sig != "") { n = sig; sub(/\(.*/, "", n); sub(/.*[ *]/, "", n); name = n; start = FNR } }
	/^\}/ { if (start) { len = FNR - start + 1
		if (len > LIMIT) printf " %s:%d %s() (%d lines)", FILENAME, sigline, name, len
		start = 0; sig = "" } }' $(echo "$srcs" | grep '\.c$'))
if [ -z "$long" ]; then
	pass "layout: no function over 100 lines"
else
	fail "layout: functions over 100 lines:$long"
fi
