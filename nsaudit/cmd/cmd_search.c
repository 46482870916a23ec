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

/* every option is a long one; search_opt() takes them by name */
static const struct optab search_optab[] = {
	{ "log-dir", 0x200, "DIR", "the log directory (required)" },
	{ "op", 0x201, "LIST",
	  "setns,unshare,clone,open,mount,umount,nsfd,ns_free,query,\n"
	  "lost, log, alert (detections, docs/rules.md)" },
	{ "rule", 0x20c, "ID",
	  "alerts of this rule (container-escape, cross-container,\n"
	  "attempted-escape, persistence, userns-privilege, one's own)" },
	{ "severity", 0x20d, "LEVEL",
	  "alerts at this syslog level or more urgent (emerg alert\n"
	  "crit err warning notice info debug)" },
	{ "ns", 0x202, "NS",
	  "ns_id:ID, TYPE:INODE, TYPE:[INODE], PID:TYPE, a path\n"
	  "to a namespace file or an ip netns name; matches the\n"
	  "namespace acted on or the one left, by its ns_id\n"
	  "where the kernel gives ids. A path or name means\n"
	  "the namespace there now and every one the log saw\n"
	  "mounted there (also after ip netns del); TYPE:INODE\n"
	  "every namespace that had the inode (the kernel\n"
	  "reuses inodes: a note on stderr says how many)" },
	{ "type", 0x20e, "LIST", "namespace types: net,uts,ipc,mnt,pid,user,cgroup,time" },
	{ "pid", 0x203, "N", "the acting process (tgid)" },
	{ "uid", 0x204, "N", "the acting user (real uid)" },
	{ "comm", 0x205, "NAME", "exact process name" },
	{ "exe", 0x210, "PATH",
	  "exact executable path\n"
	  "--pid, --uid, --comm and --exe may be repeated: any of\n"
	  "them; a record without the field never matches" },
	{ "result", 0x20f, "R", "ok, fail, an errno name (EPERM) or -N" },
	{ "container", 0x20b, "C",
	  "records about container C: its id, its name, or an id\n"
	  "prefix (docker's 12 characters or fewer) that only\n"
	  "one container the log saw has (else: an error that\n"
	  "lists them)" },
	{ "since", 0x206, "T",
	  "T: RFC 3339, @EPOCH, ausearch's now, recent, boot,\n"
	  "today, yesterday, this-week, week-ago, this-month,\n"
	  "this-year, a local date or time (2026-12-07,\n"
	  "'2026-12-07 08:40', 08:40; ' UTC' after it: UTC), or\n"
	  "ago as 90s, 10m, 2h, 7d, '5 min ago';\n"
	  "segments that end before T are not read (unless the\n"
	  "clock was set back across them)" },
	{ "until", 0x207, "T", "the same forms as --since" },
	{ "format", 0x208, "F", "text (default: one line, lsns style) or json (JSON lines)" },
	{ "key", 0x209, "FILE",
	  "verify the log first with its sealing state; verify's\n"
	  "verdict on stderr: a warning if it is not intact, a\n"
	  "note if intact only as far as the key reaches (a\n"
	  "sealing state after a stop: --verification-key checks all)" },
	{ "verification-key", 0x20a, "KEY", "the same with the key 'nsaudit keygen' printed" },
	{ "help", 'h', NULL, "this text" },
	OPTAB_END,
};

