// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_search.c - "nsaudit search": filter records across a log's segments,
 * like ausearch. The filter itself is the log library's (audit/search.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "clock.h"
#include "commands.h"
#include "nstype.h"
#include "search.h"
#include "segment.h"

static void search_usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit search --log-dir DIR [FILTERS] [--format json|text]\n\n"
		"Print the records of a log written by 'nsaudit record' that match every\n"
		"filter given, oldest first, across all segments (JSON or audit format).\n\n"
		"  --op LIST         setns,unshare,clone,open,mount,umount,nsfd,ns_free,lost,log\n"
		"  --ns NS           TYPE:INODE, TYPE:[INODE], PID:TYPE, a path to a namespace\n"
		"                    file or an ip netns name; matches the namespace acted on\n"
		"                    or the one left (old_inum). A path or name that no\n"
		"                    longer exists (ip netns del) matches every namespace\n"
		"                    the log saw bind-mounted there\n"
		"  --pid N           the acting process (tgid)\n"
		"  --uid N           the acting user (real uid)\n"
		"  --comm NAME       exact process name\n"
		"  --since T         T: RFC 3339, @EPOCH, now, or ago as 90s, 10m, 2h, 7d\n"
		"  --until T\n"
		"  --format F        text (default: one line, lsns style) or json (JSON lines)\n\n"
		"Exit status: 0 something matched, 1 nothing matched or the log is\n"
		"unreadable, 2 usage error. Damaged lines are skipped, with one note per\n"
		"segment on stderr; use 'nsaudit verify' to check integrity.\n\n"
		"Examples:\n"
		"  nsaudit search --log-dir /var/log/nsaudit --op setns --ns net:[4026532289]\n"
		"  nsaudit search --log-dir /var/log/nsaudit --ns /run/netns/blue --since 2h\n"
		"  nsaudit search --log-dir /var/log/nsaudit --uid 1000 --format json | jq .\n"
		"  nsaudit search --log-dir /var/log/nsaudit --op lost\n");
}

static int parse_ops(const char *list, struct audit_filter *f, char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;

	if (!*list || strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--op: empty or overlong list");
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int o = op_from_name(tok);

		if (!strcmp(tok, "log")) {
			f->op_log = true;
		} else if (o > 0) {
			f->ops |= 1u << o;
		} else {
			snprintf(err, errlen, "--op: unknown operation '%.64s'", tok);
			return -1;
		}
	}
	if (!f->ops && !f->op_log) {
		snprintf(err, errlen, "--op: empty list");
		return -1;
	}
	return 0;
}

struct printer {
	const struct audit_filter *f;
	bool json;
	uint64_t matched;
};

static void print_match(void *ctx, const struct audit_rec *r)
{
	struct printer *p = ctx;

	if (!audit_filter_match(p->f, r))
		return;
	p->matched++;
	if (p->json) {
		struct sbuf b = {0};

		audit_json_object(&b, r->obj);
		if (!b.oom)
			printf("%s\n", b.p);
		sb_free(&b);
	} else {
		audit_print_text(stdout, r);
	}
}

/*
 * Every parsable record of segments nums[0..n), oldest first, to fn. With
 * report, damaged segments and lines are reported on stderr (once per
 * segment, naming the first bad line); a first pass stays quiet.
 */
