#!/bin/bash
# One interface, said the same everywhere: each command's --help and its
# getopt tables are made from one option table (common/optab.h), so the
# options --help lists are the ones it accepts,
# and the man page, docs/commands.md and the bash completion say the same;
# the completion offers nothing the command rejects; the ops and the exit
# codes the code has are documented. A drift in any of them fails here.
. "$(dirname "$0")/../lib/testlib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MAN=$ROOT/packaging/nsaudit.1
DOC=$ROOT/docs/commands.md
COMP=$ROOT/packaging/nsaudit.bash-completion
require_built "$NSAUDIT" "interface"
trap cleanup_testlib EXIT
PATH=$(cd "$(dirname "$NSAUDIT")" && pwd):$PATH	# the completion asks "nsaudit CMD --help"
[ "$(command -v nsaudit)" -ef "$NSAUDIT" ] || ln -sf "$NSAUDIT" "$TMP/nsaudit" && PATH=$TMP:$PATH
# every command "nsaudit --help" lists, and no other
COMMANDS=$("$NSAUDIT" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z]\+\) .*/\1/p')
expect_eq "nsaudit --help lists the commands" "$(wc -w <<<"$COMMANDS")" 10

# The options a command's --help lists: its usage lines and option lines.
help_opts() {
	"$NSAUDIT" "$1" --help 2>&1 | grep -E '^(Usage:| +-)' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}
# Whether cmd accepts opt: "CMD OPT x y" is a usage error about x or y
# (a stray argument; nothing runs), never "unknown option 'OPT'".
accepts() {
	local out rc
	out=$(timeout 10 "$NSAUDIT" "$1" "$2" x y 2>&1 </dev/null)
	rc=$?
	[ $rc -ne 124 ] && ! grep -q "unknown option '$2'\|unrecognized option" <<<"$out"
}
# What the completion offers after "nsaudit CMD [PREV] CUR".
complete_words() {
	bash -c '
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_nsaudit 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' "$COMP" nsaudit "$@" | sort -u
}
man_text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN")

# One table per command: no option parser, long table or short-option
# string is written anywhere but beside common/optab.c's generator, so an
# option cannot be accepted without being in --help.
stray=$(cd "$ROOT" && grep -nE '[^_]getopt(_long)? *\(|struct option [a-z_]+\[[A-Z_0-9]*\] *=' \
	common/*.c audit/*.c nsaudit/*/*.c | grep -v -e '^nsaudit/cmd/commands.c:' -e '^common/optab.c:')
expect_eq "options are parsed only from the one table (common/optab.h)" "$stray" ""

# each command is in the README's table, the synopsis of docs/commands.md,
# the man page's and the completion's
nodoc=""
for c in $COMMANDS; do
	grep -q "^| \`nsaudit $c\` |" "$ROOT/README.md" || nodoc+=" README:$c"
	grep -Eq "^nsaudit $c( |$)" "$DOC" || nodoc+=" commands.md:$c"
	grep -q "^\.SY \"nsaudit $c\"" "$MAN" || nodoc+=" man:$c"
	grep -qw "$c" <<<"$(complete_words "")" || nodoc+=" completion:$c"
done
expect_eq "every command is in the README, docs/commands.md, the man page, the completion" \
	"$nodoc" ""

for c in $COMMANDS; do
	opts=$(help_opts "$c")
	bad="" nodoc="" noman="" nocomp=""
	for o in $opts; do
		accepts "$c" "$o" || bad+=" $o"
		grep -q -- "$o\b" "$DOC" || nodoc+=" $o"
		grep -q -- "$o\b" <<<"$man_text" || noman+=" $o"
	done
	expect_eq "$c: every option its --help lists is accepted" "$bad" ""
	# and each short form it lists ("  -p, --pid") is that option
	badshort=""
	for so in $("$NSAUDIT" "$c" --help | sed -n 's/^  \(-[a-zA-Z0-9]\), --.*/\1/p'); do
		accepts "$c" "$so" || badshort+=" $so"
	done
	expect_eq "$c: every short option its --help lists is accepted" "$badshort" ""
	expect_eq "$c: every option is in docs/commands.md" "$nodoc" ""
	expect_eq "$c: every option is in the man page" "$noman" ""
	offered=$(complete_words "$c" "--" | grep -- '^--')
	for o in $opts; do
		grep -qx -- "$o" <<<"$offered" || nocomp+=" $o"
	done
	expect_eq "$c: the completion offers every option" "$nocomp" ""
	extra=""
	for o in $offered; do
		grep -qx -- "$o" <<<"$opts" || [ "$o" = --help ] || extra+=" $o"
	done
	expect_eq "$c: the completion offers no option --help does not list" "$extra" ""
done

# --op values: what the completion offers, each command accepts
for c in trace search; do
	bad=""
	for v in $(complete_words "$c" --op ""); do
		timeout 10 "$NSAUDIT" "$c" --op "$v" x y 2>&1 | grep -q -- "--op" && bad+=" $v"
	done
	expect_eq "$c: every --op the completion offers is accepted" "$bad" ""
done
# --container: names and ids, never the headers of a listing
expect_eq "--container completes no listing header" \
	"$(complete_words trace --container "" | grep -cE ':$|^(CONTAINER|NAMES|ID)$')" 0

# every op the code has is in the man page and docs/commands.md
ops=$("$NSAUDIT" search --help | sed -n '/--op LIST/,/--rule/p' | sed '$d' |
	grep -oE '[a-z_]+' | grep -vxE 'op|detections|docs|rules|md' | sort -u)
nodoc="" noman=""
for o in $ops; do
	grep -qE "\b$o\b" "$DOC" || nodoc+=" $o"
	grep -qE "\b$o\b" <<<"$man_text" || noman+=" $o"
done
expect_eq "every op is in docs/commands.md" "$nodoc" ""
expect_eq "every op is in the man page" "$noman" ""
# the fields the man page names are those records have
check "the man page has no comm_hex (records have comm_b64)" \
	sh -c "! grep -q comm_hex '$MAN' && grep -q 'comm_b64' '$MAN'"

# exit codes: each command's "Exit status" numbers are in its section of
# docs/commands.md and in the man page's EXIT STATUS
for c in $COMMANDS; do
	codes=$("$NSAUDIT" "$c" --help | sed -n '/Exit status/,/^$/p' |
		grep -oE '(^|[ (,])[0-9]( |,|$)' | tr -dc '0-9\n' | sort -u | tr '\n' ' ')
	[ -n "$codes" ] || continue
	sect=$(sed -n "/^## nsaudit $c\b/,/^## /p" "$DOC")
	missing=""
	for n in $codes; do
		grep -qE "(exit|Exit|status)[^.]*\b$n\b|^\| *\`?$n\`? *\|" <<<"$sect" || missing+=" $n"
	done
	expect_eq "$c: exit codes ($codes) in docs/commands.md" "$missing" ""
done
