/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * commands.h - the nsaudit subcommands, and what they share for their
 * command lines.
 *
 * Each subcommand is "int cmd_NAME(int argc, char **argv)" in
 * nsaudit/cmd/cmd_NAME.c, with argv[0] the subcommand's name; it returns the
 * process exit status:
 *   0 success, 1 runtime failure (or "not intact" for verify),
 *   2 usage error (bad option or value).
 * Options are parsed with getopt_long; errors are one line on stderr,
 * "nsaudit NAME: what: why", printed with cmd_error().
 */
#ifndef NSAUDIT_COMMANDS_H
#define NSAUDIT_COMMANDS_H

#include <stdbool.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "optab.h"

#define EXIT_USAGE 2

int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_verify(int argc, char **argv);
/* cmd_verify_report.c: print audit_verify()'s verdict rc (>= 0) for v, and
 * return the exit status (the verdict, cmd_verify --help). */
struct audit_verify;
struct audit_verify_opts;
int verify_print(const struct audit_verify_opts *vo, const struct audit_verify *v, int rc,
		 bool quiet);
/* The verdict rc (> 0) in one line for a command that verifies first
 * (search, lifetime): "NOT INTACT: ..." only for a log that is not. */
const char *verify_verdict_line(int rc, const struct audit_verify *v, char *buf, size_t len);
int cmd_search(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_holders(int argc, char **argv);
int cmd_lifetime(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_retire(int argc, char **argv);

/*
 * The ready line of trace and record ("nsaudit: ready (hooks: ...; log:
 * DIR)", no log part when log_dir is NULL), and before it with verbose
 * where the start went: "nsaudit: start-up 240.1 ms: names 3.2, open 1.0,
 * load 220.5, ..., outside the tracer 12.0". t0: CLOCK_MONOTONIC when the
 * command began.
 */
struct tracer;
void cmd_ready(const struct tracer *t, int64_t t0, bool verbose, const char *log_dir);

/*
 * The kernel's records must still come (tracer_hearing_tick): 0 while they
 * do (or a note on stderr when that cannot be checked), -1 deaf, said as
 * "nsaudit CMD: DEAF: WHY; stopping" with why (len bytes) kept for the
 * caller's own record of it.
 */
int cmd_hearing_tick(const char *cmd, struct tracer *t, char *why, size_t len);

/* "nsaudit CMD: MESSAGE" and a newline on stderr; returns rc. */
int cmd_error(const char *cmd, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A command's options: one table (optab.h) of its own rows and, for trace
 * and record, those of the libraries they drive, from which getopt_long's
 * tables and the options part of --help are both made.
 * cmd_opts_set(): o from the command's own table. cmd_lib_opts(): own,
 * then the log's (with log), the sinks', the metrics' and the tracer's
 * options, each under its heading. cmd_getopt(): getopt_long over argv
 * with o; *name is the long name of the option returned (NULL for ':' and
 * '?'). cmd_getopt_reset() before the loop (commands run more than once in
 * one process under the unit tests); a missing value returns ':' and an
 * unknown option '?', after which cmd_bad_option() is the option as typed
 * ("--frob", "--frob=1" or "-x"). cmd_help(): the options part of --help.
 */
#define CMD_OPTS_MAX 64
struct cmd_opts {
	struct optab tab[CMD_OPTS_MAX];
	struct option longopts[CMD_OPTS_MAX];
	char shortopts[64];
};
void cmd_opts_set(struct cmd_opts *o, const struct optab *own);
void cmd_lib_opts(struct cmd_opts *o, const struct optab *own, bool log);
int cmd_getopt(const struct cmd_opts *o, int argc, char **argv, const char **name);
void cmd_help(FILE *f, const struct cmd_opts *o);
void cmd_getopt_reset(void);
const char *cmd_bad_option(char **argv);

/*
 * For trace and record: the error for a library's option given without its
 * value (cmd_getopt() returned ':'). cmd_lib_opt(): apply the library
 * option named name (lo NULL: no log options); 0, or EXIT_USAGE after the
 * error.
 */
struct sinks;
struct audit_log_opts;
struct tracer_opts;
int cmd_needs_value(const char *cmd, const struct cmd_opts *o, char **argv);
int cmd_lib_opt(const char *cmd, struct sinks *sinks, struct audit_log_opts *lo,
		struct tracer_opts *to, const char *name, const char *val);

/* This host's name, machine id and boot id into every record from now on
 * (output/host_id.h); what is missing is said once on stderr. */
void cmd_host_identity(const char *cmd);

/* --metrics-file: the gauges from the tracer and the sinks, and the file
 * written, when its interval passed (or final: now). */
struct metrics;
struct tracer;
void cmd_metrics_tick(struct metrics *m, const struct tracer *t, struct sinks *sk, bool final);

#endif