static void scan_log(int dirfd, const char *dir, const unsigned int *nums, size_t n,
		     bool report, void (*fn)(void *, const struct audit_rec *), void *ctx)
{
	char err[512], first_bad[600];
	uint64_t skipped;
	size_t i;

	for (i = 0; i < n; i++) {
		char name[AUDIT_SEG_NAME_MAX];
		struct audit_seg seg;
		const char *line;
		size_t len;
		bool complete;

		audit_seg_name(nums[i], name);
		if (audit_seg_read(dirfd, name, &seg, err, sizeof(err))) {
			if (report)
				cmd_error("search", 0, "%.200s/%s: skipped", dir, err);
			continue;
		}
		skipped = 0;
		while (audit_seg_next(&seg, &line, &len, &complete)) {
			struct audit_rec r;

			if (audit_rec_parse(line, len, &r, err, sizeof(err))) {
				/* one line per damaged segment, naming the first */
				if (!skipped++) {
					char *c;

					snprintf(first_bad, sizeof(first_bad),
						 "line %" PRIu64 ": %s", seg.lineno,
						 complete ? err : "unfinished last record");
					for (c = first_bad; *c; c++) /* untrusted names */
						if ((unsigned char)*c < 0x20 || *c == 0x7f)
							*c = '?';
				}
				continue;
			}
			fn(ctx, &r);
			audit_rec_free(&r);
		}
		audit_seg_free(&seg);
		if (skipped && report)
			fprintf(stderr,
				"nsaudit search: %.200s/%s: skipped %" PRIu64 " damaged line%s "
				"(first: %s)\n",
				dir, name, skipped, skipped == 1 ? "" : "s", first_bad);
	}
}

struct mounts_at {
	const char *path;
	struct audit_filter *f;
};

static void mount_at(void *ctx, const struct audit_rec *r)
{
	struct mounts_at *m = ctx;
	uint32_t inum;
	int type;
	size_t i;

	if (!audit_rec_mount_at(r->obj, m->path, &type, &inum))
		return;
	for (i = 0; i < m->f->n_ns; i++)
		if (m->f->ns[i].type == type && m->f->ns[i].inum == inum)
			return;
	if (m->f->n_ns < AUDIT_FILTER_NS_MAX) {
		m->f->ns[m->f->n_ns].type = type;
		m->f->ns[m->f->n_ns++].inum = inum;
	}
}

/*
 * --ns PATH (or an ip netns name) that no longer exists: every namespace
 * the log saw bind-mounted there, as the name is what the user knows.
 */
static int find_mounts(int dirfd, const char *dir, const unsigned int *nums, size_t n,
		       const char *path, struct audit_filter *f)
{
	struct mounts_at m = {.path = path, .f = f};

	scan_log(dirfd, dir, nums, n, false, mount_at, &m);
	if (!f->n_ns) {
		cmd_error("search", 0,
			  "--ns: %.200s: no such namespace file, and no mount there in the "
			  "log (give TYPE:INODE)",
			  path);
		return -1;
	}
	cmd_error("search", 0,
		  "note: %.200s no longer exists; matching the %zu namespace%s the log "
		  "saw mounted there",
		  path, f->n_ns, f->n_ns == 1 ? "" : "s");
	return 0;
}

