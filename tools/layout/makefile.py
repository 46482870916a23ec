#!/usr/bin/env python3
"""makefile.py rooms|bpf - put the layout's sections into the Makefile (run
from the top of the worktree): "rooms" replaces the loader sources section
(from "# Three layers"/"# User space is three layers" to ".SECONDARY:") and
drops -Iloader/ROOM flags; "bpf" replaces the BPF variables and rules."""
import re
import sys
L = 'tools/layout/'
s = open('Makefile').read()
if sys.argv[1] == 'rooms':
    m = re.search(r'^# (Three layers|User space is three layers)', s, re.M)
    b = s.index('.SECONDARY:')
    s = s[:m.start()] + open(L + 'mk-rooms.txt').read() + s[b:]
    s = re.sub(r' *\\\n\s*-Iloader/\w+', '', s)      # a continuation line of its own
    s = re.sub(r' -Iloader/\w+', '', s)
    s = s.replace('loader/*.[ch] tests/unit/*.c', 'loader/*/*.[ch] tests/unit/*.c')
elif sys.argv[1] == 'bpf':
    a = s.index('# --- BPF ----')
    m = re.search(r'^# (Three layers|User space is three layers)', s, re.M)
    s = s[:a] + open(L + 'mk-bpf-vars.txt').read() + s[m.start():]
    a = s.index('# The BPF objects alone, for ARCH')
    b = s.index('$(BUILD)/obj/%.o: %.c $(SKELS) $(HEADERS)')
    s = s[:a] + open(L + 'mk-bpf-rules.txt').read() + s[b:]
open('Makefile', 'w').write(s)
print('makefile.py %s: done' % sys.argv[1])
