// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* regfile.c - open only regular files (why: regfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regfile.h"

/* errno values private to this file's callers: the type that was found */
#define ERR_NOTREG EINVAL

int audit_open_regular(int dirfd, const char *name, int flags, mode_t mode)
{
	struct stat st;
	int fd, fl, e;

	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : ERR_NOTREG;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

const char *audit_regfile_why(int err)
{
	if (err == ERR_NOTREG)
		return "not a regular file (a FIFO, socket or device put in its place?)";
	if (err == ELOOP)
		return "a symbolic link (not followed)";
	if (err == EISDIR)
		return "a directory, not a regular file";
	return strerror(err);
}
