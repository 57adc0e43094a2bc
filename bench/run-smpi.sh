#!/bin/bash
# run-smpi.sh BUILDDIR - collbench of the smpi flavour on a simulated
# platform (doc/scale.md): for each communicator size NP and collective,
# collshim's auto and every native algorithm under SMPI's ompi selector,
# then the vendor under its mpich selector, one launch each; simulated
# time does not depend on the machine's load and is the same run to run
# (smpi/simulate-computation:no), so 3 timed calls per size suffice and
# launches compare. Environment: NPS (64), COLLS (allreduce), SIZES
# (8:16m), PLATFORM (bench/platforms/fattree-64x16.xml), PPN (16), OUT.
set -euo pipefail
build=$(cd "${1:?usage: run-smpi.sh BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
PLATFORM=${PLATFORM:-$src/bench/platforms/fattree-64x16.xml}
OUT=${OUT:-$build/results-smpi}
mkdir -p "$OUT"
hostfile=$(mktemp)
trap 'rm -f "$hostfile"' EXIT
plat=$(basename "$PLATFORM" .xml)
for np in ${NPS:-64}; do
    for ((i = 0; i < np; i++)); do echo "node-$((i / ${PPN:-16}))"; done >"$hostfile"
    for coll in ${COLLS:-allreduce}; do
        for selector in ompi mpich; do
            arms=vendor
            [ "$selector" = ompi ] && arms=${ARMS:-vendor,auto,native}
            csv="$OUT/$plat-$coll-np$np-$selector.csv"
            echo "== $plat np=$np $coll selector=$selector -> $csv"
            smpirun -np "$np" -platform "$PLATFORM" -hostfile "$hostfile" \
                --cfg=smpi/privatization:dlopen --cfg=smpi/coll-selector:$selector \
                --log=root.thres:warning --log=smpi_pmpi.thres:error \
                "$build/collbench" -c "$coll" -a "$arms" -m "${SIZES:-8:16m}" -i 3:3 -t 0 -w 1 \
                -M 0 -o "$csv" -q
        done
    done
done
