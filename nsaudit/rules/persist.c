// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * persist.c - namespaces that outlive their owner: a container's namespace
 * pinned (open, nsfd, bind mount) by something outside it, still held once
 * the container has stopped (its runtime state gone); a network namespace
 * whose "ip netns" name was deleted while something still holds it. The
 * check waits a grace period (runtimes clean up their own pins just after
 * their state goes), then looks for a holder now: a bind mount in the
 * mount table, a process in it, or an fd to it (/proc, by the namespace's
 * identity), and names it. A holder that is a runtime's own work (its
 * binary, or a process under it) is waited for while the runtime tears
 * down (up to RUNTIME_WAIT_NS), then named too.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "enrich/nsnames.h"
#include "nstype.h"
#include "rules_impl.h"
#include "clock.h"

/* linux/nsfs.h of 6.18: the namespace's 64-bit id, never reused */
#ifndef NS_GET_ID
#define NS_GET_ID _IOR(0xb7, 0xd, uint64_t)
#endif

#define WATCH_MAX 256
#define CTR_GRACE_NS (2 * 1000000000LL)
#define NETNS_GRACE_NS (1 * 1000000000LL)
/* a runtime's teardown (podman's network, a build's last process) holding
 * it is waited for this long, looked at again this often */
#define RUNTIME_WAIT_NS (30 * 1000000000LL)
#define RECHECK_NS (500 * 1000000LL)

enum watch_kind { WATCH_CTR = 1, WATCH_NETNS };

struct watch {
	enum watch_kind kind;
	int type;
	uint32_t inum;
	uint64_t ns_id;			/* 6.18+: tells a reused inode apart */
	char id[CONTAINER_ID_LEN];	/* container id, or the deleted netns name */
	char name[CONTAINER_NAME_LEN];
	int64_t since_ns;		/* netns: deleted at; container: seen gone at
					 * (CLOCK_BOOTTIME) */
	char path[256];			/* container: the pin's bind mount, if one;
					 * netns: another name it had when deleted */
	uint64_t seq, kseq;
	int64_t first_due_ns;		/* when its grace period first ran out */
	int64_t recheck_ns;		/* a runtime held it: look again then */
};

struct persist {
	struct watch w[WATCH_MAX];
	int n;
};

struct persist *persist_new(void)
{
	return calloc(1, sizeof(struct persist));
}

void persist_free(struct persist *p)
{
	free(p);
}

static struct watch *watch_add(struct persist *p, enum watch_kind kind, int type, uint32_t inum)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->w[i].kind == kind && p->w[i].type == type && p->w[i].inum == inum)
			return &p->w[i];
	if (p->n >= WATCH_MAX)
		return NULL;
	memset(&p->w[p->n], 0, sizeof(p->w[0]));
	return &p->w[p->n++];
}

/*
 * The ip netns name an umount record deleted, or NULL. The host's
 * /run/netns only: an umount by a process in a user namespace other than
 * the initial one removed a mount of a mount namespace that user namespace
 * owns (any user's `unshare -r -m` with a tmpfs on /run/netns), which is
 * nobody's ip netns name. A record with no actor (inferred) is as before.
 */
const char *persist_netns_deleted(const struct nsaudit_event *e)
{
	if (e->op != NSAUDIT_OP_UMOUNT || e->ns_type != NSAUDIT_NS_NET ||
	    (e->flags & NSAUDIT_F_PATH_CUT) ||
	    (e->actor_userns && e->actor_userns != 0xeffffffdu /* the initial user ns */))
		return NULL;
	return netns_name_from_path(e->path);
}

void persist_note(struct persist *p, struct facts_ctx *fx, const struct rule_facts *f)
{
	const struct nsaudit_event *e = f->e;
	struct watch *w;
	const char *name, *other;

	if (e->result < 0 || !f->has_target)
		return;
	/* a runtime's own pins (trusted) go with its container */
	if (f->pins && f->target_ctr && !f->trusted &&
	    (!f->actor_ctr || strcmp(f->actor_ctr, f->target_ctr))) {
		w = watch_add(p, WATCH_CTR, (int)e->ns_type, e->ns_inum);
		if (!w)
			return;
		w->kind = WATCH_CTR;
		snprintf(w->name, sizeof(w->name), "%s", f->target_ctr_name ?: "");
		snprintf(w->id, sizeof(w->id), "%s", f->target_ctr);
		if (e->op == NSAUDIT_OP_MOUNT && !(e->flags & NSAUDIT_F_PATH_CUT))
			snprintf(w->path, sizeof(w->path), "%s", e->path);
	} else if ((name = persist_netns_deleted(e))) {
		w = watch_add(p, WATCH_NETNS, NSAUDIT_NS_NET, e->ns_inum);
		if (!w)
			return;
		w->kind = WATCH_NETNS;
		snprintf(w->id, sizeof(w->id), "%s", name);
		w->since_ns = (int64_t)e->ts_boot_ns;
		/* the mount table has lost this name already: what else names
		 * it now was there before (a mount made later is of a new
		 * namespace on the reused inode) */
		other = fx->names ? nsnames_mount_name(fx->names, NSAUDIT_NS_NET, e->ns_inum) : NULL;
		snprintf(w->path, sizeof(w->path), "%s", other ?: "");
	} else {
		return;
	}
	w->type = (int)e->ns_type;
	w->inum = e->ns_inum;
	w->ns_id = e->ns_id;
	w->seq = f->seq;
	w->kseq = e->kseq;
}

