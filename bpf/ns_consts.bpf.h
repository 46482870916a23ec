/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ns_consts.bpf.h - kernel constants the BPF programs need that vmlinux.h
 * cannot carry (they are #defines, not types): file system magics and the
 * CLONE_NEW* namespace flags.
 */
#ifndef NSAUDIT_NS_CONSTS_BPF_H
#define NSAUDIT_NS_CONSTS_BPF_H

#define NSFS_MAGIC		0x6e736673
#define ANON_INODE_FS_MAGIC	0x09041934
#define PIDFS_MAGIC		0x50494446
#define SOCKFS_MAGIC		0x534F434B

#define CLONE_NEWTIME	0x00000080
#define CLONE_NEWNS	0x00020000
#define CLONE_NEWCGROUP	0x02000000
#define CLONE_NEWUTS	0x04000000
#define CLONE_NEWIPC	0x08000000
#define CLONE_NEWUSER	0x10000000
#define CLONE_NEWPID	0x20000000
#define CLONE_NEWNET	0x40000000

#endif
