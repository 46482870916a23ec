#!/bin/bash
# Hostile and bad input for every subcommand: unknown options, bad values,
# unreadable or unwritable directories (as an unprivileged user: root
# ignores permissions), a log dir that is a file, garbage, truncated and
# binary segments, bad key files, a --pin-dir outside bpffs. Each must exit
# non-zero with exactly one line on stderr, starting "nsaudit", naming what
# is wrong -- never a crash (signal), a hang (timeout 10) or lost files.
. "$(dirname "$0")/../lib/testlib.sh"
require_root "bad input"
require_built "$NSAUDIT" "bad input"

# bad WHAT WANT_RC REGEX CMD...: exit WANT_RC (or any non-zero with "-"),
# one stderr line matching REGEX, nothing killed by a signal or the timeout
bad() {
	local what=$1 want=$2 re=$3 rc lines; shift 3
	timeout -k 2 10 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	lines=$(wc -l <"$TMP/err")
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		fail "$what: hung (timeout)"
	elif [ $rc -ge 128 ]; then
		fail "$what: killed by signal $((rc - 128))"
	elif [ $rc -eq 0 ] || { [ "$want" != - ] && [ $rc -ne "$want" ]; }; then
		fail "$what: exit $rc, want ${want/-/non-zero} ($(head -c 200 "$TMP/err"))"
	elif [ "$lines" -ne 1 ]; then
		fail "$what: $lines lines on stderr, want 1: $(head -c 300 "$TMP/err" | tr '\n' '|')"
	elif ! grep -q '^nsaudit' "$TMP/err" || ! grep -Eq -- "$re" "$TMP/err"; then
		fail "$what: unclear message '$(cat "$TMP/err")' (want /$re/)"
	else
		pass "$what: exit $rc, '$(cut -c1-110 "$TMP/err")'"
	fi
}

N=$NSAUDIT
chmod 755 "$TMP"	# the unprivileged cases need to get in
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if ! "${NOBODY[@]}" "$N" --version >/dev/null 2>&1; then
	NOBODY=()	# binary not reachable by nobody (home dir?): those cases skip