static void comm_of(const char *pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/*
 * An fd of pid to the namespace (inum on nsfs' device): its number or -1.
 * By identity, not by the link's text: an fd opened through an ip netns
 * name (/run/netns/NAME, a bind mount of the nsfs file) reads as that
 * path, not as "net:[N]".
 */
static int fd_holding(const char *pid, uint32_t inum, dev_t nsfs_dev)
{
	char path[300];
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd = -1;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (fd < 0 && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, d->d_name);
		if (!stat(path, &st) && st.st_dev == nsfs_dev && (uint32_t)st.st_ino == inum)
			fd = atoi(d->d_name);
	}
	closedir(dir);
	return fd;
}

/*
 * Whether the nsfs file at path is still the namespace watched: inodes are
 * reused once a namespace dies, ids (6.18+) never. Without an id the
 * inode has to do.
 */
static bool same_ns(const char *path, uint64_t want_id)
{
	uint64_t id = 0;
	int fd, rc;

	if (!want_id)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	rc = ioctl(fd, NS_GET_ID, &id);
	close(fd);
	return rc || id == want_id;
}

/* a bind mount of it that was there before its owner went */
static bool mount_holder(struct facts_ctx *fx, const struct watch *w, char *buf, size_t len)
{
	const char *mnt = fx->names ? nsnames_mount_name(fx->names, w->type, w->inum) : NULL;
	char path[4096];
	struct stat st;

	if (w->kind == WATCH_CTR && w->path[0]) { /* the pin itself */
		if (stat(w->path, &st) || (uint32_t)st.st_ino != w->inum ||
		    !same_ns(w->path, w->ns_id))
			return false;
		snprintf(buf, len, "bind mount %s", w->path);
		return true;
	}
	if (!mnt || (w->kind == WATCH_NETNS && strcmp(mnt, w->path)) ||
	    (w->kind == WATCH_CTR && !w->ns_id))
		return false;
	snprintf(path, sizeof(path), "%s%s", mnt[0] == '/' ? "" : "/run/netns/", mnt);
	if (!same_ns(path, w->ns_id))
		return false;
	snprintf(buf, len, "bind mount %s", path);
	return true;
}

/* when pid started (CLOCK_BOOTTIME ns), or INT64_MAX if unknown */
static int64_t started_ns(const char *pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return INT64_MAX;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* field 22, starttime; after ')' come fields 3.. */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &ticks) != 1)
		return INT64_MAX;
	return (int64_t)(ticks * (1000000000ull / (unsigned long long)sysconf(_SC_CLK_TCK)));
}

enum holder_kind { HOLDER_NONE, HOLDER_FOUND, HOLDER_RUNTIME };

/* pid holds the watched namespace (a process in it, or an fd to it) */
static bool pid_holds(const struct watch *w, const char *pid, dev_t nsfs_dev, char *buf,
		      size_t len)
{
	const char *tn = nstype_name((unsigned int)w->type);
	char path[300], comm[32];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/ns/%s", pid, tn);
	if (!stat(path, &st) && (uint32_t)st.st_ino == w->inum && same_ns(path, w->ns_id)) {
		comm_of(pid, comm, sizeof(comm));
		snprintf(buf, len, "pid %s (%s) runs in it", pid, comm);
		return true;
	}
	fd = fd_holding(pid, w->inum, nsfs_dev);
	if (fd < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%s/fd/%d", pid, fd);
	if (!same_ns(path, w->ns_id))
		return false;
	comm_of(pid, comm, sizeof(comm));
	snprintf(buf, len, "pid %s (%s) holds it as fd %d", pid, comm, fd);
	return true;
}

/*
 * Who holds the watched namespace now: its description in buf. A holder
 * that is a runtime's own work (a trusted binary, or a process under one:
 * a container still being torn down) is HOLDER_RUNTIME while the runtime
 * may still be at work (runtime_ok); another holder is named first.
 */
static enum holder_kind find_holder(struct facts_ctx *fx, const struct watch *w, bool runtime_ok,
				    char *buf, size_t len)
{
	enum holder_kind found = HOLDER_NONE;
	char rbuf[RULE_HOLDER_LEN];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	/* without an id, a running container's namespace is no leftover:
	 * most likely a new one on a reused inode */
	if (!w->ns_id && fx->names && nsnames_owner(fx->names, w->type, w->inum, 0))
		return HOLDER_NONE;
	if (mount_holder(fx, w, buf, len))
		/* a bind mount other than the pin itself is most likely the
		 * runtime's own (/run/netns/netns-*), removed by its teardown */
		return runtime_ok && w->kind == WATCH_CTR && !w->path[0] ? HOLDER_RUNTIME
									: HOLDER_FOUND;
	if (stat("/proc/self/ns/net", &st))
		return HOLDER_NONE;
	dir = opendir("/proc");
	if (!dir)
		return HOLDER_NONE;
	while (found != HOLDER_FOUND && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || atoi(d->d_name) == getpid())
			continue;
		/* one that started after the owner went holds a new namespace
		 * on a reused inode (kernels without ns ids) */
		if (!w->ns_id && started_ns(d->d_name) > w->since_ns)
			continue;
		if (!pid_holds(w, d->d_name, st.st_dev, rbuf, sizeof(rbuf)))
			continue;
		if (runtime_ok && facts_runtime_pid(fx, (uint32_t)atoi(d->d_name))) {
			found = HOLDER_RUNTIME;
			continue;
		}
		snprintf(buf, len, "%s", rbuf);
		found = HOLDER_FOUND;
	}
	closedir(dir);
	return found;
}

