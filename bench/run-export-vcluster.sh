#!/bin/bash
# run-export-vcluster.sh - the MPI library alone, with a table exported by
# colltune-export and without (doc/export.md, results/export.md): collbench
# -a vendor on the virtual cluster (run-vcluster.sh), the two alternated
# ROUNDS times in one session of the cluster, then export-summary.
#
# usage: bench/run-export-vcluster.sh BUILDDIR TABLE
# environment: as run-vcluster.sh (NP 8, RATE 1gbit, DELAY 50us, OUT); COLLS
#   (bcast,allreduce,allgather,alltoall,reduce_scatter_block,reduce_scatter),
#   SIZES (4:1m), ROUNDS (2), PPN (1)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run-export-vcluster.sh BUILDDIR TABLE}" && pwd)
table=$(realpath "${2:?usage: run-export-vcluster.sh BUILDDIR TABLE}")
flavour=$(sed -n 's/^FLAVOUR = //p' "$build/Makefile")
out=$(realpath -m "${OUT:-$build/results/export}")
np=${NP:-8} rounds=${ROUNDS:-2}
mkdir -p "$out"
export COLLS=${COLLS:-bcast,allreduce,allgather,alltoall,reduce_scatter_block,reduce_scatter}
export SIZES=${SIZES:-4:1m} OUT=$out NP=$np
if [ "$flavour" = openmpi ]; then
    file=$out/exported.rules
    file_env="OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename=$file"
else
    file=$out/exported.json
    file_env="MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$file MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=$out/exported-ch4.json"
fi
"$build/colltune-export" --list --ppn "${PPN:-1}" "$table" "$file" | tee "$out/exported.list"
vc=${VCLUSTER:-$here/../../shared/vcluster/vcluster.sh}
[ -x "$vc" ] || vc=/work/shared/vcluster/vcluster.sh
"$vc" up "$np" --delay "${DELAY:-50us}" --rate "${RATE:-1gbit}"
trap '"$vc" down' EXIT
for round in $(seq "$rounds"); do
    KEEP_UP=1 TAG=default-r$round "$here/run-vcluster.sh" "$build" -a vendor
    KEEP_UP=1 TAG=file-r$round RANK_ENV="$file_env" "$here/run-vcluster.sh" "$build" -a vendor
done
python3 "$here/export-summary" "$out/exported.list" "$np" \
    "$out"/collbench-"$flavour"-vc"$np"-default-r*.csv -- \
    "$out"/collbench-"$flavour"-vc"$np"-file-r*.csv | tee "$out/summary.md"