static void search_usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f,
		"Usage: nsaudit search --log-dir DIR [FILTERS] [--format json|text]\n\n"
		"Print the records of a log written by 'nsaudit record' that match every\n"
		"filter given, oldest first, across all segments (JSON or audit format).\n\n");
	cmd_help(f, opts);
	fprintf(f,
		"\nExit status: 0 something matched, 1 nothing matched (\"no match\" on\n"
		"stderr), 2 usage error, 3 the log could not be read. Damaged lines are\n"
		"skipped, with one note per segment on stderr; use 'nsaudit verify' to\n"
		"check integrity.\n\n"
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

/* the log could not be read (1 is "no match", as for grep and ausearch) */
#define SEARCH_EXIT_UNREADABLE 3

/* notes about damaged segments printed: then they say why nothing matched */
static unsigned int damaged_notes;

struct printer {
	const struct audit_filter *f;
	bool json;
	uint64_t matched;
	struct sbuf line; /* a line, made whole and written at once */
	bool lost;	  /* a record that could not be written: said at the end */
};

static void print_match(void *ctx, const struct audit_rec *r)
{
	struct printer *p = ctx;

	if (!audit_filter_match(p->f, r))
		return;
	p->matched++;
	p->lost |= !(p->json ? audit_print_json(stdout, &p->line, r)
			     : audit_print_text(stdout, &p->line, r));
}

/*
 * Every parsable record of segments nums[0..n), oldest first, to fn. With
 * report, damaged segments and lines are reported on stderr (once per
 * segment, naming the first bad line); a first pass stays quiet. With fl,
 * a line in the writer's own spelling reaches fn as a flat record (no
 * json-c object: codec_flat.c), any other is parsed; with raw also, a
 * plain one as a whole line (audit_rec_plain: for fn that reads no field).
 */
static void scan_log(int dirfd, const char *dir, const unsigned int *nums, size_t n,
		     bool report, const struct audit_filter *pre, struct audit_flat *fl, bool raw,
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
			if (report && ++damaged_notes)
				cmd_error("search", 0, "%.200s/%s: skipped", dir, err);
			continue;
		}
		skipped = 0;
		while (audit_seg_next(&seg, &line, &len, &complete)) {
			struct audit_rec r;

			/* an unfinished line is parsed: it is reported below */
			if (pre && complete && !audit_filter_may_match(pre, line, len))
				continue;
			if (raw && complete && !audit_rec_plain(line, len, &r)) {
				fn(ctx, &r);
				continue;
			}
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
		if (skipped && report && ++damaged_notes)
			fprintf(stderr,
				"nsaudit search: %.200s/%s: skipped %" PRIu64 " damaged line%s "
				"(first: %s)\n",
				dir, name, skipped, skipped == 1 ? "" : "s", first_bad);
	}
}

/* What the command line asks for. */
struct search_args {
	struct audit_filter f;
	const char *dir;
	bool has_ns;
	struct audit_filter_ns live; /* --ns of a namespace there now */
	bool has_live;
	const char *ns_path;	/* --ns named a path or name: its mounts */
	bool by_inode;		/* --ns TYPE:INODE: every id it had */
	char ns_buf[4096];
	const char *ns_arg;
	bool json;
	struct audit_containers ctrs; /* --container: those the log saw */
	int64_t now;		     /* reference for --since/--until spans */
	struct audit_verify_opts vo; /* --key, --verification-key */
};

static void scan_ns_cb(void *ctx, const struct audit_rec *r)
{
	audit_ns_scan_rec(ctx, r);
}

static void births_cb(void *ctx, const struct audit_rec *r)
{
	audit_ns_scan_births(ctx, r);
}

/* " (ns_id 6, 9, ...)" or "" when f has no ids, into buf. */
static const char *id_list(const struct audit_filter *f, char *buf, size_t len)
{
	size_t i, used = 0, ids = 0;

	buf[0] = '\0';
	for (i = 0; i < f->n_ns && used + 24 < len; i++) {
		if (!f->ns[i].id)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64,
					 ids++ ? ", " : " (ns_id ", f->ns[i].id);
	}
	if (ids)
		snprintf(buf + used, len - used, "%s)", i < f->n_ns ? ", ..." : "");
	else if (f->n_ns)
		snprintf(buf, len, " (this log has no ns_id: each matched by inode "
			 "within its life in the log)");
	return buf;
}

