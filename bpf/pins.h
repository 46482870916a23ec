/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * pins.h - a bind-mount pin as the kernel side knows it (pin_mounts map,
 * sweep_pins iterator), shared by BPF C and user space.
 */
#ifndef NSAUDIT_PINS_H
#define NSAUDIT_PINS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#define NSAUDIT_PIN_SERIAL_BIT (1ULL << 63)

#endif

struct nsaudit_pin {
	__u64 mount;		/* the struct mount's address (checked against
				 * mnt_id and mnt_unique on every look: freed
				 * mounts' memory is reused) */
	__u64 mnt_ns;		/* the mount namespace's address (checked with
				 * mnt_ns_key; pin_mntns, where a reused address
				 * only costs an umount a walk) */
	__u64 mnt_ns_key;	/* the mount namespace, never reused: its ns_id
				 * (6.18), else its seq (6.1): what an umount's
				 * namespace is compared with */
	__u64 mnt_ns_id;	/* its 64-bit id (6.18+), else 0 */
	__u64 mnt_unique;	/* the mount's mnt_id_unique (6.8+); else a serial
				 * number of the kernel side with bit 63 set */
	__u64 ns_id;		/* the pinned namespace: 64-bit id (6.18+) */
	__u32 ns_inum;		/* ... inode number */
	__u32 ns_type;		/* ... enum nsaudit_ns_type */
	__u32 mnt_id;		/* the mount's id (mountinfo's first field) */
	__u32 mnt_ns_inum;
	/* who made the pin (the mount call's caller): a record user space
	 * makes about the pin names its maker, never a made-up actor */
	__u32 maker_pid;	/* thread group */
	__u32 maker_uid;	/* uid, as the initial user namespace sees it */
	char maker_comm[16];
};

/* What the sweep saw of a gone pin's mount namespace. */
enum nsaudit_pin_ns_state {
	NSAUDIT_PIN_NS_LIVED = 0,	/* its root mount was still in it */
	NSAUDIT_PIN_NS_DIED = 1,	/* its root mount had left it */
	NSAUDIT_PIN_NS_UNKNOWN = 2,	/* not looked at (no index entry) */
};

/* One record of the sweep_pins iterator: a pin no longer attached. */
struct nsaudit_pin_gone {
	__u64 key;		/* the pin_mounts key to delete (mnt_unique) */
	__u32 ns_died;		/* NSAUDIT_PIN_NS_*: whether its mount
				 * namespace died (the kernel side saw its
				 * root mount leave it: no umount call is in
				 * flight there) */
	__u32 pad;
	struct nsaudit_pin pin;
};

#define NSAUDIT_PIN_SERIAL_BIT (1ULL << 63)

#endif
