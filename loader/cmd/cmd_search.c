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
#include "verify.h"
#include "segment.h"

static void search_usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit search --log-dir DIR [FILTERS] [--format json|text]\n\n"
		"Print the records of a log written by 'nsaudit record' that match every\n"
		"filter given, oldest first, across all segments (JSON or audit format).\n\n"
		"  --op LIST         setns,unshare,clone,open,mount,umount,nsfd,ns_free,lost,log,\n"
		"                    alert (detections, docs/rules.md)\n"
		"  --rule ID         alerts of this rule (container-escape, cross-container,\n"
		"                    attempted-escape, persistence, userns-privilege, one's own)\n"
		"  --severity LEVEL  alerts at this syslog level or more urgent (emerg alert\n"
		"                    crit err warning notice info debug)\n"
		"  --ns NS           TYPE:INODE, TYPE:[INODE], PID:TYPE, a path to a namespace\n"
		"                    file or an ip netns name; matches the namespace acted on\n"
		"                    or the one left (old_inum). A path or name that no\n"
		"                    longer exists (ip netns del) matches every namespace\n"
		"                    the log saw bind-mounted there\n"
		"  --pid N           the acting process (tgid)\n"
		"  --uid N           the acting user (real uid)\n"
		"  --comm NAME       exact process name\n"
		"  --container C     records about container C: its id, a 12+ character id\n"
		"                    prefix or the podman name\n"
		"  --since T         T: RFC 3339, @EPOCH, now, or ago as 90s, 10m, 2h, 7d;\n"
		"                    segments that end before T are not read (unless the\n"
		"                    clock was set back across them)\n"
		"  --until T\n"
		"  --format F        text (default: one line, lsns style) or json (JSON lines)\n"
		"  --key FILE, --verification-key KEY\n"
		"                    verify the log first; a warning on stderr if it is not intact\n\n"
		"Exit status: 0 something matched, 1 nothing matched or the log is\n"
		"unreadable, 2 usage error. Damaged lines are skipped, with one note per\n"
		"segment on stderr; use 'nsaudit verify' to check integrity.\n\n"
		"Examples:\n"
		"  nsaudit search --log-dir /var/log/nsaudit --op setns --ns net:[4026532289]\n"
		"  nsaudit search --log-dir /var/log/nsaudit --ns /run/netns/blue --since 2h\n"
		"  nsaudit search --log-dir /var/log/nsaudit --uid 1000 --format json | jq .\n"
		"  nsaudit search --log-dir /var/log/nsaudit --op lost\n"
		"  nsaudit search --log-dir /var/log/nsaudit --op alert --rule container-escape\n");
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
		} else if (!strcmp(tok, "alert")) {
			f->op_alert = true;
		} else if (o > 0) {
			f->ops |= 1u << o;
		} else {
			snprintf(err, errlen, "--op: unknown operation '%.64s'", tok);
			return -1;
		}
	}
	if (!f->ops && !f->op_log && !f->op_alert) {
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
	if (p->json && r->flat) {
		/* the line as it lies on disk, without its MAC: no re-serialising */
		fwrite(r->flat->line, 1, r->body_len, stdout);
		fputs("}\n", stdout);
	} else if (p->json) {
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
 * segment, naming the first bad line); a first pass stays quiet. With fl,
 * a line in the writer's own spelling reaches fn as a flat record (no
 * json-c object: codec_flat.c), any other is parsed.
 */
static void scan_log(int dirfd, const char *dir, const unsigned int *nums, size_t n,
		     bool report, const struct audit_filter *pre, struct audit_flat *fl,
		     void (*fn)(void *, const struct audit_rec *), void *ctx)
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

			/* an unfinished line is parsed: it is reported below */
			if (pre && complete && !audit_filter_may_match(pre, line, len))
				continue;
			if (fl && complete && !audit_rec_flat(line, len, fl, &r)) {
				fn(ctx, &r);
				continue;
			}
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

	scan_log(dirfd, dir, nums, n, false, NULL, NULL, mount_at, &m);
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

