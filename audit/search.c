// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* search.c - "nsaudit search": filter records across segments, like ausearch. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "commands.h"
#include "nstype.h"
#include "search.h"
#include "segment.h"

int audit_time_arg(const char *s, int64_t now_ns, int64_t *ns)
{
	char *end;

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "now")) {
		*ns = now_ns;
		return 0;
	}
	if (s[0] == '@') {
		double d;

		if (!s[1] || s[1] == ' ' || s[1] == '+')
			return -1;
		errno = 0;
		d = strtod(s + 1, &end);
		if (errno || *end || d < -9.2e9 || d > 9.2e9)
			return -1;
		*ns = (int64_t)(d * 1e9);
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9' && strlen(s) < 12 && !strchr(s, '-')) {
		static const struct {
			char unit;
			int64_t ns;
		} units[] = {{'s', 1000000000LL},
			     {'m', 60000000000LL},
			     {'h', 3600000000000LL},
			     {'d', 86400000000000LL}};
		unsigned long v;
		size_t i;

		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || !end[0] || end[1] || v > 100000000)
			return -1;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (*end == units[i].unit && (int64_t)v <= INT64_MAX / units[i].ns) {
				*ns = now_ns - (int64_t)v * units[i].ns;
				return 0;
			}
		return -1;
	}
	return audit_time_parse(s, ns);
}

bool audit_filter_match(const struct audit_filter *f, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL);
	int64_t v, old;

	if (f->ops || f->op_log) {
		int o = op ? op_from_name(op) : -1;
		bool ok =
		    (o > 0 && (f->ops & (1u << o))) || (f->op_log && op && !strcmp(op, "log"));

		if (!ok)
			return false;
	}
	if (f->n_ns) {
		const char *t = audit_rec_str(r, "ns_type", NULL);
		bool has_new = audit_rec_int(r, "ns_inum", &v);
		bool has_old = audit_rec_int(r, "old_inum", &old);
		bool hit = false;
		size_t i;

		for (i = 0; i < f->n_ns && !hit; i++) {
			if (f->ns[i].type >= 0 &&
			    (!t || strcmp(t, nstype_name((unsigned int)f->ns[i].type))))
				continue;
			hit = (has_new && v == f->ns[i].inum) || (has_old && old == f->ns[i].inum);
		}
		if (!hit)
			return false;
	}
	if (f->has_pid && !(audit_rec_int(r, "pid", &v) && v == f->pid))
		return false;
	if (f->has_uid && !(audit_rec_int(r, "uid", &v) && v == f->uid))
		return false;
	if (f->comm) {
		size_t len;
		const char *c = audit_rec_str(r, "comm", &len);

		if (!c || len != strlen(f->comm) || memcmp(c, f->comm, len))
			return false;
	}
	if (f->has_since || f->has_until) {
		const char *t = audit_rec_str(r, "time", NULL);
		int64_t ns;

		if (!t || audit_time_parse(t, &ns))
			return false;
		if (f->has_since && ns < f->since_ns)
			return false;
		if (f->has_until && ns > f->until_ns)
			return false;
	}
	return true;
}

static void print_value(FILE *out, struct json_object *v)
{
	if (json_object_is_type(v, json_type_string)) {
		audit_text_escape(out, json_object_get_string(v),
				  (size_t)json_object_get_string_len(v));
	} else {
		struct sbuf b = {0};

		audit_json_object(&b, v);
		if (!b.oom)
			audit_text_escape(out, b.p, b.len);
		sb_free(&b);
	}
}

