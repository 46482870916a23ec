#!/bin/bash
# Guest tests on nsaudit's kernel matrix: the patched 6.1 (kernel-patch/),
# a stock 6.1 and the stock 6.12 LTS (tests/vm/build-stock.sh), each booted
# under QEMU with the same busybox initramfs, running inside it the nsfd
# selftests and every tests/vm/guest.d/*.sh; what a guest wrote under /out
# comes back into build/vmtest/KERNEL/, and every tests/vm/host.d/*.sh runs
# on it. Every result line of a guest is labelled with its kernel
# ("PASS: [stock-6.12] ..."), so tests/skips-allowed can allow a skip for
# one kernel only.
# Prints PASS:/FAIL:/SKIP: lines (counted by tests/run.sh); exits non-zero
# on any failure, a kernel that does not build, or a guest that never
# reports (timeout, panic). Progress goes to stderr.
#
# Environment: NSAUDIT_VM_TIMEOUT (seconds per guest, default 600),
#              NSAUDIT_VM_ACCEL (tcg; kvm hangs on this project's hosts),
#              NSAUDIT_VM_KERNELS (default "patched-6.1 stock-6.1 stock-6.12").
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
# the stock kernels of the matrix (one build at a time; cached by input hash)
KERNELS=${NSAUDIT_VM_KERNELS:-patched-6.1 stock-6.1 stock-6.12}
declare -A kdirs=([patched-6.1]=$kdir)
for k in $KERNELS; do
	case $k in
	patched-6.1) ;;
	stock-6.1 | stock-6.12)
		if d=$(tests/vm/build-stock.sh "${k#stock-}" | tail -n 1) && [ -f "$d/bzImage" ]; then
			kdirs[$k]=$d
			echo "PASS: vmtest: the stock linux-source-${k#stock-} kernel builds (same config fragment)"
		else
			echo "FAIL: vmtest: building the stock ${k#stock-} kernel (tests/vm/build-stock.sh ${k#stock-})"
		fi ;;
	*)	echo "FAIL: vmtest: NSAUDIT_VM_KERNELS names an unknown kernel '$k' (patched-6.1, stock-6.1, stock-6.12)" ;;
	esac
done
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
# which kernel of the matrix this is meant to be (run.sh's nsaudit.kernel=)
for a in $(cat /proc/cmdline); do
	case $a in nsaudit.kernel=*) NSAUDIT_KERNEL=${a#nsaudit.kernel=} ;; esac
done
export NSAUDIT_KERNEL
echo "@@GUEST $(uname -r)"
echo "@@SELFTESTS"
/bin/nsfd_test 2>&1
echo "@@GUESTD"
# the kernel is the one asked for: the series' sysctl exactly on the patched one
case $NSAUDIT_KERNEL:$(test -e /proc/sys/kernel/nsfd_syscall_nr && echo nsfd) in
patched-*:nsfd | stock-*:) echo "PASS: guest: $(uname -r) is a $NSAUDIT_KERNEL kernel (nsfd sysctl $(test -e /proc/sys/kernel/nsfd_syscall_nr && echo present || echo absent))" ;;
*) echo "FAIL: guest: $(uname -r) booted as $NSAUDIT_KERNEL, nsfd sysctl $(test -e /proc/sys/kernel/nsfd_syscall_nr && echo present || echo absent)" ;;
esac
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

