#!/bin/bash
# matrix.sh - the correctness matrix: every native algorithm, forced, over
# the communicator sizes of this flavour. MPICH (ch4:ucx) busy-polls, so
# with more ranks than cores it is slow: its matrix is smaller.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then
    sizes=${COLLCHECK_SIZES:-"1 2 3 4 5 7 8"}
else
    sizes=${COLLCHECK_SIZES:-"1 2 3 4"}
fi
log=$(mktemp)
for np in $sizes; do
    quick=
    [ "$FLAVOUR" = mpich ] && [ "$np" -gt 2 ] && quick=--quick
    echo "== np=$np $quick"
    if ! mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/collcheck" $quick ${COLLCHECK_ARGS:-} >"$log" 2>&1; then
        grep -q 'passed, .* failed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np: collcheck did not finish"; }
    fi
    grep -E '^(FAIL|collcheck)' "$log" | head -50
    count_results "$log"
done
rm -f "$log"
finish matrix
