#!/bin/bash
# run-smpi.sh BUILDDIR - collbench of the smpi flavour on a simulated
# platform (doc/scale.md): for each communicator size NP and collective,
# collshim's auto (and ARMS) under SMPI's ompi selector, the vendor under
# its mpich selector, and with FORCED=1 the vendor under each of SMPI's own
# algorithms for that collective (--cfg=smpi/COLL:ALG), one launch each;
# simulated time does not depend on the machine's load and is the same run
# to run (smpi/simulate-computation:no), so 3 timed calls per size suffice
# and launches compare. bench/smpi-summary makes the tables.
# Environment: NPS (64), COLLS (allreduce), SIZES (8:16m), PLATFORM
# (bench/platforms/fattree-64x16.xml), PPN (16), OUT, ARMS (vendor,auto),
# REPS (3 timed calls after a warm-up; simulated times repeat exactly, so
# REPS=1 gives the same medians at a third of the CPU, as at 1024 ranks),
# FORCED (0), FORCED_<coll> (SMPI algorithm names; defaults below),
# LAUNCH_TIMEOUT (1200 s of wall per launch: some of SMPI's algorithms
# take far longer to simulate than the others; such a launch is reported
# as FAILED and left out).
# allgather and alltoall are sized per block: their largest block is
# capped at 2^30 / NP^2 bytes (3 buffers of NP blocks on each of NP ranks
# stay near 3 GiB: 256 KiB at 64 ranks, 16 KiB at 256, 1 KiB at 1024).
set -euo pipefail
build=$(cd "${1:?usage: run-smpi.sh BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
PLATFORM=${PLATFORM:-$src/bench/platforms/fattree-64x16.xml}
OUT=${OUT:-$build/results-smpi}
mkdir -p "$OUT"
hostfile=$(mktemp)
trap 'rm -f "$hostfile"' EXIT
plat=$(basename "$PLATFORM" .xml)

# SMPI 3.32's algorithms that can win somewhere (its names; SMPI names the
# rest in its error message for a wrong one). reduce_scatter_block runs
# SMPI's reduce_scatter.
forced_allreduce="rdb rab_rdb lr smp_rsag smp_binomial ompi_ring_segmented mvapich2_two_level"
forced_bcast="binomial_tree scatter_rdb_allgather scatter_LR_allgather SMP_binomial SMP_linear ompi_pipeline ompi_split_bintree"
forced_reduce="binomial scatter_gather ompi_pipeline ompi_binary rab mvapich2_two_level"
forced_reduce_scatter_block="ompi_basic_recursivehalving ompi_ring ompi_butterfly mpich_pair mpich_rdb"
forced_allgather="bruck rdb ring pair SMP_NTS smp_simple ompi_neighborexchange mvapich2_smp"
forced_alltoall="basic_linear bruck pair ring mvapich2_scatter_dest"
forced_barrier="ompi_bruck ompi_recursivedoubling ompi_tree mpich_smp ompi_basic_linear"

# sizes COLL NP: the collbench -m range of this collective at NP ranks.
sizes() {
    local range=${SIZES:-8:16m} lo hi cap
    case $1 in allgather | alltoall) ;; *) echo "$range"; return ;; esac
    lo=${range%%:*} hi=$(numfmt --from=iec "$(echo "${range#*:}" | tr a-z A-Z)")
    cap=$((1073741824 / ($2 * $2)))
    [ "$hi" -le "$cap" ] || hi=$cap
    echo "$lo:$hi"
}

# bench NP COLL TAG ARMS CFG...: one launch, its CSV named by TAG.
bench() {
    local np=$1 coll=$2 tag=$3 arms=$4; shift 4
    local csv="$OUT/$plat-$coll-np$np-$tag.csv"
    [ -s "$csv" ] && [ "${REDO:-0}" != 1 ] && { echo "== have $csv"; return; }
    echo "== $plat np=$np $coll $tag -> $csv"
    timeout "${LAUNCH_TIMEOUT:-1200}" smpirun -np "$np" -platform "$PLATFORM" -hostfile "$hostfile" \
        --cfg=smpi/privatization:dlopen "$@" \
        --log=root.thres:warning --log=smpi_pmpi.thres:error \
        "$build/collbench" -c "$coll" -a "$arms" -m "$(sizes "$coll" "$np")" -i "${REPS:-3}:${REPS:-3}" -t 0 -w 1 \
        -M 0 -o "$csv.part" -q && mv "$csv.part" "$csv" || { echo "== FAILED: $csv"; rm -f "$csv.part"; }
}

for np in ${NPS:-64}; do
    for ((i = 0; i < np; i++)); do echo "node-$((i / ${PPN:-16}))"; done >"$hostfile"
    for coll in ${COLLS:-allreduce}; do
        bench "$np" "$coll" ompi "${ARMS:-vendor,auto}" --cfg=smpi/coll-selector:ompi
        bench "$np" "$coll" mpich vendor --cfg=smpi/coll-selector:mpich
        [ "${FORCED:-0}" = 1 ] || continue
        smpi_coll=$coll
        [ "$coll" = reduce_scatter_block ] && smpi_coll=reduce_scatter
        list=FORCED_$coll
        list=${!list:-}
        if [ -z "$list" ]; then list=forced_$coll; list=${!list:-}; fi
        for alg in $list; do
            bench "$np" "$coll" "smpi-$alg" vendor --cfg=smpi/coll-selector:ompi "--cfg=smpi/$smpi_coll:$alg"
        done
    done
done