/*
 * --ns, looked up in the log: the namespaces a name or path had mounted
 * there, or the ids an inode had, each kept apart by identity; then the
 * span of each in the log. 0, or -1 when it names nothing.
 */
static int resolve_ns(struct search_args *a, int dirfd, const unsigned int *nums, size_t n)
{
	struct audit_filter *f = &a->f;
	struct audit_ns_scan sc = { .f = f, .path = a->ns_path, .by_inode = a->by_inode,
				    .type = a->live.type, .inum = a->live.inum };
	struct audit_filter pre = { 0 };
	char ids[512];

	f->n_ns = 0;
	if (a->has_live)
		audit_filter_add_ns(f, &a->live);
	if (sc.path || sc.by_inode)
		scan_log(dirfd, a->dir, nums, n, false, NULL, NULL, false, scan_ns_cb, &sc);
	if (sc.by_inode && !f->n_ns) {
		struct audit_filter_ns w = { .type = a->live.type, .inum = a->live.inum,
					     .whole = true };

		audit_filter_add_ns(f, &w);
	}
	if (!f->n_ns) {
		cmd_error("search", 0,
			  "--ns: %.200s: no such namespace file, and no mount there in the "
			  "log (give TYPE:INODE)", a->ns_path);
		return -1;
	}
	if (sc.full)
		cmd_error("search", 0, "warning: --ns %.200s: more than %d namespaces; "
			  "matching the first %d", a->ns_arg, AUDIT_FILTER_NS_MAX,
			  AUDIT_FILTER_NS_MAX);
	/* each one's span in the log; only lines with its inode or id */
	pre.n_ns = f->n_ns;
	memcpy(pre.ns, f->ns, sizeof(pre.ns));
	scan_log(dirfd, a->dir, nums, n, false, &pre, NULL, false, births_cb, f);
	id_list(f, ids, sizeof(ids));
	if (a->ns_path && !a->has_live)
		cmd_error("search", 0,
			  "note: %.200s no longer exists; matching the %zu namespace%s the log "
			  "saw mounted there%s", a->ns_path, f->n_ns, f->n_ns == 1 ? "" : "s", ids);
	else if (a->ns_path && f->n_ns > 1)
		cmd_error("search", 0,
			  "note: %.200s: matching %zu namespaces, the one there now and those "
			  "the log saw mounted there before%s", a->ns_path, f->n_ns, ids);
	else if (a->by_inode && f->n_ns > 1)
		cmd_error("search", 0,
			  "note: %.64s was %zu namespaces in this log%s, the inode reused; "
			  "matching all (--ns ns_id:ID picks one)", a->ns_arg, f->n_ns, ids);
	return 0;
}

static void container_cb(void *ctx, const struct audit_rec *r)
{
	audit_containers_add_rec(ctx, r);
}

/*
 * --container: an id, a name or a unique id prefix among the containers
 * the log saw (lines without the string cannot name one). 0, or the exit
 * status after an error listing the candidates.
 */
static int resolve_container(struct search_args *a, int dirfd, const unsigned int *nums, size_t n)
{
	struct audit_filter pre = { .container = a->f.container };
	const char *id;
	char err[1024];
	int rc;

	scan_log(dirfd, a->dir, nums, n, false, &pre, NULL, false, container_cb, &a->ctrs);
	rc = audit_containers_resolve(&a->ctrs, a->f.container, &id, err, sizeof(err));
	if (rc)
		return cmd_error("search", rc == -2 ? EXIT_USAGE : 1, "%s", err);
	a->f.container = id;
	return 0;
}

/*
 * --ns: ns_id:ID; TYPE:INODE; a namespace file there now (its id and the
 * namespaces the log saw mounted at that path); or a path or ip netns name
 * that is gone (then its mounts in the log). 0, or an exit status.
 */
