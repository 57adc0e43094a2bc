#!/bin/bash
# isolation.sh - wildcard receives never see shim traffic.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
for np in 2 3; do
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/isolation" >"$log" 2>&1
    grep -E '^(ok|FAIL)' "$log" | sed "s/^/np=$np /"
    grep -q 'isolation: ' "$log" || { FAILED=$((FAILED + 1)); cat "$log"; }
    count_results "$log"
done
rm -f "$log"
finish isolation
