#!/usr/bin/env python3
"""csplit.py - move top-level C items (functions, variables, maps, structs,
macros, with the comment right above them) from one file into others, by name.

  csplit.py list FILE                 print the items: line, kind, name, lines
  csplit.py split SPEC                apply a spec (below); prints what it did

SPEC:
  source loader/tracer/tracer.c
  > loader/tracer/tracer_attach.c       # a new (or existing: appended) file
  @head                                 # text written first into a NEW file
  ...lines...
  @end
  item_name                             # exact item name, or /regex/
  ...
  > other.c
  ...

Items are matched by name; an item named in no section stays where it is.
A standalone comment (one followed by a blank line) travels with the next
item only when it is listed as "comment:<first words>"; otherwise it stays.
"""
import re
import sys


def scan_items(text):
    """Split text into top-level items: (start, end, kind, name)."""
    items = []
    i, n = 0, len(text)
    depth = 0
    start = None
    pending_comment_start = None

    def skip_ws(j):
        while j < n and text[j] in ' \t\r\n':
            j += 1
        return j

    cur_kind = None
    while i < n:
        c = text[i]
        if start is None:
            # between items
            if c in ' \t\r\n':
                i += 1
                continue
            if text.startswith('/*', i) or text.startswith('//', i):
                cs = i
                if text.startswith('/*', i):
                    e = text.index('*/', i + 2) + 2
                else:
                    e = text.index('\n', i) if '\n' in text[i:] else n
                # blank line after the comment? then standalone
                j = e
                while j < n and text[j] in ' \t':
                    j += 1
                nl = 0
                k = j
                while k < n and text[k] in ' \t\r\n':
                    if text[k] == '\n':
                        nl += 1
                    k += 1
                if pending_comment_start is None:
                    pending_comment_start = cs
                if nl >= 2 or k >= n:
                    items.append((pending_comment_start, e, 'comment', None))
                    pending_comment_start = None
                i = e
                continue
            if c == '#':
                # preprocessor line(s)
                e = i
                while True:
                    nl = text.find('\n', e)
                    if nl < 0:
                        nl = n
                        break
                    if text[nl - 1] == '\\':
                        e = nl + 1
                        continue
                    break
                s = pending_comment_start if pending_comment_start is not None else i
                items.append((s, nl, 'pp', None))
                pending_comment_start = None
                i = nl
                continue
            start = pending_comment_start if pending_comment_start is not None else i
            body_start = i
            pending_comment_start = None
            depth = 0
            paren = 0
            saw_brace_at = None
        # inside an item
        if text.startswith('/*', i):
            i = text.index('*/', i + 2) + 2
            continue
        if text.startswith('//', i):
            i = text.index('\n', i)
            continue
        if c == '"' or c == "'":
            q = c
            i += 1
            while text[i] != q:
                if text[i] == '\\':
                    i += 1
                i += 1
            i += 1
            continue
        if c == '#' and (i == 0 or text[i - 1] == '\n'):
            # preprocessor inside a body (e.g. #pragma)
            nl = text.find('\n', i)
            i = nl if nl >= 0 else n
            continue
        if c == '(':
            paren += 1
        elif c == ')':
            paren -= 1
        elif c == '{':
            if depth == 0 and saw_brace_at is None:
                saw_brace_at = i
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                head = text[body_start:saw_brace_at]
                if is_function_head(head):
                    items.append((start, i + 1, 'func', None))
                    start = None
                    i += 1
                    continue
        elif c == ';' and depth == 0 and paren == 0:
            items.append((start, i + 1, 'decl', None))
            start = None
            i += 1
            continue
        i += 1
    out = []
    for s, e, k, _ in items:
        out.append((s, e, k, item_name(text[s:e], k)))
    return out


def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)
    s = re.sub(r'//[^\n]*', ' ', s)
    return s


def is_function_head(head):
    h = strip_comments(head).strip()
    if '=' in re.sub(r'\([^()]*\)', '', h):
        return False
    h = re.sub(r'__attribute__\s*\(\(.*?\)\)', '', h)
    return h.endswith(')') and re.match(r'^(struct|union|enum)\s+\w*\s*$', h) is None


