// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_keygen.c - "nsaudit keygen FILE": a fresh forward-secure sealing
 * state in FILE for "nsaudit record --key FILE", and its verification key
 * on stdout for "nsaudit verify --verification-key" (audit/seal.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "seal.h"
#include "commands.h"

static const struct optab keygen_optab[] = {
	{ "force", 'f', NULL, "replace an existing FILE (atomically)" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

static void keygen_usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f,
		"Usage: nsaudit keygen FILE [--force]\n\n"
		"Make a fresh forward-secure sealing key: install its sealing state in FILE\n"
		"(mode 0600, written atomically; missing directories are made, mode 0700)\n"
		"and print its verification key on stdout.\n"
		"'nsaudit record --key FILE' seals the log with it: the key evolves every\n"
		"--seal-interval and the old one is erased, so whoever takes the host later\n"
		"cannot rewrite what was sealed before. 'nsaudit verify --verification-key KEY'\n"
		"checks every epoch. Keep the verification key OFF this host: it can derive\n"
		"every sealing key. Use one FILE per log directory.\n\n");
	cmd_help(f, opts);
	fprintf(f, "\nExamples:\n"
		"  mkdir -p -m 0700 /root/offhost   # the shell opens the > file, not nsaudit\n"
		"  nsaudit keygen /etc/nsaudit/seal > /root/offhost/nsaudit.vk\n"
		"  nsaudit keygen --force /etc/nsaudit/seal   # new key: start a new log dir too\n");
}

/*
 * The directories FILE is to go in, made as mkdir -p would, mode 0700 (a
 * fresh host has no /etc/nsaudit): 0, or -1 with err saying which and why.
 */
static int make_parents(const char *file, char *err, size_t errlen)
{
	char dir[PATH_MAX], *p;
	struct stat st;

	if (strlen(file) >= sizeof(dir)) {
		snprintf(err, errlen, "%.64s...: path too long", file);
		return -1;
	}
	strcpy(dir, file);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		bool last = !*p;

		if (*p != '/' && !last)
			continue;
		*p = '\0';
		errno = 0;
		if (mkdir(dir, 0700) && errno == EEXIST && (stat(dir, &st) || !S_ISDIR(st.st_mode)))
			errno = ENOTDIR;
		if (errno != EEXIST && errno) {
			snprintf(err, errlen, "cannot make directory %.200s for %.200s: %s (make it, "
				 "mode 0700, or choose another FILE)", dir, file, strerror(errno));
			return -1;
		}
		if (last)
			return 0;
		*p = '/';
	}
}

int cmd_keygen(int argc, char **argv)
{
	struct cmd_opts opts;
	const char *file = NULL, *name;
	bool force = false;
	char err[300], vk[AUDIT_VK_LEN + 1];
	int c;

	cmd_opts_set(&opts, keygen_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			keygen_usage(stdout, &opts);
			return 0;
		case 'f':
			force = true;
			break;
		default:
			return cmd_error("keygen", EXIT_USAGE,
					 "unknown option '%.64s' (try --help)",
					 cmd_bad_option(argv));
		}
	}
	if (argc - optind > 1)
		return cmd_error("keygen", EXIT_USAGE, "one FILE only (try --help)");
	file = optind < argc ? argv[optind] : NULL;
	if (!file || !*file)
		return cmd_error("keygen", EXIT_USAGE, "FILE is required (try --help)");
	if (make_parents(file, err, sizeof(err)))
		return cmd_error("keygen", 1, "%s", err);
	if (audit_seal_keygen(file, force, vk, err, sizeof(err)))
		return cmd_error("keygen", 1, "%s", err);
	printf("%s\n", vk);
	fflush(stdout);
	sodium_memzero(vk, sizeof(vk));
	if (isatty(STDOUT_FILENO))
		cmd_error("keygen", 0,
			  "sealing state in %s; the line above is the verification key: keep "
			  "it off this host",
			  file);
	return 0;
}