fi
as_nobody() {	# as_nobody WHAT WANT RE CMD...
	if [ ${#NOBODY[@]} -eq 0 ]; then
		skip "$1" "nobody (65534) cannot run $N"
		return
	fi
	local what=$1 want=$2 re=$3; shift 3
	bad "$what" "$want" "$re" "${NOBODY[@]}" "$@"
}

A_FILE=$TMP/a-file; echo hello >"$A_FILE"
KEY=$TMP/key; "$N" keygen "$KEY" >"$TMP/vk"
# key files must be private to their owner: nobody's cases get a copy of their own
KEYN=$TMP/key-nobody; cp "$KEY" "$KEYN"; chown 65534:65534 "$KEYN"; chmod 600 "$KEYN"
: >"$TMP/key-empty"
head -c 20 "$KEY" >"$TMP/key-short"
head -c 65 /dev/urandom >"$TMP/key-binary"
printf '%064d\n' 0 | tr 0 z >"$TMP/key-nothex"
mkdir -m 0755 "$TMP/ro"		# exists, not writable by nobody
mkdir -m 0700 "$TMP/private"	# not readable by nobody

# A small real log to damage: a recorder that sees nothing but its own records.
GOOD=$TMP/good
# A clean stop closes the log: it seals its epoch and erases that key, so
# the state the recorder leaves verifies only what comes after. The damage
# cases verify with the key as it was before the run (what an auditor who
# kept the first key holds), which reaches every epoch of the log.
KEY0=$TMP/key-before-run; cp -p "$KEY" "$KEY0"
"$N" record --log-dir "$GOOD" --key "$KEY" --no-pin --comm nsaudit-none 2>"$TMP/rec.err" &
rp=$!
for i in $(seq 1 200); do grep -q '^nsaudit: ready' "$TMP/rec.err" && break; sleep 0.05; done
kill -TERM $rp; wait $rp
setup "a small real log to damage verifies" "$N" verify --log-dir "$GOOD" --key "$KEY0" -q
damaged() {	# damaged NAME: a copy of the good log, path on stdout
	rm -rf "${TMP:?}/$1"; cp -a "$GOOD" "$TMP/$1"; echo "$TMP/$1"
}
SEG=nsaudit-000001.log

echo "-- nsaudit (no or unknown command)"
bad "no command" 2 "no command given" "$N"
bad "unknown command" 2 "unknown command 'frobnicate'" "$N" frobnicate

echo "-- record"
L=$TMP/rec-log
bad "record: unknown option" 2 "unknown option '--frob'" "$N" record --log-dir "$L" --frob
bad "record: no --log-dir" 2 "--log-dir DIR is required" "$N" record
bad "record: --log-dir without value" 2 "--log-dir needs a value" "$N" record --log-dir
bad "record: --max-size abc" 2 "--max-size: 'abc'" "$N" record --log-dir "$L" --max-size abc
bad "record: --max-size 10" 2 "--max-size: '10'" "$N" record --log-dir "$L" --max-size 10
bad "record: --max-size 99999999999G" 2 "--max-size" "$N" record --log-dir "$L" --max-size 99999999999G
bad "record: --keep 0" 2 "--keep: '0'" "$N" record --log-dir "$L" --keep 0
bad "record: --keep -3" 2 "--keep: '-3'" "$N" record --log-dir "$L" --keep -3
bad "record: --on-full maybe" 2 "--on-full: unknown value 'maybe'" "$N" record --log-dir "$L" --on-full maybe
bad "record: --sync sometimes" 2 "--sync: unknown value 'sometimes'" "$N" record --log-dir "$L" --sync sometimes
bad "record: --format xml" 2 "--format: unknown value 'xml'" "$N" record --log-dir "$L" --format xml
bad "record: --pid abc" 2 "--pid 'abc'" "$N" record --log-dir "$L" --pid abc
bad "record: --pid 0" 2 "--pid '0'" "$N" record --log-dir "$L" --pid 0
bad "record: --type bogus" 2 "bogus" "$N" record --log-dir "$L" --type net,bogus
bad "record: --op bogus" 2 "bogus" "$N" record --log-dir "$L" --op setns,bogus
bad "record: --ring-size 3000" 2 "--ring-size '3000'" "$N" record --log-dir "$L" --ring-size 3000
bad "record: --comm too long" 2 "--comm" "$N" record --log-dir "$L" --comm 0123456789abcdefXYZ
bad "record: --pin-dir relative" 2 "--pin-dir needs an absolute path" "$N" record --log-dir "$L" --pin-dir rel
bad "record: --log-dir is a file" 1 "a-file: Not a directory" "$N" record --log-dir "$A_FILE" --no-pin
bad "record: --key empty" 1 "key-empty: not a key" "$N" record --log-dir "$L" --key "$TMP/key-empty" --no-pin
bad "record: --key short" 1 "key-short: not a key" "$N" record --log-dir "$L" --key "$TMP/key-short" --no-pin
bad "record: --key binary" 1 "key-binary: not a key" "$N" record --log-dir "$L" --key "$TMP/key-binary" --no-pin
bad "record: --key not hex" 1 "key-nothex: not a key" "$N" record --log-dir "$L" --key "$TMP/key-nothex" --no-pin
bad "record: --key a directory" 1 "not a regular file" "$N" record --log-dir "$L" --key "$TMP/ro" --no-pin
bad "record: --key missing" 1 "No such file" "$N" record --log-dir "$L" --key "$TMP/nokey" --no-pin
D=$(damaged rec-garbage); head -c 3000 /dev/urandom >"$D/$SEG"; rm -f "$D/.nsaudit-state"
bad "record: only a garbage segment, no state file" 1 "no intact segment" \
	"$N" record --log-dir "$D" --key "$KEY" --no-pin --comm nsaudit-none
as_nobody "record: log dir not writable (nobody)" 1 "Permission denied" \
	"$N" record --log-dir "$TMP/ro" --key "$KEY" --no-pin
as_nobody "record: log dir cannot be created (nobody)" 1 "Permission denied" \
	"$N" record --log-dir "$TMP/ro/sub" --key "$KEY" --no-pin
# A --pin-dir that is not on bpffs must fail cleanly and delete nothing there.
V=$TMP/victim; mkdir "$V"; echo precious >"$V/events-not"; echo precious >"$V/link_x"
bad "record: --pin-dir not on bpffs" 1 "not a directory in a bpf file system" \
	"$N" record --log-dir "$TMP/rec-pin" --key "$KEY" --pin-dir "$V" --comm nsaudit-none
check "record: files in a wrong --pin-dir survive" test -f "$V/link_x" -a -f "$V/events-not"

echo "-- verify"
bad "verify: unknown option" 2 "unknown argument '--frob'" "$N" verify --log-dir "$GOOD" --frob
bad "verify: no --log-dir" 2 "--log-dir DIR is required" "$N" verify
bad "verify: --log-dir without value" 2 "--log-dir: needs a value" "$N" verify --log-dir
bad "verify: --log-dir is a file" 1 "Not a directory" "$N" verify --log-dir "$A_FILE" --key "$KEY"
bad "verify: --log-dir missing" 1 "No such file" "$N" verify --log-dir "$TMP/none" --key "$KEY"
bad "verify: no segments" 1 "/ro: NOT INTACT: no log segments" "$N" verify --log-dir "$TMP/ro" --key "$KEY"
for k in empty short binary nothex; do
	bad "verify: --key $k" 1 "key-$k: not a key" "$N" verify --log-dir "$GOOD" --key "$TMP/key-$k"
done
bad "verify: --key a directory" 1 "not a regular file" "$N" verify --log-dir "$GOOD" --key "$TMP/ro"
cp "$KEY" "$TMP/key-open"; chmod 644 "$TMP/key-open"
bad "verify: --key readable by others" 1 "key-open: mode 0644 lets others read it" "$N" verify --log-dir "$GOOD" --key "$TMP/key-open"
bad "record: --key readable by others" 1 "key-open: mode 0644 lets others read it" "$N" record --log-dir "$TMP/l-open" --key "$TMP/key-open" --no-pin
"$N" keygen "$TMP/key2"
bad "verify: wrong key" 1 "does not verify with this key|wrong key" "$N" verify --log-dir "$GOOD" --key "$TMP/key2"
D=$(damaged v-garbage); printf 'this is not\na log\n' >"$D/$SEG"
bad "verify: garbage segment" 1 "$SEG line 1: NOT INTACT: not a record" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-binary); head -c 20000 /dev/urandom >"$D/$SEG"
bad "verify: binary segment" 1 "$SEG.*NOT INTACT" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-nul); head -c 4096 /dev/zero >"$D/$SEG"
# (the one line names the first finding: with no record left to date it, the
# state's epoch is one as well; either way the log is NOT INTACT)
bad "verify: segment of NUL bytes" 1 "($SEG|nsaudit-state).*NOT INTACT.*findings" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-trunc); sz=$(stat -c %s "$D/$SEG"); truncate -s $((sz - 40)) "$D/$SEG"
bad "verify: truncated segment" 1 "NOT INTACT: unfinished last record" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-empty); : >"$D/$SEG"
bad "verify: empty segment" 1 "NOT INTACT: empty" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-state); head -c 300 /dev/urandom >"$D/.nsaudit-state"
bad "verify: garbage state file" 1 "nsaudit-state.*damaged" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-dirseg); rm "$D/$SEG"; mkdir "$D/$SEG"
bad "verify: a directory named like a segment" 1 "not a regular file" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-symlink); mv "$D/$SEG" "$D/real"; ln -s real "$D/$SEG"
bad "verify: a symlink named like a segment" 1 "$SEG.*unreadable" "$N" verify --log-dir "$D" --key "$KEY0"
# names from the log itself must not split the report or reach the terminal raw
D=$(damaged v-keyid); sed -i '1s/"key_id":"[0-9a-f]*"/"key_id":"ab\\ncd\\u001b[31m"/' "$D/$SEG"
bad "verify: newline and ESC in a header's key_id" 1 "key id ab\?cd\?\[31m" "$N" verify --log-dir "$D" --key "$KEY0"
D=$(damaged v-dupkey); sed -i '2s/^{/{"a\\nb":1,"a\\nb":2,/' "$D/$SEG"
bad "verify: newline in a duplicated field name" 1 "duplicate field \"a\?b\"" "$N" verify --log-dir "$D" --key "$KEY0"
bad "search: newline in a duplicated field name" 1 "duplicate field \"a\?b\"" "$N" search --log-dir "$D" --pid 1
as_nobody "verify: unreadable log dir (nobody)" 1 "private: Permission denied" \
	"$N" verify --log-dir "$TMP/private" --key "$KEY"
