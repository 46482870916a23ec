// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* holders_fmt.c - names of socket families, types and protocols. */
#include <stdio.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/netlink.h>

#include "holders_fmt.h"

const char *sock_family_name(unsigned int family)
{
	switch (family) {
	case AF_UNIX:
		return "unix";
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_NETLINK:
		return "netlink";
	case AF_PACKET:
		return "packet";
	case AF_VSOCK:
		return "vsock";
	case AF_XDP:
		return "xdp";
	}
	return NULL;
}

const char *sock_type_name(unsigned int type)
{
	switch (type) {
	case SOCK_STREAM:
		return "stream";
	case SOCK_DGRAM:
		return "dgram";
	case SOCK_RAW:
		return "raw";
	case SOCK_RDM:
		return "rdm";
	case SOCK_SEQPACKET:
		return "seqpacket";
	case SOCK_PACKET:
		return "packet";
	}
	return NULL;
}

const char *sock_protocol_name(unsigned int family, unsigned int type, unsigned int protocol)
{
	if (family == AF_INET || family == AF_INET6) {
		switch (protocol) {
		case IPPROTO_TCP:
			return "tcp";
		case IPPROTO_UDP:
			return "udp";
		case IPPROTO_UDPLITE:
			return "udplite";
		case IPPROTO_ICMP:
			return "icmp";
		case IPPROTO_ICMPV6:
			return "icmpv6";
		case IPPROTO_SCTP:
			return "sctp";
		case IPPROTO_MPTCP:
			return "mptcp";
		case IPPROTO_RAW:
			return "raw";
		case 0:
			return type == SOCK_RAW ? "ip" : NULL;
		}
		return NULL;
	}
	if (family == AF_NETLINK) {
		switch (protocol) {
		case NETLINK_ROUTE:
			return "route";
		case NETLINK_SOCK_DIAG:
			return "sock_diag";
		case NETLINK_AUDIT:
			return "audit";
		case NETLINK_KOBJECT_UEVENT:
			return "kobject_uevent";
		case NETLINK_GENERIC:
			return "generic";
		case NETLINK_NETFILTER:
			return "netfilter";
		}
		return NULL;
	}
	return NULL;
}

/* "inet stream tcp", "unix dgram", "family 44 type 3 protocol 7" */
void sock_describe(char *buf, size_t len, unsigned int family, unsigned int type,
		   unsigned int protocol)
{
	const char *f = sock_family_name(family), *t = sock_type_name(type);
	const char *p = sock_protocol_name(family, type, protocol);
	int n;

	if (f)
		n = snprintf(buf, len, "%s", f);
	else
		n = snprintf(buf, len, "family %u", family);
	if (n < 0 || (size_t)n >= len)
		return;
	if (t)
		n += snprintf(buf + n, len - n, " %s", t);
	else
		n += snprintf(buf + n, len - n, " type %u", type);
	if (n < 0 || (size_t)n >= len)
		return;
	if (p)
		snprintf(buf + n, len - n, " %s", p);
	else if (protocol && family != AF_UNIX)
		snprintf(buf + n, len - n, " protocol %u", protocol);
}
