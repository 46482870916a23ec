// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pin_owner.c - one recorder per pin dir, and a reusing recorder owns its
 * share of the programs.
 *
 * Two recorders on one --pin-dir shared the first one's pinned programs
 * without holding them: when the first stopped cleanly it unpinned them,
 * the kernel detached them, and the second went on reading an empty ring,
 * its log saying nothing was lost. Now a recorder flock()s the pin dir for
 * its life (the kernel drops the lock when it dies, crash included, so a
 * restart after a crash reuses the pins as before) and a second one is
 * refused, naming the first; and a recorder that reuses pins holds every
 * pinned link open, so that the programs it reads from stay attached as
 * long as it lives, whoever removes the pins.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/magic.h>

#include "tracer_impl.h"

/* Who holds a flock on the file fd is open on (/proc/locks), or 0. */
static pid_t lock_holder(int fd)
{
	unsigned int maj, min;
	unsigned long ino;
	char line[256], kind[16];
	struct stat st;
	FILE *f;
	int pid;
	pid_t who = 0;

	if (fstat(fd, &st))
		return 0;
	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	while (!who && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "FLOCK");

		if (!p || sscanf(p, "FLOCK %*s %15s %d %x:%x:%lu", kind, &pid, &maj, &min, &ino) != 5)
			continue;
		if (ino == st.st_ino && makedev(maj, min) == st.st_dev && pid > 0 &&
		    pid != getpid())
			who = pid;
	}
	fclose(f);
	return who;
}

/* The pin dir's lock, or a refusal naming the recorder that has it. */
int tbpf_pin_dir_claim(struct tracer *t, char *err, size_t errlen)
{
	const char *dir = t->o.pin_dir;
	bool made = !mkdir(dir, 0700);
	struct statfs sfs;
	pid_t who;
	int fd;

	if (!made && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstatfs(fd, &sfs) || (unsigned long)sfs.f_type != BPF_FS_MAGIC) {
		snprintf(err, errlen, "--pin-dir %s: not a directory in a bpf file system "
			 "(use one under /sys/fs/bpf)", dir);
		if (fd >= 0)
			close(fd);
		if (made)
			rmdir(dir);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		who = errno == EWOULDBLOCK ? lock_holder(fd) : 0;
		close(fd);
		if (who)
			snprintf(err, errlen, "another recorder (pid %d) records from the programs "
				 "pinned in %s: a second one would go deaf when it stops; give this "
				 "one its own --pin-dir, or --no-pin", (int)who, dir);
		else
			snprintf(err, errlen, "%s is in use by another recorder: give this one its "
				 "own --pin-dir, or --no-pin", dir);
		return -1;
	}
	t->bpf.pin_lock_fd = fd;
	return 0;
}

pid_t tracer_pin_dir_user(const char *dir)
{
	pid_t who = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB))
		who = errno == EWOULDBLOCK ? (lock_holder(fd) ?: -1) : 0;
	close(fd);
	return who;
}

/*
 * The links held against the ones the first recorder pinned (.bss): a
 * link pin removed while no recorder ran has taken its program with it,
 * and the calls it hooked go unheard, then and now. Only the open's
 * canary could tell, and only for opens: so it is said at once, as
 * deafness (tracer_hearing_tick). Pins of a version without the manifest
 * (0) cannot tell.
 */
static void check_manifest(struct tracer *t, uint32_t n, uint64_t sum)
{
	struct nsaudit_bpf__bss *c = tbpf_counters(&t->bpf);

	if (!c || !c->pinned_links || (n == c->pinned_links && sum == c->pinned_links_sum))
		return;
	snprintf(t->bpf.links_gone, sizeof(t->bpf.links_gone),
		 "%u link%s pinned in %.120s, not the %u its first recorder pinned (some were "
		 "removed while no recorder ran): the calls their programs hooked were not "
		 "heard since; 'nsaudit detach' removes the rest, and the next recorder "
		 "loads every program again", n, n == 1 ? "" : "s", t->o.pin_dir,
		 c->pinned_links);
}

/* Every link pinned in the dir, held open: they stay attached while we live. */
int tbpf_hold_pinned_links(struct tracer *t, char *err, size_t errlen)
{
	char path[512];
	struct dirent *d;
	DIR *dir = opendir(t->o.pin_dir);
	uint64_t sum = 0;
	uint32_t n = 0;

	if (!dir) {
		snprintf(err, errlen, "%s: %s", t->o.pin_dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir)) && t->bpf.nheld < HELD_LINKS_MAX) {
		int fd;

		if (strncmp(d->d_name, "link_", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->o.pin_dir, d->d_name);
		fd = bpf_obj_get(path);
		if (fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			closedir(dir);
			return -1;
		}
		t->bpf.held_links[t->bpf.nheld++] = fd;
		n++;
		sum += tbpf_link_name_hash(d->d_name);
	}
	closedir(dir);
	check_manifest(t, n, sum);
	return 0;
}

void tbpf_release_pins(struct tracer_bpf *b)
{
	while (b->nheld > 0)
		close(b->held_links[--b->nheld]);
	if (b->pin_lock_fd >= 0)
		close(b->pin_lock_fd);
	b->pin_lock_fd = -1;
}