/* What the command line asks for. */
struct search_args {
	struct audit_filter f;
	const char *dir;
	const char *gone_path; /* --ns named a path or name that is gone */
	char gone_buf[4096];
	bool json;
	int64_t now;		     /* reference for --since/--until spans */
	struct audit_verify_opts vo; /* --key, --verification-key */
};

/*
 * --ns: a namespace that exists now, or a path or ip netns name that is
 * gone (then its mounts are looked up in the log). 0, or an exit status.
 */
static int ns_opt(struct search_args *a, const char *val)
{
	struct nsspec ns;
	char err[512];
	int e;

	a->f.n_ns = 0;
	a->gone_path = NULL;
	errno = 0;
	if (!nsspec_parse(val, true, &ns, err, sizeof(err))) {
		a->f.n_ns = 1;
		a->f.ns[0].type = ns.type;
		a->f.ns[0].inum = ns.inum;
		return 0;
	}
	e = errno;
	if (!nsspec_gone_path(val, a->gone_buf, sizeof(a->gone_buf)))
		return cmd_error("search", e == ENOENT || e == ESRCH ? 1 : EXIT_USAGE, "--ns: %s",
				 err);
	a->gone_path = a->gone_buf;
	return 0;
}

/* One option's value (name is its long name): 0, or an exit status. */
static int search_opt(struct search_args *a, const char *name, const char *val)
{
	struct audit_filter *f = &a->f;
	char err[512];

	if (!strcmp(name, "log-dir")) {
		a->dir = val;
	} else if (!strcmp(name, "op")) {
		if (parse_ops(val, f, err, sizeof(err)))
			return cmd_error("search", EXIT_USAGE, "%s", err);
	} else if (!strcmp(name, "ns")) {
		return ns_opt(a, val);
	} else if (!strcmp(name, "pid")) {
		f->has_pid = true;
		if (parse_long(val, 0, INT_MAX, &f->pid))
			return cmd_error("search", EXIT_USAGE,
					 "--pid: '%.64s' is not a process id", val);
	} else if (!strcmp(name, "uid")) {
		f->has_uid = true;
		if (parse_long(val, 0, UINT32_MAX, &f->uid))
			return cmd_error("search", EXIT_USAGE, "--uid: '%.64s' is not a user id",
					 val);
	} else if (!strcmp(name, "comm")) {
		f->comm = val;
	} else if (!strcmp(name, "container")) {
		f->container = val;
	} else if (!strcmp(name, "rule")) {
		if (!*val)
			return cmd_error("search", EXIT_USAGE, "--rule: empty rule id");
		f->rule = val;
	} else if (!strcmp(name, "severity")) {
		if (audit_severity_level(val) < 0)
			return cmd_error("search", EXIT_USAGE,
					 "--severity: '%.64s' is not a syslog level (emerg alert "
					 "crit err warning notice info debug)", val);
		f->severity = val;
	} else if (!strcmp(name, "since") || !strcmp(name, "until")) {
		bool since = name[0] == 's';

		if (audit_time_arg(val, a->now, since ? &f->since_ns : &f->until_ns))
			return cmd_error("search", EXIT_USAGE,
					 "--%s: '%.64s' is not a time (RFC 3339, @EPOCH, now, "
					 "or ago as 10m, 2h, 7d)",
					 name, val);
		*(since ? &f->has_since : &f->has_until) = true;
	} else if (!strcmp(name, "format")) {
		if (strcmp(val, "json") && strcmp(val, "text"))
			return cmd_error("search", EXIT_USAGE,
					 "--format: unknown format '%.64s' (json, text)", val);
		a->json = !strcmp(val, "json");
	} else if (!strcmp(name, "key")) {
		a->vo.key_path = val;
	} else if (!strcmp(name, "verification-key")) {
		a->vo.vk = val;
	}
	return 0;
}

