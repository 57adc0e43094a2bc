#!/bin/bash
# run-learn-vcluster.sh - the evidence of COLLSHIM_LEARN (results/learning.md):
# learnbench (allreduce, bcast, alltoall, reduce_scatter_block, allgather at
# 4 B - 1 MiB, in time steps) on the virtual cluster of ../shared/vcluster,
# under both MPIs, in five configurations per repetition, in this order:
#   vendor    COLLSHIM_DISABLE=1
#   builtin   the built-in table
#   learn1    COLLSHIM_LEARN=1, writing the learned table (first run)
#   learned   COLLSHIM_TUNING_FILE=<that table> (second run)
#   colltune  COLLSHIM_TUNING_FILE=
#             results/colltune-vc8/colltune-vc8-<flavour>.table
# then, per collective and size, collbench -a vendor,auto under the learned
# table of the last repetition (the second run's per-size check). Prints a
# summary: median wall time over the repetitions and its ratio to the vendor.
# Needs root; the cluster is brought up and always brought down (KEEP_UP=1:
# use the one running). LOCAL=1 runs the same on this machine with mpirun,
# no cluster (a check of the script: use tiny STEPS).
#
# usage: bench/run-learn-vcluster.sh
# environment: NP (8), RATE (1gbit), DELAY (50us), STEPS (learnbench -s, 20),
#   SIZES (4:1m), REPS (3), FLAVOURS ("openmpi mpich"), BUILD_openmpi,
#   BUILD_mpich (build directories, default build-<flavour> of the source
#   tree), OUT (results/ of the first build), RT (1 for Open MPI, 0 for MPICH,
#   as run-vcluster.sh), PERSIZE (1: the collbench check), PERSIZE_REPS (1:
#   collbench checks; per size the median of their ratios is reported, one
#   pass reads the vendor against itself up to 1.18x), PERSIZE_TIME (collbench
#   -t, default its own 0.02 s), TIMEOUT (1500 s),
#   VCLUSTER (path of vcluster.sh), LOCAL=1, KEEP_UP=1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
np=${NP:-8} steps=${STEPS:-20} sizes=${SIZES:-4:1m} reps=${REPS:-3}
flavours=${FLAVOURS:-openmpi mpich}
first=${flavours%% *}
eval "firstbuild=\${BUILD_$first:-$top/build-$first}"
out=${OUT:-$firstbuild/results}
mkdir -p "$out"
vc=${VCLUSTER:-$top/../shared/vcluster/vcluster.sh}
[ -x "$vc" ] || vc=/work/shared/vcluster/vcluster.sh
tag=$([ "${LOCAL:-0}" = 1 ] && echo local || echo vc)$np
configs="vendor builtin learn1 learned colltune"

# launch FLAVOUR BUILD "VAR=VALUE ..." program args...
launch() {
    local flavour=$1 build=$2 envs=$3; shift 3
    local lib="$build/.libs/libcollshim.so" impl args=()
    impl=$([ "$flavour" = openmpi ] && echo ompi || echo mpich)
    if [ "${LOCAL:-0}" = 1 ]; then
        if [ "$impl" = ompi ]; then
            args=(-x "LD_PRELOAD=$lib")
            for kv in $envs; do args+=(-x "$kv"); done
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                timeout "${TIMEOUT:-1500}" mpirun.openmpi --oversubscribe --bind-to none -np "$np" "${args[@]}" "$@"
        else
            args=(-genv LD_PRELOAD "$lib")
            for kv in $envs; do args+=(-genv "${kv%%=*}" "${kv#*=}"); done
            timeout "${TIMEOUT:-1500}" mpiexec.mpich -n "$np" "${args[@]}" "$@"
        fi
        return
    fi
    for kv in $envs; do
        if [ "$impl" = ompi ]; then args+=(--mpiarg -x --mpiarg "$kv")
        else args+=(--mpiarg -genv --mpiarg "${kv%%=*}" --mpiarg "${kv#*=}"); fi
    done
    local rt=()
    [ "${RT:-$([ "$impl" = ompi ] && echo 1 || echo 0)}" = 1 ] && rt=(--rt)
    "$vc" run "$np" --impl "$impl" --preload "$lib" "${rt[@]}" "${args[@]}" \
        --timeout "${TIMEOUT:-1500}" -- "$@" < /dev/null
}

