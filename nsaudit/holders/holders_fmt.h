/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* holders_fmt.h - names of socket families, types and protocols. */
#ifndef NSAUDIT_HOLDERS_FMT_H
#define NSAUDIT_HOLDERS_FMT_H

#include <stddef.h>

/* NULL when there is no name for the value. */
const char *sock_family_name(unsigned int family);
const char *sock_type_name(unsigned int type);
const char *sock_protocol_name(unsigned int family, unsigned int type, unsigned int protocol);
/* One human phrase: "inet stream tcp", "unix dgram", "family 44 type 3 protocol 7". */
void sock_describe(char *buf, size_t len, unsigned int family, unsigned int type,
		   unsigned int protocol);

#endif
