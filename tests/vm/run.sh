#!/bin/bash
# Guest tests: boot the patched 6.1 kernel under QEMU with a busybox
# initramfs and run, inside it, the nsfd selftests and every
# tests/vm/guest.d/*.sh; bring back what the guest wrote under /out into
# build/vmtest/, then run every tests/vm/host.d/*.sh on it.
# Prints PASS:/FAIL:/SKIP: lines (counted by tests/run.sh); exits non-zero
# on any failure, a kernel that does not build, or a guest that never
# reports (timeout, panic). Progress goes to stderr.
#
# Environment: NSAUDIT_VM_TIMEOUT (seconds, default 300),
#              NSAUDIT_VM_ACCEL (tcg; kvm hangs on this project's hosts).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
VM=$BUILD/vmtest
say() { echo "vmtest: $*" >&2; }

tests/lib/deps.sh || { echo "FAIL: vmtest: installing dependencies"; exit 1; }
if ! kdir=$(kernel-patch/build.sh | tail -n 1) || [ ! -f "$kdir/bzImage" ]; then
	echo "FAIL: vmtest: building the patched kernel (kernel-patch/build.sh)"
	exit 1
fi
echo "PASS: vmtest: the series applies to linux-source-6.1 and the kernel builds"
if kernel-patch/check.sh >"$VM.check" 2>&1; then
	echo "PASS: vmtest: checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks on every patch"
else
	echo "FAIL: vmtest: checkpatch.pl is not clean:"
	sed 's/^/    /' "$VM.check"
fi

# every architecture gets nsfd (no "syscall nsfd not implemented"): each
# table that has 6.1's last syscall has nsfd after it, and asm-generic too
tree=${NSAUDIT_CACHE:-/var/cache/nsaudit}/vm/src
missing=$(cd "$tree" && for t in $(grep -l set_mempolicy_home_node arch/*/entry/syscalls/*.tbl \
	arch/*/kernel/syscalls/*.tbl arch/*/tools/syscall.tbl include/uapi/asm-generic/unistd.h \
	arch/arm64/include/asm/unistd32.h); do grep -q nsfd "$t" || echo "$t"; done)
if [ -z "$missing" ]; then
	echo "PASS: vmtest: nsfd is wired in asm-generic and every architecture's syscall table"
else
	echo "FAIL: vmtest: no nsfd in $missing"
fi
if kernel-patch/check-nons.sh "$kdir" >"$VM.nons" 2>&1; then
	echo "PASS: vmtest: the series builds and links with CONFIG_NAMESPACES=n (every *_NS off, NET, SYSVIPC, CGROUPS off)"
else
	echo "FAIL: vmtest: the series with CONFIG_NAMESPACES=n:"
	sed 's/^/    /' "$VM.nons"
fi

# the selftests on this (host) kernel, as root and as nobody: 0 FAIL, and
# without the series every test skips without making the call
tests/vm/host-selftests.sh "$kdir" "$BUILD/vmtest-host"

say "building the static nsaudit and the guest helpers"
make -s "$BUILD/nsaudit-static" "$BUILD/helpers/nsfd_workload" "$BUILD/helpers/nsops" >&2 ||
	{ echo "FAIL: vmtest: building the static nsaudit"; exit 1; }

