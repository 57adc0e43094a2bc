#!/bin/bash
# run-vcluster.sh - the same measurement on the virtual cluster of
# ../shared/vcluster (`make bench-vcluster`): 8 ranks, one per node, links of
# 1 Gbit/s with 50 us delay; the cluster is brought up, used and always
# brought down. Needs root. Writes into BUILDDIR/results/:
#   collbench-FLAVOUR-vc8.txt, collbench-FLAVOUR-vc8.csv and the plots.
#
# usage: bench/run-vcluster.sh [BUILDDIR] [more collbench options]
# environment: NP (8), RATE (1gbit), DELAY (50us), COLLS, SIZES (4:1m),
#              OUT, VCLUSTER (path of vcluster.sh), KEEP_UP=1 (do not bring an
#              already running cluster down or up again), TIMEOUT (1500 s),
#              RT (1 for Open MPI, 0 for MPICH: ranks SCHED_FIFO; MPICH ranks
#              under --rt never got through start-up here),
#              OVERLAP=1 (collbench --overlap -M 5, doc/overlap.md: COLLS
#              default allreduce,bcast,alltoall,allgather,reduce_scatter_block,
#              SIZES 4:4m; files collbench-FLAVOUR-vcN-overlap*, no plots),
#              PROGRESS_THREAD=1 (COLLSHIM_PROGRESS_THREAD=1 in the ranks, so
#              collbench asks for MPI_THREAD_MULTIPLE; files get -pt),
#              RANK_ENV ("VAR=VALUE ..." more variables for the ranks), TAG
#              (appended to the file names: -TAG)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
[ $# -gt 0 ] && shift
[ -x "$build/collbench" ] || { echo "run-vcluster.sh: no $build/collbench; run make in $build first" >&2; exit 1; }
vc=${VCLUSTER:-$here/../../shared/vcluster/vcluster.sh}
[ -x "$vc" ] || vc=/work/shared/vcluster/vcluster.sh
flavour=${FLAVOUR:-$(sed -n 's/^FLAVOUR = //p' "$build/Makefile")}
np=${NP:-8} colls=${COLLS:-allreduce,reduce_scatter} sizes=${SIZES:-4:1m}
out=${OUT:-$build/results}
mkdir -p "$out"
impl=$([ "$flavour" = openmpi ] && echo ompi || echo mpich)
mode=() tag=""
if [ "${OVERLAP:-0}" = 1 ]; then
    colls=${COLLS:-allreduce,bcast,alltoall,allgather,reduce_scatter_block} sizes=${SIZES:-4:4m}
    mode=(--overlap -M 5) tag=-overlap
fi
rank_env=${RANK_ENV:-}
if [ "${PROGRESS_THREAD:-0}" = 1 ]; then
    rank_env="COLLSHIM_PROGRESS_THREAD=1${rank_env:+ $rank_env}" tag+=-pt
fi
tag+=${TAG:+-$TAG}
base="$out/collbench-$flavour-vc$np$tag"
envs=()
for kv in $rank_env; do
    if [ "$impl" = ompi ]; then envs+=(--mpiarg -x --mpiarg "$kv")
    else envs+=(--mpiarg -genv --mpiarg "${kv%%=*}" --mpiarg "${kv#*=}"); fi
done
rt=()
[ "${RT:-$([ "$impl" = ompi ] && echo 1 || echo 0)}" = 1 ] && rt=(--rt)
if [ -z "${KEEP_UP:-}" ]; then
    "$vc" up "$np" --delay "${DELAY:-50us}" --rate "${RATE:-1gbit}"
    trap '"$vc" down' EXIT
fi
# collbench links libcollshim itself: its libtool wrapper finds the library,
# so no --preload is needed (vcluster adds its own helpers to LD_PRELOAD).
"$vc" run "$np" --impl "$impl" "${rt[@]}" "${envs[@]}" --timeout "${TIMEOUT:-1500}" -- \
    "$build/collbench" "${mode[@]}" -c "$colls" -m "$sizes" -o "$base.csv" "$@" < /dev/null |
    tee "$base.txt"
if [ "${OVERLAP:-0}" = 1 ]; then # collbench-plot reads the blocking CSV only
    echo "results: $base.txt $base.csv"
else
    "$here/collbench-plot" "$base.csv" "$out"
    echo "results: $base.txt $base.csv and the plots in $out"
fi
