#!/usr/bin/python3
"""Compare nsaudit's records of one run with strace's view of the same run.

Usage: strace-vs-nsaudit.py LABEL STRACE_FILE NSAUDIT_JSONL [NSMAP [WINDOW]]

STRACE_FILE: written by "strace -f -qq -yy -o FILE -e trace=setns,unshare,
clone,clone3,mount,umount2,openat" (a pid on every line; -yy decodes nsfs
fds as net:[4026531833]). NSAUDIT_JSONL: "nsaudit trace --format json"
covering the run. NSMAP (optional): lines "PATH TYPE INODE" naming nsfs
files the run used by path (podman's /run/netns/netns-UUID) and lines
"- TYPE INODE" for namespaces the run is known to create (the container's,
read from /proc/PID/ns while it ran). WINDOW (optional): "START END" in ns
since the epoch: only records of that time count (pids are reused).

Ground truth is strace: for every namespace call it made, nsaudit must have
the records the README promises (one per CLONE_NEW* type), with the same
thread, type, result and, where strace or NSMAP tell it, inode; and nsaudit
must have no record of those threads that strace did not see. Prints one
PASS:/FAIL: line per check and a summary line "LABEL: strace N calls ...,
nsaudit M records"; exits 1 if anything failed.
"""
import calendar
import collections
import os
import json
import re
import sys
import time

TYPES = {  # CLONE_NEW* bit -> nsaudit ns_type
    "CLONE_NEWNET": "net", "CLONE_NEWUTS": "uts", "CLONE_NEWIPC": "ipc",
    "CLONE_NEWNS": "mnt", "CLONE_NEWPID": "pid", "CLONE_NEWUSER": "user",
    "CLONE_NEWCGROUP": "cgroup", "CLONE_NEWTIME": "time",
}
ERRNO = {"EPERM": 1, "ENOENT": 2, "ESRCH": 3, "EINTR": 4, "EBADF": 9, "EAGAIN": 11,
         "ENOMEM": 12, "EACCES": 13, "EBUSY": 16, "EEXIST": 17, "EINVAL": 22,
         "ENOSPC": 28, "EUSERS": 87, "ENOSYS": 38, "EOPNOTSUPP": 95}
NSFS = re.compile(r"^(net|uts|ipc|mnt|pid|user|cgroup|time)(?:_for_children)?:\[(\d+)\]$")
PROC_NS = re.compile(r"^/proc/[^/]+/(?:task/\d+/)?ns/(net|uts|ipc|mnt|pid|user|cgroup|time)")
LINE = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+)(?:<([^>]*)>)?(?: ([A-Z0-9]+))?")

results = []


def check(ok, what):
    results.append(ok)
    print(("PASS: " if ok else "FAIL: ") + what)


def strace_calls(path):
    """Complete syscall lines, unfinished/resumed pairs joined."""
    pending, calls = {}, []
    for raw in open(path, errors="replace"):
        raw = raw.rstrip("\n")
        m = re.match(r"^(\d+) +(.*)", raw)
        if not m:
            continue
        pid, rest = m.group(1), m.group(2)
        if rest.endswith("<unfinished ...>"):
            pending[pid] = rest[: -len("<unfinished ...>")].rstrip()
            continue
        r = re.match(r"^<\.\.\. \w+ resumed>(.*)", rest)
        if r:
            rest = pending.pop(pid, "") + r.group(1)
        m = LINE.match(pid + " " + rest)
        if not m:
            continue
        tid, name, args, ret, retdesc, err = m.groups()
        ret = int(ret)
        calls.append({"tid": int(tid), "name": name, "args": args,
                      "result": -ERRNO.get(err, 999) if ret == -1 else ret, "retdesc": retdesc})
    return calls


def epoch_ns(t):
    """RFC 3339 UTC with nanoseconds -> ns since the epoch (0 if not)."""
    m = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{9})Z$", t)
    if not m:
        return 0
    sec = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S"))
    return sec * 1000000000 + int(m.group(2))


