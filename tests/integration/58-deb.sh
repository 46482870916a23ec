#!/bin/bash
# The Debian package, built with debhelper from this tree: lintian finds
# nothing (pedantic included), it installs what it says (binary, unit, man
# page, completion, default rules), the installed binary traces a real
# "ip netns add" with the installed rules file, and a purge leaves nothing.
# dpkg is machine-global: run it under flock /work/locks/global.lock.
. "$(dirname "$0")/../lib/testlib.sh"
"$TESTS_DIR/lib/deps.sh" fleet >/dev/null 2>&1 || true	# what it drives, if missing
require_root "debian package"
require_cmd dpkg-buildpackage "debian package"
require_cmd dh "debian package"
require_cmd lintian "debian package"
require_cmd jq "debian package"
require_cmd ip "debian package"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
if dpkg-query -W -f='${Status}' nsaudit 2>/dev/null | grep -q "installed"; then
	skip "debian package" "an nsaudit package is already installed"
	exit 0
fi
VER=$(cat "$ROOT/VERSION")
SRC=$TMP/deb/nsaudit-$VER
mkdir -p "$SRC"
tar -C "$ROOT" --exclude=./build --exclude=./.git -cf - . | tar -C "$SRC" -xf -
if ! (cd "$SRC" && dpkg-buildpackage -us -uc -b >"$TMP/build.log" 2>&1); then
	fail "dpkg-buildpackage builds the package"
	tail -20 "$TMP/build.log"
	exit 0
fi
DEB=$TMP/deb/nsaudit_${VER}_$(dpkg --print-architecture).deb
check "the package is built" test -f "$DEB"
out=$(lintian --pedantic --fail-on error,warning,info,pedantic "$TMP"/deb/*.changes 2>&1 |
	grep -v "running with root privileges")
expect_eq "lintian --pedantic: nothing to say" "$out" ""
files=$(dpkg -c "$DEB" | awk '{print $6}')
for f in ./usr/bin/nsaudit ./lib/systemd/system/nsaudit.service ./usr/share/man/man1/nsaudit.1.gz \
	./usr/share/bash-completion/completions/nsaudit ./etc/nsaudit/rules.yaml ./etc/default/nsaudit \
	./usr/libexec/nsaudit/nsaudit-relp-dedup ./usr/share/nsaudit/rsyslog/nsaudit-forward.conf \
	./usr/share/nsaudit/rsyslog/nsaudit-collector.conf; do
	check "package holds $f" grep -qx -- "$f" <<<"$files"
done
trap 'dpkg --purge nsaudit >/dev/null 2>&1; ip netns del deb$$ 2>/dev/null; cleanup_testlib' EXIT
if ! dpkg -i "$DEB" >"$TMP/install.log" 2>&1; then
	fail "dpkg -i installs it"
	cat "$TMP/install.log"
	exit 0
fi
expect_eq "installed: the package's files are in place" \
	"$(stat -c %a /usr/bin/nsaudit) $(test -s /usr/share/man/man1/nsaudit.1.gz && echo man) $(dpkg-query -W -f='${Status}' nsaudit)" \
	"755 man install ok installed"
check "installed: the unit runs the installed binary with the default rules" \
	grep -q "^ExecStart=/usr/bin/nsaudit record .*" /lib/systemd/system/nsaudit.service
check "installed: man nsaudit finds the page" sh -c 'man -w nsaudit | grep -q /usr/share/man/man1/nsaudit.1.gz'
# the installed binary, as the service would run it (its options file)
. /etc/default/nsaudit
# shellcheck disable=SC2086
/usr/bin/nsaudit trace --format json --type net $NSAUDIT_OPTS --comm ip >"$TMP/t.json" 2>"$TMP/t.err" &
TRACE_PID=$!
if wait_ready "$TMP/t.err" "$TRACE_PID"; then
	ip netns add deb$$
	inum=$(ns_inum /run/netns/deb$$)
	ip netns del deb$$
	sleep 0.3
	trace_stop
	expect_eq "installed binary traces ip netns add (mount of the new netns at /run/netns)" \
		"$(jq -r "select(.op == \"mount\" and .path == \"/run/netns/deb$$\") | .ns_inum" "$TMP/t.json" | head -1)" "$inum"
else
	fail "installed binary starts with the installed rules"
	cat "$TMP/t.err"
fi
dpkg --purge nsaudit >"$TMP/purge.log" 2>&1 || { fail "dpkg --purge"; cat "$TMP/purge.log"; }
left=""
for f in /usr/bin/nsaudit /lib/systemd/system/nsaudit.service /usr/share/man/man1/nsaudit.1.gz \
	/usr/share/bash-completion/completions/nsaudit /etc/nsaudit /etc/default/nsaudit /usr/share/doc/nsaudit; do
	[ -e "$f" ] && left+=" $f"
done
expect_eq "purged: nothing of the package left" "$left" ""
expect_eq "purged: dpkg forgot it" "$(dpkg-query -W -f='${Status}' nsaudit 2>/dev/null)" ""
