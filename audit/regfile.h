/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * regfile.h - open only regular files.
 *
 * Whoever can write the log directory (or a key's directory) can put a
 * FIFO, a device or a symlink where a segment, the state file or a key
 * should be: a blocking open() of a FIFO hangs the recorder and the
 * verifier forever, and a symlink redirects a write. So every file of the
 * log is opened with O_NOFOLLOW | O_NONBLOCK (a FIFO opens at once), then
 * fstat'ed: anything but a regular file is refused with ELOOP/EINVAL-style
 * errors, and O_NONBLOCK is cleared again for the reads and writes.
 */
#ifndef NSAUDIT_AUDIT_REGFILE_H
#define NSAUDIT_AUDIT_REGFILE_H

#include <sys/types.h>

/*
 * openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode),
 * then a type check. The fd (blocking again), or -1 with errno: ELOOP for
 * a symlink, EISDIR for a directory, EINVAL for any other file that is not
 * a regular one (audit_regfile_why() words them). dirfd may be AT_FDCWD.
 */
int audit_open_regular(int dirfd, const char *name, int flags, mode_t mode);
/* A message for the errno audit_open_regular() left ("not a regular
 * file (a FIFO)", "a symbolic link", or strerror). */
const char *audit_regfile_why(int err);

#endif
