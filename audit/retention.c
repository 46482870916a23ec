// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * retention.c - how long the configured log space lasts at the rate the
 * log grows: --max-size x --keep bytes, then the oldest segment goes. An
 * auditor asking about an hour ago must not learn only then that the hour
 * went minutes after it passed; the recorder says it within a minute.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "segment.h"

int audit_log_written(const char *dir, uint64_t max_size, uint64_t *bytes)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int *nums = NULL;
	struct stat st;
	size_t n;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*bytes = 0;
	if (fd < 0)
		return -1;
	if (audit_seg_list(fd, &nums, &n) || !n) {
		free(nums);
		close(fd);
		return -1;
	}
	/* segments roll over at max_size: the numbers count what rotation
	 * deleted, the newest one's size what is on its way */
	audit_seg_name(nums[n - 1], name);
	*bytes = (uint64_t)nums[n - 1] * max_size;
	if (!fstatat(fd, name, &st, 0))
		*bytes += (uint64_t)st.st_size;
	free(nums);
	close(fd);
	return 0;
}

int audit_log_kept(const char *dir, uint64_t *bytes, int64_t *first_ns)
{
	char name[AUDIT_SEG_NAME_MAX];
	unsigned int *nums = NULL;
	struct stat st;
	size_t n, i;
	int rc = -1, fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*bytes = 0;
	*first_ns = 0;
	if (fd < 0)
		return -1;
	if (!audit_seg_list(fd, &nums, &n) && n) {
		for (i = 0; i < n; i++) {
			audit_seg_name(nums[i], name);
			if (!fstatat(fd, name, &st, 0))
				*bytes += (uint64_t)st.st_size;
		}
		/* the oldest segment's first record: where what is kept begins */
		rc = audit_seg_first_time(fd, nums[0], first_ns) ? -1 : 0;
	}
	free(nums);
	close(fd);
	return rc;
}

void audit_size_str(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (bytes >= 1024 && !(bytes & 1023) && u < 3) {
		bytes >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, bytes);
	else
		snprintf(buf, len, "%" PRIu64 "%c", bytes, units[u]);
}

void audit_span_str(char *buf, size_t len, double secs)
{
	if (secs < 1)
		snprintf(buf, len, "under a second");
	else if (secs < 120)
		snprintf(buf, len, "%.0f s", secs);
	else if (secs < 7200)
		snprintf(buf, len, "%.0f min", secs / 60);
	else if (secs < 3 * 86400)
		snprintf(buf, len, "%.1f h", secs / 3600);
	else
		snprintf(buf, len, "%.0f days", secs / 86400);
}
