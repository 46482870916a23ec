/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_caches.bpf.h - op freed's kmem_cache_free hook: which of the
 * caches it follows (nsproxy, filp, inode, net, pid, uts, user
 * namespaces) a free is from, compared before anything else is read, and
 * handed to freed.bpf.c's check of what the object held. Included by
 * freed.bpf.c alone (one concern of that part, kept apart for its size).
 *
 * The caches come from the kernel's own variables (nsproxy_cachep, ...:
 * their addresses from kallsyms, read once here), else are learned at
 * their first free by object size, then name. A cache merged into another
 * of the same size (SLAB_MERGE_DEFAULT; seen for nsproxy and pid_namespace
 * on a 6.12 tinyconfig kernel) has that one's name and size, and frees
 * other objects too: its bit in freed_cache_merged makes the checks name
 * only namespaces learned alive.
 */
#ifndef NSAUDIT_FREED_CACHES_BPF_H
#define NSAUDIT_FREED_CACHES_BPF_H

extern __u32 prime_tgid;	/* nsaudit.bpf.c: the loader priming its hooks */

#define FC_NET		NSAUDIT_FC_NET
#define FC_PID		NSAUDIT_FC_PID
#define FC_NSPROXY	NSAUDIT_FC_NSPROXY
#define FC_INODE	NSAUDIT_FC_INODE
#define FC_UTS		NSAUDIT_FC_UTS
#define FC_USER		NSAUDIT_FC_USER
#define FC_FILP		NSAUDIT_FC_FILP
#define FC_MAX		NSAUDIT_FC_MAX

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

const volatile __u64 freed_cache_var[8] = {};
__u32 freed_vars_done = 0;
/*
 * Caches merged into another of their size (SLAB_MERGE_DEFAULT: the
 * root's refcount counts its aliases): their frees are other objects'
 * too, so a holder freed from one names only namespaces learned alive
 * (freed_addrs, same inode and type), and a namespace object only a
 * learned one. Bit per cache.
 */
__u32 freed_cache_merged = 0;

/* the field of struct kmem_cache the committed vmlinux.h leaves out */
struct kmem_cache___fc {
	int refcount;
} __attribute__((preserve_access_index));
/* Caches of one of our object sizes that are not ours (their names were
 * read once): without this, a cache of, say, user_namespace's size would
 * have its name read at every free where user_namespace's own cache never
 * frees (6.18: kfree_rcu). Round robin. */
__u64 freed_cache_not[8] = {};
__u32 freed_cache_not_next = 0;
__u64 freed_cache[8] = {};	/* FC_MAX used, a power of two for the index mask */

/* name (16 bytes, NUL-padded) is the string want (with its NUL). */
static __always_inline bool name_is(const char *name, const char *want, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < 16; i++) {
		if (i >= n)
			break;
		if (name[i] != want[i])
			return false;
	}
	return true;
}

/* Which of ours a cache of object size bytes named name[16] is (-1:
 * none): learned once, at its first free. */
struct cache_name {
	char s[16];
};

__noinline int freed_cache_which(const struct cache_name *n, __u32 size)
{
	const char *name;

	if (!n)
		return -1;
	name = n->s;
	if (size == bpf_core_type_size(struct net) && name_is(name, "net_namespace", 14))
		return FC_NET;
	if (size == bpf_core_type_size(struct pid_namespace) && name_is(name, "pid_namespace", 14))
		return FC_PID;
	if (size == bpf_core_type_size(struct nsproxy) && name_is(name, "nsproxy", 8))
		return FC_NSPROXY;
	if (size == bpf_core_type_size(struct inode) && name_is(name, "inode_cache", 12))
		return FC_INODE;
	if (size == bpf_core_type_size(struct uts_namespace) && name_is(name, "uts_namespace", 14))
		return FC_UTS;
	if (size == bpf_core_type_size(struct user_namespace) &&
	    name_is(name, "user_namespace", 15))
		return FC_USER;
	if (size == bpf_core_type_size(struct file) && name_is(name, "filp", 5))
		return FC_FILP;
	return -1;
}

