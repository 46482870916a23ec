// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_holders.c - "nsaudit holders NS | --all": who keeps a namespace alive
 * (the model is holders_model.c's). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "commands.h"
#include "holders_history.h"
#include "holders/holders_model.h"
#include "enrich/nsnames.h"
#include "nstype.h"

#define ERR(...) cmd_error("holders", 0, __VA_ARGS__)

enum { OPT_HISTORY = 0x100, OPT_LEAKS, OPT_OLDER, OPT_LOG_DIR };

static const struct optab holders_optab[] = {
	OPTAB_HEADING("Options:"),
	{ "all", 'a', NULL,
	  "every namespace on the machine, as a tree by owning\n"
	  "user namespace" },
	{ "format", 'f', "FMT", "text (default) or json (one object per namespace per line)" },
	{ "history", OPT_HISTORY, NULL,
	  "NS's holders over time from a log of 'nsaudit record':\n"
	  "each task, fd and bind mount from when to when (created,\n"
	  "entered, opened, mounted; left, umount), the one that let\n"
	  "go last and its death (with --op ...,freed on stock\n"
	  "kernels, ns_free on the patched one), or its holders now.\n"
	  "With --op ...,freed each task that let go (exit, exec) and\n"
	  "the nsfs file of its fds and mounts going are in the log,\n"
	  "with the count left; closes are not: such an end is '?'" },
	{ "leaks", OPT_LEAKS, NULL,
	  "namespaces alive now at least --older seconds after their\n"
	  "creator (the unshare caller, the clone child) stopped\n"
	  "holding them and their last bind mount was removed, per\n"
	  "the log, with their holders now (the leaked CNI netns).\n"
	  "The age counts from the last of those the log has (the\n"
	  "creator's exit only with --op ...,freed; the line says\n"
	  "when it is not there). A\n"
	  "namespace whose creation is not in the log is not judged" },
	{ "older", OPT_OLDER, "SECONDS", "the age for --leaks (default 60)" },
	{ "log-dir", OPT_LOG_DIR, "DIR", "the log directory (--history, --leaks)" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

static void usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f, "Usage: nsaudit holders NS [--format text|json]\n"
		   "       nsaudit holders --all [--format text|json]\n"
		   "       nsaudit holders NS --history --log-dir DIR [--format text|json]\n"
		   "       nsaudit holders --leaks [--older SECONDS] --log-dir DIR\n"
		   "                       [--format text|json]\n\n"
		   "List everything that keeps a namespace alive, and reconcile it with the\n"
		   "kernel's reference count (read by BPF iterators):\n"
		   "  task    threads in it (pid/time: also *_for_children)\n"
		   "  fd      open namespace files, and how they were opened\n"
		   "  mount   bind mounts of it, in every mount namespace\n"
		   "  socket  sockets in it (net)\n"
		   "  child   namespaces it owns (user) or that are nested in it (pid, user)\n\n"
		   "NS is TYPE:INODE, TYPE:[INODE], PID:TYPE, a path (/proc/PID/ns/TYPE,\n"
		   "/run/netns/NAME, any bind-mounted namespace file) or an ip netns name.\n"
		   "A namespace with no name left is found by TYPE:INODE. Exit status 1 when\n"
		   "it does not exist.\n\n"
		   "Reference accounting (refs = ...): one per nsproxy naming it, however many\n"
		   "tasks share that nsproxy; one for the nsfs dentry, shared by all fds and\n"
		   "bind mounts; one per socket (net); one per thread's struct pid (pid); one\n"
		   "per cred and per owned namespace (user); the rest is unattributed.\n\n");
	cmd_help(f, opts);
	fprintf(f, "\nExamples:\n"
		   "  nsaudit holders blue                     # ip netns blue\n"
		   "  nsaudit holders /run/netns/blue --format json\n"
		   "  nsaudit holders net:4026532289           # after 'ip netns del'\n"
		   "  nsaudit holders 1234:pid\n"
		   "  nsaudit holders --all\n"
		   "  nsaudit holders net:4026532289 --history --log-dir /var/log/nsaudit\n"
		   "  nsaudit holders --leaks --older 300 --log-dir /var/log/nsaudit\n");
}

/* What the command line asks for. */
struct holders_args {
	bool all, json, history, leaks;
	double older;	     /* --leaks: seconds */
	const char *log_dir; /* --history, --leaks */
	const char *arg;     /* NS as given */
	struct nsspec spec;
};

/* The command line into a: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct holders_args *a)
{
	struct cmd_opts opts;
	const char *name;
	char err[512], *end;
	int c;

	a->older = 60;
	cmd_opts_set(&opts, holders_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'a':
			a->all = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				a->json = true;
			else if (strcmp(optarg, "text")) {
				ERR("--format: unknown format '%.32s' (text, json)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout, &opts);
			return 0;
		case OPT_HISTORY:
			a->history = true;
			break;
		case OPT_LEAKS:
			a->leaks = true;
			break;
		case OPT_LOG_DIR:
			a->log_dir = optarg;
			break;
		case OPT_OLDER:
			errno = 0;
			a->older = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(a->older >= 0 && a->older < 1e10)) {
				ERR("--older: '%.32s' is not a number of seconds (0 or more)",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case ':':
			if (optopt == 'f')
				ERR("--format: needs a value (text, json)");
			else
				ERR("%s: needs a value (try 'nsaudit holders --help')",
				    argv[optind - 1]);
			return EXIT_USAGE;
		default:
			if (optopt == 'f')
				ERR("--format: needs a value (text, json)");
			else
				ERR("%s: unknown option (try 'nsaudit holders --help')",
				    cmd_bad_option(argv));
			return EXIT_USAGE;
		}
	}
	if ((a->history || a->leaks) && (!a->log_dir || !*a->log_dir)) {
		ERR("%s needs --log-dir DIR (try 'nsaudit holders --help')",
		    a->history ? "--history" : "--leaks");
		return EXIT_USAGE;
	}
	if ((a->history || a->leaks) && (a->all || (a->history && a->leaks))) {
		ERR("--history and --leaks go alone (try 'nsaudit holders --help')");
		return EXIT_USAGE;
	}
	if (a->leaks) {
		if (optind < argc) {
			ERR("--leaks looks at every namespace: no NS (try 'nsaudit holders --help')");
			return EXIT_USAGE;
		}
		return -1;
	}
	if (a->all == (optind < argc) || argc - optind > 1) {
		ERR("%s (try 'nsaudit holders --help')", a->all
							     ? "give either NS or --all, not both"
							     : "which namespace? give NS or --all");
		return EXIT_USAGE;
	}
	if (!a->all && nsspec_parse(argv[optind], true, &a->spec, err, sizeof(err))) {
		/* a spec that does not parse is a usage error; a path or pid
		 * that does not resolve (not there, or not ours to see:
		 * permission denied) is an answer, exit 1 */
		int e = errno;

		ERR("%s", err);
		return strchr(argv[optind], '/') || e == ENOENT || e == ESRCH || e == EACCES ||
			       e == EPERM ? 1 : EXIT_USAGE;
	}
	a->arg = a->all ? NULL : argv[optind];
	return -1;
}

