// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_lifetime.c - "nsaudit lifetime NS --log-dir DIR": the timeline of one
 * namespace from a log written by "nsaudit record" (created, pinned,
 * entered, left, unpinned, freed), the holders it has now, and with
 * --follow the records that arrive later.
 *
 * The log is read with the audit module's reader (segment.h, codec.h);
 * the timeline is built by lifetime_tl.c; the holders come from holders.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "codec.h"
#include "commands.h"
#include "holders_lib.h"
#include "lifetime.h"
#include "nstype.h"
#include "search.h"
#include "segment.h"
#include "verify.h"

#define ERR(...) cmd_error("lifetime", 0, __VA_ARGS__)

/* How often --follow looks at the newest segment. */
#define FOLLOW_POLL_NS 200000000L
/* Most bytes --follow reads at once (records are at most 1 MiB). */
#define FOLLOW_CHUNK (4u << 20)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct reader {
	const char *dir;
	int dirfd;
	uint64_t skipped;
	/* where reading stopped: the newest segment and the offset after its
	 * last complete line (for --follow) */
	unsigned int seg;
	size_t off;
};

typedef void (*rec_fn)(void *ctx, json_object *rec);

static void skipped_line(struct reader *rd, const char *name, uint64_t lineno, const char *why)
{
	if (++rd->skipped <= 10)
		ERR("%.200s/%s line %" PRIu64 ": skipped: %s", rd->dir, name, lineno, why);
}

/* Every record of every segment, oldest first. 0, or -1 with errno. */
static int read_log(struct reader *rd, rec_fn fn, void *ctx)
{
	unsigned int *nums = NULL;
	char err[512];
	size_t n, i;

	if (audit_seg_list(rd->dirfd, &nums, &n))
		return -1;
	rd->seg = n ? nums[n - 1] : 0;
	rd->off = 0;
	for (i = 0; i < n; i++) {
		char name[AUDIT_SEG_NAME_MAX];
		struct audit_seg seg;
		const char *line;
		size_t len, start;
		bool complete;

		audit_seg_name(nums[i], name);
		if (audit_seg_read(rd->dirfd, name, &seg, err, sizeof(err))) {
			ERR("%.200s/%s: skipped", rd->dir, err);
			continue;
		}
		for (start = seg.off; audit_seg_next(&seg, &line, &len, &complete);
		     start = seg.off) {
			struct audit_rec r;

			if (!complete) {
				/* the recorder is writing it: --follow reads it later */
				seg.off = start;
				break;
			}
			if (audit_rec_parse(line, len, &r, err, sizeof(err))) {
				skipped_line(rd, name, seg.lineno, err);
				continue;
			}
			fn(ctx, r.obj);
			audit_rec_free(&r);
		}
		if (i + 1 == n)
			rd->off = seg.off;
		audit_seg_free(&seg);
	}
	free(nums);
	return 0;
}

/* ---- a name that is gone: the last mount at that path in the log ------- */

struct find_mount {
	const char *path;
	int type;
	uint32_t inum;
	bool found;
};

static void find_mount_cb(void *ctx, json_object *rec)
{
	struct find_mount *f = ctx;
	int type;
	uint32_t inum;

	if (audit_rec_mount_at(rec, f->path, &type, &inum)) {
		f->type = type;
		f->inum = inum;
		f->found = true;
	}
}

/* ---- output ------------------------------------------------------------ */

struct out {
	struct lt_timeline tl;
	bool json;
	bool live; /* --follow, past the history: print each event now */
};

static void print_json(json_object *o)
{
	struct sbuf b = {0};

	if (!o)
		return;
	audit_json_object(&b, o);
	if (!b.oom)
		printf("%s\n", b.p);
	sb_free(&b);
	json_object_put(o);
}

static void print_live(struct out *o, const struct lt_event *e)
{
	if (o->json) {
		print_json(lt_event_json(&o->tl, e));
		return;
	}
	if (e->new_inc)
		lt_print_inc_head(stdout, &o->tl, e->inc);
	lt_print_event(stdout, &o->tl, e);
}

static void add_cb(void *ctx, json_object *rec)
{
	struct out *o = ctx;
	const struct lt_event *e;
	json_object *pid;

	/* our own holders scan opens the namespace's bind mounts: not news */
	if (o->live && json_object_object_get_ex(rec, "pid", &pid) &&
	    json_object_get_int64(pid) == (int64_t)getpid())
		return;
	e = lt_add(&o->tl, rec);
	if (e && o->live)
		print_live(o, e);
}

/* Ask the holders code about the last incarnation (its JSON; the text form
 * is printed where it belongs, by a second scan). */
