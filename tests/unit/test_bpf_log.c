// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* libbpf's warnings (the verifier log among them) are kept quietly and shown
 * when a load fails, without --verbose. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "probe/bpf_log.h"

static libbpf_print_fn_t print_fn;

/* What libbpf does when it has something to say. */
static void libbpf_says(enum libbpf_print_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

/* stderr of fn(), as a string */
static char *stderr_of(void (*fn)(void))
{
	static char buf[8192];
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	fflush(stderr);
	dup2(fileno(f), STDERR_FILENO);
	fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void quiet_load_then_fail(void)
{
	bpf_log_setup(false);
	print_fn = libbpf_set_print(NULL);
	libbpf_set_print(print_fn);
	libbpf_says(LIBBPF_DEBUG, "libbpf: debug chatter\n");
	libbpf_says(LIBBPF_INFO, "libbpf: info chatter\n");
	libbpf_says(LIBBPF_WARN, "libbpf: prog 'x': -- BEGIN PROG LOAD LOG --\n");
	libbpf_says(LIBBPF_WARN, "R1 invalid mem access '%s'\n", "scalar");
	fputs("-- before the failure --\n", stderr);
	bpf_log_show(EACCES);
	bpf_log_show(EACCES); /* shown once */
}

Test(bpf_log, warnings_kept_and_shown_when_a_load_fails)
{
	const char *out = stderr_of(quiet_load_then_fail);
	const char *mark = strstr(out, "-- before the failure --\n");

	cr_assert_not_null(mark, "%s", out);
	cr_expect_eq(mark, out, "nothing printed before the failure: %s", out);
	cr_expect_str_eq(mark + strlen("-- before the failure --\n"),
			 "libbpf: prog 'x': -- BEGIN PROG LOAD LOG --\n"
			 "R1 invalid mem access 'scalar'\n");
}

static void unprivileged_fail(void)
{
	bpf_log_setup(false);
	print_fn = libbpf_set_print(NULL);
	libbpf_set_print(print_fn);
	libbpf_says(LIBBPF_WARN, "libbpf: Error in bpf_object__probe_loading()\n");
	bpf_log_show(EPERM);
}

Test(bpf_log, nothing_for_eperm)
{
	cr_expect_str_eq(stderr_of(unprivileged_fail), "");
}

static void verbose_load(void)
{
	bpf_log_setup(true);
	print_fn = libbpf_set_print(NULL);
	libbpf_set_print(print_fn);
	libbpf_says(LIBBPF_DEBUG, "libbpf: debug chatter\n");
	libbpf_says(LIBBPF_INFO, "libbpf: loaded\n");
	bpf_log_show(EACCES);
}

Test(bpf_log, verbose_prints_as_it_comes)
{
	cr_expect_str_eq(stderr_of(verbose_load), "libbpf: loaded\n");
}
