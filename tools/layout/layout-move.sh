#!/bin/bash
# layout-move.sh STEP - the layout move of issue 23, one step (one commit)
# at a time, in the checkout after "git merge main". Steps, in order:
#   rooms      loader/*.[ch] into rooms (rooms.txt), includes name the room,
#              Makefile's rooms section, mentions of the old paths
#   bpf        bpf/nsaudit.bpf.c + emit.bpf.h -> bpf/nsaudit/ parts (bpf.spec)
#   split-tracer split-enrich split-nsnames split-lifetime split-holders
#              one file along its seams (SPEC.spec + fixstatic.py)
#   fn-NAME    one function over 100 lines (fn/NAME.py)
#   readmes    a README.md per room, tests/integration/02-layout.sh
# Each step builds build/nsaudit and stops before committing when that
# fails; fix by hand, then "layout-move.sh commit STEP".
set -eu
L=tools/layout
SOB="Signed-off-by: nsaudit maintainers <maintainers@nsaudit.example>"
step=$1

build() {
	nice make -j2 build/nsaudit >/tmp/layout-step.log 2>&1 || {
		grep -E 'error|Error' /tmp/layout-step.log | head -20
		echo "layout-move: $step: build failed (log /tmp/layout-step.log); fix, then: $0 commit $step" >&2
		exit 1
	}
	if grep -q 'warning:' /tmp/layout-step.log; then
		grep 'warning:' /tmp/layout-step.log | head
		echo "layout-move: $step: warnings; fix, then: $0 commit $step" >&2
		exit 1
	fi
}

msg() {	# the commit message of a step
	case $1 in
	rooms) cat <<'EOF'
loader: rooms with one job each

loader/ was one folder of 50 files mixing seven subsystems. Its files
move into rooms, lowest first; a room includes only from the rooms below
it, and nothing includes a command:

  kernel/    what this kernel allows; libbpf's messages
  output/    a record's formats (text, JSON) and the sinks
  names/     names and enrichment: executables, cgroups, containers,
             ip netns names, the nsfs mount table, mountinfo
  holders/   what keeps a namespace alive, its refcount accounting
  rules/     detections
  tracer/    load, choose hooks, attach, drain the rings, pins
  lifetime/  one namespace's timeline from a log
  cmd/       main.c, one cmd_NAME.c per subcommand, the option chain

Files only move (holders_model.c is now holders_model.c, timeline.c
timeline.c: the names say what they hold); includes name the room they
come from ("names/nsnames.h"), so an arrow is visible where it is
drawn. The Makefile builds every .c of the rooms listed in LOADER_ROOMS.
EOF
		;;
	bpf) cat <<'EOF'
BPF: the tracer's programs one part per concern, linked into one object

bpf/nsaudit.bpf.c had grown to 1,700 lines of six concerns. It becomes
bpf/nsaudit/, one part per concern, linked by libbpf's static linker
(bpftool gen object) into the one object and skeleton it was:

  nsaudit.bpf.c        the maps and globals the parts share, defined once
  setns.bpf.c          setns: what was entered, what was left
  unshare_clone.bpf.c  unshare; clone/clone3 with CLONE_NEW* that failed
  pins_fd.bpf.c        open, the NS_GET_*/pidfd ioctls, pidfd_getfd,
                       open_by_handle_at, nsfd
  pins_mount.bpf.c     mount, move_mount, umount
  lifecycle.bpf.c      exec, fork, exit, the flush and snapshot iterators,
                       ns_free

Shared helpers stay static inline in headers (emit.bpf.h, nscache.bpf.h,
nsfile.bpf.h); a map or global several parts use is declared extern
there and defined once in nsaudit.bpf.c, which is linked first: libbpf
1.1's linker gives an extern map whose definition comes later the
offset of another map. The parts link in the Makefile's nsaudit_PARTS
order, the skeleton's program order, so "nsaudit: ready (hooks: ...)"
reads as before. Objects build into build/bpf-ARCH/ for every ARCH; 05-
bpf-arm64 counts a folder of parts as the one object it makes.
EOF
		;;
	split-tracer) cat <<'EOF'
tracer: one file per job of the tracer

tracer.c (1,000+ lines) did six things. Its options move to
tracer_opts.c, the choice of hooks to tracer_hooks.c, draining the rings
and handing records on to tracer_drain.c, turning every loss into a
record to tracer_loss.c, pinning and reusing pins to tracer_pins.c;
tracer.c keeps opening and closing. tracer_impl.h is the state they
share.
EOF
		;;
	split-enrich) cat <<'EOF'
names: enrich.c's mount namespaces and pins apart from its processes

enrich.c knew three things: processes (executables, cgroups), mount
namespaces (one task in each, alive or dead), and the nsfs pins in them
(completing mount, umount and refused-open records). The last two move
to enrich_mntns.c and enrich_pins.c; enrich_impl.h is the cache they
share.
EOF
		;;
	split-nsnames) cat <<'EOF'
names: nsnames.c's parsers and sources apart from resolving

The stateless parsers (/proc ns links, ip netns paths, container ids in
cgroup paths) move to nsnames_parse.c, what the cache is filled from
(the nsfs mount table, /proc, inotify on /run/netns) to nsnames_scan.c;
nsnames.c keeps resolving a namespace or a record to names.
EOF
		;;
	split-lifetime) cat <<'EOF'
lifetime: reading a log in order is the lifetime room's, not the command's

