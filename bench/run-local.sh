#!/bin/bash
# run-local.sh - the README's one command on this machine (`make bench` in a
# build directory runs it): collbench at 4 ranks for allreduce and
# reduce_scatter, then collbench-plot. Writes into BUILDDIR/results/:
#   collbench-FLAVOUR-np4.txt   the table (also on stdout)
#   collbench-FLAVOUR-np4.csv   every arm and statistic
#   allreduce-np4-{latency,ratio}.{png,svg}, reduce_scatter-np4-...
#
# usage: bench/run-local.sh [BUILDDIR] [more collbench options]
# environment: NP (4), COLLS (allreduce,reduce_scatter), SIZES (4:1m),
#              OUT (BUILDDIR/results), TIMEOUT (1800 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
[ $# -gt 0 ] && shift
[ -x "$build/collbench" ] || { echo "run-local.sh: no $build/collbench; run make in $build first" >&2; exit 1; }
flavour=${FLAVOUR:-$(sed -n 's/^FLAVOUR = //p' "$build/Makefile")}
np=${NP:-4} colls=${COLLS:-allreduce,reduce_scatter} sizes=${SIZES:-4:1m}
out=${OUT:-$build/results}
mkdir -p "$out"
base="$out/collbench-$flavour-np$np"
case $flavour in
    openmpi)
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_MCA_btl_base_warn_component_unused=0
        launch=(mpirun.openmpi --oversubscribe --bind-to none -np "$np") ;;
    mpich) launch=(mpiexec.mpich -n "$np") ;;
    *) echo "run-local.sh: unknown flavour '$flavour'" >&2; exit 1 ;;
esac
timeout "${TIMEOUT:-1800}" "${launch[@]}" "$build/collbench" -c "$colls" -m "$sizes" \
    -o "$base.csv" "$@" < /dev/null | tee "$base.txt"
"$here/collbench-plot" "$base.csv" "$out"
echo "results: $base.txt $base.csv and the plots in $out"
