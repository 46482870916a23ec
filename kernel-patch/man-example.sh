#!/bin/sh
# Print the C program of nsfd.2's EXAMPLES section (between the
# man-pages SRC BEGIN/END markers), with the roff escapes undone, so that
# vmtest can compile it and run it in the guest.
#   kernel-patch/man-example.sh > nsfd_example.c
page=${1:-$(dirname "$0")/nsfd.2}
sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' "$page" |
	sed -e '/^\.\\" SRC /d' -e '/^\.EX$/d' -e '/^\.EE$/d' \
	    -e 's/^\\&$//' -e 's/\\-/-/g' -e "s/\\\\\\[aq\\]/'/g" -e 's/\\e/\\/g'