/* The container still runs: the runtime knows it and its init is alive in
 * the namespace (a stopped container podman keeps listed has no init). */
static bool ctr_running(struct facts_ctx *fx, const struct watch *w)
{
	const struct container_info *ci;
	char path[64];
	struct stat st;

	ci = fx->names ? nsnames_find_container(fx->names, w->id) : NULL;
	if (!ci || !ci->pid)
		return false;
	snprintf(path, sizeof(path), "/proc/%u/ns/%s", ci->pid,
		 nstype_name((unsigned int)w->type) ?: "net");
	return !stat(path, &st) && (uint32_t)st.st_ino == w->inum;
}

/* Whether watch i is due: its owner gone for the grace period. */
static bool due(struct persist *p, struct facts_ctx *fx, struct watch *w, int64_t now)
{
	if (now < w->recheck_ns)
		return false;
	if (w->kind == WATCH_NETNS)
		return now - w->since_ns >= NETNS_GRACE_NS;
	if (ctr_running(fx, w)) {
		w->since_ns = 0;
		return false;
	}
	if (!w->since_ns)
		w->since_ns = now;
	return now - w->since_ns >= CTR_GRACE_NS;
}

static void fill(const struct watch *w, const char *holder, struct rule_alert *a)
{
	const char *tn = nstype_name((unsigned int)w->type) ?: "ns";

	snprintf(a->rule, sizeof(a->rule), "persistence");
	snprintf(a->holder, sizeof(a->holder), "%s", holder);
	snprintf(a->actor, sizeof(a->actor), "host");
	a->about_seq = w->seq;
	a->about_kseq = w->kseq;
	if (w->kind == WATCH_CTR) {
		snprintf(a->target, sizeof(a->target), "%s", w->id);
		snprintf(a->target_name, sizeof(a->target_name), "%s", w->name);
		snprintf(a->summary, sizeof(a->summary),
			 "container %s%s%.12s%s stopped but its %s namespace %s:[%u] is still held: %s",
			 w->name, w->name[0] ? " (" : "", w->id, w->name[0] ? ")" : "", tn, tn,
			 w->inum, holder);
	} else {
		snprintf(a->summary, sizeof(a->summary),
			 "ip netns name '%s' was deleted but net:[%u] is still held: %s", w->id,
			 w->inum, holder);
	}
}

bool persist_next(struct persist *p, struct facts_ctx *fx, int64_t now, struct rule_alert *a)
{
	char holder[RULE_HOLDER_LEN];
	struct watch w;
	int i;

	if (!now)
		now = boot_ns();	/* the records' clock, and /proc's start times' */
	for (i = 0; i < p->n; i++) {
		if (!due(p, fx, &p->w[i], now))
			continue;
		if (!p->w[i].first_due_ns)
			p->w[i].first_due_ns = now;
		switch (find_holder(fx, &p->w[i], now - p->w[i].first_due_ns < RUNTIME_WAIT_NS,
				    holder, sizeof(holder))) {
		case HOLDER_RUNTIME:	/* a runtime still tearing down: later */
			p->w[i].recheck_ns = now + RECHECK_NS;
			continue;
		case HOLDER_FOUND:
			w = p->w[i];
			p->w[i] = p->w[--p->n];
			fill(&w, holder, a);
			return true;
		default:
			p->w[i--] = p->w[--p->n];
		}
	}
	return false;
}
