// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_lifetime.c - "nsaudit lifetime NS --log-dir DIR": the timeline of one
 * namespace from a log written by "nsaudit record" (created, pinned,
 * entered, left, unpinned, let_go, freed), the holders it has now, and with
 * --follow the records that arrive later.
 *
 * The log is read with the audit module's reader (segment.h, codec.h);
 * the timeline is built by timeline.c; the holders come from holders_model.c.
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
#include "holders/holders_lib.h"
#include "lifetime/lifetime.h"
#include "lifetime/log_reader.h"
#include "nstype.h"
#include "search.h"
#include "segment.h"
#include "verify.h"

#define ERR(...) cmd_error("lifetime", 0, __VA_ARGS__)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* ---- a name that is gone: the last mount at that path in the log ------- */

struct find_mount {
	const char *path;
	int type;
	uint32_t inum;
	uint64_t seq, id;	/* the mount record's, and its ns_id (0: none) */
	bool found;
};

static void find_mount_cb(void *ctx, json_object *rec)
{
	struct find_mount *f = ctx;
	json_object *v;
	int type;
	uint32_t inum;

	if (audit_rec_mount_at(rec, f->path, &type, &inum)) {
		f->type = type;
		f->inum = inum;
		f->seq = json_object_object_get_ex(rec, "seq", &v) ?
				 (uint64_t)json_object_get_int64(v) : 0;
		f->id = json_object_object_get_ex(rec, "ns_id", &v) ?
				(uint64_t)json_object_get_int64(v) : 0;
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

/* ---- command ----------------------------------------------------------- */

static const struct optab lifetime_optab[] = {
	OPTAB_HEADING("Options:"),
	{ "log-dir", 'd', "DIR", "the log directory (required)" },
	{ "key", 'k', "FILE",
	  "verify the log with this key first (default DIR/.key\n"
	  "if there is one); verify's verdict is said on stderr\n"
	  "and after the first line (the timeline still prints;\n"
	  "JSON: verified, and verify_status as verify exits)" },
	{ "verification-key", 'V', "KEY", "the same with the key 'nsaudit keygen' printed" },
	{ "format", 'f', "FMT",
	  "text (default): one line per event; json: the matching\n"
	  "records with \"event\" and \"incarnation\" added, then one\n"
	  "{\"lifetime\":{...}} summary object" },
	{ "follow", 'F', NULL,
	  "then keep printing new records of it as the recorder\n"
	  "appends them (follows rotation); Ctrl-C stops" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

static void usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f, "Usage: nsaudit lifetime NS --log-dir DIR [--key FILE | --verification-key KEY]\n"
		   "                        [--format text|json]\n"
		   "                        [--follow]\n\n"
		   "The timeline of one namespace from a log written by 'nsaudit record':\n"
		   "  created   by whom (unshare, clone whose new namespace it is)\n"
		   "  pinned    open of its file, bind mount, nsfd\n"
		   "  entered   setns into it (refused: a setns that failed)\n"
		   "  left      setns or unshare away from it\n"
		   "  unpinned  umount of a bind mount of it\n"
		   "  let_go    (stock kernels, --op ...,freed) a holder went and it lived\n"
		   "            on: a task's nsproxy (exit, exec, setns or unshare away),\n"
		   "            its nsfs file (its last fd and bind mount gone), for net a\n"
		   "            UNIX, TCP or UDP socket freed, for user a child user\n"
		   "            namespace freed (named), with the references left\n"
		   "  freed     an ns_free record (patched kernel); on stock kernels the\n"
		   "            records of a recorder run with --op ...,freed: the moment its\n"
		   "            last reference went and the holder that let go last (a task,\n"
		   "            an fd, a bind mount (for mnt: the umount that removed it,\n"
		   "            named), a socket, a child user namespace, a user\n"
		   "            namespace's free work), net's cleanup, the kernel's\n"
		   "            release; then how long\n"
		   "            it lived and how long after its last name was removed.\n"
		   "            Without them, inferred: when no holder is left now, 'no\n"
		   "            holders now: freed after' its last record\n"
		   "and, for a namespace still alive, its holders now (as 'nsaudit holders').\n\n"
		   "Inode numbers are reused once a namespace is freed; records of 6.18+\n"
		   "kernels carry ns_id, which is not, and each namespace that had the inode is\n"
		   "shown on its own ('namespace 1 of 2 with this inode'). TYPE:INODE shows\n"
		   "them all; a path, a name or PID:TYPE only the one it names.\n\n"
		   "NS is TYPE:INODE, TYPE:[INODE], PID:TYPE, a path (/proc/PID/ns/TYPE,\n"
		   "/run/netns/NAME, a bind-mounted namespace file) or an ip netns name. A\n"
		   "path or name that no longer exists is looked up in the log (the last\n"
		   "mount there); TYPE:INODE always works.\n\n");
	cmd_help(f, opts);
	fprintf(f, "\n"
		   "Exit status: 0 shown, 1 not in the log and not alive now (or the log is\n"
		   "unreadable), 2 usage error.\n\n"
		   "Examples:\n"
		   "  nsaudit lifetime blue --log-dir /var/log/nsaudit        # ip netns blue\n"
		   "  nsaudit lifetime net:4026532289 --log-dir /var/log/nsaudit\n"
		   "  nsaudit lifetime 1234:uts --log-dir /var/log/nsaudit --format json\n"
		   "  nsaudit lifetime /run/netns/blue --log-dir /var/log/nsaudit --follow\n");
}

/* NS as given, or for a name that is gone, the last mount there per the log
 * (its record's seq into *mount_seq). */
static int resolve(const char *arg, struct log_reader *rd, struct nsspec *spec,
		   uint64_t *mount_seq)
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
	if (log_read(rd, find_mount_cb, &fm)) {
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
	spec->id = fm.id;
	*mount_seq = fm.seq;
	return 0;
}

/* One run of the command. */
struct lifetime {
	struct log_reader rd;
	struct out o;
	const char *key, *vk, *arg; /* --key, --verification-key, NS */
	bool follow;
	bool verified;
	int verdict;	  /* audit_verify()'s, when verified */
	json_object *now; /* holders now of a namespace alive but not in the log */
	char lab[48];	  /* "net:[4026532289]" */
	/* NS named one namespace (a path, a name, PID:TYPE): its ns_id, or for
	 * a gone name the seq of the last mount there; the incarnation they
	 * pick (SIZE_MAX: all are shown, as for TYPE:INODE) */
	uint64_t want_id, want_seq;
	size_t only;
};

/* The incarnation the name given names, when the inode had several. */
static size_t named_incarnation(const struct lifetime *lt)
{
	const struct lt_timeline *tl = &lt->o.tl;
	size_t i;

	if (tl->ninc < 2)
		return SIZE_MAX;
	for (i = 0; i < tl->nev; i++)
		if (lt->want_seq && tl->ev[i].seq == lt->want_seq)
			return tl->ev[i].inc;
	for (i = 0; i < tl->ninc; i++)
		if (lt->want_id && tl->inc[i].ns_id == lt->want_id)
			return i;
	return SIZE_MAX;
}

/* The command line into lt: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct lifetime *lt)
{
	struct cmd_opts opts;
	const char *name;
	int c;

	cmd_opts_set(&opts, lifetime_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'd':
			lt->rd.dir = optarg;
			break;
		case 'k':
			lt->key = optarg;
			break;
		case 'V':
			lt->vk = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				lt->o.json = true;
			else if (strcmp(optarg, "text")) {
				ERR("--format: unknown format '%.32s' (text, json)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			lt->follow = true;
			break;
		case 'h':
			usage(stdout, &opts);
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
	lt->arg = argv[optind];
	if (!lt->rd.dir || !*lt->rd.dir) {
		ERR("--log-dir DIR is required (try 'nsaudit lifetime --help')");
		return EXIT_USAGE;
	}
	return -1;
}

/* With --key or record's default key DIR/.key, verify the log first (as
 * verify does); a log that is not intact is a warning. 0, or -1. */
static int verify_first(struct lifetime *lt)
{
	struct audit_verify_opts vo = {.dir = lt->rd.dir, .key_path = lt->key, .vk = lt->vk};
	struct audit_verify v;
	char err[512], line[1024];
	int r;

	if (!lt->key && !lt->vk && faccessat(lt->rd.dirfd, ".key", R_OK, 0))
		return 0;
	r = audit_verify(&vo, &v, err, sizeof(err));
	if (r < 0) {
		ERR("%s%s", lt->vk ? "--verification-key: " : "--key: ", err);
		return -1;
	}
	lt->verified = true;
	lt->verdict = r;
	if (r == AUDIT_VERIFY_PARTIAL)
		ERR("note: the log is %s", verify_verdict_line(r, &v, line, sizeof(line)));
	else if (r > 0)
		ERR("warning: the log is %s (the timeline may be wrong)",
		    verify_verdict_line(r, &v, line, sizeof(line)));
	return 0;
}

/*
 * Nothing in the log: maybe it is alive and was never acted on. 0 to go on
 * (alive, or --follow waits for it), -1 when there is nothing to show.
 */
static int not_in_log(struct lifetime *lt)
{
	struct lt_timeline *tl = &lt->o.tl;
	char err[512];
	uint64_t id;
	int r = holders_now(tl->type, tl->inum, "  ", &lt->now, &id, err, sizeof(err));

	if (r <= 0 && !lt->follow) {
		ERR("%s: not in the log (%" PRIu64 " records) and %s", lt->lab, tl->records,
		    r < 0 ? err : "no such namespace now");
		return -1;
	}
	if (r > 0 && !lt->o.json) {
		printf("%s: no records of it in %s (%" PRIu64 " records); alive now, "
		       "held by:\n",
		       lt->lab, lt->rd.dir, tl->records);
		fflush(stdout);
		holders_now(tl->type, tl->inum, "  ", NULL, &id, err, sizeof(err));
	}
	return 0;
}

static void print_timeline_json(struct lifetime *lt)
{
	struct lt_timeline *tl = &lt->o.tl;
	json_object *s, *l;
	size_t i;

	for (i = 0; i < tl->nev; i++)
		if (lt->only == SIZE_MAX || tl->ev[i].inc == lt->only)
			print_json(lt_event_json(tl, &tl->ev[i]));
	s = lt_summary_json(tl);
	if (json_object_object_get_ex(s, "lifetime", &l)) {
		/* the one NS names, when the inode had several (its events only) */
		json_object_object_add(l, "shown_incarnation",
				       lt->only != SIZE_MAX ?
					       json_object_new_int64((int64_t)lt->only + 1) : NULL);
		json_object_object_add(l, "log_dir", json_object_new_string(lt->rd.dir));
		json_object_object_add(l, "verified",
				       lt->verified ? json_object_new_boolean(!lt->verdict) : NULL);
		json_object_object_add(l, "verify_status",
				       lt->verified ? json_object_new_int(lt->verdict) : NULL);
		if (lt->now) /* alive, but not in the log */
			json_object_object_add(l, "holders_now", json_object_get(lt->now));
	}
	print_json(s);
}

/* What verify_first() found, said after the header line: the verdict as
 * verify says it (intact as far as the key reaches is not "not intact"). */
static const char *verdict_note(const struct lifetime *lt)
{
	if (!lt->verified)
		return " (not verified: no --key, no DIR/.key)\n";
	switch (lt->verdict) {
	case AUDIT_VERIFY_INTACT:
		return lt->key || lt->vk ? " (verified intact)\n"
					 : " (verified intact) with the log's own DIR/.key only: "
					   "whoever can rewrite the log can rewrite that key too "
					   "(use --key)\n";
	case AUDIT_VERIFY_PARTIAL:
		return " (verified intact as far as the key reaches: see stderr)\n";
	case AUDIT_VERIFY_CRASH:
		return " (verified intact up to a crash tail: see stderr)\n";
	case AUDIT_VERIFY_DEAF:
		return " (verified intact, but its recorder was deaf for a while: see stderr)\n";
	default:
		return " (NOT INTACT: see stderr)\n";
	}
}

static void print_timeline_text(struct lifetime *lt)
{
	struct lt_timeline *tl = &lt->o.tl;
	char err[512];
	size_t i, j;

	printf("%s: %zu of %" PRIu64 " records in %s are about it%s", lt->lab, tl->nev, tl->records,
	       lt->rd.dir, verdict_note(lt));
	if (tl->ninc > 1)
		printf("%zu namespaces had this inode one after another (inode numbers "
		       "are reused; the records' ns_id tells them apart)\n",
		       tl->ninc);
	if (lt->only != SIZE_MAX)
		printf("showing the one %s names: namespace %zu of %zu (%s shows them all)\n",
		       lt->arg, lt->only + 1, tl->ninc, lt->lab);
	for (i = 0; i < tl->ninc; i++) {
		const struct lt_inc *ic = &tl->inc[i];
		uint64_t id;

		if (lt->only != SIZE_MAX && i != lt->only)
			continue;

		lt_print_inc_head(stdout, tl, i);
		for (j = ic->first; j <= ic->last; j++)
			if (tl->ev[j].inc == i)
				lt_print_event(stdout, tl, &tl->ev[j]);
		lt_print_inc_end(stdout, tl, i);
		if (ic->state != LT_ALIVE)
			continue;
		fflush(stdout);
		/* print the holders (text) */
		err[0] = '\0';
		if (holders_now(tl->type, tl->inum, "  ", NULL, &id, err, sizeof(err)) <= 0)
			printf("  (gone since: %s)\n", *err ? err : "no holders left now");
	}
}

/* --follow: then print its new records as they arrive. The exit status. */
static int follow_live(struct lifetime *lt)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	fflush(stdout);
	lt->o.live = true;
	return log_follow(&lt->rd, add_cb, &lt->o, &stop);
}

/* History, now and --follow, once NS and the log are known. The exit status. */
static int show(struct lifetime *lt, const struct nsspec *spec)
{
	struct audit_filter about = { 0 };
	struct out *o = &lt->o;
	int ret = 0;

	if (verify_first(lt))
		return 1;
	lt_init(&o->tl, spec->type, spec->inum);
	/* the records about it, and the lost and log records, are parsed;
	 * the others only counted */
	about.n_ns = 1;
	about.ns[0].type = spec->type;
	about.ns[0].inum = spec->inum;
	lt->rd.about = &about;
	if (log_read(&lt->rd, add_cb, o)) {
		ERR("%.200s: %s", lt->rd.dir, strerror(errno));
		return 1;
	}
	lt->rd.about = NULL;
	o->tl.records += lt->rd.unread;
	if (!lt->rd.seg)
		ERR("%.200s: no log segments (nsaudit-NNNNNN.log)", lt->rd.dir);
	if (o->tl.oom) {
		ERR("%s", strerror(ENOMEM));
		return 1;
	}
	if (lt->rd.skipped > 10)
		ERR("%" PRIu64 " damaged lines skipped in all", lt->rd.skipped);
	lt_finish(&o->tl);
	lt->only = named_incarnation(lt);
	nstype_label(lt->lab, sizeof(lt->lab), o->tl.type, o->tl.inum);
	if (!o->tl.ninc) {
		if (not_in_log(lt))
			return 1;
	} else {
		check_now(o);
	}
	if (o->json)
		print_timeline_json(lt);
	else if (o->tl.ninc)
		print_timeline_text(lt);
	if (lt->follow)
		ret = follow_live(lt);
	if (fflush(stdout)) {
		ERR("writing output: %s", strerror(errno));
		ret = 1;
	}
	return ret;
}

int cmd_lifetime(int argc, char **argv)
{
	struct lifetime lt = {.rd.dirfd = -1};
	struct nsspec spec;
	int ret = parse_args(argc, argv, &lt);

	if (ret >= 0)
		return ret;
	lt.rd.dirfd = open(lt.rd.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lt.rd.dirfd < 0) {
		ERR("%.200s: %s", lt.rd.dir, strerror(errno));
		return 1;
	}
	ret = resolve(lt.arg, &lt.rd, &spec, &lt.want_seq);
	/* a path, a name or PID:TYPE names one namespace; TYPE:INODE every
	 * one that had the inode */
	if (!ret && (spec.path[0] || spec.pid || lt.want_seq))
		lt.want_id = spec.id;
	if (!ret)
		ret = show(&lt, &spec);
	json_object_put(lt.now);
	lt_free(&lt.o.tl);
	close(lt.rd.dirfd);
	return ret;
}
