/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log_reader.h - a recorded log's records in order (log_reader.c), for the
 * lifetime command: all of them, then what the recorder appends.
 */
#ifndef NSAUDIT_LOG_READER_H
#define NSAUDIT_LOG_READER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "search.h"

struct log_reader {
	const char *dir;
	int dirfd;
	uint64_t skipped;
	/* when set, lines that cannot be about this namespace, nor lost or
	 * log records, are counted in unread without being parsed */
	const struct audit_filter *about;
	uint64_t unread;
	/* where reading stopped: the newest segment and the offset after its
	 * last complete line (for --follow) */
	unsigned int seg;
	size_t off;
};

typedef void (*rec_fn)(void *ctx, json_object *rec);

/* Every record of every segment, oldest first. 0, or -1 with errno. */
int log_read(struct log_reader *rd, rec_fn fn, void *ctx);

/*
 * Then every record appended after those, across rotations, until *stop:
 * a line on stderr says what is followed. 0, or 1 (out of memory).
 */
int log_follow(struct log_reader *rd, rec_fn fn, void *ctx, volatile sig_atomic_t *stop);

#endif
