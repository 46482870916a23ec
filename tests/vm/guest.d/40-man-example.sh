#!/bin/sh
# Guest side of "the nsfd.2 example works": the program from the man page
# (compiled by tests/vm/run.sh) prints the namespace of another process that
# /proc shows, and enters it to run a command.
ex=/bin/nsfd_example
if [ ! -x $ex ]; then
	echo "FAIL: guest: nsfd.2 example (not in the initramfs: it did not compile)"
	exit 0
fi
if [ ! -e /proc/sys/kernel/nsfd_syscall_nr ]; then
	# a stock kernel of the matrix: the example finds out by itself
	got=$($ex 1 uts 2>&1)
	case $got in
	*"this kernel has no nsfd()"*) echo "PASS: guest: nsfd.2 example says $(uname -r) has no nsfd()" ;;
	*) echo "FAIL: guest: nsfd.2 example on $(uname -r), a kernel without nsfd(): '$got'" ;;
	esac
	exit 0
fi
want="uts:[$(stat -L -c %i /proc/1/ns/uts)] (NS_GET_NSTYPE 0x4000000)"
got=$($ex 1 uts 2>&1)
[ "$got" = "$want" ] && echo "PASS: guest: nsfd.2 example prints pid 1's uts namespace" ||
	echo "FAIL: guest: nsfd.2 example: '$got', not '$want'"
# a child in its own uts namespace; the example enters it and runs hostname
rm -f /tmp/nsfd-example.pid
unshare -u sh -c 'hostname nsfd-example; echo $$ >/tmp/nsfd-example.pid; exec sleep 30' &
i=0
while [ ! -s /tmp/nsfd-example.pid ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
child=$(cat /tmp/nsfd-example.pid 2>/dev/null)
got=$($ex "$child" uts hostname 2>&1 | tail -n 1)
kill "$child" 2>/dev/null
[ "$got" = "nsfd-example" ] && echo "PASS: guest: nsfd.2 example enters another process's namespace and runs a command" ||
	echo "FAIL: guest: nsfd.2 example entering pid $child's uts namespace: '$got'"
got=$($ex 1 nonsense 2>&1)
case $got in *"unknown namespace type"*) echo "PASS: guest: nsfd.2 example refuses an unknown type" ;;
*) echo "FAIL: guest: nsfd.2 example with an unknown type: '$got'" ;; esac
