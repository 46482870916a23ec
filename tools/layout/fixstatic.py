#!/usr/bin/env python3
"""fixstatic.py IMPL.h A.c B.c ... - after a split: every static function
defined in one of the files and used in another loses its "static" and
gets a prototype (with the comment above it) in IMPL.h, which is created
if missing (with a guard) and included by each file that needs it. Static
variables used across files are only reported (move them by hand)."""
import os
import re
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csplit import scan_items, strip_comments  # noqa: E402


def main():
    impl, files = sys.argv[1], sys.argv[2:]
    texts = {f: open(f).read() for f in files}
    code = {f: strip_comments(t) for f, t in texts.items()}
    protos = []
    changed = set()
    needs = set()
    for f in files:
        t = texts[f]
        items = scan_items(t)
        for s, e, kind, name in reversed(items):
            chunk = t[s:e]
            body = strip_comments(chunk).lstrip()
            if not body.startswith('static'):
                continue
            users = [g for g in files if g != f and re.search(r'(?<![.>])\b%s\b' % re.escape(name), code[g])]
            if not users:
                continue
            if kind == 'decl' and re.match(r'^static\b[^=;{]*\([^;]*\)\s*;$', body.strip(), re.S):
                # a forward prototype of a function now shared: IMPL.h has it
                t = t[:s] + t[e:]
                changed.add(f)
                continue
            if kind != 'func':
                print('fixstatic: static %s of %s is used in %s: move it by hand'
                      % (name, f, ' '.join(users)), file=sys.stderr)
                continue
            m = re.search(r'\bstatic\s+(inline\s+)?', chunk)
            new = chunk[:m.start()] + chunk[m.end():]
            brace = new.index('{', len(new) - len(new.lstrip()))
            # the head of the definition: after the comment block
            head = new[:brace].rstrip()
            cm = re.match(r'(\s*(/\*.*?\*/\s*)*)', head, re.S)
            comment = cm.group(1).strip()
            sig = head[cm.end():].strip()
            lines = sig.split('\n')
            if len(lines) > 1:
                col = len(lines[0].expandtabs(8)[:lines[0].expandtabs(8).index('(') + 1])
                lines = [lines[0]] + ['\t' * (col // 8) + ' ' * (col % 8) + l.strip() for l in lines[1:]]
            protos.append((os.path.basename(f), comment, '\n'.join(lines) + ';'))
            t = t[:s] + new + t[e:]
            changed.add(f)
            needs.update(users + [f])
            print('fixstatic: %s(): %s -> %s' % (name, f, ', '.join(users)))
        texts[f] = t
    if not protos:
        return
    guard = 'NSAUDIT_' + re.sub(r'\W', '_', os.path.basename(impl)).upper()
    if os.path.exists(impl):
        h = open(impl).read()
        k = h.rindex('#endif')
    else:
        h = ('/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */\n'
             '/*\n * %s - shared by the parts of one split file; not an API\n'
             ' * for anyone else.\n */\n#ifndef %s\n#define %s\n\n#endif\n'
             % (os.path.basename(impl), guard, guard))
        k = h.rindex('#endif')
    add = ''
    last = None
    for src, comment, sig in reversed(protos):
        if src != last:
            add += '/* %s */\n\n' % src
            last = src
        if comment:
            if not add.endswith('\n\n'):
                add += '\n'
            add += comment + '\n' + sig + '\n\n'
        else:
            add += sig + '\n'
    if not h[:k].endswith('\n\n'):
        add = '\n' + add
    if not add.endswith('\n\n'):
        add += '\n'
    h = h[:k] + add + h[k:]
    open(impl, 'w').write(h)
    inc = '#include "%s"' % os.path.basename(impl)
    for f in sorted(needs):
        t = texts[f]
        if inc not in t and os.path.dirname(f) == os.path.dirname(impl):
            # after the last local include
            ms = list(re.finditer(r'^#include "[^"]+"\n', t, re.M))
            pos = ms[-1].end() if ms else 0
            t = t[:pos] + inc + '\n' + t[pos:]
            changed.add(f)
        texts[f] = t
    for f in changed:
        open(f, 'w').write(texts[f])


if __name__ == '__main__':
    main()
