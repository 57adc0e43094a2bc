#!/bin/bash
# large.sh - messages above 2^31 - 1 bytes (tests/mpi/check_large.c).
#   make check        the always-on part, about two minutes: the four
#                     broadcasts that refused more than INT_MAX bytes, at
#                     np=3 with 2.36 GB (about 7 GB of memory in all); at
#                     np=2 with 2 GiB per rank (up to 8 GiB), the two
#                     all-to-alls that refused it, and reduce_scatter_block
#                     linear and recursive_halving, which returned success
#                     without reducing once the vector passed INT_MAX
#                     elements (the MPI_BYTE pass); where the MPI has MPI-4's
#                     large-count collectives (HAVE_MPI_ALLREDUCE_C: MPICH
#                     4), MPI_Bcast_c and MPI_Allreduce_c of 2^31 + 24
#                     bytes in one count at np=2 with every algorithm that
#                     can run them (about a minute, 8 GiB at most)
#   make check-large  LARGE_FULL=1: every native algorithm of every
#                     collective at np 2 and 3, several minutes; cases whose
#                     memory estimate exceeds LARGE_MEM_GIB (default 10) for
#                     the whole run are reported as skipped
. "$TOP_SRCDIR/tests/mpi/launch.sh"
prog="$TOP_BUILDDIR/tests/mpi/check_large"
log=$(mktemp)

run() {
    local np=$1; shift
    echo "== np=$np $*"
    if ! mpi_run "$np" -- "$prog" --mem-gib "${LARGE_MEM_GIB:-10}" "$@" >"$log" 2>&1; then
        grep -q 'passed, .* failed' "$log" ||
            { FAILED=$((FAILED + 1)); echo "FAIL np=$np $*: check_large did not finish"; tail -5 "$log"; }
    fi
    grep -E '^(FAIL|skip|check_large)' "$log"
    count_results "$log"
}

if [ -n "${LARGE_FULL:-}" ]; then
    for np in 2 3; do run "$np" ${LARGE_ARGS:-}; done
else
    run 3 --coll bcast --alg scatter_allgather,scatter_rdb_allgather,pipeline,binary_pipeline \
        --unit mib
    run 2 --coll alltoall --alg bruck,linear --unit mib
    run 2 --coll reduce_scatter_block --alg linear,recursive_halving --unit byte
    if grep -q '^#define HAVE_MPI_ALLREDUCE_C 1' "$TOP_BUILDDIR/config.h"; then
        run 2 --coll bcast,allreduce --unit count
    else
        echo "== one count past INT_MAX (MPI_Bcast_c, ...) not run: this MPI ($FLAVOUR) has none"
    fi
fi
rm -f "$log"
finish large