/* The command line into a: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct search_args *a)
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
		{ "key", required_argument, NULL, 0x209 },
		{ "verification-key", required_argument, NULL, 0x20a },
		{ "container", required_argument, NULL, 0x20b },
		{ "rule", required_argument, NULL, 0x20c },
		{ "severity", required_argument, NULL, 0x20d },
		{ NULL, 0, NULL, 0 },
	};
	int c, idx = -1, rc;

	a->now = clock_ns(CLOCK_REALTIME);
	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		const char *bad;
		size_t nl;

		switch (c) {
		case 'h':
			search_usage(stdout);
			return 0;
		case ':':
			return cmd_error("search", EXIT_USAGE, "%.64s: needs a value (try --help)",
					 argv[optind - 1]);
		case '?':
			bad = cmd_bad_option(argv);
			nl = strcspn(bad, "=");
			if (strncmp(bad, "--", 2)) /* only long options here */
				return cmd_error("search", EXIT_USAGE,
						 "unexpected argument '%.64s' (try --help)", bad);
			return cmd_error("search", EXIT_USAGE, "unknown option '%.*s' (try --help)",
					 (int)(nl < 64 ? nl : 64), bad);
		default:
			rc = search_opt(a, cmd_opt_name(opts, c, idx), optarg);
			idx = -1;
			if (rc)
				return rc;
		}
	}
	if (optind < argc)
		return cmd_error("search", EXIT_USAGE, "unexpected argument '%.64s' (try --help)",
				 argv[optind]);
	if (!a->dir || !*a->dir)
		return cmd_error("search", EXIT_USAGE, "--log-dir DIR is required (try --help)");
	return -1;
}

/*
 * With a key, what is searched is verified first (a warning, not a stop:
 * the records of a damaged log are still worth reading). 0, or -1.
 */
static int verify_first(struct search_args *a)
{
	struct audit_verify v;
	char err[512];
	int r;

	if (!a->vo.key_path && !a->vo.vk)
		return 0;
	a->vo.dir = a->dir;
	r = audit_verify(&a->vo, &v, err, sizeof(err));
	if (r < 0)
		return cmd_error("search", -1, "%s", err);
	if (r > 0)
		cmd_error("search", 0, "warning: the log is NOT INTACT: %s: %s", v.where, v.what);
	return 0;
}

/* Print every record of the log that a->f matches: the exit status. */
static int search_log(struct search_args *a)
{
	struct printer pr = { .f = &a->f, .json = a->json };
	static char obuf[1 << 18];
	struct audit_flat fl = { 0 };
	unsigned int *nums = NULL;
	size_t n;
	int dirfd;

	if (verify_first(a))
		return 1;
	dirfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || audit_seg_list(dirfd, &nums, &n)) {
		cmd_error("search", 0, "%.200s: %s", a->dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
		return 1;
	}
	if (!n)
		cmd_error("search", 0, "%.200s: no log segments (nsaudit-NNNNNN.log)", a->dir);
	if (a->gone_path && find_mounts(dirfd, a->dir, nums, n, a->gone_path, &a->f)) {
		free(nums);
		close(dirfd);
		return 1;
	}
	/* --since: segments whose ends show they lie wholly before it are not
	 * read (segment_head.c); --until has no such bound */
	if (a->f.has_since)
		n = audit_seg_since(dirfd, nums, n, a->f.since_ns);
	if (!isatty(STDOUT_FILENO)) /* a pipe's 4 KiB would be a write per ~8 records */
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	scan_log(dirfd, a->dir, nums, n, true, &a->f, &fl, print_match, &pr);
	audit_flat_free(&fl);
	free(nums);
	close(dirfd);
	if (fflush(stdout))
		return cmd_error("search", 1, "writing output: %s", strerror(errno));
	return pr.matched ? 0 : 1;
}

int cmd_search(int argc, char **argv)
{
	struct search_args a = { 0 };
	int rc = parse_args(argc, argv, &a);

	return rc >= 0 ? rc : search_log(&a);
}
