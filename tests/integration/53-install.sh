#!/bin/bash
# make install DESTDIR=...: the binary, the man page (renders without a
# warning), the bash completion (completes subcommands and option values)
# and the systemd unit for "nsaudit record", with PREFIX honoured.
. "$(dirname "$0")/../lib/testlib.sh"
require_cmd make "make install"
require_cmd man "make install (man-db)"
require_cmd groff "make install (groff)"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
D=$TMP/destdir
if ! make -s -C "$ROOT" install DESTDIR="$D" PREFIX=/opt/nsa >"$TMP/make.out" 2>&1; then
	fail "make install DESTDIR=... PREFIX=/opt/nsa"
	tail "$TMP/make.out"
	exit 0
fi
pass "make install DESTDIR=... PREFIX=/opt/nsa"
check "binary installed, executable" test -x "$D/opt/nsa/sbin/nsaudit"
expect_eq "installed binary runs" "$("$D/opt/nsa/sbin/nsaudit" --version | cut -d' ' -f1)" nsaudit
MAN=$D/opt/nsa/share/man/man1/nsaudit.1
COMP=$D/opt/nsa/share/bash-completion/completions/nsaudit
UNIT=$D/opt/nsa/lib/systemd/system/nsaudit.service
for f in "$MAN" "$COMP" "$UNIT" "$D"/opt/nsa/share/nsaudit/rsyslog/nsaudit-{forward,collector}.conf; do
	expect_eq "$(basename "$f") installed mode 0644" "$(stat -c %a "$f" 2>/dev/null)" 644
done
# the collector's dedup plugin: runs from where it is installed
DEDUP=$D/opt/nsa/libexec/nsaudit/nsaudit-relp-dedup
expect_eq "nsaudit-relp-dedup installed mode 0755" "$(stat -c %a "$DEDUP" 2>/dev/null)" 755
mkdir -p "$TMP/fleet"
ans=$(printf '%s\n' '{ "$!": { "rfc5424-sd": { "nsaudit@32473": { "sink_run": "00000000000000aa", "sink_seq": "1" } } } }' \
	'{ "$!": { "rfc5424-sd": { "nsaudit@32473": { "sink_run": "00000000000000aa", "sink_seq": "1" } } } }' |
	env -i "$DEDUP" "$TMP/fleet" | tr '\n' ' ')
expect_eq "installed nsaudit-relp-dedup (empty environment, as mmexternal runs it) tells a repeat" \
	"$ans" '{} {"$!":{"nsaudit_dup":"1"}} '

# man page: renders, no warnings, every subcommand, version filled in
warn=$(MANWIDTH=80 man -l "$MAN" 2>&1 >/dev/null)
expect_eq "man -l renders the page without warnings" "$warn" ""
warn=$(groff -ww -z -man "$MAN" 2>&1)
expect_eq "groff -ww finds nothing to warn about" "$warn" ""
text=$(MANWIDTH=80 man -l "$MAN" 2>/dev/null)
for c in trace probe record verify search keygen holders lifetime detach; do
	grep -q "^   $c\$" <<<"$text" && pass "man page: subcommand $c" || fail "man page: subcommand $c"
done
for s in SYNOPSIS DESCRIPTION NAMES SINKS "RECORD FIELDS" "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
	grep -q "^$s\$" <<<"$text" || fail "man page: section $s"
done
grep -q "nsaudit $(cat "$ROOT/VERSION")" <<<"$text" && pass "man page: version filled in" ||
	fail "man page: version filled in"
width=$(LC_ALL=C.UTF-8 wc -L <<<"$text")
[ "$width" -le 80 ] && pass "man page: fits 80 columns" || fail "man page: $width columns wide"

# systemd unit: runs record from the installed binary, key and log dirs
grep -q "^ExecStart=/opt/nsa/sbin/nsaudit record --log-dir /var/log/nsaudit " "$UNIT" &&
	pass "unit: ExecStart runs nsaudit record from SBINDIR" || fail "unit: ExecStart: $(grep ExecStart "$UNIT")"
check "unit: no placeholder left" bash -c "! grep -q @ '$UNIT'"
for k in Restart=on-failure LogsDirectory=nsaudit NoNewPrivileges=yes ProtectSystem=strict \
	CapabilityBoundingSet= WantedBy=multi-user.target; do
	grep -q "^$k" "$UNIT" && pass "unit: $k" || fail "unit: $k"
done
if command -v systemd-analyze >/dev/null; then
	# the binary is not at /opt/nsa and man(1) pages are not indexed here:
	# only complaints about the unit itself count
	bad=$(systemd-analyze verify "$UNIT" 2>&1 | grep -v 'is not executable\|Command .man ')
	expect_eq "systemd-analyze verify: no complaint about the unit" "$bad" ""
else
	skip "systemd-analyze verify of the unit" "no systemd on this machine"
fi

# bash completion: subcommands, options, values
complete_words() {	# the words the completion offers for the command line "$@"
	# the completion asks "nsaudit CMD --help": the installed one, on PATH
	PATH=$D/opt/nsa/sbin:$PATH bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_nsaudit
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$COMP" "$@"
}
check "completion: bash -n" bash -n "$COMP"
expect_eq "completion: subcommands" "$(complete_words nsaudit "")" \
	"--help --version detach holders keygen lifetime probe record retire search trace verify "
expect_eq "completion: trace --format" "$(complete_words nsaudit trace --format "")" "ecs json ocsf text "
expect_eq "completion: record --format" "$(complete_words nsaudit record --format "")" "audit json "
expect_eq "completion: --type list after a comma" "$(complete_words nsaudit trace --type net,u)" \
	"net,user net,uts "
expect_eq "completion: --op" "$(complete_words nsaudit trace --op se)" "setns "
expect_eq "completion: --sink" "$(complete_words nsaudit trace --sink a)" "audit "
grep -q -- "--sink" <<<"$(complete_words nsaudit trace --)" && pass "completion: trace options" ||
	fail "completion: trace options"
grep -q -- "--on-full" <<<"$(complete_words nsaudit record --)" && pass "completion: record options" ||
	fail "completion: record options"
