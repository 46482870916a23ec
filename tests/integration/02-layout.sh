#!/bin/bash
# The source layout keeps its rules (docs/architecture.md):
#  - nsaudit/ rooms include only from rooms below them (the order of
#    COMMAND_ROOMS in the Makefile), and no room includes a command;
#  - audit/ and common/ include nothing from nsaudit/, common/ nothing from audit/;
#  - no source file over 650 lines, no function over 100 (the same
#    measure as the project's before-stop check);
#  - files reach each other only through headers, and no two parts of a
#    room include each other.
. "$(dirname "$0")/../lib/testlib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
rooms=$(sed -n 's/^COMMAND_ROOMS *:= *//p' Makefile)
[ -n "$rooms" ] || { fail "layout: no COMMAND_ROOMS in the Makefile"; exit 1; }
rank() { local i=0 r; for r in $rooms; do [ "$r" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }

bad=""
for d in nsaudit/*/; do
	room=$(basename "$d")
	[ "$(rank "$room")" -ge 0 ] || bad+=" nsaudit/$room/ is not in COMMAND_ROOMS;"
done
for f in nsaudit/*/*.[ch]; do
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
	pass "layout: every room of nsaudit/ includes only rooms below it ($rooms)"
else
	fail "layout: includes against the room order:$bad"
fi

lhdrs=$(cd nsaudit && ls */*.h | xargs -n1 basename | tr '\n' '|')
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
[ -n "$srcs" ] || srcs=$(find bpf common audit nsaudit bench -name '*.[ch]' ! -name vmlinux.h)
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
for f in nsaudit/*/*.[ch] audit/*.[ch] common/*.[ch]; do
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

# Files reach each other only through headers: no .c file declares what
# another file defines (a prototype or an extern at file scope), every
# function a .c file exports is declared in a header, and within a room
# (audit/, common/, each room of nsaudit/) no two parts depend on each other
# both ways (a part: NAME.c with NAME.h; a room's *_impl.h composes its
# parts and is not counted as one).
csrcs=$(git ls-files 'nsaudit/*.c' 'audit/*.c' 'common/*.c' 2>/dev/null)
[ -n "$csrcs" ] || csrcs=$(ls nsaudit/*/*.c audit/*.c common/*.c)
hdrs=$(ls nsaudit/*/*.h audit/*.h common/*.h)
bad=$(awk '
	FNR == 1 { acc = "" }
	acc == "" && /^[A-Za-z_]/ && !/^[A-Za-z_][A-Za-z0-9_]*:/ &&
		!/^(static|typedef|struct [a-z_]+ *\{|enum|union|_Static_assert|#)/ { acc = $0; line = FNR }
	acc != "" && acc != $0 { acc = acc " " $0 }
	acc != "" && /[;{]/ {
		if (acc !~ /\{/ && (acc ~ /^extern / || (acc ~ /\(/ && acc !~ /=/ && acc !~ /\(\*/)))
			printf " %s:%d", FILENAME, line
		acc = ""
	}' $csrcs)
for f in $csrcs; do
	for fn in $(awk '
		/^[A-Za-z_].*\(/ && !/^static/ && !/;[[:space:]]*$/ { sig = $0; next }
		/^\{/ { if (sig != "") { n = sig; sub(/\(.*/, "", n); sub(/.*[ *]/, "", n); print n } }
		!/^[[:space:]]/ { sig = "" }' "$f"); do
		[ "$fn" = main ] || grep -qw -- "$fn" $hdrs || bad+=" $f:$fn() (in no header)"
	done
done
if [ -z "$bad" ]; then
	pass "layout: files reach each other only through headers"
else
	fail "layout: a file declares or exports what no header says:$bad"
fi
bad=""
for dir in audit/ common/ nsaudit/*/; do
	dir=${dir%/}
	edges=$(for f in "$dir"/*.[ch]; do
		case $f in *_impl.h) continue ;; esac
		m=$(basename "${f%.[ch]}")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$f" |
		while read -r to; do
			to=${to%_impl}
			[ -f "$dir/$to.h" ] || [ -f "$dir/${to}_impl.h" ] || continue
			[ "$to" != "$m" ] && echo "$m $to"
		done
	done | sort -u)
	[ -n "$edges" ] || continue
	loop=$(echo "$edges" | tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' | tr '\n' ' ')
	[ -n "$loop" ] && bad+=" $dir: $loop;"
done
if [ -z "$bad" ]; then
	pass "layout: no two parts of a room depend on each other both ways"
else
	fail "layout: parts of a room in a cycle:$bad"
fi

# A header includes what it uses at its top, before any code of its own,
# so that it can be read, and included, on its own; a source file (a BPF
# part's too) includes its headers at its top, so that no header depends
# on what the file that includes it defined before it.
bad=$(awk '
	FNR == 1 { code = 0; inc = 0 }
	{
		line = $0
		if (inc) { if (line ~ /\*\//) { inc = 0; sub(/.*\*\//, "", line) } else next }
		gsub(/\/\*.*\*\//, "", line)
		if (line ~ /\/\*/) { inc = 1; sub(/\/\*.*/, "", line) }
		sub(/\/\/.*/, "", line)
		if (line ~ /^[[:space:]]*#[[:space:]]*include/) { if (code) printf " %s:%d", FILENAME, FNR; next }
		if (line ~ /^[[:space:]]*#/ || line ~ /^[[:space:]]*$/) next
		code = 1
	}' $(ls bpf/*.[ch] bpf/*/*.[ch] nsaudit/*/*.[ch] audit/*.[ch] common/*.[ch] | grep -v 'vmlinux\.h$'))
if [ -z "$bad" ]; then
	pass "layout: every header and source file includes what it uses at its top"
else
	fail "layout: an include after a file's own code:$bad"
fi

# A clock is read in one place, common/clock.c, by a function whose name
# says which clock it is (clock.h): a hand-made read grows its own
# arithmetic and its own choice of clock (one "mono_ns" read BOOTTIME).
bad=$(grep -n 'clock_gettime[[:space:]]*(' nsaudit/*/*.[ch] audit/*.[ch] common/*.[ch] |
	grep -v '^common/clock\.[ch]:' | cut -d: -f1,2 | tr '\n' ' ')
if [ -z "$bad" ]; then
	pass "layout: every clock is read through common/clock.h"
else
	fail "layout: a clock read by hand (use common/clock.h): $bad"
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
