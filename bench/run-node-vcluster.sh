#!/bin/bash
# run-node-vcluster.sh - issue 13's evidence: the node-aware algorithms on
# the virtual cluster of ../shared/vcluster with several ranks per node.
# For each shape (NODESxPPN, 8 ranks) it brings the cluster up with NODES
# nodes (links of RATE, one-way DELAY), runs collbench per collective with
# the arms vendor, auto, the flat algorithms and the node-aware ones, in
# three vendor configurations (Open MPI's defaults, Open MPI with coll/han,
# MPICH), and brings the cluster down. Needs root.
#
# usage: bench/run-node-vcluster.sh OMPI_BUILDDIR MPICH_BUILDDIR [collbench options]
# environment: SHAPES ("4x2 2x4"), COLLS (allreduce,bcast,reduce,barrier,
#   allgather,alltoall), CONFIGS ("ompi ompi-han mpich"), SIZES (4:4m),
#   RATE (1gbit), DELAY (50us), OUT (OMPI_BUILDDIR/results/node),
#   VCLUSTER (path of vcluster.sh), TIMEOUT (1500 s per launch)
# Files: OUT/node-CONFIG-NODESxPPN-COLL.{csv,txt}; bench/node-summary reads them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
ompi=$(cd "$1" && pwd) mpich=$(cd "$2" && pwd)
shift 2
vc=${VCLUSTER:-$here/../../shared/vcluster/vcluster.sh}
[ -x "$vc" ] || vc=/work/shared/vcluster/vcluster.sh
out=${OUT:-$ompi/results/node}
mkdir -p "$out"

arms() {
    case $1 in
    allreduce) echo vendor,auto,recursive_doubling,rabenseifner,ring,node,node_slices ;;
    bcast) echo vendor,auto,binomial,scatter_rdb_allgather,pipeline,node ;;
    reduce) echo vendor,auto,binomial,rabenseifner,node ;;
    barrier) echo vendor,auto,dissemination,node ;;
    allgather) echo vendor,auto,bruck,ring,node ;;
    alltoall) echo vendor,auto,bruck,scattered,pairwise,node ;;
    *) echo vendor,auto,native ;;
    esac
}

# One launch: config, ranks per node, collective, file base; more args to collbench.
launch() {
    local config=$1 ppn=$2 coll=$3 base=$4
    shift 4
    local impl=ompi build=$ompi extra=(--rt)
    case $config in
    ompi-han) extra+=(--mpiarg --mca --mpiarg coll_han_priority --mpiarg 100) ;;
    mpich) impl=mpich build=$mpich extra=() ;; # MPICH ranks did not start under --rt
    esac
    "$vc" run 8 --ppn "$ppn" --impl "$impl" "${extra[@]}" --timeout "${TIMEOUT:-1500}" -- \
        "$build/collbench" -c "$coll" -a "$(arms "$coll")" -m "${SIZES:-4:4m}" \
        -o "$base.csv" "$@" </dev/null >"$base.txt" 2>&1 ||
        echo "run-node-vcluster: $base failed (see $base.txt)" >&2
}

for shape in ${SHAPES:-4x2 2x4}; do
    nodes=${shape%x*} ppn=${shape#*x}
    "$vc" up "$nodes" --delay "${DELAY:-50us}" --rate "${RATE:-1gbit}"
    trap '"$vc" down' EXIT
    for coll in $(echo "${COLLS:-allreduce,bcast,reduce,barrier,allgather,alltoall}" | tr , ' '); do
        for config in ${CONFIGS:-ompi ompi-han mpich}; do
            base="$out/node-$config-$shape-$coll"
            echo "== $config $shape $coll ($(date +%T))"
            launch "$config" "$ppn" "$coll" "$base" "$@"
            grep -m1 '^# layout' "$base.txt" || true
        done
    done
    "$vc" down
    trap - EXIT
done
"$here/node-summary" "$out"
