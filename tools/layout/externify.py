#!/usr/bin/env python3
"""externify.py HEADER DEFS.c [name...] - the global variables and BTF maps
HEADER defines (all of them, or only the names given) become extern
declarations there, and their one definition goes to DEFS.c (appended).

  const volatile T x = 1; /* why */   ->  extern const volatile T x; /* why */
  struct { ... } m SEC(".maps");      ->  struct m_map { ... };
                                          extern struct m_map m SEC(".maps");
                                      and DEFS.c: struct m_map m SEC(".maps");
A map's type gets a name so that DEFS.c, which includes HEADER, declares
and defines the same type (libbpf's static linker then resolves the extern
in every other object to the one definition)."""
import re
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csplit import scan_items, strip_comments  # noqa: E402


def main():
    hdr, defs = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    text = open(hdr).read()
    items = scan_items(text)
    out, pos, dout = [], 0, []
    for s, e, kind, name in items:
        if kind not in ('decl', 'func') or (only and name not in only):
            continue
        chunk = text[s:e]
        if kind == 'func':
            code = strip_comments(chunk).strip()
            if code.startswith(('static', 'SEC')) or 'SEC(' in code.split('{')[0]:
                continue
            # a global subprogram: its prototype stays, its body goes
            brace = chunk.index('{', len(chunk) - len(chunk.lstrip()) + chunk.lstrip().index(code[:10]))
            head = chunk[:brace].rstrip()
            new = re.sub(r'(^|\n)__noinline\s+', r'\1', head) + ';'
            dout.append('\n' + chunk.strip('\n'))
            out.append(text[pos:s])
            out.append(new)
            pos = e
            continue
        code = strip_comments(chunk).strip()
        if code.startswith(('static', 'extern', 'typedef', '#')) or re.match(
                r'^(struct|union|enum)\s*\w*\s*\{.*\}\s*;$', code, re.S) or '(' in code.split('{')[0] and 'SEC' not in code:
            continue
        # the comment above the item stays in the header
        m = re.search(r'(struct\s*\{.*\})\s*(\w+)\s*(SEC\s*\(\s*"\.maps"\s*\))\s*;', chunk, re.S)
        if m:
            tname = name + '_map'
            body = m.group(1).replace('struct', 'struct ' + tname, 1)
            new = chunk[:m.start()] + body + ';\nextern struct %s %s SEC(".maps");' % (tname, name) \
                + chunk[m.end():]
            dout.append('struct %s %s SEC(".maps");' % (tname, name))
        else:
            # variables: one or more declarations on their own lines
            lines = chunk.split('\n')
            nl = []
            for ln in lines:
                mm = re.match(r'^(\s*)([^/*][^;=]*?)(\s*=\s*[^;]*)?;(.*)$', ln)
                if mm and not ln.lstrip().startswith(('/*', '*', '//')):
                    decl = mm.group(2)
                    nl.append('%sextern %s;%s' % (mm.group(1), decl, mm.group(4)))
                    dout.append('%s%s;' % (decl, mm.group(3) or ''))
                else:
                    nl.append(ln)
            new = '\n'.join(nl)
        out.append(text[pos:s])
        out.append(new)
        pos = e
    out.append(text[pos:])
    open(hdr, 'w').write(''.join(out))
    with open(defs, 'a') as f:
        f.write('\n/* Declared in %s, which says what each one is for. */\n' % os.path.basename(hdr)
                + '\n'.join(dout) + '\n')
    print('externify: %d definitions -> %s' % (len(dout), defs))


if __name__ == '__main__':
    main()
