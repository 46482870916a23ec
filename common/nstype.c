// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* nstype.c - namespace type/op names and the namespace-spec parser. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "nstype.h"

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif
#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE 0xb703 /* _IO(0xb7, 0x3) */
#endif
#ifndef NS_GET_ID
#define NS_GET_ID _IOR(0xb7, 13, uint64_t) /* Linux 6.18 */
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

static const struct {
	const char *name;
	unsigned long flag;
} nstypes[NSAUDIT_NS_MAX] = {
	[NSAUDIT_NS_NET] = { "net", CLONE_NEWNET },
	[NSAUDIT_NS_UTS] = { "uts", CLONE_NEWUTS },
	[NSAUDIT_NS_IPC] = { "ipc", CLONE_NEWIPC },
	[NSAUDIT_NS_MNT] = { "mnt", CLONE_NEWNS },
	[NSAUDIT_NS_PID] = { "pid", CLONE_NEWPID },
	[NSAUDIT_NS_USER] = { "user", CLONE_NEWUSER },
	[NSAUDIT_NS_CGROUP] = { "cgroup", CLONE_NEWCGROUP },
	[NSAUDIT_NS_TIME] = { "time", CLONE_NEWTIME },
};

static const char *const ops[NSAUDIT_OP_MAX] = {
	[NSAUDIT_OP_SETNS] = "setns",	[NSAUDIT_OP_UNSHARE] = "unshare",
	[NSAUDIT_OP_CLONE] = "clone",	[NSAUDIT_OP_OPEN] = "open",
	[NSAUDIT_OP_MOUNT] = "mount",	[NSAUDIT_OP_UMOUNT] = "umount",
	[NSAUDIT_OP_NSFD] = "nsfd",	[NSAUDIT_OP_NS_FREE] = "ns_free",
	[NSAUDIT_OP_LOST] = "lost",	[NSAUDIT_OP_QUERY] = "query",
	[NSAUDIT_OP_FREED] = "freed",
};

static const char *const probes[NSAUDIT_PROBE_MAX] = {
	[NSAUDIT_PROBE_TP_SYSCALLS] = "tracepoint/syscalls",
	[NSAUDIT_PROBE_RAW_TP_FORK] = "raw_tp/sched_process_fork",
	[NSAUDIT_PROBE_FEXIT_SYS_NSFD] = "fexit/__x64_sys_nsfd",
	[NSAUDIT_PROBE_FEXIT_SYS_SETNS] = "fexit/__x64_sys_setns",
	[NSAUDIT_PROBE_FEXIT_SETNS_SWITCH_NS] = "fexit/setns_switch_ns",
	[NSAUDIT_PROBE_TP_NSFD] = "tp_btf/nsfd",
	[NSAUDIT_PROBE_TP_SETNS_SWITCH_NS] = "tp_btf/setns_switch_ns",
	[NSAUDIT_PROBE_TP_NS_FREE] = "tp_btf/ns_free",
	[NSAUDIT_PROBE_USER] = "user",
	[NSAUDIT_PROBE_TP_NS_CHANGE] = "tp_btf/ns_change",
	[NSAUDIT_PROBE_TP_KMEM_CACHE_FREE] = "tp_btf/kmem_cache_free",
	[NSAUDIT_PROBE_TP_KFREE] = "tp_btf/kfree",
	[NSAUDIT_PROBE_TP_WQ] = "tp_btf/workqueue_execute_start",
	[NSAUDIT_PROBE_TP_WQ_END] = "tp_btf/workqueue_execute_end",
	[NSAUDIT_PROBE_TP_WQ_QUEUE] = "tp_btf/workqueue_queue_work",
};

static const char *const vias[NSAUDIT_VIA_MAX] = {
	[NSAUDIT_VIA_PROC] = "proc",
	[NSAUDIT_VIA_BIND] = "bind",
	[NSAUDIT_VIA_PIDFD] = "pidfd",
	[NSAUDIT_VIA_NSFD] = "nsfd",
	[NSAUDIT_VIA_NS_IOCTL] = "ns_ioctl",
	[NSAUDIT_VIA_PIDFD_GETFD] = "pidfd_getfd",
	[NSAUDIT_VIA_HANDLE] = "handle",
};

