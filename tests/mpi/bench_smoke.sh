#!/bin/bash
# bench_smoke.sh - collbench and COLLSHIM_REPORT end to end, small and fast:
# sub-communicators of a 3-rank job, a few collectives and sizes, every arm
# checked against the vendor; a spoiled arm must be FAILED and never timed;
# the CSV, the table, the plots (if gnuplot is here) and the report must say
# what ran.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$tmp/bench.csv report=$tmp/report.txt

mpi_run 3 COLLSHIM_REPORT="$report" COLLBENCH_TEST_CORRUPT=recursive_doubling -- \
    "$TOP_BUILDDIR/collbench" -c allreduce,reduce_scatter,bcast,alltoallw,barrier \
    -n 2,3 -m 4:256 -i 3:5 -t 0.0005 -w 1 -o "$csv" > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
cat "$tmp/out.txt" "$tmp/err.txt"

rows() { grep -v '^#' "$csv" | awk -F, -v c="$1" -v a="$2" -v s="$3" \
    'NR > 1 && $1 == c && $6 == a && $11 == s' | wc -l; }
expect "collbench exits 0" [ "$rc" -eq 0 ]
expect "table block per collective and np" \
    [ "$(grep -cE '^# (allreduce|reduce_scatter|bcast|alltoallw|barrier) np=[23]:' "$tmp/out.txt")" -eq 10 ]
expect "CSV has the provenance header" grep -q '^# mpi: ' "$csv"
expect "CSV has the model line" grep -q '^# model: alpha' "$csv"
# On an oversubscribed node (MPICH busy-polls 3 ranks on 2 cores) a size
# can be "slow": every timed call started late at the fence. That is the
# machine, not the arm; the arm must still run at every size and be timed
# at most of them.
ran_at_every_size() {
    [ $(($(rows "$1" "$2" ok) + $(rows "$1" "$2" slow))) -eq 14 ] && [ "$(rows "$1" "$2" ok)" -ge 10 ]
}
expect "vendor timed at every size (7 sizes, np 2 and 3)" ran_at_every_size allreduce vendor
expect "auto timed at every size" ran_at_every_size reduce_scatter auto
expect "barrier runs one size" [ "$(rows barrier vendor ok)" -eq 2 ]
expect "spoiled arm FAILED at every size" [ "$(rows allreduce recursive_doubling FAILED)" -eq 14 ]
expect "spoiled arm never timed" \
    [ -z "$(grep -v '^#' "$csv" | awk -F, '$1 == "allreduce" && $6 == "recursive_doubling" && $14 != ""')" ]
expect "no other arm FAILED" \
    [ "$(grep -v '^#' "$csv" | awk -F, '$11 == "FAILED" && $6 != "recursive_doubling"' | wc -l)" -eq 0 ]
expect "the FAILED arm is timed where it is not spoiled (barrier)" [ "$(rows barrier recursive_doubling ok)" -eq 2 ]
expect "timed native arms ran the forced algorithm" \
    [ -z "$(grep -v '^#' "$csv" | awk -F, '$7 == "native" && $11 == "ok" && $10 != $8')" ]
expect "table names the FAILED arm" grep -q 'recursive_doubling FAILED at' "$tmp/out.txt"
expect "report written and announced" grep -q "collshim: report written to $report" "$tmp/err.txt"
expect "report has a line per collective and np" \
    grep -qE '^  allreduce +3 +[0-9]' "$report"
expect "report names the algorithms per size range" \
    grep -qE '^  allreduce +2 +4-8 +recursive_doubling' "$report"
expect "CSV says the fence (window by default)" grep -q '^# fence: window' "$csv"
expect "table says the fence once" [ "$(grep -c '^# fence: window' "$tmp/out.txt")" -eq 1 ]

# The barrier fence, and a fence that does not exist.
# Its environment has rules on two lines (allreduce and reduce: not run).
mpi_run 2 COLLSHIM_TUNE=$'allreduce @recursive_doubling\nreduce @binomial' -- \
    "$TOP_BUILDDIR/collbench" -c bcast -m 4:16 -i 3:5 -t 0.0005 -w 1 -F barrier \
    -o "$tmp/barrier.csv" > "$tmp/barrier.txt" 2>&1
rc=$?
expect "barrier fence: exits 0" [ "$rc" -eq 0 ]
expect "a two-line variable: both lines in the CSV's comments" \
    grep -q '^#  *reduce @binomial$' "$tmp/barrier.csv"
expect "a two-line variable: no line of it among the rows" \
    [ -z "$(grep -v '^#' "$tmp/barrier.csv" | grep '@')" ]