# boot KERNEL KDIR: one guest of the matrix; its lines labelled [KERNEL].
# no_timer_check: under TCG on a loaded host the timer may tick too slowly
# for the kernel's check of the IO-APIC timer, which then panics ("IO-APIC
# + timer doesn't work!", seen on patched-6.1 and stock-6.1); the timer
# works, it is only late, so the check is skipped (as cloud images do).
boot() {
	local k=$1 kd=$2 dir=$VM/$1 start rc
	mkdir -p "$dir"
	say "booting $k ($kd/bzImage) under qemu ($accel), at most ${NSAUDIT_VM_TIMEOUT:-600}s"
	start=$(date +%s)
	timeout -k 5 "${NSAUDIT_VM_TIMEOUT:-600}" qemu-system-x86_64 -accel "$accel" -m 1G -smp 2 \
		-nographic -no-reboot -kernel "$kd/bzImage" -initrd "$VM/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check nsaudit.kernel=$k" </dev/null >"$dir/console.raw" 2>&1
	rc=$?
	# CRs from the serial line; firmware's screen escapes may precede a marker
	tr -d '\r' <"$dir/console.raw" | sed 's/^.*\(@@[A-Z]\)/\1/' >"$dir/console.log"
	say "$k: guest ran $(( $(date +%s) - start ))s (qemu exit $rc); console: $dir/console.log"
	echo "$k" >"$dir/kernel"

	if ! grep -q '^@@GUEST ' "$dir/console.log"; then
		echo "FAIL: vmtest: the $k guest never started user space (qemu exit $rc)"
		tail -n 30 "$dir/console.log" | sed 's/^/    /'
		return
	fi
	echo "PASS: vmtest: the $k kernel boots ($(sed -n 's/^@@GUEST //p' "$dir/console.log"))"

	# kselftest TAP lines -> PASS/FAIL/SKIP
	sed -n '/^@@SELFTESTS$/,/^@@GUESTD$/p' "$dir/console.log" |
		sed -n -e 's/^ok \([0-9]*\) \(.*\)# SKIP \(.*\)/SKIP: guest selftest \1: \2(\3)/p;t' \
		       -e 's/^ok [0-9]* \(.*\)/PASS: guest selftest: \1/p;t' \
		       -e 's/^not ok [0-9]* \(.*\)/FAIL: guest selftest: \1/p' >"$dir/selftests.out"
	case $k in
	patched-*)
		cat "$dir/selftests.out"
		[ -s "$dir/selftests.out" ] || echo "FAIL: vmtest: the nsfd selftests printed no results" ;;
	*)	# a stock kernel has no nsfd(): every test skips, for that reason
		# alone, as on the host (tests/vm/host-selftests.sh)
		local n other
		n=$(grep -c '' "$dir/selftests.out")
		other=$(grep -v '(kernel without nsfd()' "$dir/selftests.out" | head -n 3)
		if [ "$n" -gt 0 ] && [ -z "$other" ]; then
			echo "PASS: guest selftest: all $n skip on a kernel without nsfd(), 0 FAIL"
		else
			echo "FAIL: guest selftest: on a kernel without nsfd() ($n results) not every test skipped for that reason:"
			echo "${other:-no results}" | sed 's/^/    /'
		fi ;;
	esac
	sed -n '/^@@GUESTD$/,/^@@DONE$/p' "$dir/console.log" | grep -E '^(PASS|FAIL|SKIP): '

	# files the guest wrote under /out
	awk -v dir="$dir" '
		/^@@FILE / { f = dir "/" $2 ".b64"; next }
		/^@@END$/  { close(f); f = ""; next }
		f != ""    { print > f }' "$dir/console.log"
	for b in "$dir"/*.b64; do
		[ -f "$b" ] && base64 -d "$b" >"${b%.b64}" && rm -f "$b"
	done

	if ! grep -q '^@@DONE$' "$dir/console.log"; then
		echo "FAIL: vmtest: the $k guest did not finish (timeout or panic); its last lines:"
		tail -n 20 "$dir/console.log" | sed 's/^/    /'
	fi
	for t in tests/vm/host.d/*.sh; do
		[ -x "$t" ] && "$t" "$dir"
	done
}

for k in $KERNELS; do
	[ -n "${kdirs[$k]:-}" ] || continue
	boot "$k" "${kdirs[$k]}" | sed -E "s/^(PASS|FAIL|SKIP): /\1: [$k] /"
done
exit 0
