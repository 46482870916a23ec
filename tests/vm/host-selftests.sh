#!/bin/bash
# The nsfd selftests on the host kernel, as root and as nobody: on a kernel
# without the series (the host) every test must skip cleanly, without ever
# making the call (its number may be another system call there); on one
# with it, they run. Either way: 0 FAIL. Prints PASS:/FAIL: lines.
#
#   tests/vm/host-selftests.sh KDIR OUTDIR   # KDIR: build.sh's output
kdir=${1:?usage: host-selftests.sh KDIR OUTDIR}
out=${2:?usage: host-selftests.sh KDIR OUTDIR}
bin=$kdir/nsfd_test
kernel=$(uname -r)
mkdir -p "$out"
if [ -r /proc/sys/kernel/nsfd_syscall_nr ]; then
	has="with nsfd() (number $(cat /proc/sys/kernel/nsfd_syscall_nr))"
else
	has="without nsfd()"
fi

# one run: as USER; the TAP output goes to OUTDIR/host-selftests.USER.log
run() {
	local user=$1 log=$out/host-selftests.$1.log fails skips passes other
	if [ "$user" = root ]; then
		# strace: the syscall trace shows what was called, not only
		# what the tests say
		strace -f -qq -o "$out/host-selftests.strace" "$bin" >"$log" 2>&1
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" >"$log" 2>&1
	fi
	fails=$(grep -c '^not ok ' "$log")
	skips=$(grep -cE '^ok [0-9]+ .*# SKIP ' "$log")
	passes=$(grep -E '^ok [0-9]+ ' "$log" | grep -vc '# SKIP ')
	if ! grep -q '^# Totals: ' "$log"; then
		echo "FAIL: vmtest: nsfd_test on the host ($kernel, $has) as $user did not finish:"
		tail -n 5 "$log" | sed 's/^/    /'
		return
	fi
	if [ "$fails" != 0 ]; then
		echo "FAIL: vmtest: nsfd_test on the host ($kernel, $has) as $user: $fails FAIL:"
		grep '^not ok ' "$log" | sed 's/^/    /'
		return
	fi
	# without nsfd() nothing can pass, and every skip must say why
	if [ "$has" = "without nsfd()" ]; then
		other=$(grep '^ok [0-9]* ' "$log" | grep -v '# SKIP kernel without nsfd()' | head -n 3)
		if [ -n "$other" ]; then
			echo "FAIL: vmtest: nsfd_test on the host ($kernel, $has) as $user: results other than 'SKIP kernel without nsfd()':"
			echo "$other" | sed 's/^/    /'
			return
		fi
	fi
	echo "PASS: vmtest: nsfd_test on the host ($kernel, $has) as $user: 0 FAIL, $passes PASS, $skips SKIP"
}

if [ ! -x "$bin" ]; then
	echo "FAIL: vmtest: no $bin"
	exit 0
fi
run root
run nobody
if [ "$has" = "without nsfd()" ] && [ -s "$out/host-selftests.strace" ]; then
	# 451: cachestat() since 6.5; 500: the series' number
	bad=$(grep -E 'syscall_0x1c3|syscall_0x1f4|cachestat\(' "$out/host-selftests.strace" | head -n 3)
	if [ -z "$bad" ]; then
		echo "PASS: vmtest: nsfd_test on the host makes neither syscall 451 nor 500 (checked with strace)"
	else
		echo "FAIL: vmtest: nsfd_test on the host called a number it must not:"
		echo "$bad" | sed 's/^/    /'
	fi
fi
exit 0