static void check_now(struct out *o)
{
	struct lt_inc *c;
	json_object *h = NULL;
	char err[512];
	uint64_t id = 0;
	int r;

	if (!o->tl.ninc)
		return;
	c = &o->tl.inc[o->tl.ninc - 1];
	if (c->state != LT_OPEN)
		return;
	r = holders_now(o->tl.type, o->tl.inum, "  ", &h, &id, err, sizeof(err));
	if (r < 0) {
		ERR("holders now: %s", err);
		c->state = LT_UNKNOWN;
	} else if (r == 0) {
		c->state = LT_GONE;
	} else if (id && c->ns_id && id != c->ns_id) {
		c->state = LT_GONE_REUSED;
		c->now_id = id;
		json_object_put(h);
	} else {
		c->state = LT_ALIVE;
		c->holders = h;
	}
}

/* ---- --follow ---------------------------------------------------------- */

static bool newer_segment(int dirfd, unsigned int cur, unsigned int *next)
{
	unsigned int *nums = NULL;
	size_t n, i;
	bool found = false;

	if (audit_seg_list(dirfd, &nums, &n))
		return false;
	for (i = 0; i < n && !found; i++)
		if (nums[i] > cur) {
			*next = nums[i];
			found = true;
		}
	free(nums);
	return found;
}

/* Read what was appended to segment rd->seg since rd->off. 1 something
 * read, 0 nothing new, -1 the segment is gone. */