config_env() { # flavour config table
    case $2 in
    vendor) echo "COLLSHIM_DISABLE=1" ;;
    builtin) echo "" ;;
    learn1) echo "COLLSHIM_LEARN=1 COLLSHIM_LEARN_OUT=$3 COLLSHIM_REPORT=${3%.table}.report" ;;
    learned) echo "COLLSHIM_TUNING_FILE=$3" ;;
    colltune) echo "COLLSHIM_TUNING_FILE=$top/results/colltune-vc8/colltune-vc8-$1.table" ;;
    esac
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "nan"}'; }

run_flavour() {
    local flavour=$1 build log
    eval "build=\${BUILD_$flavour:-$top/build-$flavour}"
    [ -x "$build/learnbench" ] || { echo "run-learn-vcluster.sh: no $build/learnbench; run make in $build" >&2; exit 1; }
    log="$out/learn-$flavour-$tag.txt"
    : >"$log"
    for ((r = 0; r < reps; r++)); do
        local table="$out/learned-$flavour-$tag-rep$r.table"
        for c in $configs; do
            echo "== $flavour rep $r $c: $(config_env "$flavour" "$c" "$table")" | tee -a "$log"
            launch "$flavour" "$build" "$(config_env "$flavour" "$c" "$table")" \
                "$build/learnbench" -s "$steps" -m "$sizes" 2>&1 | tee -a "$log" |
                sed -n "s/^learnbench: np .*median_wall_s \([0-9.]*\) results \(.*\)/$c \1 \2/p" \
                >>"$out/learn-$flavour-$tag.walls"
        done
    done
    if [ "${PERSIZE:-1}" = 1 ]; then
        local table="COLLSHIM_TUNING_FILE=$out/learned-$flavour-$tag-rep$((reps - 1)).table"
        local t=() p
        [ -n "${PERSIZE_TIME:-}" ] && t=(-t "$PERSIZE_TIME")
        : >"$out/learn-$flavour-$tag-persize.txt"
        for ((p = 0; p < ${PERSIZE_REPS:-1}; p++)); do
            echo "== $flavour collbench $p under the learned table of rep $((reps - 1))" | tee -a "$log"
            # learnbench's sizes are selection sizes; collbench's allgather and
            # alltoall sizes are per rank (doc/collbench.md): np times smaller
            launch "$flavour" "$build" "$table" "$build/collbench" -c allreduce,bcast,reduce_scatter_block \
                -a vendor,auto -m "$sizes" "${t[@]}" -s $((24301 + p)) -o "$out/learn-$flavour-$tag-persize$p.csv" 2>&1 |
                tee -a "$out/learn-$flavour-$tag-persize.txt" >>"$log"
            launch "$flavour" "$build" "$table" "$build/collbench" -c allgather,alltoall \
                -a vendor,auto -m "$(per_rank_sizes "$sizes" "$np")" "${t[@]}" -s $((24301 + p)) \
                -o "$out/learn-$flavour-$tag-persize-perrank$p.csv" 2>&1 |
                tee -a "$out/learn-$flavour-$tag-persize.txt" >>"$log"
        done
        persize_summary "$out"/learn-"$flavour"-"$tag"-persize*.csv | tee "$out/learn-$flavour-$tag-persize-summary.txt" >>"$log"
    fi
}

