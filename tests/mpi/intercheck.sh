#!/bin/bash
# intercheck.sh - intercommunicator collectives (intercheck.c): every
# intercommunicator algorithm forced, blocking, nonblocking and persistent,
# on every split of the job in two, checked against values computed from
# the inputs and against the vendor; then again with blocking calls run
# through the schedule engine (COLLSHIM_SCHEDULE_BLOCKING=1).
# Open MPI: 2, 3, 4, 5 and 8 ranks (groups (1,1), (1,2), (1,3), (2,2),
# (3,1), (2,3), (4,1), ..., (4,4) and even/odd splits); MPICH busy-polls:
# 2 and 3 ranks.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then sizes=${INTERCHECK_SIZES:-"2 3 4 5 8"}; else sizes=${INTERCHECK_SIZES:-"2 3"}; fi
log=$(mktemp)
for sched in 0 1; do
    for np in $sizes; do
        start=$SECONDS
        mpi_run "$np" COLLSHIM_SCHEDULE_BLOCKING=$sched -- "$TOP_BUILDDIR/tests/mpi/intercheck" >"$log" 2>&1
        echo "== np=$np schedule_blocking=$sched ($((SECONDS - start)) s)"
        grep -E '^(==|FAIL)' "$log" | sed "s/^/np=$np /"
        grep -q 'intercheck: .* passed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np: intercheck did not finish"; tail -5 "$log"; }
        count_results "$log"
    done
done
rm -f "$log"
finish intercheck