/*
 * Socket caches (a socket holds its net namespace, sk_net_refcnt): the
 * protocols' own slabs, learned at their first free by object size and
 * name like the others. __sk_destruct puts the net namespace, then frees
 * the socket: the count read at the free is the count left. Sockets from
 * kmalloc (netlink, packet, ...) are freed where no call site tells them
 * apart: not followed.
 */
__u64 freed_sock_cache[8] = {}; /* 0-5: by size and name; 6, 7: primed */

/* The sizes of struct unix_sock, tcp_sock, tcp6_sock, udp_sock and
 * udp6_sock, from the running kernel's BTF (the loader; 0: none): the
 * committed vmlinux.h need not carry those large types. */
enum { FS_UNIX, FS_TCP, FS_TCP6, FS_UDP, FS_UDP6, FS_MAX };
const volatile __u32 freed_sock_sizes[FS_MAX] = {};

#define SOCK_SIZE(t) (freed_sock_sizes[t])

static __always_inline bool freed_sock_size(__u32 size)
{
	return size && (size == SOCK_SIZE(FS_UNIX) || size == SOCK_SIZE(FS_TCP) ||
			size == SOCK_SIZE(FS_TCP6) || size == SOCK_SIZE(FS_UDP) ||
			size == SOCK_SIZE(FS_UDP6));
}

/* Which socket cache slot a cache named name[16] of size bytes is (-1: none). */
__noinline int freed_sock_which(const struct cache_name *n, __u32 size)
{
	const char *name;

	if (!n)
		return -1;
	name = n->s;
	if (size == SOCK_SIZE(FS_UNIX) && name_is(name, "UNIX", 5))
		return 0;
	if (size == SOCK_SIZE(FS_UNIX) && name_is(name, "UNIX-STREAM", 12))
		return 1;
	if (size == SOCK_SIZE(FS_TCP) && name_is(name, "TCP", 4))
		return 2;
	if (size == SOCK_SIZE(FS_TCP6) && name_is(name, "TCPv6", 6))
		return 3;
	if (size == SOCK_SIZE(FS_UDP) && name_is(name, "UDP", 4))
		return 4;
	if (size == SOCK_SIZE(FS_UDP6) && name_is(name, "UDPv6", 6))
		return 5;
	return -1;
}

int freed_sock(__u64 addr);

/*
 * A socket cache merged into another (6.18 merges UNIX's: no cache of its
 * name or size is seen) is learned from the loader's own sockets, made
 * and closed while it primes (prime_tgid; tracer.c): a free in that
 * process whose object is a socket of that very cache (sk_prot_creator's
 * slab) names it. Slots 6 and 7 (UNIX datagram and stream).
 */
__noinline int freed_sock_prime(__u64 c, __u64 addr)
{
	struct sock *sk = (void *)addr;
	__u16 family;
	int i;

	if ((__u64)BPF_CORE_READ(sk, sk_prot_creator, slab) != c)
		return 0;
	family = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (family != 1 /* AF_UNIX */)
		return 0;
	for (i = 0; i < 8; i++)
		if (freed_sock_cache[i] == c)
			return 0;
	if (!freed_sock_cache[6])
		freed_sock_cache[6] = c;
	else
		freed_sock_cache[7] = c;
	return 0;
}

/* A free from learned cache i (enum freed_cache). */
__noinline int freed_dispatch(int i, __u64 ptr, __u64 call_site)
{
	switch (i) {
	case FC_NSPROXY:
		return freed_nsproxy(ptr);
	case FC_INODE:
		return freed_inode(ptr);
	case FC_FILP:
		return freed_file(ptr, call_site);
	case FC_NET:
		return freed_object(ptr, NSAUDIT_NS_NET);
	case FC_PID:
		return freed_object(ptr, NSAUDIT_NS_PID);
	case FC_UTS:
		return freed_object(ptr, NSAUDIT_NS_UTS);
	case FC_USER:
		return freed_object(ptr, NSAUDIT_NS_USER);
	}
	return 0;
}