def flag_types(s):
    return [TYPES[f] for f in re.findall(r"CLONE_NEW[A-Z]+", s) if f in TYPES]


def first_arg_desc(args):
    m = re.match(r"^-?\d+<([^>]*)>", args)
    return m.group(1) if m else None


def quoted(args, n):
    q = re.findall(r'"((?:[^"\\]|\\.)*)"', args)
    return q[n] if len(q) > n else None


def promised_records(c, want, nsfs_paths, nsmap):
    """The records one strace call promises, appended to want."""
    n, a, res, tid = c["name"], c["args"], c["result"], c["tid"]
    if n == "setns":
        desc = first_arg_desc(a) or ""
        flags = a.split(",", 1)[1] if "," in a else ""
        m = NSFS.match(desc)
        if m:
            want.append(("setns", tid, m.group(1), res, int(m.group(2)), None))
        elif desc in nsfs_paths:
            t, i = nsfs_paths[desc]
            want.append(("setns", tid, t, res, i, None))
        elif "pidfd" in desc:
            for t in flag_types(flags):
                want.append(("setns", tid, t, res, None, None))
        else:
            for t in flag_types(flags) or ["?"]:
                want.append(("setns", tid, t, res, None, None))
    elif n == "unshare":
        for t in flag_types(a):
            want.append(("unshare", tid, t, res, None, None))
    elif n in ("clone", "clone3"):
        for t in flag_types(a):
            want.append(("clone", tid, t, res if res < 0 else 0, None, None))
    elif n == "openat" and res >= 0:
        # /proc/PID/ns/TYPE (strace decodes the fd as TYPE:[INODE]) or a
        # bind-mounted nsfs file (the fd shows its path; NSMAP its inode)
        p = quoted(a, 0) or ""
        m = NSFS.match(c["retdesc"] or "")
        if PROC_NS.match(p) and m:
            want.append(("open", tid, m.group(1), 0, int(m.group(2)), p))
        elif p in nsfs_paths:
            t, i = nsfs_paths[p]
            want.append(("open", tid, t, 0, i, p))
    elif n == "mount" and res == 0:
        src, tgt = quoted(a, 0), quoted(a, 1)
        if "MS_BIND" in a and "MS_REMOUNT" not in a and src and tgt:
            m = PROC_NS.match(src)
            if m or src in nsfs_paths:
                t = m.group(1) if m else nsfs_paths[src][0]
                inum = nsmap.get(tgt, (None, None))[1]
                want.append(("mount", tid, t, 0, inum, tgt))
                nsfs_paths[tgt] = (t, inum)
    elif n == "umount2" and res == 0:
        tgt = quoted(a, 0)
        if tgt in nsfs_paths:
            t, i = nsfs_paths.pop(tgt)
            want.append(("umount", tid, t, 0, i, tgt))


