// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pinmount - pin a namespace by a bind mount and unpin it again in one
 * process, with the timing and the path spelling a test asks for, so the
 * tracer's records can be compared with what was done:
 *
 *   pinmount [-d MS] [-C DIR] [-l] HOW SRC DST UMOUNT_PATH
 *
 * HOW: bind  mount(SRC, DST, MS_BIND)
 *      fd    open SRC, then mount("/proc/self/fd/N", DST, MS_BIND)
 *      tree  open_tree(SRC, OPEN_TREE_CLONE) + move_mount(fd, "", DST)
 * then stat(DST) (what the mount pins, as stat -L shows it), -d MS
 * milliseconds later (0: at once) chdir(DIR) when -C, and umount2(UMOUNT_PATH,
 * MNT_DETACH if -l else 0): UMOUNT_PATH may be any spelling (DIR//name, a
 * symlinked directory, relative to DIR). UMOUNT_PATH "-": no umount.
 * Prints "pid N", "ino N" (the pinned namespace's inode) and "dev N";
 * exits 0 when every call succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#define OPEN_TREE_CLONE 1
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x04
#endif

static int die(const char *what)
{
	fprintf(stderr, "pinmount: %s: %s\n", what, strerror(errno));
	return 1;
}

static int pin(const char *how, const char *src, const char *dst)
{
	char proc[64];
	int fd;

	if (!strcmp(how, "bind"))
		return mount(src, dst, NULL, MS_BIND, NULL) ? die("mount") : 0;
	if (!strcmp(how, "fd")) {
		fd = open(src, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return die("open");
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (mount(proc, dst, NULL, MS_BIND, NULL))
			return die("mount");
		close(fd);
		return 0;
	}
	if (!strcmp(how, "tree")) {
		fd = (int)syscall(SYS_open_tree, AT_FDCWD, src, OPEN_TREE_CLONE);
		if (fd < 0)
			return die("open_tree");
		if (syscall(SYS_move_mount, fd, "", AT_FDCWD, dst, MOVE_MOUNT_F_EMPTY_PATH))
			return die("move_mount");
		close(fd);
		return 0;
	}
	fprintf(stderr, "pinmount: unknown HOW %s\n", how);
	return 2;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	int delay_ms = 0, flags = 0, c, rc;
	struct stat st;

	while ((c = getopt(argc, argv, "d:C:l")) != -1) {
		if (c == 'd')
			delay_ms = atoi(optarg);
		else if (c == 'C')
			dir = optarg;
		else if (c == 'l')
			flags = MNT_DETACH;
		else
			return 2;
	}
	if (argc - optind != 4) {
		fprintf(stderr, "usage: pinmount [-d MS] [-C DIR] [-l] bind|fd|tree SRC DST UMOUNT_PATH\n");
		return 2;
	}
	printf("pid %d\n", getpid());
	rc = pin(argv[optind], argv[optind + 1], argv[optind + 2]);
	if (rc)
		return rc;
	if (stat(argv[optind + 2], &st))
		return die("stat");
	printf("ino %lu\ndev %lu\n", (unsigned long)st.st_ino, (unsigned long)st.st_dev);
	if (delay_ms)
		nanosleep(&(struct timespec){ .tv_sec = delay_ms / 1000,
					       .tv_nsec = (delay_ms % 1000) * 1000000L },
			  NULL);
	if (dir && chdir(dir))
		return die("chdir");
	if (strcmp(argv[optind + 3], "-") && umount2(argv[optind + 3], flags))
		return die("umount2");
	return 0;
}
