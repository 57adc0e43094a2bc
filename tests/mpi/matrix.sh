#!/bin/bash
# matrix.sh - the correctness matrix: every native algorithm, forced, over
# the communicator sizes of this flavour, called as a blocking collective,
# then as a nonblocking one (MPI_I<coll> + MPI_Wait) and as a persistent
# request started twice (collcheck --mode). MPICH (ch4:ucx) busy-polls, so
# with more ranks than cores it is slow: its matrix is smaller. The
# nonblocking and persistent modes run the --quick matrix (largest count
# 4099 instead of 100003) at fewer sizes: the algorithms are the blocking
# ones, what those modes add is the request machinery around them.
#   COLLCHECK_SIZES   communicator sizes, for every mode
#   COLLCHECK_MODES   modes to run (default: blocking nonblocking persistent)
#   COLLCHECK_ARGS    more collcheck arguments (--coll bcast, --alg ring)
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then
    sizes=${COLLCHECK_SIZES:-"1 2 3 4 5 7 8"}
    request_sizes=${COLLCHECK_SIZES:-"1 2 3 4 5 8"}
else
    sizes=${COLLCHECK_SIZES:-"1 2 3 4"}
    request_sizes=${COLLCHECK_SIZES:-"1 2 3"}
fi
log=$(mktemp)
for mode in ${COLLCHECK_MODES:-blocking nonblocking persistent}; do
    nps=$sizes
    [ "$mode" = blocking ] || nps=$request_sizes
    for np in $nps; do
        quick=
        [ "$FLAVOUR" = mpich ] && [ "$np" -gt 2 ] && quick=--quick
        [ "$mode" = blocking ] || quick=--quick
        start=$SECONDS
        if ! mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/collcheck" --mode "$mode" $quick \
            ${COLLCHECK_ARGS:-} >"$log" 2>&1; then
            grep -q 'passed, .* failed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np $mode: collcheck did not finish"; tail -5 "$log"; }
        fi
        echo "== np=$np $mode $quick ($((SECONDS - start)) s)"
        grep -E '^(FAIL|collcheck)' "$log" | head -50
        count_results "$log"
    done
done
rm -f "$log"
finish matrix
