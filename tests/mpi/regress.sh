#!/bin/bash
# regress.sh - the calls of real programs that once gave wrong data, wrote
# bytes the vendor leaves alone, or hung (regress.c), under every algorithm
# of their collectives, at several communicator sizes.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then sizes=${REGRESS_SIZES:-"1 2 3 4"}; else sizes=${REGRESS_SIZES:-"1 2 3"}; fi
log=$(mktemp)
for np in $sizes; do
    start=$SECONDS
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/regress" >"$log" 2>&1
    echo "== np=$np ($((SECONDS - start)) s)"
    grep -E '^FAIL' "$log" | head -30 | sed "s/^/np=$np /"
    grep -q '^regress: .* passed' "$log" ||
        { FAILED=$((FAILED + 1)); echo "FAIL np=$np: regress did not finish"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish regress
