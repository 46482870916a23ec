/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed.bpf.h - what op freed's two files share: freed.bpf.c (the holders
 * and namespaces a free names, kfree's and the workqueue's hooks) and
 * freed_caches.bpf.c (which kmem cache a kmem_cache_free is from).
 */
#ifndef NSAUDIT_FREED_BPF_H
#define NSAUDIT_FREED_BPF_H

/* Caches (enum nsaudit_freed_cache), from the kernel's own variables
 * (the loader's kallsyms addresses in freed_cache_var, read once), else
 * learned at their first free (object size, then name). */
#define FC_NET		NSAUDIT_FC_NET
#define FC_PID		NSAUDIT_FC_PID
#define FC_NSPROXY	NSAUDIT_FC_NSPROXY
#define FC_INODE	NSAUDIT_FC_INODE
#define FC_UTS		NSAUDIT_FC_UTS
#define FC_USER		NSAUDIT_FC_USER
#define FC_FILP		NSAUDIT_FC_FILP
#define FC_MAX		NSAUDIT_FC_MAX

/* freed_caches.bpf.c: caches merged into another one (bit per cache) */
extern __u32 freed_cache_merged;

/* freed.bpf.c: a free from one of the caches, by what it holds */
int freed_nsproxy(__u64 addr);
int freed_inode(__u64 addr);
int freed_file(__u64 addr, __u64 call_site);
int freed_object(__u64 obj, __u32 type);

/*
 * The freed object's address, the tracepoints' "const void *ptr": read
 * with a helper, on the rare path only. 6.1 and 6.12 refuse a direct load
 * of that argument from a tp_btf context ("arg1 type UNKNOWN is not a
 * struct": a pointer to const void is not taken as a number there, only
 * a pointer to void is), 6.18 takes it.
 */
static __always_inline __u64 freed_ptr_arg(__u64 *ctx)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &ctx[1]);
	return v;
}

#endif
