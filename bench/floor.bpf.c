// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * floor.bpf.c - empty programs for the floor of "make bench": attached to
 * the same hooks as nsaudit (bench/floor.c attaches them), they cost what
 * any BPF program on those hooks costs on this kernel before it does any
 * work: the tracepoint's dispatch, the syscall work flag, the program call.
 * No design that hooks these points can go below that.
 *
 * One program per attach type; floor.c attaches each to as many hooks as
 * needed (one link each). A tp_btf hook is floored with the raw_tp program:
 * both are called the same way (bpf_trace_run), and an empty body reads
 * nothing that would tell them apart.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int floor_tp(void *ctx)
{
	return 0;
}

SEC("raw_tp")
int floor_raw_tp(void *ctx)
{
	return 0;
}
