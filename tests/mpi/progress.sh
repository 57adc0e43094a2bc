#!/bin/bash
# progress.sh - COLLSHIM_PROGRESS_THREAD=1 advances a nonblocking collective
# while the program computes without MPI calls; without it, nothing does
# (progress.c). np 2.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
for thread in 1 0; do
    mpi_run 2 COLLSHIM_PROGRESS_THREAD=$thread -- "$TOP_BUILDDIR/tests/mpi/progress" >"$log" 2>&1
    echo "== COLLSHIM_PROGRESS_THREAD=$thread"
    grep -E '^(ok|FAIL)' "$log"
    grep -q 'progress: ' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL thread=$thread: did not finish"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish progress