void audit_print_text(FILE *out, const struct audit_rec *r)
{
	const char *time = audit_rec_str(r, "time", NULL), *op = audit_rec_str(r, "op", NULL);
	const char *type = audit_rec_str(r, "ns_type", NULL);
	int64_t inum, old;
	bool has_inum = audit_rec_int(r, "ns_inum", &inum),
	     has_old = audit_rec_int(r, "old_inum", &old);

	if (time)
		audit_text_escape(out, time, strlen(time));
	else
		fputs("-", out);
	fprintf(out, " seq=%" PRIu64 " ", r->seq);
	if (op)
		audit_text_escape(out, op, strlen(op));
	else
		fputs("?", out);
	if (type && has_inum) {
		fputc(' ', out);
		audit_text_escape(out, type, strlen(type));
		fprintf(out, ":[%" PRId64 "]", inum);
	}
	if (type && has_old && old) {
		fputs(" from ", out);
		audit_text_escape(out, type, strlen(type));
		fprintf(out, ":[%" PRId64 "]", old);
	}
	json_object_object_foreach(r->obj, k, v)
	{
		if (!strcmp(k, "time") || !strcmp(k, "seq") || !strcmp(k, "op") ||
		    (type && has_inum && (!strcmp(k, "ns_type") || !strcmp(k, "ns_inum"))) ||
		    (type && has_old && old && !strcmp(k, "old_inum")))
			continue;
		fputc(' ', out);
		audit_text_escape(out, k, strlen(k));
		fputc('=', out);
		print_value(out, v);
	}
	fputc('\n', out);
}

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
				fprintf(stderr, "nsaudit search: %.200s/%s: skipped\n", dir, err);
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

static const char *json_str(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool audit_rec_mount_at(struct json_object *rec, const char *path, int *type, uint32_t *inum)
{
	const char *op = json_str(rec, "op"), *p = json_str(rec, "path");
	const char *t = json_str(rec, "ns_type");
	struct json_object *v, *res;
	int64_t i;

	if (!op || strcmp(op, "mount") || !p || strcmp(p, path) || !t ||
	    !json_object_object_get_ex(rec, "ns_inum", &v) || !json_object_is_type(v, json_type_int))
		return false;
	if (json_object_object_get_ex(rec, "result", &res) && json_object_get_int64(res))
		return false;
	i = json_object_get_int64(v);
	if (i <= 0 || i > UINT32_MAX)
		return false;
	*type = nstype_from_name(t);
	*inum = (uint32_t)i;
	return *type >= 0;
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
		fprintf(stderr,
			"nsaudit search: --ns: %.200s: no such namespace file, and no mount "
			"there in the log (give TYPE:INODE)\n",
			path);
		return -1;
	}
	fprintf(stderr,
		"nsaudit search: note: %.200s no longer exists; matching the %zu namespace%s "
		"the log saw mounted there\n",
		path, f->n_ns, f->n_ns == 1 ? "" : "s");
	return 0;
}

