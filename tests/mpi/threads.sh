#!/bin/bash
# threads.sh - collshim_tune() replacing tables while other threads run
# collectives under MPI_THREAD_MULTIPLE (threads.c), at 1 and 2 ranks.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
for np in ${THREADS_SIZES:-1 2}; do
    start=$SECONDS
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/threads" >"$log" 2>&1
    echo "== np=$np ($((SECONDS - start)) s)"
    grep -E '^(FAIL|threads)' "$log" | head -20
    grep -q '^threads: .* passed' "$log" ||
        { FAILED=$((FAILED + 1)); echo "FAIL np=$np: threads did not finish"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish threads