expect "barrier fence: said in the CSV" grep -q '^# fence: barrier' "$tmp/barrier.csv"
expect "barrier fence: vendor timed at 3 sizes" \
    [ "$(grep -v '^#' "$tmp/barrier.csv" | awk -F, '$6 == "vendor" && $11 == "ok"' | wc -l)" -eq 3 ]
mpi_run 2 -- "$TOP_BUILDDIR/collbench" -F bogus > "$tmp/bogus.txt" 2>&1
rc=$?
expect "unknown fence: exits non-zero" [ "$rc" -ne 0 ]
expect "unknown fence: names the fences" \
    grep -q 'collbench: --fence "bogus": the fences are window and barrier' "$tmp/bogus.txt"

# --overlap: each arm's nonblocking collective alone, a computation and
# the two overlapped; 2 ranks, 2 sizes; the shape of the output, not the
# timings. The barrier fence: no call is dropped for a late start on a
# loaded machine, so every row is timed.
ovl=$tmp/ovl.csv
mpi_run 2 -- "$TOP_BUILDDIR/collbench" --overlap -c allreduce,bcast -m 64:128 -i 3:5 \
    -t 0.0005 -w 1 -F barrier -o "$ovl" > "$tmp/ovl.txt" 2>&1
rc=$?
cat "$tmp/ovl.txt"
ovl_rows() { grep -v '^#' "$1" | awk -F, -v a="$2" -v s="$3" 'NR > 1 && $6 == a && $11 == s' | wc -l; }
expect "overlap: exits 0" [ "$rc" -eq 0 ]
expect "overlap: a table block per collective" \
    [ "$(grep -cE '^# (allreduce|bcast) np=2 overlap: ' "$tmp/ovl.txt")" -eq 2 ]
expect "overlap: the table's columns" \
    [ "$(grep -cE '^ +size +arm +ran +t_pure +t_cpu +t_ovl +ovl% +xV$' "$tmp/ovl.txt")" -eq 2 ]
expect "overlap: a row per size and arm, vendor and auto by default" \
    [ "$(grep -cE '^ +(64|128) +(vendor|auto) ' "$tmp/ovl.txt")" -eq 8 ]
expect "overlap: the CSV's columns" grep -qx 'coll,np,size,key_bytes,full_bytes,arm,kind,alg,params,ran,status,why,pure_reps,pure_us,pure_p10_us,pure_p90_us,cpu_reps,cpu_us,ovl_reps,ovl_us,ovl_p10_us,ovl_p90_us,overlap_pct,ovl_x_vendor' "$ovl"
expect "overlap: vendor timed at both sizes of both collectives" [ "$(ovl_rows "$ovl" vendor ok)" -eq 4 ]
expect "overlap: auto timed at both sizes of both collectives" [ "$(ovl_rows "$ovl" auto ok)" -eq 4 ]
expect "overlap: timed rows have three positive times and an overlap in 0..100" \
    [ -z "$(grep -v '^#' "$ovl" | awk -F, 'NR > 1 && $11 == "ok" && (NF != 24 || $14 <= 0 || $18 <= 0 || $20 <= 0 || $23 < 0 || $23 > 100)')" ]
expect "overlap: the vendor's t_ovl is its own reference (xV 1)" \
    [ -z "$(grep -v '^#' "$ovl" | awk -F, 'NR > 1 && $6 == "vendor" && $24 != "1.0000"')" ]
expect "overlap: says how the computation ran" \
    grep -q '^# overlap: .*no MPI call inside the computation' "$ovl"
expect "overlap: says the thread level" \
    grep -q '^# threads: MPI_THREAD_SINGLE provided (MPI_THREAD_SINGLE requested)' "$ovl"

# With MPI_Test inside the computation, COLLSHIM_PROGRESS_THREAD (so
# MPI_THREAD_MULTIPLE), a forced algorithm and a spoiled one.
mpi_run 2 COLLSHIM_PROGRESS_THREAD=1 COLLBENCH_TEST_CORRUPT=scattered -- \
    "$TOP_BUILDDIR/collbench" --overlap --overlap-test 2 -c alltoall \
    -a vendor,auto,pairwise,scattered -m 64:128 -i 3:5 -t 0.0005 -w 1 -F barrier \
    -o "$tmp/ovl2.csv" > "$tmp/ovl2.txt" 2>&1
rc=$?
cat "$tmp/ovl2.txt"
expect "overlap, MPI_Test: exits 0" [ "$rc" -eq 0 ]
expect "overlap, MPI_Test: said" grep -q '^# overlap: .*MPI_Test every 2 us of computation' "$tmp/ovl2.csv"
expect "overlap, progress thread: MPI_THREAD_MULTIPLE requested" \
    grep -q '^# threads: MPI_THREAD[A-Z_]* provided (MPI_THREAD_MULTIPLE requested)' "$tmp/ovl2.csv"
