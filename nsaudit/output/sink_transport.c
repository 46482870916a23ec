// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* sink_transport.c - the writer thread's transports: unix, udp and tcp
 * sockets for syslog (RFC 6587 framing on tcp), the audit netlink socket,
 * journald's socket (through libsystemd, sink_journal.c). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <time.h>
#include <unistd.h>
#include <libaudit.h>

#include "clock.h"
#include "sink.h"
#include "sink_impl.h"

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = SEND_TIMEOUT_S };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int transport_connect(struct sink *s)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd, type;

	if (s->sp.kind == SINK_AUDIT)
		return s->fd >= 0 ? 0 : -ENOTCONN;
	if (s->sp.kind == SINK_JOURNAL)	/* libsystemd keeps its own socket */
		return journal_probe();
	if (s->sp.kind == SINK_FILE) {	/* opened once, at start: kept open */
		if (s->fd >= 0)
			return 0;
		fd = open(s->sp.file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0)
			return -errno;
		s->fd = fd;
		return 0;
	}
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->sp.kind == SINK_SYSLOG_UNIX) {
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		strcpy(un.sun_path, s->sp.path);
		if (connect(fd, (struct sockaddr *)&un, sizeof(un))) {
			int e = errno;

			close(fd);
			return -e;
		}
	} else {
		type = s->sp.kind == SINK_SYSLOG_UDP ? SOCK_DGRAM : SOCK_STREAM;
		fd = socket(s->ai->ai_family, type | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		set_timeouts(fd);
		if (connect(fd, s->ai->ai_addr, s->ai->ai_addrlen)) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (type == SOCK_STREAM) {
			int one = 1;

			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		}
	}
	set_timeouts(fd);
	s->fd = fd;
	return 0;
}

static int send_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A file sink's path no longer names the file it writes (logrotate moved
 * it and made a new one, or it was removed): what goes on being written
 * would reach no reader of the path, or nobody once the old file is
 * compressed and removed. Looked at once a second; the path is opened
 * again (made, 0600, if missing). 0, or -errno if it cannot be.
 */
static int file_follow_path(struct sink *s)
{
	struct stat now, open_st;
	int64_t t = now_ns();
	int fd;

	if (s->fd >= 0 && t - s->file_checked_ns < 1000000000LL)
		return 0;
	s->file_checked_ns = t;
	if (s->fd >= 0 && !fstat(s->fd, &open_st) && !stat(s->sp.file, &now) &&
	    now.st_dev == open_st.st_dev && now.st_ino == open_st.st_ino)
		return 0;
	fd = open(s->sp.file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = fd;
	return 0;
}

/* 0 sent; <0 failed (-ENOTCONN etc.: reconnect) */
int transport_send(struct sink *s, const struct sink_msg *m)
{
	char hdr[32];
	int n, rc;

	switch (s->sp.kind) {
	case SINK_AUDIT:
		/* AUDIT_USER; the kernel adds pid, uid, auid, ses, subj; libaudit
		 * adds exe, hostname, addr, terminal and res */
		rc = audit_log_user_message(s->fd, AUDIT_USER, m->data, NULL, NULL, NULL,
					    m->success ? 1 : 0);
		return rc > 0 ? 0 : (errno ? -errno : -EIO);
	case SINK_JOURNAL:
		return journal_send(m);
	case SINK_FILE:		/* one write per line: O_APPEND keeps lines whole */
		rc = file_follow_path(s);
		if (rc)
			return rc;
		errno = 0;
		return write(s->fd, m->data, m->len) == (ssize_t)m->len ? 0 : (errno ? -errno : -EIO);
	case SINK_SYSLOG_TCP:
		/* RFC 6587 octet counting: "LEN SP MSG" */
		n = snprintf(hdr, sizeof(hdr), "%zu ", m->len);
		rc = send_all(s->fd, hdr, (size_t)n);
		if (!rc)
			rc = send_all(s->fd, m->data, m->len);
		return rc;
	default:
		if (send(s->fd, m->data, m->len, MSG_NOSIGNAL) < 0)
			return -errno;
		return 0;
	}
}

bool reconnect_on(int err)
{
	return err == -ENOTCONN || err == -ECONNREFUSED || err == -ECONNRESET || err == -EPIPE ||
	       err == -ENOENT || err == -EBADF || err == -EDESTADDRREQ;
}
