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

struct json_object;

struct log_reader {
	const char *dir;
	int dirfd;
	uint64_t skipped;	/* damaged lines (the first 10 are reported) */
	/* where reading stopped: the newest segment and the offset after its
	 * last complete line (for --follow) */
	unsigned int seg;
	size_t off;
};

/* Called with each record (valid during the call only). */
typedef void (*rec_fn)(void *ctx, struct json_object *rec);

/* Every record of every segment, oldest first. 0, or -1 with errno. */
int log_read(struct log_reader *rd, rec_fn fn, void *ctx);

/*
 * Then every record appended after those, across rotations, until *stop:
 * a line on stderr says what is followed. 0, or 1 (out of memory).
 */
int log_follow(struct log_reader *rd, rec_fn fn, void *ctx, volatile sig_atomic_t *stop);

#endif
