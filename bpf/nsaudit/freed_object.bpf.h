/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_object.bpf.h - op freed: a namespace's object (what the kernel
 * frees: struct net, struct user_namespace, ...) from its ns_common, and
 * back, by type (CO-RE offsets). Included by freed.bpf.c alone (kept apart
 * for its size).
 */
#ifndef NSAUDIT_FREED_OBJECT_BPF_H
#define NSAUDIT_FREED_OBJECT_BPF_H

/* The namespace's object (what is freed) from its ns_common. */
static __always_inline __u64 ns_object(struct ns_common *ns, __u32 type)
{
	__u64 a = (__u64)ns;

	switch (type) {
	case NSAUDIT_NS_NET:
		return a - bpf_core_field_offset(struct net, ns);
	case NSAUDIT_NS_UTS:
		return a - bpf_core_field_offset(struct uts_namespace, ns);
	case NSAUDIT_NS_IPC:
		return a - bpf_core_field_offset(struct ipc_namespace, ns);
	case NSAUDIT_NS_MNT:
		return a - bpf_core_field_offset(struct mnt_namespace, ns);
	case NSAUDIT_NS_PID:
		return a - bpf_core_field_offset(struct pid_namespace, ns);
	case NSAUDIT_NS_USER:
		return a - bpf_core_field_offset(struct user_namespace, ns);
	case NSAUDIT_NS_CGROUP:
		return a - bpf_core_field_offset(struct cgroup_namespace, ns);
	case NSAUDIT_NS_TIME:
		return a - bpf_core_field_offset(struct time_namespace, ns);
	}
	return 0;
}

static __always_inline struct ns_common *object_ns(__u64 obj, __u32 type)
{
	switch (type) {
	case NSAUDIT_NS_NET:
		return (void *)(obj + bpf_core_field_offset(struct net, ns));
	case NSAUDIT_NS_UTS:
		return (void *)(obj + bpf_core_field_offset(struct uts_namespace, ns));
	case NSAUDIT_NS_IPC:
		return (void *)(obj + bpf_core_field_offset(struct ipc_namespace, ns));
	case NSAUDIT_NS_MNT:
		return (void *)(obj + bpf_core_field_offset(struct mnt_namespace, ns));
	case NSAUDIT_NS_PID:
		return (void *)(obj + bpf_core_field_offset(struct pid_namespace, ns));
	case NSAUDIT_NS_USER:
		return (void *)(obj + bpf_core_field_offset(struct user_namespace, ns));
	case NSAUDIT_NS_CGROUP:
		return (void *)(obj + bpf_core_field_offset(struct cgroup_namespace, ns));
	case NSAUDIT_NS_TIME:
		return (void *)(obj + bpf_core_field_offset(struct time_namespace, ns));
	}
	return NULL;
}

#endif