const char *nstype_name(unsigned int type)
{
	return type < NSAUDIT_NS_MAX ? nstypes[type].name : NULL;
}

int nstype_from_name(const char *name)
{
	int i;

	for (i = 0; i < NSAUDIT_NS_MAX; i++)
		if (!strcmp(name, nstypes[i].name))
			return i;
	return -1;
}

unsigned long nstype_clone_flag(unsigned int type)
{
	return type < NSAUDIT_NS_MAX ? nstypes[type].flag : 0;
}

int nstype_from_clone_flag(unsigned long flag)
{
	int i;

	for (i = 0; i < NSAUDIT_NS_MAX; i++)
		if (flag == nstypes[i].flag)
			return i;
	return -1;
}

const char *nstype_proc_name(unsigned int type, bool for_children)
{
	if (for_children && type == NSAUDIT_NS_PID)
		return "pid_for_children";
	if (for_children && type == NSAUDIT_NS_TIME)
		return "time_for_children";
	return nstype_name(type);
}

void nstype_label(char *buf, size_t len, int type, uint32_t inum)
{
	const char *n = type >= 0 ? nstype_name((unsigned int)type) : NULL;

	snprintf(buf, len, "%s:[%u]", n ? n : "ns", inum);
}

const char *op_name(unsigned int op)
{
	return op < NSAUDIT_OP_MAX ? ops[op] : NULL;
}

int op_from_name(const char *name)
{
	int i;

	for (i = 1; i < NSAUDIT_OP_MAX; i++)
		if (ops[i] && !strcmp(name, ops[i]))
			return i;
	return -1;
}

const char *probe_name(unsigned int probe)
{
	return probe < NSAUDIT_PROBE_MAX ? probes[probe] : NULL;
}

static const char *const lost_reasons[NSAUDIT_LOST_MAX] = {
	[NSAUDIT_LOST_RING] = "ring_full",
	[NSAUDIT_LOST_RARE_RING] = "reserve_ring_full",
	[NSAUDIT_LOST_STORAGE] = "task_storage",
	[NSAUDIT_LOST_BUDGET] = "actor_budget",
	[NSAUDIT_LOST_LOG_BUDGET] = "log_budget",
};

const char *lost_reason_name(unsigned int reason)
{
	if (reason == NSAUDIT_LOST_SINK)
		return "sink";
	if (reason == NSAUDIT_LOST_RECURSION)
		return "recursion";
	return reason < NSAUDIT_LOST_MAX ? lost_reasons[reason] : NULL;
}

const char *via_name(unsigned int via)
{
	return via < NSAUDIT_VIA_MAX ? vias[via] : NULL;
}

static int parse_list(const char *list, int (*lookup)(const char *), const char *what,
		      uint32_t *mask, char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;

	*mask = 0;
	if (!list || !*list || strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "empty or overlong %s list", what);
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int v = lookup(tok);

		if (v < 0) {
			snprintf(err, errlen, "unknown %s '%.64s'", what, tok);
			return -1;
		}
		*mask |= 1u << v;
	}
	if (!*mask) {
		snprintf(err, errlen, "empty %s list", what);
		return -1;
	}
	return 0;
}

int parse_nstype_list(const char *list, uint32_t *mask, char *err, size_t errlen)
{
	return parse_list(list, nstype_from_name, "namespace type", mask, err, errlen);
}

int parse_op_list(const char *list, uint32_t *mask, char *err, size_t errlen)
{
	return parse_list(list, op_from_name, "operation", mask, err, errlen);
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || *s == ' ' || *s == '+')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "4096", "64K", "64M", "1G" (binary units); 0 or -1. */
int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (*end && end[1])
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/*
 * Resolve an nsfs file: inode, device, type (NS_GET_NSTYPE) and, where the
 * kernel has one, the namespace's never-reused id (NS_GET_ID).
 */
