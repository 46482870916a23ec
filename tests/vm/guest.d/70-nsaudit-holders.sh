#!/bin/sh
# Guest side of "nsaudit holders on every kernel of the matrix": its BPF
# iterators and its walk of every mount namespace's mount tree
# (bpf/holders.bpf.c) load on 6.1 and 6.12 too, and list, against what
# /proc says (/out/holders-truth.txt, /out/holders-mountinfo.txt):
#   task  an ipc namespace a sleeping process is in (its pid)
#   bind  an ipc namespace only a bind mount holds (its process killed)
#   both  a mount namespace its process is in and a bind mount holds
#   lone  a uts bind mount inside a mount namespace no task is in (found
#         only by the walk; a path where statmount(2) exists, 6.8+), at
#         /tmp/hold/u, where the guest's own namespace has no mount
# Then each bind mount umounts at once (holders held nothing). The host
# compares (tests/vm/host.d/70-holders-events.sh).
k=${NSAUDIT_KERNEL:-unknown}
if [ ! -x /bin/nsaudit ]; then
	echo "FAIL: guest: holders: no static nsaudit in the initramfs"
	exit 0
fi
mkdir -p /out /tmp/hold
T=/out/holders-truth.txt
: >$T
ino() { stat -L -c %i "/proc/$1/ns/$2" 2>/dev/null; }
# wait until PID's TYPE namespace is not the guest's own (its exec done)
settled() {
	i=0
	while [ "$(ino "$1" "$2")" = "$(ino 1 "$2")" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# task: a process in its own ipc namespace
unshare -i sleep 1000 &
task=$!
settled $task ipc
echo "task ipc $(ino $task ipc) $task" >>$T
# bind: an ipc namespace held by a bind mount alone
unshare -i sleep 1000 &
b=$!
settled $b ipc
bi=$(ino $b ipc)
touch /tmp/hold/ipc /tmp/hold/mnt /tmp/hold/lone
mount --bind /proc/$b/ns/ipc /tmp/hold/ipc
kill -9 $b
wait $b 2>/dev/null
echo "bind ipc $bi /tmp/hold/ipc" >>$T
# both: a mount namespace with its process, and a bind mount of it
unshare -m sleep 1000 &
m=$!
settled $m mnt
mount --bind /proc/$m/ns/mnt /tmp/hold/mnt
echo "both mnt $(ino $m mnt) $m /tmp/hold/mnt" >>$T
# lone: a mount namespace no task is in (a bind mount of it keeps it),
# inside which the guest's uts namespace is bind-mounted at /tmp/hold/u
touch /tmp/hold/u
unshare -m sh -c 'mount --bind /proc/self/ns/uts /tmp/hold/u && exec sleep 1000' &
l=$!
settled $l mnt
i=0
while ! grep -q ' /tmp/hold/u ' /proc/$l/mountinfo 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
lm=$(ino $l mnt)
grep ' /tmp/hold/u ' /proc/$l/mountinfo >/out/holders-lone-mountinfo.txt
mount --bind /proc/$l/ns/mnt /tmp/hold/lone
kill -9 $l
wait $l 2>/dev/null
echo "lone uts $(ino self uts) $lm /tmp/hold/u /tmp/hold/lone" >>$T
grep ' /tmp/hold/' /proc/self/mountinfo >/out/holders-mountinfo.txt
ino self mnt >/out/holders-guest-mnt.txt

n=0
while read -r case type inum rest; do
	n=$((n + 1))
	/bin/nsaudit holders "$type:$inum" --format json >/out/holders-$case.json 2>/out/holders-$case.err
	echo "$?" >/out/holders-$case.rc
done <$T
[ "$n" = 4 ] || echo "FAIL: guest: holders: $n of the 4 cases made ($(tr '\n' ';' <$T))"
/bin/nsaudit holders --all --format json >/out/holders-all.json 2>/out/holders-all.err
echo "$?" >/out/holders-all.rc

# holders held nothing: each bind mount goes at the first umount
for p in ipc mnt lone; do
	if umount /tmp/hold/$p 2>/out/holders-umount-$p.err; then
		echo "PASS: guest: holders: umount /tmp/hold/$p succeeds at once after holders ran"
	else
		echo "FAIL: guest: holders: umount /tmp/hold/$p after holders ran: $(cat /out/holders-umount-$p.err)"
	fi
done
kill -9 $task $m 2>/dev/null
wait $task $m 2>/dev/null
echo "$k" >/out/holders-kernel.txt