int cmd_search(int argc, char **argv)
{
	struct audit_filter f = {0};
	struct printer pr = {0};
	const char *dir = NULL, *gone_path = NULL;
	bool json = false;
	uint64_t matched;
	unsigned int *nums = NULL;
	struct timespec now;
	char err[512], gone_buf[4096];
	int64_t now_ns;
	size_t n;
	int dirfd, k;

	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	for (k = 1; k < argc; k++) {
		const char *a = argv[k], *val;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			search_usage(stdout);
			return 0;
		}
		if (strncmp(a, "--", 2) || !strcmp(a, "--")) {
			fprintf(stderr,
				"nsaudit search: unexpected argument '%.64s' (try --help)\n", a);
			return EXIT_USAGE;
		}
		{
			static const char *const known[] = {"--log-dir", "--op",    "--ns",
							    "--pid",	 "--uid",   "--comm",
							    "--since",	 "--until", "--format"};
			size_t nl = strcspn(a, "="), j;

			for (j = 0; j < sizeof(known) / sizeof(known[0]); j++)
				if (strlen(known[j]) == nl && !strncmp(a, known[j], nl))
					break;
			if (j == sizeof(known) / sizeof(known[0])) {
				fprintf(stderr,
					"nsaudit search: unknown option '%.*s' (try --help)\n",
					(int)(nl < 64 ? nl : 64), a);
				return EXIT_USAGE;
			}
		}
		if (strchr(a, '=')) {
			static char name[32];
			size_t nl = (size_t)(strchr(a, '=') - a);

			if (nl >= sizeof(name))
				nl = sizeof(name) - 1;
			memcpy(name, a, nl);
			name[nl] = '\0';
			val = strchr(a, '=') + 1;
			a = name;
		} else if (k + 1 < argc) {
			val = argv[++k];
		} else {
			fprintf(stderr, "nsaudit search: %.64s: needs a value (try --help)\n", a);
			return EXIT_USAGE;
		}
		if (!strcmp(a, "--log-dir")) {
			dir = val;
		} else if (!strcmp(a, "--op")) {
			if (parse_ops(val, &f, err, sizeof(err)))
				goto usage;
		} else if (!strcmp(a, "--ns")) {
			struct nsspec ns;

			f.n_ns = 0;
			gone_path = NULL;
			errno = 0;
			if (nsspec_parse(val, true, &ns, err, sizeof(err))) {
				int e = errno;

				/* a name that is gone: look for its mounts in the log */
				if (!nsspec_gone_path(val, gone_buf, sizeof(gone_buf))) {
					fprintf(stderr, "nsaudit search: --ns: %s\n", err);
					return e == ENOENT || e == ESRCH ? 1 : EXIT_USAGE;
				}
				gone_path = gone_buf;
			} else {
				f.n_ns = 1;
				f.ns[0].type = ns.type;
				f.ns[0].inum = ns.inum;
			}
		} else if (!strcmp(a, "--pid")) {
			f.has_pid = true;
			if (parse_long(val, 0, INT_MAX, &f.pid)) {
				snprintf(err, sizeof(err), "--pid: '%.64s' is not a process id",
					 val);
				goto usage;
			}
		} else if (!strcmp(a, "--uid")) {
			f.has_uid = true;
			if (parse_long(val, 0, UINT32_MAX, &f.uid)) {
				snprintf(err, sizeof(err), "--uid: '%.64s' is not a user id", val);
				goto usage;
			}
		} else if (!strcmp(a, "--comm")) {
			f.comm = val;
		} else if (!strcmp(a, "--since") || !strcmp(a, "--until")) {
			bool since = a[2] == 's';

			if (audit_time_arg(val, now_ns, since ? &f.since_ns : &f.until_ns)) {
				snprintf(err, sizeof(err),
					 "%s: '%.64s' is not a time (RFC 3339, "
					 "@EPOCH, now, or ago as 10m, 2h, 7d)",
					 a, val);
				goto usage;
			}
			*(since ? &f.has_since : &f.has_until) = true;
		} else if (!strcmp(a, "--format")) {
			if (strcmp(val, "json") && strcmp(val, "text")) {
				snprintf(err, sizeof(err),
					 "--format: unknown format '%.64s' "
					 "(json, text)",
					 val);
				goto usage;
			}
			json = !strcmp(val, "json");
		} else {
			fprintf(stderr, "nsaudit search: unknown option '%.64s' (try --help)\n", a);
			return EXIT_USAGE;
		}
	}
	if (!dir || !*dir) {
		fprintf(stderr, "nsaudit search: --log-dir DIR is required (try --help)\n");
		return EXIT_USAGE;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || audit_seg_list(dirfd, &nums, &n)) {
		fprintf(stderr, "nsaudit search: %.200s: %s\n", dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
		return 1;
	}
	if (!n)
		fprintf(stderr, "nsaudit search: %.200s: no log segments (nsaudit-NNNNNN.log)\n",
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
	if (fflush(stdout)) {
		fprintf(stderr, "nsaudit search: writing output: %s\n", strerror(errno));
		return 1;
	}
	return matched ? 0 : 1;
usage:
	fprintf(stderr, "nsaudit search: %s\n", err);
	return EXIT_USAGE;
}