static int ns_opt(struct search_args *a, const char *val)
{
	struct nsspec ns;
	char err[512];
	long id;
	int e;

	a->has_ns = true;
	a->has_live = a->by_inode = false;
	a->ns_path = NULL;
	a->ns_arg = val;
	memset(&a->live, 0, sizeof(a->live));
	if (!strncmp(val, "ns_id:", 6)) {
		if (parse_long(val + 6, 1, LONG_MAX, &id))
			return cmd_error("search", EXIT_USAGE,
					 "--ns '%.64s': ns_id:ID needs a number, as lsns -o NS_ID "
					 "or a record's ns_id shows", val);
		a->live.type = -1;
		a->live.id = (uint64_t)id;
		a->has_live = true;
		return 0;
	}
	errno = 0;
	if (!nsspec_parse(val, true, &ns, err, sizeof(err))) {
		a->live.type = ns.type;
		a->live.inum = ns.inum;
		if (!ns.path[0]) {	/* TYPE:INODE */
			a->by_inode = true;
			return 0;
		}
		a->live.id = ns.id;
		a->has_live = true;
		if (!ns.pid) {	/* a path or name: what else was mounted there */
			snprintf(a->ns_buf, sizeof(a->ns_buf), "%s", ns.path);
			a->ns_path = a->ns_buf;
		}
		return 0;
	}
	e = errno;
	if (!nsspec_gone_path(val, a->ns_buf, sizeof(a->ns_buf)))
		return cmd_error("search", e == ENOENT || e == ESRCH ? 1 : EXIT_USAGE, "--ns: %s",
				 err);
	a->ns_path = a->ns_buf;
	return 0;
}

