#!/bin/bash
# check_scale.sh - `make check-scale` of the smpi flavour (doc/scale.md):
# the blocking --quick matrix, every algorithm, at np 127 and 256 on the
# fat-tree platform (make check runs 16, 31 and 64), and at 1024 the
# algorithms whose number of rounds grows as lg p (a linear one at 1024
# ranks runs 1023 rounds per call, and its rank 0 holds every block),
# counts up to 64 (0, 1: below p, the edge
# at scale; a 4099-int block per rank would be 16 MiB per rank there).
# Prints the time each size took. COLLCHECK_SIZES, COLLCHECK_ARGS apply.
# CHECK_SCALE_SIZES (127 256) and CHECK_SCALE_LOG_SIZES (1024) set empty
# run none of their sizes (before, an empty value ran the defaults).
# One launch per size and collective (CHECK_SCALE_COLLS, default all 17, in
# collcheck's order): np 127 took 74 min of CPU for the first 7 collectives
# (results/scale.md), so a size is hours; a launch per collective shows
# progress, and one can run some of them:
#   CHECK_SCALE_SIZES=127 CHECK_SCALE_LOG_SIZES= CHECK_SCALE_COLLS="alltoall reduce" make check-scale
# CHECK_SCALE_MODES (default blocking) runs the request modes too, e.g.
# CHECK_SCALE_MODES=nonblocking CHECK_SCALE_SIZES=16: under SMPI that mode
# is far slower than blocking calls (doc/scale.md).
export MPI_TIMEOUT=${MPI_TIMEOUT:-14400}
# The vendor's reference runs SMPI's MPICH selection (SMPI_ARGS replaces it):
# under SMPI's default selection the reference barrier alone did not finish
# in 15 min of CPU at np 1024 (all of it in SimGrid's CommImpl::finish, the
# list walk that also slows the nonblocking mode), and its allgatherv and
# alltoallv post every message at once (hours at np 127); the MPICH
# selection's logarithmic and ring algorithms run the barrier cases at
# 1024 in about a minute. Any of the vendor's algorithms is a reference.
export SMPI_ARGS=${SMPI_ARGS-"--cfg=smpi/coll-selector:mpich"}
. "$TOP_SRCDIR/tests/mpi/launch.sh"
[ "$FLAVOUR" = smpi ] || { echo "check-scale runs the smpi flavour (./configure --with-mpi=smpi)"; exit 77; }
LOG_ALGORITHMS=dissemination,recursive_doubling,tree,binomial,scatter_rdb_allgather,binary_pipeline,bruck,rabenseifner,reduce_bcast,recursive_halving,reduce_scatterv,node
status=0
ALL_COLLS="barrier bcast gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv alltoallw reduce allreduce reduce_scatter reduce_scatter_block"
# scan and exscan are checked against a chain of messages of collcheck's
# own under SMPI (check_reduction.c): SMPI's MPI_Scan, posting a receive
# from every lower rank, does not finish at 256 ranks and more.
COLLS=${CHECK_SCALE_COLLS:-$ALL_COLLS scan exscan}
LOG_COLLS=$COLLS
run() {
    local t0 c
    for c in $3; do
        t0=$SECONDS
        COLLCHECK_MODES=${CHECK_SCALE_MODES:-blocking} COLLCHECK_SIZES="$1" COLLCHECK_ARGS="--coll $c $2 ${COLLCHECK_ARGS:-}" \
            bash "$TOP_SRCDIR/tests/mpi/matrix.sh" | tee "$log" | grep -E '^(== |FAIL)' | head -60
        count_results <(grep -E '^matrix: ' "$log")
        grep -q '^matrix: .* 0 failed' "$log" || status=1
        echo "check-scale np=$1 $c: $(grep -E '^matrix: ' "$log") in $((SECONDS - t0)) s"
    done
}
log=$(mktemp)
for np in ${CHECK_SCALE_SIZES-127 256}; do run "$np" "" "$COLLS"; done
for np in ${CHECK_SCALE_LOG_SIZES-1024}; do run "$np" "--alg $LOG_ALGORITHMS --max-count 64" "$LOG_COLLS"; done
rm -f "$log"
finish check_scale
