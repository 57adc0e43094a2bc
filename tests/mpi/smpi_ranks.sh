#!/bin/bash
# smpi_ranks.sh - every rank's collshim state is its own (tests/mpi/smpi_ranks.c):
# under SMPI at np 16 and 64 on hosts of 4 ranks (the fat-tree platform), so
# that hosts hold several ranks; elsewhere at np 3.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
if [ "$FLAVOUR" = smpi ]; then sizes="16 64"; export SMPI_PPN=4; else sizes=3; fi
for np in $sizes; do
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/smpi_ranks" >"$log" 2>&1
    grep -E '^(ok|FAIL|rank|smpi_ranks np)' "$log" | sed "s/^/np=$np /"
    grep -q 'smpi_ranks: ' "$log" || { FAILED=$((FAILED + 1)); tail -20 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish smpi_ranks
