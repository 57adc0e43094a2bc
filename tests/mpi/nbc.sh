#!/bin/bash
# nbc.sh - nonblocking and persistent collectives the way programs use them
# (nbc.c): many outstanding, mixed with point-to-point requests in
# Wait/Test-any/some/all, amid blocking ones, restarted, on two
# communicators, freed; each forcing algorithms and checking they ran.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then sizes=${NBC_SIZES:-"1 2 3 4"}; else sizes=${NBC_SIZES:-"1 2 3"}; fi
log=$(mktemp)
for np in $sizes; do
    start=$SECONDS
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/nbc" >"$log" 2>&1
    echo "== np=$np ($((SECONDS - start)) s)"
    grep -E '^(ok|FAIL)' "$log" | sed "s/^/np=$np /"
    grep -q 'nbc: .* passed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np: nbc did not finish"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish nbc