D=$(damaged v-noread); chmod 755 "$D"; chmod 600 "$D/$SEG"; chmod 644 "$D/.nsaudit-state"
as_nobody "verify: unreadable segment (nobody)" 1 "$SEG.*Permission denied" \
	"$N" verify --log-dir "$D" --verification-key "$TMP/vk"

echo "-- search"
bad "search: unknown option" 2 "unknown option '--frob'" "$N" search --log-dir "$GOOD" --frob
bad "search: unknown option with a value" 2 "unknown option '--frob'" "$N" search --log-dir "$GOOD" --frob 1
bad "search: no --log-dir" 2 "--log-dir DIR is required" "$N" search
bad "search: --since yesterday-ish" 2 "--since: 'yesterday-ish' is not a time" "$N" search --log-dir "$GOOD" --since yesterday-ish
bad "search: --until 5x" 2 "--until: '5x' is not a time" "$N" search --log-dir "$GOOD" --until 5x
bad "search: --ns net:notanumber" 2 "--ns: 'net:notanumber'" "$N" search --log-dir "$GOOD" --ns net:notanumber
bad "search: --ns bogus:1" 2 "--ns" "$N" search --log-dir "$GOOD" --ns bogus:1
bad "search: --pid abc" 2 "--pid: 'abc' is not a process id" "$N" search --log-dir "$GOOD" --pid abc
bad "search: --uid x" 2 "--uid: 'x'" "$N" search --log-dir "$GOOD" --uid x
bad "search: --op bogus" 2 "--op: unknown operation 'bogus'" "$N" search --log-dir "$GOOD" --op setns,bogus
bad "search: --result maybe" 2 "--result: 'maybe' is not ok, fail" "$N" search --log-dir "$GOOD" --result maybe
bad "search: --type bogus" 2 "--type: unknown namespace type 'bogus'" "$N" search --log-dir "$GOOD" --type net,bogus
bad "search: --ns ns_id:x" 2 "ns_id:ID needs a number" "$N" search --log-dir "$GOOD" --ns ns_id:x
bad "search: no match is said" 1 "no match" "$N" search --log-dir "$GOOD" --pid 1 --comm nosuchcomm
bad "search: --format xml" 2 "--format: unknown format 'xml'" "$N" search --log-dir "$GOOD" --format xml
bad "search: --log-dir is a file" 3 "Not a directory" "$N" search --log-dir "$A_FILE"
bad "search: no segments" 3 "no log segments" "$N" search --log-dir "$TMP/ro"
D=$(damaged s-garbage); printf 'this is not\na log\n' >"$D/$SEG"
bad "search: garbage segment" 1 "$SEG: skipped 2 damaged lines" "$N" search --log-dir "$D"
D=$(damaged s-binary); head -c 20000 /dev/urandom >"$D/$SEG"
bad "search: binary segment" 1 "$SEG: skipped [0-9]+ damaged line" "$N" search --log-dir "$D"
D=$(damaged s-trunc); sz=$(stat -c %s "$D/$SEG"); truncate -s $((sz - 40)) "$D/$SEG"
bad "search: truncated segment (matching nothing)" 1 "unfinished last record" \
	"$N" search --log-dir "$D" --pid 1 --op setns
