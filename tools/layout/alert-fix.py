#!/usr/bin/env python3
"""alert-fix.py - after the rooms step: an alert record's shape (struct
rule_alert, the severities and their names) and its fields (alert_fields)
are the output room's, so that record_fmt.c (output) never includes rules/.
Run from the top of the worktree."""
import os
import re
import subprocess
import sys
sys.path.insert(0, 'tools/layout')
from csplit import scan_items  # noqa: E402

subprocess.check_call(['git', 'mv', 'loader/rules/alert_fmt.c', 'loader/output/alert_fmt.c'])
subprocess.check_call(['git', 'mv', 'loader/rules/alert_fmt.h', 'loader/output/alert_fmt.h'])

# rules.h -> alert_fmt.h: the alert's shape
p = 'loader/rules/rules.h'
s = open(p).read()
want = {'enum rule_severity', 'rule_severity_name', 'rule_severity_parse', '#define RULE_ID_LEN',
        '#define RULE_SUMMARY_LEN', '#define RULE_HOLDER_LEN', 'struct rule_alert'}
items = [it for it in scan_items(s) if it[3] in want]
found = {it[3] for it in items}
if found != want:
    print('alert-fix: not in rules.h: %s' % (want - found), file=sys.stderr)
moved = ''
for a, b, _, nm in items:
    chunk = s[a:b].strip('\n')
    if moved:
        moved += '\n' if (nm.startswith('#define') and moved.split('\n')[-1].startswith('#define')) else '\n\n'
    moved += chunk
for a, b, _, _ in reversed(items):
    s = s[:a] + s[b:]
s = re.sub(r'\n{3,}', '\n\n', s)
# rules.h now takes the shape from output/
ms = list(re.finditer(r'^#include "[^"]+"\n', s, re.M))
s = s[:ms[-1].end()] + '#include "output/alert_fmt.h"\n' + s[ms[-1].end():]
open(p, 'w').write(s)

p = 'loader/output/alert_fmt.h'
h = open(p).read()
h = h.replace('#include "rules.h"\n', '#include "names/containers.h"\n#include "nsaudit.h"\n')
h = h.replace('#include "rules/rules.h"\n', '#include "names/containers.h"\n#include "nsaudit.h"\n')
h = h.replace('#include "output/record_fmt.h"', '#include "record_fmt.h"')
if '#include <stdint.h>' not in h:
    h = h.replace('#include <stddef.h>\n', '#include <stddef.h>\n#include <stdint.h>\n')
k = h.index('\n', h.rindex('#include')) + 1
h = h[:k] + '\n' + moved + '\n' + h[k:]
h = h.replace('NSAUDIT_RULES_ALERT_FMT_H', 'NSAUDIT_OUTPUT_ALERT_FMT_H')
h = h.replace('/* alert_fmt.h - an alert record\'s fields (record_fmt.c calls it). */',
              '/*\n * alert_fmt.h - an alert record: its shape (what a rule fills in), its\n * severities, and its fields for every output (record_fmt.c calls\n * alert_fields). The rules make alerts (loader/rules/); outputs write them.\n */')
open(p, 'w').write(h)

# engine.c -> alert_fmt.c: the severity names, both ways
p = 'loader/rules/engine.c'
s = open(p).read()
want = {'sev_names', 'rule_severity_name', 'rule_severity_parse'}
items = [it for it in scan_items(s) if it[3] in want]
moved = '\n\n'.join(s[a:b].strip('\n') for a, b, _, _ in items)
for a, b, _, _ in reversed(items):
    s = s[:a] + s[b:]
s = re.sub(r'\n{3,}', '\n\n', s)
open(p, 'w').write(s)
p = 'loader/output/alert_fmt.c'
c = open(p).read()
c = c.rstrip('\n') + '\n\n' + moved + '\n'
if '#include <string.h>' not in c:
    c = c.replace('#include "', '#include <string.h>\n\n#include "', 1)
open(p, 'w').write(c)
print('alert-fix: done; now run fixincludes.py')
