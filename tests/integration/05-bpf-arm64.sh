#!/bin/bash
# The BPF objects compile for arm64 too (issue 15): the same sources and the
# committed bpf/vmlinux.h, with __TARGET_ARCH_arm64. Compile only: nothing
# here can run them. Also: the committed vmlinux.h is what the build uses
# (no dump of this machine's BTF in the build).
. "$(dirname "$0")/../lib/testlib.sh"
require_cmd clang "BPF objects for arm64"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if make -s -C "$ROOT" BUILD="$TMP/b" ARCH=arm64 bpf >"$TMP/make.out" 2>&1; then
	n=$(ls "$TMP"/b/bpf-arm64/*.bpf.o 2>/dev/null | wc -l)
	# one object per bpf/NAME.bpf.c and per folder of parts bpf/NAME/
	want=$( (ls "$ROOT"/bpf/*.bpf.c; ls "$ROOT"/bpf/*/*.bpf.c | xargs -n1 dirname | sort -u) | wc -l)
	expect_eq "make ARCH=arm64 bpf: every BPF object compiles for arm64" "$n" "$want"
else
	fail "make ARCH=arm64 bpf: $(grep -m3 error "$TMP/make.out" | tr '\n' ' ')"
fi
if make -s -C "$ROOT" BUILD="$TMP/x" bpf >"$TMP/make-x.out" 2>&1 && [ ! -e "$TMP/x/vmlinux.h" ]; then
	pass "make bpf (host arch): builds from the committed bpf/vmlinux.h"
else
	fail "make bpf (host arch): $(grep -m3 error "$TMP/make-x.out" | tr '\n' ' ')"
fi
