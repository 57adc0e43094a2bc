#!/bin/bash
# collmodel.sh - collmodel predicts from a model file without running
# anything, and bench/model-summary replays a sweep's choices through it:
# - on the model measured on SMPI's fat tree (groups of 8 nodes, 1 us
#   apart), 64 nodes: reduce of 4 bytes by a flat tree, the barrier by
#   recursive doubling, as measured there (results/model.md); every
#   modelled algorithm is listed, one of them the pick;
# - bad input (no model file, a file that lacks a field, a collective
#   that does not exist) is refused with a line that says why;
# - model-summary --replay on a sweep of results/model/ prints the
#   replayed pick's table, and --set beta_inter=0 (the collapse that ran
#   flat trees at 1 MiB) makes it worse; its summary ends with auto's arm
#   over the arm of the algorithm it ran (one algorithm timed twice);
# - model-summary --oracle gives each of three launches the regret of the
#   arm of least geometric mean over the other two, computed here from
#   the launches' figures.
# Ends with "collmodel: N passed, N failed".
src=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${TOP_BUILDDIR:-.}/collmodel
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0 failed=0
expect() { # description command...: the command must succeed
    local what=$1
    shift
    if "$@"; then
        echo "ok   collmodel: $what"
        passed=$((passed + 1))
    else
        echo "FAIL collmodel: $what"
        failed=$((failed + 1))
    fi
}

cat >"$dir/fat-tree.machine" <<'EOF'
alpha_intra 1.21e-06
beta_intra 8.4e-11
alpha_inter 1.21e-06
alpha_lone 1.21e-06
beta_inter 8.4e-11
overhead 1e-07
overhead_lone 8e-08
gamma 6.1e-13
eager_inter 32768
handshake 0
group_nodes 8
alpha_group 1e-06
EOF
"$bin" --machine "$dir/fat-tree.machine" --nodes 64 -c reduce,barrier -m 4:4 >"$dir/out.csv" 2>"$dir/err.txt"
expect "it runs without a launcher" test $? = 0
expect "reduce of 4 B on 64 nodes in groups of 8: linear" \
    grep -q "^reduce,64,64,1,4,linear,[0-9.]*,1$" "$dir/out.csv"
expect "and every other modelled reduce listed, not picked" \
    test "$(grep -c "^reduce,64,64,1,4,.*,0$" "$dir/out.csv")" -ge 3
expect "barrier: recursive_doubling" grep -q "^barrier,64,64,1,0,recursive_doubling,[0-9.]*,1$" "$dir/out.csv"
expect "one pick a call" test "$(grep -c ",1$" "$dir/out.csv")" = 2

"$bin" --nodes 8 >/dev/null 2>"$dir/err.txt"
expect "no model file: refused with the usage" \
    sh -c "test $? = 2 && grep -q 'usage: collmodel' '$dir/err.txt'"
grep -v "^gamma" "$dir/fat-tree.machine" >"$dir/lacking.machine"
"$bin" --machine "$dir/lacking.machine" --nodes 8 >/dev/null 2>"$dir/err.txt"
expect "a file without gamma: refused, saying so" \
    sh -c "test $? = 1 && grep -q 'it lacks gamma' '$dir/err.txt'"
"$bin" --machine "$dir/fat-tree.machine" --nodes 8 -c allreduc >/dev/null 2>"$dir/err.txt"
expect "an unknown collective: refused, saying so" grep -q "allreduc is not a collective" "$dir/err.txt"

sweep=$src/results/model/collbench-openmpi-vc8x1-d7a188f.csv
summary() { python3 "$src/bench/model-summary" --collmodel "$bin" "$@" "$sweep" 2>&1; }
over() { awk -F'|' '$2 == " all " {split($5, f, " "); print f[1]; exit}'; }
summary --replay >"$dir/replay.txt"
expect "model-summary --replay prints the replayed pick" \
    grep -q "^| collective | the replayed pick: median" "$dir/replay.txt"
as_measured=$(over <"$dir/replay.txt")
collapsed=$(summary --set beta_inter=0 | over)
expect "and --set beta_inter=0 puts more sizes over 1.05 ($as_measured, then $collapsed)" \
    test "${collapsed:-0}" -gt "${as_measured:-999}"

summary >"$dir/summary.txt"
expect "model-summary ends with one algorithm timed twice" \
    grep -q "^One algorithm timed twice (auto's arm over the arm of the algorithm it ran, 1[0-9][0-9] sizes): median" \
    "$dir/summary.txt"

# Three launches of two sizes: the tree wins the 8-byte size and the ring
# the 16-byte one in launches 1 and 2; in launch 3 the ring wins both.
# Launch 3 learns from 1 and 2: the tree at 8 B (12/10 = 1.2), the ring
# at 16 B (1.0): median 1.10, worst 1.20, one size over 1.05 and over
# 1.15. Launch 1 learns from 2 and 3: at 8 B the tree (geometric mean of
# 1 and 1.2, against 2 and 1 for the ring), so 1.00 at both sizes.
launch() { # file, then ring and tree at 8 B, ring and tree at 16 B
    {
        echo "coll,size,key_bytes,arm,kind,alg,ran,status,median_us,model_us"
        echo "allreduce,8,8,vendor,vendor,vendor,vendor,ok,100,"
        echo "allreduce,8,8,ring,native,ring,ring,ok,$2,"
        echo "allreduce,8,8,tree,native,tree,tree,ok,$3,"
        echo "allreduce,16,16,vendor,vendor,vendor,vendor,ok,100,"
        echo "allreduce,16,16,ring,native,ring,ring,ok,$4,"
        echo "allreduce,16,16,tree,native,tree,tree,ok,$5,"
    } >"$1"
}
launch "$dir/one.csv" 20 10 10 20
launch "$dir/two.csv" 20 10 10 20
launch "$dir/three.csv" 10 12 10 20
python3 "$src/bench/model-summary" --oracle "$dir/one.csv" "$dir/two.csv" "$dir/three.csv" \
    >"$dir/oracle.txt" 2>&1
expect "model-summary --oracle: launch 3's choice learned from the other 2" \
    grep -q "^| three.csv | learned from the other 2 | 1.10 | 1.20 | 1 | 1 | 2 |$" "$dir/oracle.txt"
expect "model-summary --oracle: launch 1's" \
    grep -q "^| one.csv | learned from the other 2 | 1.00 | 1.00 | 0 | 0 | 2 |$" "$dir/oracle.txt"
python3 "$src/bench/model-summary" --oracle "$dir/one.csv" >/dev/null 2>&1
expect "model-summary --oracle with one launch: refused with the usage" test $? = 1

echo "collmodel: $passed passed, $failed failed"
test "$failed" = 0