int cmd_search(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "log-dir", required_argument, NULL, 0x200 },
		{ "op", required_argument, NULL, 0x201 },
		{ "ns", required_argument, NULL, 0x202 },
		{ "pid", required_argument, NULL, 0x203 },
		{ "uid", required_argument, NULL, 0x204 },
		{ "comm", required_argument, NULL, 0x205 },
		{ "since", required_argument, NULL, 0x206 },
		{ "until", required_argument, NULL, 0x207 },
		{ "format", required_argument, NULL, 0x208 },
		{ NULL, 0, NULL, 0 },
	};
	struct audit_filter f = {0};
	struct printer pr = {0};
	const char *dir = NULL, *gone_path = NULL;
	bool json = false;
	uint64_t matched;
	unsigned int *nums = NULL;
	char err[512], gone_buf[4096];
	int64_t now;
	size_t n;
	int dirfd, c, idx = -1;

	now = clock_ns(CLOCK_REALTIME);
	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		const char *a;

		if (c == 'h') {
			search_usage(stdout);
			return 0;
		}
		if (c == ':')
			return cmd_error("search", EXIT_USAGE, "%.64s: needs a value (try --help)",
					 argv[optind - 1]);
		if (c == '?') {
			const char *bad = cmd_bad_option(argv);
			size_t nl = strcspn(bad, "=");

			if (strncmp(bad, "--", 2)) /* only long options here */
				return cmd_error("search", EXIT_USAGE,
						 "unexpected argument '%.64s' (try --help)", bad);
			return cmd_error("search", EXIT_USAGE, "unknown option '%.*s' (try --help)",
					 (int)(nl < 64 ? nl : 64), bad);
		}
		a = cmd_opt_name(opts, c, idx);
		idx = -1;
		if (!strcmp(a, "log-dir")) {
			dir = optarg;
		} else if (!strcmp(a, "op")) {
			if (parse_ops(optarg, &f, err, sizeof(err)))
				goto usage;
		} else if (!strcmp(a, "ns")) {
			struct nsspec ns;

			f.n_ns = 0;
			gone_path = NULL;
			errno = 0;
			if (nsspec_parse(optarg, true, &ns, err, sizeof(err))) {
				int e = errno;

				/* a name that is gone: look for its mounts in the log */
				if (!nsspec_gone_path(optarg, gone_buf, sizeof(gone_buf))) {
					cmd_error("search", 0, "--ns: %s", err);
					return e == ENOENT || e == ESRCH ? 1 : EXIT_USAGE;
				}
				gone_path = gone_buf;
			} else {
				f.n_ns = 1;
				f.ns[0].type = ns.type;
				f.ns[0].inum = ns.inum;
			}
		} else if (!strcmp(a, "pid")) {
			f.has_pid = true;
			if (parse_long(optarg, 0, INT_MAX, &f.pid)) {
				snprintf(err, sizeof(err), "--pid: '%.64s' is not a process id",
					 optarg);
				goto usage;
			}
		} else if (!strcmp(a, "uid")) {
			f.has_uid = true;
			if (parse_long(optarg, 0, UINT32_MAX, &f.uid)) {
				snprintf(err, sizeof(err), "--uid: '%.64s' is not a user id", optarg);
				goto usage;
			}
		} else if (!strcmp(a, "comm")) {
			f.comm = optarg;
		} else if (!strcmp(a, "since") || !strcmp(a, "until")) {
			bool since = a[0] == 's';

			if (audit_time_arg(optarg, now, since ? &f.since_ns : &f.until_ns)) {
				snprintf(err, sizeof(err),
					 "--%s: '%.64s' is not a time (RFC 3339, "
					 "@EPOCH, now, or ago as 10m, 2h, 7d)",
					 a, optarg);
				goto usage;
			}
			*(since ? &f.has_since : &f.has_until) = true;
		} else if (!strcmp(a, "format")) {
			if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
				snprintf(err, sizeof(err),
					 "--format: unknown format '%.64s' "
					 "(json, text)",
					 optarg);
				goto usage;
			}
			json = !strcmp(optarg, "json");
		}
	}
	if (optind < argc)
		return cmd_error("search", EXIT_USAGE, "unexpected argument '%.64s' (try --help)",
				 argv[optind]);
	if (!dir || !*dir)
		return cmd_error("search", EXIT_USAGE, "--log-dir DIR is required (try --help)");
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || audit_seg_list(dirfd, &nums, &n)) {
		cmd_error("search", 0, "%.200s: %s", dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
		return 1;
	}
	if (!n)
		cmd_error("search", 0, "%.200s: no log segments (nsaudit-NNNNNN.log)",
			dir);
	if (gone_path && find_mounts(dirfd, dir, nums, n, gone_path, &f)) {
		free(nums);
		close(dirfd);
		return 1;
	}
	pr.f = &f;
	pr.json = json;
	scan_log(dirfd, dir, nums, n, true, print_match, &pr);
	matched = pr.matched;
	free(nums);
	close(dirfd);
	if (fflush(stdout))
		return cmd_error("search", 1, "writing output: %s", strerror(errno));
	return matched ? 0 : 1;
usage:
	return cmd_error("search", EXIT_USAGE, "%s", err);
}