expect "overlap, MPI_Test: vendor timed at both sizes" [ "$(ovl_rows "$tmp/ovl2.csv" vendor ok)" -eq 2 ]
expect "overlap: a forced algorithm ran it, or is n/a" \
    [ -z "$(grep -v '^#' "$tmp/ovl2.csv" | awk -F, '$6 == "pairwise" && !(($11 == "ok" && $10 == "pairwise") || $11 == "n/a")')" ]
expect "overlap: spoiled arm FAILED at both sizes" [ "$(ovl_rows "$tmp/ovl2.csv" scattered FAILED)" -eq 2 ]
expect "overlap: spoiled arm never timed" \
    [ -z "$(grep -v '^#' "$tmp/ovl2.csv" | awk -F, '$6 == "scattered" && $14 != ""')" ]

if command -v gnuplot > /dev/null; then
    "$TOP_SRCDIR/bench/collbench-plot" "$csv" "$tmp/plots" > /dev/null
    expect "plots written" test -s "$tmp/plots/allreduce-np3-latency.png" \
        -a -s "$tmp/plots/reduce_scatter-np2-ratio.svg"
fi
# --inter: the two halves of the job as an intercommunicator; the native
# arms are the inter_* algorithms, each checked against the vendor and
# really run; auto runs an inter algorithm.
mpi_run 3 -- "$TOP_BUILDDIR/collbench" --inter -c allreduce,bcast,allgather,gather,barrier \
    -m 4:64 -i 3:5 -t 0.0005 -w 1 -o "$tmp/inter.csv" > "$tmp/inter.txt" 2>&1
rc=$?
inter_rows() { grep -v '^#' "$tmp/inter.csv" | awk -F, -v k="$1" 'NR > 1 && $7 == k' | wc -l; }
expect "--inter: exits 0" [ "$rc" -eq 0 ]
expect "--inter: native arms are the inter_* algorithms" \
    [ -z "$(grep -v '^#' "$tmp/inter.csv" | awk -F, 'NR > 1 && $7 == "native" && $6 !~ /^inter_/')" ]
expect "--inter: native arms timed" [ "$(inter_rows native)" -ge 20 ]
expect "--inter: nothing FAILED" \
    [ "$(grep -v '^#' "$tmp/inter.csv" | awk -F, '$11 == "FAILED"' | wc -l)" -eq 0 ]
expect "--inter: timed native arms ran the forced algorithm" \
    [ -z "$(grep -v '^#' "$tmp/inter.csv" | awk -F, '$7 == "native" && $11 == "ok" && $10 != $8')" ]
expect "--inter: auto chose inter algorithms" \
    [ -z "$(grep -v '^#' "$tmp/inter.csv" | awk -F, 'NR > 1 && $7 == "auto" && $11 == "ok" && $10 !~ /^inter_/')" ]

# --recheck: auto made slow on purpose (a pipeline of 64-byte segments over
# 256 KiB) is timed again with the fastest arm, and the CSV says so; with
# --recheck 0 it is not.
recheck_run() { # CSV RECHECK
    mpi_run 2 COLLSHIM_TUNE='bcast @pipeline seg=64' -- "$TOP_BUILDDIR/collbench" -c bcast \
        -a vendor,auto,binomial -m 256k:256k -i 3:5 -t 0.0005 -w 1 --recheck "$2" -q -o "$1" \
        > "$tmp/recheck.txt" 2>&1
}
recheck_run "$tmp/recheck.csv" 1.15
rc=$?
cat "$tmp/recheck.txt"
timed_again() { grep -v '^#' "$1" | awk -F, -v a="$2" '$6 == a && $12 ~ /^timed again/' | wc -l; }
expect "--recheck: exits 0" [ "$rc" -eq 0 ]
expect "--recheck: auto ran the forced pipeline" \
    [ "$(grep -v '^#' "$tmp/recheck.csv" | awk -F, '$6 == "auto" && $10 == "pipeline"' | wc -l)" -eq 1 ]
expect "--recheck: the slow auto is timed again" [ "$(timed_again "$tmp/recheck.csv" auto)" -eq 1 ]
expect "--recheck: so is the fastest arm, once" \
    [ "$(($(timed_again "$tmp/recheck.csv" vendor) + $(timed_again "$tmp/recheck.csv" binomial)))" -eq 1 ]
recheck_run "$tmp/norecheck.csv" 0
expect "--recheck 0: nothing timed again" [ "$(grep -c 'timed again' "$tmp/norecheck.csv")" -eq 0 ]
mpi_run 2 -- "$TOP_BUILDDIR/collbench" --recheck 0.5 > "$tmp/recheck-bad.txt" 2>&1
rc=$?
expect "--recheck 0.5 is refused" [ "$rc" -ne 0 ]

finish bench_smoke
