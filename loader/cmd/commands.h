/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * commands.h - the nsaudit subcommands, and what they share for their
 * command lines.
 *
 * Each subcommand is "int cmd_NAME(int argc, char **argv)" in
 * loader/cmd/cmd_NAME.c, with argv[0] the subcommand's name; it returns the
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

/* "nsaudit CMD: MESSAGE" and a newline on stderr; returns rc. */
int cmd_error(const char *cmd, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * getopt_long over a command's argv: cmd_getopt_reset() before the loop
 * (commands run more than once in one process under the unit tests); the
 * option strings start with ':' so that a missing value returns ':' and an
 * unknown option '?'. After '?', cmd_bad_option() is the option as typed
 * ("--frob", "--frob=1" or "-x").
 */
void cmd_getopt_reset(void);
const char *cmd_bad_option(char **argv);

/*
 * A command's option table made of its own options and those of the
 * libraries it drives (tracer, log, sinks): cmd_opts_cat() appends src to
 * dst (capacity cap entries, kept NULL-terminated); cmd_opt_name() is the
 * long name of what getopt_long returned (c, and idx its longindex or -1).
 */
void cmd_opts_cat(struct option *dst, size_t cap, const struct option *src);
const char *cmd_opt_name(const struct option *opts, int c, int idx);

/*
 * The options of the libraries trace and record drive (--sink, the log's,
 * the tracer's filters). cmd_lib_options(): the command's table, own
 * options first, the log's only with log. cmd_needs_value(): the error for
 * one given without its value (getopt_long returned ':'). cmd_lib_opt():
 * apply the option named name (lo NULL: no log options); 0, or EXIT_USAGE
 * after the error.
 */
struct sinks;
struct audit_log_opts;
struct tracer_opts;
void cmd_lib_options(struct option *opts, size_t cap, const struct option *own, int log);
int cmd_needs_value(const char *cmd, const struct option *opts, char **argv);
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