def item_name(s, kind):
    body = strip_comments(s).strip()
    if kind == 'comment':
        words = ' '.join(s.replace('/*', ' ').replace('*', ' ').split()[:4])
        return 'comment:' + words
    if kind == 'pp':
        m = re.match(r'#\s*(define|include|pragma|if|ifdef|ifndef|endif|else|undef)\s*(\S*)', body)
        if m:
            nm = m.group(2)
            if m.group(1) == 'define':
                nm = re.match(r'\w+', nm).group(0) if re.match(r'\w+', nm) else nm
            return '#%s %s' % (m.group(1), nm)
        return '#?' + body[:20]
    if kind == 'func':
        head = body[:body.index('{')]
        head = re.sub(r'\bSEC\s*\([^)]*\)', '', head)
        head = re.sub(r'__attribute__\s*\(\(.*?\)\)', '', head)
        m = re.search(r'\bBPF_(?:PROG|KPROBE|KRETPROBE)\s*\(\s*(\w+)', head)
        if m:
            return m.group(1)
        m = re.search(r'(\w+)\s*\(', head)
        return m.group(1) if m else '?'
    # decl
    flat = re.sub(r'\{.*\}', '{}', body, flags=re.S)
    flat = re.sub(r'\bSEC\s*\([^)]*\)', '', flat)
    flat = re.sub(r'__attribute__\s*\(\(.*?\)\)', '', flat)
    flat = flat.split('=')[0]
    m = re.match(r'^\s*(typedef\s+)?(struct|union|enum)\s+(\w+)\s*\{\}\s*;?$', flat)
    if m and not m.group(1):
        return '%s %s' % (m.group(2), m.group(3))
    if re.search(r'\(\s*\*\s*\w+\s*\)', flat):
        return re.search(r'\(\s*\*\s*(\w+)\s*\)', flat).group(1)
    flat = re.sub(r'\[[^\]]*\]', '', flat)
    if '(' in flat:  # prototype
        m = re.search(r'(\w+)\s*\(', flat)
        return m.group(1) if m else '?'
    ids = re.findall(r'\w+', flat.replace('__weak', '').replace('__hidden', ''))
    return ids[-1] if ids else '?'


def cmd_list(path):
    text = open(path).read()
    for s, e, k, nm in scan_items(text):
        line = text.count('\n', 0, s) + 1
        nlines = text.count('\n', s, e) + 1
        print('%5d %-7s %4d  %s' % (line, k, nlines, nm))


def parse_spec(path):
    src = None
    sections = []
    cur = None
    inhead = False
    for raw in open(path):
        line = raw.rstrip('\n')
        if inhead:
            if line == '@end':
                inhead = False
            else:
                cur['head'].append(line)
            continue
        st = line.split('#', 1)[0].strip() if not line.startswith('#') or line.startswith('#include') else ''
        if line.startswith('#define') or line.startswith('#include') or line.startswith('#if') or \
           line.startswith('#endif') or line.startswith('#pragma') or line.startswith('#undef') or \
           line.startswith('#else'):
            st = line.strip()
        if not st:
            continue
        if st.startswith('source '):
            src = st.split(None, 1)[1]
        elif st.startswith('>'):
            cur = {'file': st[1:].strip(), 'head': [], 'names': []}
            sections.append(cur)
        elif st == '@head':
            inhead = True
        elif st == '@noinc':
            cur['noinc'] = True
        else:
            cur['names'].append(st)
    return src, sections


def cmd_split(spec):
    src, sections = parse_spec(spec)
    text = open(src).read()
    items = scan_items(text)
    taken = {}
    for si, sec in enumerate(sections):
        for nm in sec['names']:
            hits = []
            for idx, (s, e, k, inm) in enumerate(items):
                if nm.startswith('/') and nm.endswith('/') and len(nm) > 1:
                    ok = re.search(nm[1:-1], inm or '') is not None
                else:
                    ok = inm == nm
                if ok and idx not in taken:
                    hits.append(idx)
            if not hits:
                print('csplit: %s: no item %r (left as it is)' % (spec, nm), file=sys.stderr)
            for idx in hits:
                taken[idx] = si
    # Write the sections in source order of their items.
    import os
    for si, sec in enumerate(sections):
        chunks = [text[items[i][0]:items[i][1]] for i in sorted(taken) if taken[i] == si]
        exists = os.path.exists(sec['file'])
        head = list(sec['head'])
        if not exists and head and sec['file'].endswith('.c') and not sec.get('noinc'):
            # the source's own local includes the head does not have (a
            # merge may have added some): after the head's last include
            src_inc = re.findall(r'^#include "([^"]+)"', text, re.M)
            have = set(re.findall(r'^#include "([^"]+)"', '\n'.join(head), re.M))
            impl = [h for h in have if h.endswith('_impl.h')]
            miss = [h for h in src_inc if h not in have and not h.endswith('.skel.h')
                    and not (impl and os.path.basename(src) == h)]
            base = os.path.basename(src).replace('.c', '.h')
            miss = [h for h in miss if h != base or not impl]
            if miss:
                last = max(i for i, l in enumerate(head) if l.startswith('#include'))
                head[last + 1:last + 1] = ['#include "%s"' % h for h in miss]
        with open(sec['file'], 'a') as f:
            if not exists and head:
                f.write('\n'.join(head).rstrip('\n') + '\n')
            for ch in chunks:
                f.write('\n' + ch.strip('\n') + '\n')
        print('csplit: %d items -> %s' % (len(chunks), sec['file']))
    # The rest stays; drop the taken items and squeeze blank lines.
    out = []
    pos = 0
    for i in sorted(taken):
        s, e = items[i][0], items[i][1]
        out.append(text[pos:s])
        pos = e
    out.append(text[pos:])
    rest = ''.join(out)
    rest = re.sub(r'\n{3,}', '\n\n', rest)
    open(src, 'w').write(rest)
    left = [it[3] for idx, it in enumerate(items) if idx not in taken and it[2] in ('func', 'decl')]
    print('csplit: %s keeps %d items' % (src, len(left)))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'list':
        cmd_list(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'split':
        cmd_split(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
