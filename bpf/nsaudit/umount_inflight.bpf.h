/* SPDX-License-Identifier: GPL-2.0 */
/*
 * umount_inflight.bpf.h - umount calls in flight, per mount namespace.
 *
 * Why: an umount detaches its mount (mnt_ns changes) a grace period and
 * more before its exit records the pin it took (namespace_unlock waits in
 * synchronize_rcu_expedited; on a loaded machine the caller may then wait
 * for a CPU for long). A sweep in that window sees a pin that left without
 * an umount and hands it to user space as vanished: the umount record
 * loses its actor, and the exit, finding no pin, sends a record user space
 * can no longer match. User space telling the two apart by timing (two
 * sweeps some time apart) fails exactly when the reader is busy (a flood).
 * So the kernel side says it: a pin of a mount namespace where an umount
 * is in flight is left to that umount's exit; the sweep skips it.
 *
 * The count goes up at sys_enter_umount, before anything is detached, and
 * down at sys_exit_umount after the pins it detached were taken out of
 * pin_mounts: a sweep that finds a detached pin still in the map (looked
 * up after the count) while the count is 0 has found one no umount of its
 * namespace is about to report.
 *
 * Keyed by the namespace's never-reused identity (mntns_key: ns_id, or seq
 * on 6.1), not its address: keyed by address, a count that another
 * namespace at a dead one's address held (an umount in flight there, or
 * one whose exit never came) hid the dead namespace's pins from the sweep
 * (issue 47: half of 10,000 pins of a dead namespace never reported).
 * Entries are never deleted (a delete at 0 races an increment of another
 * thread): an LRU forgets the namespaces no umount touched lately; an
 * umount in flight touched its entry at entry. If one cannot be had the
 * call is not counted and the sweep falls back to user space's two
 * sweeps in a row.
 *
 * Included by pins.bpf.h.
 */
#ifndef NSAUDIT_UMOUNT_INFLIGHT_BPF_H
#define NSAUDIT_UMOUNT_INFLIGHT_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);   /* the mount namespace's mntns_key() */
	__type(value, __s64); /* umount calls between entry and exit */
} umount_inflight SEC(".maps");

/* At an umount's entry: count it in mns. Returns the key to give back at
 * exit, 0 if it could not be counted. */
static __always_inline __u64 umount_inflight_enter(__u64 mns)
{
	__s64 zero = 0, *n;

	if (!mns)
		return 0;
	n = bpf_map_lookup_elem(&umount_inflight, &mns);
	if (!n) {
		bpf_map_update_elem(&umount_inflight, &mns, &zero, BPF_NOEXIST);
		n = bpf_map_lookup_elem(&umount_inflight, &mns);
		if (!n)
			return 0;
	}
	__sync_fetch_and_add(n, 1);
	return mns;
}

/* At its exit, after the pins it detached left pin_mounts. */
static __always_inline void umount_inflight_exit(__u64 mns)
{
	__s64 *n;

	if (!mns)
		return;
	n = bpf_map_lookup_elem(&umount_inflight, &mns);
	if (n)
		__sync_fetch_and_add(n, -1);
}

/* How many umounts are in flight in mns (the caller's counted one too). */
static __always_inline __s64 umount_inflight_count(__u64 mns)
{
	__s64 *n = mns ? bpf_map_lookup_elem(&umount_inflight, &mns) : NULL;

	return n ? *n : 0;
}

/* Whether an umount is in flight in mount namespace mns. */
static __always_inline bool umount_inflight_in(__u64 mns)
{
	__s64 *n = bpf_map_lookup_elem(&umount_inflight, &mns);

	return n && *n > 0;
}

#endif /* NSAUDIT_UMOUNT_INFLIGHT_BPF_H */