def main():
    label, st, js = sys.argv[1:4]
    nsmap, created = {}, collections.defaultdict(set)
    if len(sys.argv) > 4 and os.path.exists(sys.argv[4]):
        for line in open(sys.argv[4]):
            f = line.split()
            if len(f) == 3:
                if f[0] == "-":
                    created[f[1]].add(int(f[2]))
                else:
                    nsmap[f[0]] = (f[1], int(f[2]))
    calls = strace_calls(st)
    tids = {c["tid"] for c in calls} | {c["result"] for c in calls if c["name"].startswith("clone")
                                        and c["result"] > 0}
    recs = [json.loads(l) for l in open(js) if l.strip()]
    if len(sys.argv) > 5 and os.path.exists(sys.argv[5]):
        lo, hi = (int(x) for x in open(sys.argv[5]).read().split()[:2])
        recs = [r for r in recs if lo <= epoch_ns(r.get("time", "")) <= hi]
    mine = [r for r in recs if r.get("tid") in tids and r.get("op") in
            ("setns", "unshare", "clone", "mount", "umount", "open")]

    # what strace says nsaudit must have: (op, tid, type, result, inum or None, path)
    want = []
    # a path of NSMAP is an nsfs file only while it is mounted: from the
    # mount strace saw on it (if any) to its umount
    mounted_here = {quoted(c["args"], 1) for c in calls if c["name"] == "mount"}
    nsfs_paths = {p: v for p, v in nsmap.items() if p not in mounted_here}
    ncalls = 0
    for c in calls:
        before = len(want)
        promised_records(c, want, nsfs_paths, nsmap)
        ncalls += len(want) > before

    # match each wanted record with one of nsaudit's, in order per key
    pool = collections.defaultdict(list)
    for r in mine:
        pool[(r["op"], r["tid"], r.get("ns_type"), r.get("result"))].append(r)
    missing, wrong_inum, uses = [], [], {}
    for w in want:
        op, tid, t, res, inum, path = w
        cands = pool.get((op, tid, t, res), [])
        if path is not None:
            cands = [r for r in cands if r.get("path") == path] or cands
        if not cands:
            missing.append(w)
            continue
        r = cands[0]
        # a coalesced record stands for "repeat" identical calls in a row
        uses[id(r)] = uses.get(id(r), r.get("repeat") or 1) - 1
        if uses[id(r)] <= 0:
            pool[(op, tid, t, res)] = [x for x in pool[(op, tid, t, res)] if x is not r]
        if inum is not None and r.get("ns_inum") != inum:
            wrong_inum.append((w, r.get("ns_inum")))
    extra = [r for v in pool.values() for r in v]
    # a bind mount nsaudit could not resolve (its process and mount
    # namespace gone before the record was read) is written with
    # "unresolved" and no namespace: it is the record of a bind strace saw
    binds = {(c["tid"], quoted(c["args"], 1)) for c in calls if c["name"] == "mount" and
             c["result"] == 0 and "MS_BIND" in c["args"] and "MS_REMOUNT" not in c["args"]}
    unresolved = [r for r in extra if r["op"] == "mount" and r.get("ns_type") is None and
                  r.get("unresolved") and (r["tid"], r.get("path")) in binds]
    extra = [r for r in extra if not any(r is u for u in unresolved)]

    by_op = collections.Counter(w[0] for w in want)
    got_op = collections.Counter(r["op"] for r in mine)
    summary = ", ".join("%s %d/%d" % (op, got_op.get(op, 0), by_op[op]) for op in sorted(by_op))
    print("%s: strace: %d namespace calls -> %d records expected; nsaudit records/expected: %s"
          % (label, ncalls, len(want), summary or "none") +
          (" (+%d unresolved binds)" % len(unresolved) if unresolved else ""))
    check(len(want) > 0, "%s: strace saw namespace calls (%d records expected)" % (label, len(want)))
    check(not missing, "%s: every namespace call strace saw has its nsaudit record%s" %
          (label, "" if not missing else " (missing %d: %s)" % (len(missing), missing[:4])))
    check(not wrong_inum, "%s: namespace inodes agree with strace's decoded fds%s" %
          (label, "" if not wrong_inum else " (%s)" % wrong_inum[:4]))
    check(not extra, "%s: no nsaudit record of these threads that strace did not see%s" %
          (label, "" if not extra else " (%d: %s)" % (len(extra), [
              (r["op"], r["tid"], r.get("ns_type"), r.get("result")) for r in extra[:4]])))
    made = [r for r in mine if r["op"] in ("unshare", "clone") and r.get("result") == 0]
    if created and made:
        bad = [(r["op"], r["ns_type"], r.get("ns_inum")) for r in made
               if r["ns_type"] in created and r.get("ns_inum") not in created[r["ns_type"]]]
        check(not bad, "%s: created namespaces are the ones the container runs in (/proc/PID/ns)%s"
              % (label, "" if not bad else " (%s)" % bad[:4]))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