static int resolve_path(const char *path, struct nsspec *out, char *err, size_t errlen)
{
	struct statfs sfs;
	struct stat st;
	int fd, flag;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || fstatfs(fd, &sfs)) {
		snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((unsigned long)sfs.f_type != NSFS_MAGIC) {
		snprintf(err, errlen, "%.200s: not a namespace file (no nsfs inode behind it)", path);
		close(fd);
		return -1;
	}
	flag = ioctl(fd, NS_GET_NSTYPE);
	if (ioctl(fd, NS_GET_ID, &out->id))
		out->id = 0;
	close(fd);
	out->type = flag < 0 ? -1 : nstype_from_clone_flag((unsigned long)flag);
	out->inum = (uint32_t)st.st_ino;
	out->dev = st.st_dev;
	return 0;
}

int nsspec_parse(const char *spec, bool allow_netns_name, struct nsspec *out, char *err,
		 size_t errlen)
{
	const char *colon;
	char tname[16];
	long v;

	memset(out, 0, sizeof(*out));
	out->type = -1;
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty namespace");
		return -1;
	}
	if (strlen(spec) >= sizeof(out->path)) {
		snprintf(err, errlen, "namespace spec too long");
		return -1;
	}
	colon = strchr(spec, ':');
	if (spec[0] != '/' && colon && (size_t)(colon - spec) < sizeof(tname)) {
		memcpy(tname, spec, colon - spec);
		tname[colon - spec] = '\0';
		const char *rest = colon + 1;
		int type = nstype_from_name(tname);

		if (type >= 0) {	/* TYPE:INODE or TYPE:[INODE] */
			char num[16];
			size_t n = strlen(rest);

			if (n >= 2 && rest[0] == '[' && rest[n - 1] == ']') {
				if (n - 2 >= sizeof(num))
					goto bad_inode;
				memcpy(num, rest + 1, n - 2);
				num[n - 2] = '\0';
				rest = num;
			}
			if (parse_long(rest, 1, UINT32_MAX, &v))
				goto bad_inode;
			out->type = type;
			out->inum = (uint32_t)v;
			return 0;
bad_inode:
			snprintf(err, errlen, "'%.64s': inode must be a number, as in %s:4026531840",
				 spec, tname);
			return -1;
		}
		if (!parse_long(tname, 1, INT_MAX, &v)) {	/* PID:TYPE */
			type = nstype_from_name(rest);
			if (type < 0) {
				snprintf(err, errlen, "'%.64s': unknown namespace type '%.16s' "
					 "(net, uts, ipc, mnt, pid, user, cgroup, time)", spec, rest);
				return -1;
			}
			out->pid = (int)v;
			if (kill((pid_t)v, 0) && errno == ESRCH) {
				snprintf(err, errlen, "'%.64s': no such process %ld", spec, v);
				return -1;
			}
			snprintf(out->path, sizeof(out->path), "/proc/%ld/ns/%s", v,
				 nstype_name(type));
			if (resolve_path(out->path, out, err, errlen))
				return -1;
			out->type = type;
			return 0;
		}
		snprintf(err, errlen, "'%.64s': unknown namespace type '%.16s' "
			 "(net, uts, ipc, mnt, pid, user, cgroup, time)", spec, tname);
		return -1;
	}
	if (spec[0] != '/' && !strchr(spec, '/') && allow_netns_name) {
		snprintf(out->path, sizeof(out->path), "/run/netns/%s", spec);
		if (!access(out->path, F_OK))
			return resolve_path(out->path, out, err, errlen);
		snprintf(err, errlen, "'%.64s': not TYPE:INODE, PID:TYPE, a path, or an ip netns name",
			 spec);
		return -1;
	}
	if (spec[0] != '/' && !strchr(spec, '/')) {
		snprintf(err, errlen, "'%.64s': not TYPE:INODE, PID:TYPE or a path", spec);
		return -1;
	}
	snprintf(out->path, sizeof(out->path), "%s", spec);
	return resolve_path(out->path, out, err, errlen);
}

bool nsspec_gone_path(const char *spec, char *path, size_t len)
{
	if (errno != ENOENT || (spec[0] != '/' && strchr(spec, ':')))
		return false;
	if (spec[0] == '/')
		snprintf(path, len, "%s", spec);
	else
		snprintf(path, len, "/run/netns/%s", spec);
	return true;
}