static int follow_once(struct reader *rd, char *buf, rec_fn fn, void *ctx)
{
	char name[AUDIT_SEG_NAME_MAX], err[512];
	struct stat st;
	size_t want, used = 0;
	ssize_t got;
	int fd;

	audit_seg_name(rd->seg, name);
	fd = openat(rd->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -1 : 0;
	if (fstat(fd, &st) || (size_t)st.st_size <= rd->off) {
		close(fd);
		return 0;
	}
	want = (size_t)st.st_size - rd->off;
	if (want > FOLLOW_CHUNK)
		want = FOLLOW_CHUNK;
	got = pread(fd, buf, want, (off_t)rd->off);
	close(fd);
	if (got <= 0)
		return 0;
	while (used < (size_t)got) {
		char *nl = memchr(buf + used, '\n', (size_t)got - used);
		struct audit_rec r;
		size_t len;

		if (!nl)
			break; /* unfinished: next time */
		len = (size_t)(nl - (buf + used));
		if (len) {
			if (audit_rec_parse(buf + used, len, &r, err, sizeof(err)))
				skipped_line(rd, name, 0, err);
			else {
				fn(ctx, r.obj);
				audit_rec_free(&r);
			}
		}
		used += len + 1;
	}
	rd->off += used;
	return used > 0;
}

static int follow(struct reader *rd, rec_fn fn, void *ctx)
{
	struct timespec ts = {0, FOLLOW_POLL_NS};
	char seg[AUDIT_SEG_NAME_MAX];
	char *buf = malloc(FOLLOW_CHUNK);
	unsigned int next;

	if (!buf) {
		ERR("--follow: %s", strerror(ENOMEM));
		return 1;
	}
	audit_seg_name(rd->seg, seg);
	cmd_error("lifetime", 0, "following %s/%s (Ctrl-C stops)", rd->dir,
		  rd->seg ? seg : "nsaudit-*.log");
	while (!stop) {
		int r = rd->seg ? follow_once(rd, buf, fn, ctx) : 0;

		if (r > 0) {
			fflush(stdout);
			continue;
		}
		/* nothing new here: the recorder may have moved on (rotation),
		 * or not started yet */
		if (newer_segment(rd->dirfd, rd->seg, &next)) {
			if (r == 0 && rd->seg && follow_once(rd, buf, fn, ctx) > 0)
				continue; /* written just before the rotation */
			rd->seg = next;
			rd->off = 0;
			continue;
		}
		fflush(stdout);
		nanosleep(&ts, NULL);
	}
	free(buf);
	fflush(stdout);
	return 0;
}

/* ---- command ----------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "Usage: nsaudit lifetime NS --log-dir DIR [--key FILE] [--format text|json]\n"
		   "                        [--follow]\n\n"
		   "The timeline of one namespace from a log written by 'nsaudit record':\n"
		   "  created   by whom (unshare, clone whose new namespace it is)\n"
		   "  pinned    open of its file, bind mount, nsfd\n"
		   "  entered   setns into it (refused: a setns that failed)\n"
		   "  left      setns or unshare away from it\n"
		   "  unpinned  umount of a bind mount of it\n"
		   "  freed     an ns_free record (patched kernel); on stock kernels inferred:\n"
		   "            when no holder is left now, 'no holders now: freed after' its\n"
		   "            last record\n"
		   "and, for a namespace still alive, its holders now (as 'nsaudit holders').\n\n"
		   "Inode numbers are reused once a namespace is freed; records of 6.18+\n"
		   "kernels carry ns_id, which is not, and each namespace that had the inode is\n"
		   "shown on its own ('namespace 1 of 2 with this inode').\n\n"
		   "NS is TYPE:INODE, TYPE:[INODE], PID:TYPE, a path (/proc/PID/ns/TYPE,\n"
		   "/run/netns/NAME, a bind-mounted namespace file) or an ip netns name. A\n"
		   "path or name that no longer exists is looked up in the log (the last\n"
		   "mount there); TYPE:INODE always works.\n\n"
		   "Options:\n"
		   "  --log-dir DIR   the log directory (required)\n"
		   "  --key FILE      verify the log with this key first (default DIR/.key\n"
		   "                  if there is one); a log that is not intact is reported\n"
		   "                  on stderr (the timeline still prints)\n"
		   "  --format FMT    text (default): one line per event; json: the matching\n"
		   "                  records with \"event\" and \"incarnation\" added, then one\n"
		   "                  {\"lifetime\":{...}} summary object\n"
		   "  --follow        then keep printing new records of it as the recorder\n"
		   "                  appends them (follows rotation); Ctrl-C stops\n"
		   "  -h, --help      this help\n\n"
		   "Exit status: 0 shown, 1 not in the log and not alive now (or the log is\n"
		   "unreadable), 2 usage error.\n\n"
		   "Examples:\n"
		   "  nsaudit lifetime blue --log-dir /var/log/nsaudit        # ip netns blue\n"
		   "  nsaudit lifetime net:4026532289 --log-dir /var/log/nsaudit\n"
		   "  nsaudit lifetime 1234:uts --log-dir /var/log/nsaudit --format json\n"
		   "  nsaudit lifetime /run/netns/blue --log-dir /var/log/nsaudit --follow\n");
}

/* NS as given, or for a name that is gone, the last mount there per the log. */
static int resolve(const char *arg, struct reader *rd, struct nsspec *spec)
{
	struct find_mount fm = {0};
	char err[512], path[4096];
	int e;

	errno = 0;
	if (!nsspec_parse(arg, true, spec, err, sizeof(err)))
		return 0;
	e = errno;
	if (!nsspec_gone_path(arg, path, sizeof(path))) {
		ERR("%s", err);
		if (strchr(arg, ':') && arg[0] != '/')
			return e == ENOENT || e == ESRCH ? 1 : EXIT_USAGE;
		return 1;
	}
	fm.path = path;
	if (read_log(rd, find_mount_cb, &fm)) {
		ERR("%.200s: %s", rd->dir, strerror(errno));
		return 1;
	}
	if (!fm.found) {
		ERR("%.200s: no such namespace file, and no mount there in the log (give "
		    "TYPE:INODE)",
		    path);
		return 1;
	}
	nstype_label(err, sizeof(err), fm.type, fm.inum);
	cmd_error("lifetime", 0,
		  "note: %.200s no longer exists; showing %s, the last namespace mounted "
		  "there per the log",
		  path, err);
	memset(spec, 0, sizeof(*spec));
	spec->type = fm.type;
	spec->inum = fm.inum;
	return 0;
}

int cmd_lifetime(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"log-dir", required_argument, NULL, 'd'}, {"key", required_argument, NULL, 'k'},
	    {"format", required_argument, NULL, 'f'},  {"follow", no_argument, NULL, 'F'},
	    {"help", no_argument, NULL, 'h'},	       {NULL, 0, NULL, 0},
	};
	const char *key = NULL, *arg;
	struct reader rd = {.dirfd = -1};
	struct audit_verify v;
	struct nsspec spec;
	struct out o = {0};
	json_object *now = NULL;
	bool do_follow = false, verified = false, intact = false;
	char err[512], lab[48];
	int c, ret = 1;
	size_t i, j;

	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":d:k:f:Fh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			rd.dir = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				o.json = true;
			else if (strcmp(optarg, "text")) {
				ERR("--format: unknown format '%.32s' (text, json)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			do_follow = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			ERR("%s: needs a value (try 'nsaudit lifetime --help')", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			ERR("%s: unknown option (try 'nsaudit lifetime --help')",
			    cmd_bad_option(argv));
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		ERR("which namespace? give NS (try 'nsaudit lifetime --help')");
		return EXIT_USAGE;
	}
	if (argc - optind > 1) {
		ERR("%.64s: one namespace at a time (try 'nsaudit lifetime --help')",
		    argv[optind + 1]);
		return EXIT_USAGE;
	}
	arg = argv[optind];
	if (!rd.dir || !*rd.dir) {
		ERR("--log-dir DIR is required (try 'nsaudit lifetime --help')");
		return EXIT_USAGE;
	}

	rd.dirfd = open(rd.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd.dirfd < 0) {
		ERR("%.200s: %s", rd.dir, strerror(errno));
		return 1;
	}
	c = resolve(arg, &rd, &spec);
	if (c) {
		close(rd.dirfd);
		return c;
	}
	/* record's default key, where it is: as verify does */
	if (key || faccessat(rd.dirfd, ".key", R_OK, 0) == 0) {
		int r = audit_verify_dir(rd.dir, key, false, &v, err, sizeof(err));

		if (r < 0) {
			ERR("--key: %s", err);
			goto out;
		}
		verified = true;
		intact = r == 0;
		if (!intact)
			ERR("warning: the log is not intact: %s: %s (the timeline may be "
			    "wrong)",
			    v.where, v.what);
	}

	lt_init(&o.tl, spec.type, spec.inum);
	if (read_log(&rd, add_cb, &o)) {
		ERR("%.200s: %s", rd.dir, strerror(errno));
		goto out;
	}
	if (!rd.seg)
		ERR("%.200s: no log segments (nsaudit-NNNNNN.log)", rd.dir);
	if (o.tl.oom) {
		ERR("%s", strerror(ENOMEM));
		goto out;
	}
	if (rd.skipped > 10)
		ERR("%" PRIu64 " damaged lines skipped in all", rd.skipped);
	lt_finish(&o.tl);
	nstype_label(lab, sizeof(lab), o.tl.type, o.tl.inum);
	if (!o.tl.ninc) {
		/* nothing in the log: maybe it is alive and was never acted on */
		uint64_t id;
		int r = holders_now(o.tl.type, o.tl.inum, "  ", &now, &id, err, sizeof(err));

		if (r <= 0 && !do_follow) {
			ERR("%s: not in the log (%" PRIu64 " records) and %s", lab, o.tl.records,
			    r < 0 ? err : "no such namespace now");
			goto out;
		}
		if (r > 0 && !o.json) {
			printf("%s: no records of it in %s (%" PRIu64 " records); alive now, "
			       "held by:\n",
			       lab, rd.dir, o.tl.records);
			fflush(stdout);
			holders_now(o.tl.type, o.tl.inum, "  ", NULL, &id, err, sizeof(err));
		}
	} else {
		check_now(&o);
	}

	if (o.json) {
		for (i = 0; i < o.tl.nev; i++)
			print_json(lt_event_json(&o.tl, &o.tl.ev[i]));
		json_object *s = lt_summary_json(&o.tl), *l;

		if (json_object_object_get_ex(s, "lifetime", &l)) {
			json_object_object_add(l, "log_dir", json_object_new_string(rd.dir));
			json_object_object_add(l, "verified",
					       verified ? json_object_new_boolean(intact) : NULL);
			if (now) /* alive, but not in the log */
				json_object_object_add(l, "holders_now", json_object_get(now));
		}
		print_json(s);
	} else if (o.tl.ninc) {
		printf("%s: %zu of %" PRIu64 " records in %s are about it%s", lab, o.tl.nev,
		       o.tl.records, rd.dir,
		       !verified ? " (not verified: no --key, no DIR/.key)\n"
		       : intact	 ? " (verified intact)\n"
				 : " (NOT INTACT: see stderr)\n");
		if (o.tl.ninc > 1)
			printf("%zu namespaces had this inode one after another (inode numbers "
			       "are reused; the records' ns_id tells them apart)\n",
			       o.tl.ninc);
		for (i = 0; i < o.tl.ninc; i++) {
			const struct lt_inc *ic = &o.tl.inc[i];

			lt_print_inc_head(stdout, &o.tl, i);
			for (j = ic->first; j <= ic->last; j++)
				if (o.tl.ev[j].inc == i)
					lt_print_event(stdout, &o.tl, &o.tl.ev[j]);
			lt_print_inc_end(stdout, &o.tl, i);
			if (ic->state == LT_ALIVE) {
				uint64_t id;

				fflush(stdout);
				/* print the holders (text) */
				err[0] = '\0';
				if (holders_now(o.tl.type, o.tl.inum, "  ", NULL, &id, err,
						sizeof(err)) <= 0)
					printf("  (gone since: %s)\n",
					       *err ? err : "no holders left now");
			}
		}
	}
	ret = 0;
	if (do_follow) {
		struct sigaction sa = {.sa_handler = on_signal};

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		setvbuf(stdout, NULL, _IOLBF, 0);
		fflush(stdout);
		o.live = true;
		ret = follow(&rd, add_cb, &o);
	}
	if (fflush(stdout)) {
		ERR("writing output: %s", strerror(errno));
		ret = 1;
	}
out:
	json_object_put(now);
	lt_free(&o.tl);
	close(rd.dirfd);
	return ret;
}
