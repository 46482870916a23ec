/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * commands.h - the nsaudit subcommands.
 *
 * Each subcommand is "int cmd_NAME(int argc, char **argv)" with argv[0] the
 * subcommand's name; it returns the process exit status:
 *   0 success, 1 runtime failure (or "not intact" for verify),
 *   2 usage error (bad option or value).
 * Errors are one line on stderr: "nsaudit NAME: what: why".
 */
#ifndef NSAUDIT_COMMANDS_H
#define NSAUDIT_COMMANDS_H

#define EXIT_USAGE 2

int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_holders(int argc, char **argv);
int cmd_lifetime(int argc, char **argv);
int cmd_detach(int argc, char **argv);

#endif
