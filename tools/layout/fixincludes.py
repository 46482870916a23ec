#!/usr/bin/env python3
"""fixincludes.py - after loader/ files moved into rooms (loader/ROOM/x.h),
rewrite every #include "x.h" of a loader header: bare within its own room,
"ROOM/x.h" from anywhere else (the build has -Iloader). Also rewrites
includes that already name a room, if the header moved to another one.
Run from the top of the worktree. Prints each file it changed."""
import glob
import os
import re

hdrs = {}
for p in glob.glob('loader/*/*.h'):
    room, base = p.split('/')[1], os.path.basename(p)
    if base in hdrs:
        raise SystemExit('fixincludes: %s is in two rooms' % base)
    hdrs[base] = room

files = [p for p in glob.glob('loader/**/*.[ch]', recursive=True)]
files += glob.glob('tests/**/*.[ch]', recursive=True)
files += glob.glob('bench/*.[ch]')
inc = re.compile(r'^(\s*#\s*include\s+")([^"]+)(".*)$', re.M)
for p in files:
    parts = p.split('/')
    here = parts[1] if parts[0] == 'loader' and len(parts) == 3 else None
    s = open(p).read()

    def repl(m):
        name = m.group(2)
        base = os.path.basename(name)
        if base not in hdrs or (name != base and name.split('/')[0] not in
                                [r for r in set(hdrs.values())]):
            return m.group(0)
        room = hdrs[base]
        new = base if room == here else '%s/%s' % (room, base)
        return m.group(1) + new + m.group(3)

    t = inc.sub(repl, s)
    if t != s:
        open(p, 'w').write(t)
        print('fixincludes:', p)