/* Every namespace, or the target, in the format asked for. */
static void print_holders(struct model *m, struct ns_ent *target, bool json)
{
	size_t i;

	if (json) {
		for (i = 0; i < m->nns; i++) {
			json_object *o;

			if (target && &m->ns[i] != target)
				continue;
			o = ns_json(m, &m->ns[i]);
			puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
			json_object_put(o);
		}
		print_notes(m, stderr);
	} else if (target) {
		print_ns(m, target, "", false);
		print_notes(m, stdout);
	} else {
		for (i = 0; i < m->nns; i++)
			if (m->ns[i].type == NSAUDIT_NS_USER && m->ns[i].known &&
			    !ns_find(m, NSAUDIT_NS_USER, m->ns[i].k.parent_inum))
				print_tree(m, &m->ns[i], 0);
		for (i = 0; i < m->nns; i++)
			if (!m->ns[i].printed)
				print_ns(m, &m->ns[i], "", true);
		print_notes(m, stdout);
	}
}

int cmd_holders(int argc, char **argv)
{
	struct holders_args a = {0};
	struct model m = {0};
	struct ns_ent *target = NULL;
	char err[512];
	int ret = parse_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	if (a.leaks)
		return holders_leaks(a.log_dir, a.older, a.json);
	if (a.history)
		return holders_history(a.log_dir, &a.spec, a.json);
	ret = 1;
	if (model_load(&m, err, sizeof(err))) {
		ERR("%s", err);
		goto out;
	}

	if (!a.all) {
		char lab[48];

		target = ns_find(&m, a.spec.type, a.spec.inum);
		nstype_label(lab, sizeof(lab), a.spec.type, a.spec.inum);
		if (!target) {
			ERR("%s: no such namespace (no task, fd, bind mount, socket or child "
			    "namespace holds it)",
			    a.spec.type >= 0 ? lab : a.arg);
			goto out;
		}
	}
	print_holders(&m, target, a.json);
	ret = 0;
out:
	model_free(&m);
	return ret;
}