/* The caches from the kernel's variables, once (a race repeats it). */
__noinline int freed_learn_vars(void)
{
	struct kmem_cache___fc *c;
	int i;

	for (i = 0; i < FC_MAX; i++) {
		c = NULL;
		if (!freed_cache_var[i])
			continue;
		bpf_probe_read_kernel(&c, sizeof(c), (void *)freed_cache_var[i]);
		if (!c)
			continue;
		freed_cache[i] = (__u64)c;
		if (BPF_CORE_READ(c, refcount) > 1)
			freed_cache_merged |= 1u << i;
	}
	freed_vars_done = 1;
	return 0;
}

/* kmem_cache_free(call_site, ptr, s): ptr read only once s is ours */
SEC("tp_btf/kmem_cache_free")
int tp_kmem_cache_free(__u64 *ctx)
{
	struct kmem_cache *s = (void *)ctx[2];
	__u64 c = (__u64)s;
	__u32 size;
	int i;

	if (!freed_vars_done)
		freed_learn_vars();

	if (c == freed_cache[FC_NSPROXY])
		return freed_nsproxy(freed_ptr_arg(ctx));
	if (c == freed_cache[FC_FILP])
		return freed_file(freed_ptr_arg(ctx), ctx[0]);
	if (c == freed_cache[FC_INODE])
		return freed_inode(freed_ptr_arg(ctx));
	if (c == freed_cache[FC_NET])
		return freed_object(freed_ptr_arg(ctx), NSAUDIT_NS_NET);
	if (c == freed_cache[FC_PID])
		return freed_object(freed_ptr_arg(ctx), NSAUDIT_NS_PID);
	if (c == freed_cache[FC_UTS])
		return freed_object(freed_ptr_arg(ctx), NSAUDIT_NS_UTS);
	if (c == freed_cache[FC_USER])
		return freed_object(freed_ptr_arg(ctx), NSAUDIT_NS_USER);
#pragma unroll
	for (i = 0; i < 8; i++)
		if (c == freed_sock_cache[i])
			return freed_sock(freed_ptr_arg(ctx));
	if (prime_tgid && prime_tgid == bpf_get_current_pid_tgid() >> 32) {
		__u64 cv = 0;	/* a plain number for the callee */

		bpf_probe_read_kernel(&cv, sizeof(cv), &ctx[2]);
		freed_sock_prime(cv, freed_ptr_arg(ctx));
	}
	/* not one of ours, or not learned yet: the size says which could be */
	size = s->object_size;
	if (freed_sock_size(size)) {
		struct cache_name name = {};

#pragma unroll
		for (i = 0; i < 8; i++)
			if (c == freed_cache_not[i])
				return 0;
		bpf_probe_read_kernel_str(name.s, sizeof(name.s), s->name);
		i = freed_sock_which(&name, size);
		if (i < 0) {
			freed_cache_not[freed_cache_not_next++ & 7] = c;
			return 0;
		}
		freed_sock_cache[i & 7] = c;
		return freed_sock(freed_ptr_arg(ctx));
	}
	if (size == bpf_core_type_size(struct nsproxy) || size == bpf_core_type_size(struct inode) ||
	    size == bpf_core_type_size(struct file) ||
	    size == bpf_core_type_size(struct net) ||
	    size == bpf_core_type_size(struct pid_namespace) ||
	    size == bpf_core_type_size(struct uts_namespace) ||
	    size == bpf_core_type_size(struct user_namespace)) {
		struct cache_name name = {};

#pragma unroll
		for (i = 0; i < 8; i++)
			if (c == freed_cache_not[i])
				return 0;
		bpf_probe_read_kernel_str(name.s, sizeof(name.s), s->name);
		i = freed_cache_which(&name, size);
		if (i < 0) {
			freed_cache_not[freed_cache_not_next++ & 7] = c;	/* a race only repeats a name read */
			return 0;
		}
		freed_cache[i & 7] = c;
		if (BPF_CORE_READ((struct kmem_cache___fc *)s, refcount) > 1)
			freed_cache_merged |= 1u << i;
		/* this free is one of ours too (often the only one: a
		 * namespace cache's first free is its first namespace) */
		freed_dispatch(i, freed_ptr_arg(ctx), ctx[0]);
	}
	return 0;
}

#endif