as_nobody "search: unreadable log dir (nobody)" 3 "private: Permission denied" \
	"$N" search --log-dir "$TMP/private"

echo "-- keygen"
bad "keygen: unknown option" 2 "unknown option '--frob'" "$N" keygen --frob "$TMP/k"
bad "keygen: no FILE" 2 "FILE is required" "$N" keygen
bad "keygen: two FILEs" 2 "one FILE only" "$N" keygen "$TMP/k1" "$TMP/k2"
bad "keygen: FILE exists" 1 "exists \(use --force" "$N" keygen "$KEY"
bad "keygen: FILE is a directory" 1 "ro: " "$N" keygen --force "$TMP/ro"
bad "keygen: directory under a file" 1 "cannot make directory .*: Not a directory" "$N" keygen "$A_FILE/sub/key"
ln -s "$A_FILE" "$TMP/key-link"
bad "keygen --force: FILE is a symlink" 1 "key-link" "$N" keygen --force "$TMP/key-link"
check "keygen: the symlink's target is untouched" grep -qx hello "$A_FILE"
as_nobody "keygen: directory not writable (nobody)" 1 "Permission denied" "$N" keygen "$TMP/ro/key"

echo "-- holders"
bad "holders: unknown option" 2 "--frob: unknown option" "$N" holders --frob
bad "holders: no namespace" 2 "which namespace" "$N" holders
bad "holders: net:notanumber" 2 "'net:notanumber'" "$N" holders net:notanumber
bad "holders: bogus type" 2 "bogus" "$N" holders bogus:1
bad "holders: missing path" - "none" "$N" holders "$TMP/none"
as_nobody "holders: a namespace not ours to see (nobody)" 1 "Permission denied" "$N" holders 1:net
bad "holders: a regular file" - "a-file" "$N" holders "$A_FILE"
as_nobody "holders --all unprivileged (nobody)" 1 "Operation not permitted" "$N" holders --all