/* --result ok|fail|ERRNO|-N: 0, or an exit status */
static int result_opt(struct audit_filter *f, const char *val)
{
	long v;
	int e;

	if (!strcmp(val, "ok") || !strcmp(val, "success") || !strcmp(val, "yes")) {
		f->result = AUDIT_RESULT_OK;
		return 0;
	}
	if (!strcmp(val, "fail") || !strcmp(val, "failure") || !strcmp(val, "no")) {
		f->result = AUDIT_RESULT_FAIL;
		return 0;
	}
	if (!parse_long(val, -4095, -1, &v)) {
		f->result = (int)v;
		return 0;
	}
	for (e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, val)) {
			f->result = -e;
			return 0;
		}
	}
	return cmd_error("search", EXIT_USAGE,
			 "--result: '%.64s' is not ok, fail, an errno name (EPERM) or -N", val);
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
	} else if (!strcmp(name, "pid") || !strcmp(name, "uid")) {
		bool pid = name[0] == 'p';
		size_t *n = pid ? &f->n_pid : &f->n_uid;
		long v;

		if (parse_long(val, 0, pid ? INT_MAX : UINT32_MAX, &v))
			return cmd_error("search", EXIT_USAGE, "--%s: '%.64s' is not a %s id", name,
					 val, pid ? "process" : "user");
		if (*n >= AUDIT_FILTER_ANY_MAX)
			return cmd_error("search", EXIT_USAGE, "--%s: at most %d of them", name,
					 AUDIT_FILTER_ANY_MAX);
		(pid ? f->pid : f->uid)[(*n)++] = v;
	} else if (!strcmp(name, "comm") || !strcmp(name, "exe")) {
		bool comm = name[0] == 'c';
		size_t *n = comm ? &f->n_comm : &f->n_exe;

		if (!*val)
			return cmd_error("search", EXIT_USAGE, "--%s: empty", name);
		if (*n >= AUDIT_FILTER_ANY_MAX)
			return cmd_error("search", EXIT_USAGE, "--%s: at most %d of them", name,
					 AUDIT_FILTER_ANY_MAX);
		(comm ? f->comm : f->exe)[(*n)++] = val;
	} else if (!strcmp(name, "type")) {
		uint32_t m;

		if (parse_nstype_list(val, &m, err, sizeof(err)))
			return cmd_error("search", EXIT_USAGE, "--type: %s", err);
		f->types |= m;
	} else if (!strcmp(name, "result")) {
		return result_opt(f, val);
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
			return cmd_error("search", EXIT_USAGE, "--%s: '%.64s' is not a time (RFC 3339, "
					 "@EPOCH, today, this-week, 2026-12-07 08:40, 08:40, 2h, "
					 "'5 min ago', ...: see --help)", name, val);
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
	struct cmd_opts opts;
	const char *name;
	int c, rc;

	a->now = clock_ns(CLOCK_REALTIME);
	cmd_opts_set(&opts, search_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		const char *bad;
		size_t nl;

		switch (c) {
		case 'h':
			search_usage(stdout, &opts);
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
			rc = search_opt(a, name, optarg);
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
	char err[512], line[1024];
	int r;

	if (!a->vo.key_path && !a->vo.vk)
		return 0;
	a->vo.dir = a->dir;
	r = audit_verify(&a->vo, &v, err, sizeof(err));
	if (r < 0)
		return cmd_error("search", -1, "%s", err);
	if (r > 0)
		cmd_error("search", 0, "%s: the log is %s",
			  r == AUDIT_VERIFY_PARTIAL ? "note" : "warning",
			  verify_verdict_line(r, &v, line, sizeof(line)));
	return 0;
}

/*
 * Print every record of the log that a->f matches: the exit status, 0
 * matched, 1 nothing matched (said on stderr, as ausearch does), 3 the log
 * could not be read.
 */
static int search_log(struct search_args *a)
{
	struct printer pr = { .f = &a->f, .json = a->json };
	static char obuf[1 << 18];
	struct audit_flat fl = { 0 };
	unsigned int *nums = NULL;
	size_t n, all;
	int dirfd, rc;

	if (verify_first(a))
		return SEARCH_EXIT_UNREADABLE;
	dirfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || audit_seg_list(dirfd, &nums, &n)) {
		cmd_error("search", 0, "%.200s: %s", a->dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
		return SEARCH_EXIT_UNREADABLE;
	}
	if (!n) {
		close(dirfd);
		free(nums);
		return cmd_error("search", SEARCH_EXIT_UNREADABLE,
				 "%.200s: no log segments (nsaudit-NNNNNN.log)", a->dir);
	}
	if (a->has_ns && resolve_ns(a, dirfd, nums, n)) {
		free(nums);
		close(dirfd);
		return 1;
	}
	if (a->f.container && (rc = resolve_container(a, dirfd, nums, n))) {
		free(nums);
		close(dirfd);
		return rc;
	}
	/* --since: segments whose ends show they lie wholly before it are not
	 * read (segment_head.c); --until has no such bound */
	all = n;
	if (a->f.has_since)
		n = audit_seg_since(dirfd, nums, n, a->f.since_ns);
	if (!isatty(STDOUT_FILENO)) /* a pipe's 4 KiB would be a write per ~8 records */
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	/* printing every record as JSON: the plain lines' bytes, fields unread */
	scan_log(dirfd, a->dir, nums, n, true, &a->f, &fl, a->json && audit_filter_is_empty(&a->f),
		 print_match, &pr);
	audit_flat_free(&fl);
	sb_free(&pr.line);
	free(nums);
	close(dirfd);
	if (fflush(stdout) || ferror(stdout) || pr.lost)
		return cmd_error("search", SEARCH_EXIT_UNREADABLE, "writing output: %s",
				 ferror(stdout) ? strerror(errno) : "out of memory");
	if (!pr.matched && damaged_notes)
		return 1;
	if (!pr.matched)
		return cmd_error("search", 1, "no match (in %zu of %zu segment%s)", n, all,
				 all == 1 ? "" : "s");
	return 0;
}

int cmd_search(int argc, char **argv)
{
	struct search_args a = { 0 };
	int rc = parse_args(argc, argv, &a);

	damaged_notes = 0;
	if (rc < 0)
		rc = search_log(&a);
	audit_containers_free(&a.ctrs);
	return rc;
}
