#!/bin/bash
# bpf-split.sh - bpf/nsaudit.bpf.c (+ bpf/emit.bpf.h) into bpf/nsaudit/, one
# concern per part, shared maps/globals defined once in bpf/nsaudit/nsaudit.bpf.c.
# Run from the top of the worktree, after the merge. Check csplit's "no item"
# lines and "keeps" list: new items from the merge stay in setns.bpf.c
# unless bpf.spec names them.
set -eu
L=$(cd "$(dirname "$0")" && pwd)
mkdir -p bpf/nsaudit
git mv bpf/nsaudit.bpf.c bpf/nsaudit/setns.bpf.c
git mv bpf/emit.bpf.h bpf/nsaudit/emit.bpf.h
# the tracer's own headers (not holders' or probe's) go with it
for h in bpf/*.bpf.h; do
	case $(basename "$h") in nsaudit_core.bpf.h | ns_consts.bpf.h) continue ;; esac
	grep -q "$(basename "$h")" bpf/holders.bpf.c bpf/probe.bpf.c && continue
	git mv "$h" bpf/nsaudit/
done
python3 "$L/csplit.py" split "$L/bpf.spec"
cd bpf/nsaudit
python3 - <<'PY'
import re
def rd(p): return open(p).read()
def wr(p, s): open(p, 'w').write(s)
s = rd('setns.bpf.c')
i = s.index('#include "emit.bpf.h"')
j = s.index('\n', i) + 1
head = '''// SPDX-License-Identifier: GPL-2.0
/*
 * setns.bpf.c - setns(): the namespace entered (what the fd names, and how
 * that file was made) and the one left (the thread's namespace cache,
 * nscache.bpf.h, whose global subprograms are here). On a stock kernel
 * setns is traced at its exit alone; the patched kernel's fentry/fexit and
 * setns_switch_ns hooks are here too.
 *
 * Every loop here is short and fully unrolled (#pragma unroll): the 6.1
 * verifier rejects some loop shapes clang 14 emits ("back-edge from insn
 * X to Y") even for privileged loaders. The same holds for every part of
 * the tracer's object (nsaudit.bpf.c lists them).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nscache.bpf.h"
#include "nsfile.bpf.h"
'''
s = head + s[j:]
s = re.sub(r'\n/\* ---- setns\(fd, nstype\), unshare\(flags\) -+ \*/\n', '\n', s)
wr('setns.bpf.c', s)
h = rd('nscache.bpf.h')
h = h.rstrip('\n') + '\n\n#endif\n'
# the global subprograms setns.bpf.c defines, declared before their first use
k = h.index('\n/*\n * The namespace of type t')
h = h[:k] + '''
/* setns.bpf.c's global subprograms (verified once). */
int cache_fill(struct tstate *ts);
int pending_save_old(struct tstate *ts);
int emit_switch(struct tstate *ts, long ret);
''' + h[k:]
wr('nscache.bpf.h', h)
n = rd('nsfile.bpf.h')
n = re.sub(r'/\* ---- where an nsfs file came from -+ \*/\n\n', '', n)
n = n.rstrip('\n') + '\n\n#endif\n'
wr('nsfile.bpf.h', n)
e = rd('emit.bpf.h')
e = e.replace(' * Included once, by nsaudit.bpf.c.', " * Included by every part of the tracer's object; what it declares\n * extern is defined once, in nsaudit.bpf.c.")
wr('emit.bpf.h', e)
PY
cp "$L/nsaudit.bpf.c.head" nsaudit.bpf.c
python3 "$L/externify.py" emit.bpf.h nsaudit.bpf.c
python3 "$L/externify.py" nscache.bpf.h nsaudit.bpf.c
python3 "$L/externify.py" nsfile.bpf.h nsaudit.bpf.c
# included by every part (through emit.bpf.h): defined once
for h in actor_budget.bpf.h actor.bpf.h; do
	[ -e $h ] && python3 "$L/externify.py" $h nsaudit.bpf.c
done
git add -A .
wc -l *