cmd_lifetime.c read the log's segments itself and followed the recorder.
That reader moves to lifetime/log_reader.c (one API: log_read,
log_follow); the command keeps its options and output. Its warnings
read as before ("nsaudit lifetime: ...").
EOF
		;;
	split-holders) cat <<'EOF'
holders: the model no longer calls its renderers

holders_now() sat in the model and called ns_json() and print_ns(),
which call back into the model. It moves to holders_now.c, above both:
the renderers call the model, never the other way round.
EOF
		;;
	alert) cat <<'EOF'
output: an alert record's shape and fields belong to the outputs

record_fmt.c (output) wrote an alert's fields with alert_fields() from
loader/rules/, whose header took struct rule_alert from rules.h: outputs
and rules included each other. What an alert record is (struct
rule_alert, the severities and their names) and how its fields are
written move to output/alert_fmt.[ch]; rules.h includes that. The rules
make alerts, the outputs write them, and the arrow runs one way.
EOF
		;;
	split-log) cat <<'EOF'
audit: sealing an epoch and the tail anchors apart from appending

log.c reached 650 lines. What the writer does at an epoch's end (the
seal record, the next key, the old one erased) and the anchors it sends
through the sinks move to log_seal.c; log.c keeps appending, flushing,
reopening and closing.
EOF
		;;
	fn-*) cat <<EOF
${1#fn-}(): split along its seam

A function of over 100 lines; the part that does one thing of its own
becomes a function of its own (see the diff), with the same behaviour.
EOF
		;;
	readmes) cat <<'EOF'
loader: a README per room; a test that keeps the layout

Each room says its one job and what it may include. 02-layout.sh checks
on every run what this round set up: rooms include only from rooms below
them (LOADER_ROOMS order), no room includes a command, audit/ and common/
include nothing from above, and no source file is over 650 lines or
function over 100 (the same measure as the project's before-stop check).
EOF
		;;
	esac
	echo
	echo "$SOB"
}

commit() {
	git add -A
	git commit -q -F <(msg "$1")
	git log --oneline -1
}

if [ "$step" != commit ] && [ -n "$(git status --porcelain)" ]; then
	git status --short | head
	echo "layout-move: $step: the tree is not clean; commit or stash first" >&2
	exit 1
fi

case $step in
commit)
	commit "$2"
	exit 0
	;;
rooms)
	"$L/move-rooms.sh"
	python3 "$L/fixincludes.py" >/dev/null
	python3 "$L/makefile.py" rooms
	"$L/fixpaths.sh"
	;;
alert)
	python3 "$L/alert-fix.py"
	python3 "$L/fixincludes.py" >/dev/null
	;;
bpf)
	"$L/bpf-split.sh"
	python3 "$L/makefile.py" bpf
	python3 - <<'EOF'
p = 'tests/integration/05-bpf-arm64.sh'
s = open(p).read()
s = s.replace('''	want=$(ls "$ROOT"/bpf/*.bpf.c | wc -l)''', '''	# one object per bpf/NAME.bpf.c and per folder of parts bpf/NAME/
	want=$( (ls "$ROOT"/bpf/*.bpf.c; ls "$ROOT"/bpf/*/*.bpf.c | xargs -n1 dirname | sort -u) | wc -l)''')
open(p, 'w').write(s)
EOF
	;;
split-*)
	name=${step#split-}
	python3 "$L/csplit.py" split "$L/$name.spec"
	case $name in
	tracer)
		echo '#endif' >>loader/tracer/tracer_impl.h
		python3 "$L/fixstatic.py" loader/tracer/tracer_impl.h loader/tracer/tracer*.c
		;;
	enrich)
		echo '#endif' >>loader/names/enrich_impl.h
		sed -i 's|^#include "enrich.h"$|#include "enrich_impl.h"|' loader/names/enrich.c
		python3 "$L/fixstatic.py" loader/names/enrich_impl.h loader/names/enrich.c \
			loader/names/enrich_mntns.c loader/names/enrich_pins.c
		;;
	nsnames)
		echo '#endif' >>loader/names/nsnames_impl.h
		sed -i 's|^#include "nsnames.h"$|#include "nsnames_impl.h"|' loader/names/nsnames.c
		python3 "$L/fixstatic.py" loader/names/nsnames_impl.h loader/names/nsnames.c \
			loader/names/nsnames_scan.c loader/names/nsnames_parse.c
		# the name enrich_pins.c also exports
		sed -i 's/\bnote_mntns\b/names_note_mntns/g' loader/names/nsnames.c \
			loader/names/nsnames_scan.c loader/names/nsnames_impl.h
		;;
	lifetime)

		python3 "$L/lifetime-fix.py"
		;;
	holders)
		python3 "$L/holders-fix.py"
		;;
	log)
		python3 "$L/fixstatic.py" audit/log_impl.h audit/log.c audit/log_seal.c
		python3 "$L/log-fix.py"
		;;
	esac
	;;
fn-*)
	python3 "$L/fn/${step#fn-}.py"
	;;
readmes)
	for r in "$L"/rooms/*.md; do
		room=$(basename "$r" .md)
		[ -d "loader/$room" ] && cp "$r" "loader/$room/README.md"
	done
	cp "$L/02-layout.sh" tests/integration/02-layout.sh
	;;
*)
	echo "layout-move: unknown step $step" >&2
	exit 2
	;;
esac
build
commit "$step"