say "making the initramfs"
rm -rf "$VM"
root=$VM/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,run,out,guest.d,etc}
cp /bin/busybox "$root/bin/busybox"
cp "$BUILD/nsaudit-static" "$root/bin/nsaudit"
cp "$BUILD/helpers/nsfd_workload" "$BUILD/helpers/nsops" "$kdir/nsfd_test" "$root/bin/"
cp tests/vm/guest.d/*.sh "$root/guest.d/" 2>/dev/null
# nsfd.2's EXAMPLES program, as printed in the man page, runs in the guest
kernel-patch/man-example.sh >"$VM/nsfd_example.c"
if gcc -static -O2 -Wall -Wextra -Werror "$VM/nsfd_example.c" -o "$root/bin/nsfd_example" \
	>"$VM/nsfd_example.log" 2>&1; then
	echo "PASS: vmtest: the nsfd.2 example compiles (gcc -Wall -Wextra -Werror)"
	# on this host (no series, no /proc/sys/kernel/nsfd_syscall_nr) the
	# example must find out that there is no nsfd() and make no call for
	# it: neither the series' 500 nor 451 (cachestat() from 6.5 on)
	if [ ! -e /proc/sys/kernel/nsfd_syscall_nr ]; then
		out=$(strace -f "$root/bin/nsfd_example" 1 net 2>&1)
		case $out in
		*"this kernel has no nsfd()"*)
			case $out in
			*"syscall_0x1c3("* | *"syscall_0x1f4("* | *"cachestat("*)
				echo "FAIL: vmtest: the nsfd.2 example made a syscall on $(uname -r):" \
					"$(echo "$out" | grep -E 'syscall_0x1c3|syscall_0x1f4|cachestat' | head -n 1)" ;;
			*)	echo "PASS: vmtest: the nsfd.2 example detects that $(uname -r) has no nsfd() without calling 451 or 500" ;;
			esac ;;
		*)	echo "FAIL: vmtest: the nsfd.2 example on $(uname -r): $(echo "$out" | tail -n 1)" ;;
		esac
	fi
else
	echo "FAIL: vmtest: the nsfd.2 example does not compile:"
	sed 's/^/    /' "$VM/nsfd_example.log"
fi
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing
mount -t bpf bpf /sys/fs/bpf
echo "@@GUEST $(uname -r)"
echo "@@SELFTESTS"
/bin/nsfd_test 2>&1
echo "@@GUESTD"
for t in /guest.d/*.sh; do
	[ -f "$t" ] && sh "$t" 2>&1
done
for f in /out/*; do
	[ -f "$f" ] || continue
	echo "@@FILE ${f##*/}"
	base64 "$f"
	echo "@@END"
done
echo "@@DONE"
reboot -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$VM/initrd.gz"

accel=${NSAUDIT_VM_ACCEL:-tcg}
say "booting $kdir/bzImage under qemu ($accel), at most ${NSAUDIT_VM_TIMEOUT:-300}s"
start=$(date +%s)
timeout -k 5 "${NSAUDIT_VM_TIMEOUT:-300}" qemu-system-x86_64 -accel "$accel" -m 1G -smp 2 \
	-nographic -no-reboot -kernel "$kdir/bzImage" -initrd "$VM/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1" </dev/null >"$VM/console.raw" 2>&1
rc=$?
# CRs from the serial line; firmware's screen escapes may precede a marker
tr -d '\r' <"$VM/console.raw" | sed 's/^.*\(@@[A-Z]\)/\1/' >"$VM/console.log"
say "guest ran $(( $(date +%s) - start ))s (qemu exit $rc); console: $VM/console.log"

if ! grep -q '^@@GUEST ' "$VM/console.log"; then
	echo "FAIL: vmtest: the guest never started user space (qemu exit $rc)"
	tail -n 30 "$VM/console.log" | sed 's/^/    /'
	exit 1
fi
echo "PASS: vmtest: the patched kernel boots ($(sed -n 's/^@@GUEST //p' "$VM/console.log"))"

# kselftest TAP lines -> PASS/FAIL/SKIP
sed -n '/^@@SELFTESTS$/,/^@@GUESTD$/p' "$VM/console.log" |
	sed -n -e 's/^ok \([0-9]*\) \(.*\)# SKIP \(.*\)/SKIP: guest selftest \1: \2(\3)/p;t' \
	       -e 's/^ok [0-9]* \(.*\)/PASS: guest selftest: \1/p;t' \
	       -e 's/^not ok [0-9]* \(.*\)/FAIL: guest selftest: \1/p' >"$VM/selftests.out"
cat "$VM/selftests.out"
[ -s "$VM/selftests.out" ] || echo "FAIL: vmtest: the nsfd selftests printed no results"
sed -n '/^@@GUESTD$/,/^@@DONE$/p' "$VM/console.log" | grep -E '^(PASS|FAIL|SKIP): '

# files the guest wrote under /out
awk -v dir="$VM" '
	/^@@FILE / { f = dir "/" $2 ".b64"; next }
	/^@@END$/  { close(f); f = ""; next }
	f != ""    { print > f }' "$VM/console.log"
for b in "$VM"/*.b64; do
	[ -f "$b" ] && base64 -d "$b" >"${b%.b64}" && rm -f "$b"
done

if ! grep -q '^@@DONE$' "$VM/console.log"; then
	echo "FAIL: vmtest: the guest did not finish (timeout or panic); its last lines:"
	tail -n 20 "$VM/console.log" | sed 's/^/    /'
fi
for t in tests/vm/host.d/*.sh; do
	[ -x "$t" ] && "$t" "$VM"
done
exit 0