# Per collective and size, over the collbench passes: the median of auto's
# ratio to the vendor, and what auto ran; then the sizes above 1.05x, those
# where auto ran the vendor itself (noise) apart from the native ones.
persize_summary() {
    awk -F, '!/^#/ && $1 != "coll" && $6 == "auto" && $11 == "ok" {
            k = $1 " " $3; n[k]++; r[k, n[k]] = $NF; ran[k] = $10
            if (!(k in order)) { order[k] = ++nk; keys[nk] = k } }
        function med(k,   i, j, t, m) {
            m = n[k]
            for (i = 1; i <= m; i++) v[i] = r[k, i]
            for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
        END {
            printf "# per size: median over the collbench passes of auto / vendor\n"
            printf "%-22s %8s %6s %-28s %s\n", "coll", "size", "passes", "ran", "x_vendor"
            for (i = 1; i <= nk; i++) {
                k = keys[i]; x = med(k); split(k, f, " "); all[i] = x
                printf "%-22s %8s %6d %-28s %.3f%s\n", f[1], f[2], n[k], ran[k], x, (x > 1.05 ? "  over" : "")
                if (x > 1.05) { if (ran[k] == "vendor") ov++; else on++ }
            }
            for (i = 2; i <= nk; i++) for (j = i; j > 1 && all[j - 1] > all[j]; j--) { t = all[j]; all[j] = all[j - 1]; all[j - 1] = t }
            printf "# %d sizes: median %.3f, worst %.3f; over 1.05x: %d native, %d where auto ran the vendor itself\n",
                nk, nk % 2 ? all[(nk + 1) / 2] : (all[nk / 2] + all[nk / 2 + 1]) / 2, all[nk], on, ov
        }' "$@"
}

# "4:1m" and np 8 -> "4:131072": the per-rank sizes of the same selection sizes
per_rank_sizes() {
    local lo=${1%%:*} hi=${1#*:} mult=1
    case $hi in *k) mult=1024; hi=${hi%k} ;; *m) mult=1048576; hi=${hi%m} ;; esac
    hi=$((hi * mult / $2))
    echo "$lo:$((hi < lo ? lo : hi))"
}

summary() {
    local flavour=$1 walls v
    walls="$out/learn-$flavour-$tag.walls"
    v=$(awk '$1 == "vendor" {print $2}' "$walls" | median)
    printf "%-8s %-9s %12s %9s %5s %s\n" "$flavour" config median_wall_s x_vendor runs results
    for c in $configs; do
        local m n bad
        m=$(awk -v c="$c" '$1 == c {print $2}' "$walls" | median)
        n=$(awk -v c="$c" '$1 == c' "$walls" | wc -l)
        bad=$(awk -v c="$c" '$1 == c && $3 != "ok"' "$walls" | wc -l)
        printf "%-8s %-9s %12s %9s %5s %s\n" "" "$c" "$m" \
            "$(awk -v m="$m" -v v="$v" 'BEGIN {if (v > 0 && m == m + 0) printf "%.3f", m / v; else print "-"}')" \
            "$n" "$([ "$bad" = 0 ] && echo ok || echo "$bad WRONG")"
    done
}

if [ "${LOCAL:-0}" != 1 ] && [ -z "${KEEP_UP:-}" ]; then
    # vcluster's shaper is an iptables NFQUEUE rule in each node's namespace
    for tool in iptables ip; do
        command -v "$tool" >/dev/null || {
            echo "run-learn-vcluster.sh: no $tool, which the virtual cluster needs:" \
                "apt-get install -y iptables iproute2 (or LOCAL=1 to run without it)" >&2
            exit 1
        }
    done
    "$vc" up "$np" --delay "${DELAY:-50us}" --rate "${RATE:-1gbit}"
    trap '"$vc" down' EXIT
fi
for f in $flavours; do
    rm -f "$out/learn-$f-$tag.walls"
    run_flavour "$f"
done
{
    echo "# learnbench on $tag: steps $steps, sizes $sizes, $reps repetitions; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    for f in $flavours; do summary "$f"; done
    echo "# per size (second run's table against the vendor): $out/learn-<flavour>-$tag-persize.txt"
} | tee "$out/learn-$tag-summary.txt"
