#!/bin/bash
# nbc.sh - nonblocking and persistent collectives the way programs use them
# (nbc.c): many outstanding, mixed with point-to-point requests in
# Wait/Test-any/some/all, amid blocking ones, restarted, on two
# communicators, freed; each forcing algorithms and checking they ran.
# Where the MPI has MPI-4's large-count collectives (HAVE_MPI_ALLREDUCE_C:
# MPICH 4) all of it again at np 2 through their _c forms (nbc
# --large-count); elsewhere that run is skipped, said once.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then sizes=${NBC_SIZES:-"1 2 3 4"}; else sizes=${NBC_SIZES:-"1 2 3"}; fi
log=$(mktemp)
# One launch: NP, then nbc's arguments.
run() {
    local np=$1 start=$SECONDS
    shift
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/nbc" "$@" >"$log" 2>&1
    echo "== np=$np $* ($((SECONDS - start)) s)"
    grep -E '^(ok|FAIL)' "$log" | sed "s/^/np=$np /"
    grep -q 'nbc: .* passed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np $*: nbc did not finish"; tail -5 "$log"; }
    count_results "$log"
}
for np in $sizes; do
    run "$np"
done
if grep -q '^#define HAVE_MPI_ALLREDUCE_C 1' "$TOP_BUILDDIR/config.h"; then
    run 2 --large-count
else
    echo "== large-count forms (MPI_Allreduce_c, ...) not run: this MPI ($FLAVOUR) has none"
fi
rm -f "$log"
finish nbc
