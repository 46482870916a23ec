// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * A command's error is one line, whatever it quotes: a caller's path with
 * a newline cannot add a forged second line, nor an escape sequence drive
 * the terminal.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>

#include "cmd/commands.h"

Test(cmd_error, control_bytes_of_a_quoted_argument_are_escaped, .init = cr_redirect_stderr)
{
	int rc = cmd_error("search", 3, "note: %s no longer exists",
			   "/run/netns/a\nnsaudit verify: intact\x1b[31m\x7f");

	cr_assert_eq(rc, 3);
	fflush(stderr);
	cr_assert_stderr_eq_str("nsaudit search: note: /run/netns/a\\x0ansaudit verify: "
				"intact\\x1b[31m\\x7f no longer exists\n");
}

Test(cmd_error, utf8_and_plain_text_stay_as_they_are, .init = cr_redirect_stderr)
{
	cmd_error("lifetime", 1, "%s: no such namespace", "/run/netns/caf\xc3\xa9 x");
	fflush(stderr);
	cr_assert_stderr_eq_str("nsaudit lifetime: /run/netns/caf\xc3\xa9 x: no such namespace\n");
}
