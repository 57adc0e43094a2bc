#!/bin/bash
# noalloc.sh - repeated collective calls allocate nothing in collshim: every
# algorithm of every collective at 8 B, 4 KiB and 256 KiB, on 4 ranks faked
# as 2 nodes of 2 so that the node-aware algorithms run too; where the MPI has
# MPI-4's large-count collectives, at 8 B through their _c forms too.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
mpi_run 4 COLLSHIM_NODES=block:2 -- "$TOP_BUILDDIR/tests/mpi/noalloc" >"$log" 2>&1
grep -E '^(FAIL|  )' "$log"
grep -q 'noalloc: ' "$log" || { FAILED=$((FAILED + 1)); cat "$log"; }
count_results "$log"
rm -f "$log"
finish noalloc