echo "-- detach"
bad "detach: unknown option" 2 "unknown option '--frob'" "$N" detach --frob
bad "detach: --pin-dir without value" 2 "--pin-dir needs a directory" "$N" detach --pin-dir
bad "detach: --pin-dir not on bpffs" 1 "not a directory in a bpf file system" "$N" detach --pin-dir "$V"
check "detach: files in a wrong --pin-dir survive" test -f "$V/link_x" -a -f "$V/events-not"
bad "detach: --pin-dir is a file" 1 "Not a directory" "$N" detach --pin-dir "$A_FILE"

echo "-- retire"
# a mistyped directory was made, given a key and a log, and "retired", exit 0
bad "retire: no --log-dir" 2 "--log-dir DIR is required" "$N" retire
bad "retire: a missing directory" 1 "No such file or directory \\(nothing retired\\)" \
	"$N" retire --log-dir "$TMP/no-such-log"
check "retire: the missing directory is not made" test ! -e "$TMP/no-such-log"
mkdir "$TMP/no-log"
bad "retire: a directory without a log" 1 "no log segments .*no log to retire" \
	"$N" retire --log-dir "$TMP/no-log"
check "retire: nothing is written into it" test -z "$(ls -A "$TMP/no-log")"
bad "retire: a file" 1 "Not a directory" "$N" retire --log-dir "$A_FILE"

echo "-- probe"
bad "probe: unknown option" 2 "unknown option '--frob'" "$N" probe --frob
bad "probe: extra argument" 2 "unknown option 'extra'" "$N" probe extra
as_nobody "probe unprivileged (nobody)" 1 "without privileges" "$N" probe
exit 0
