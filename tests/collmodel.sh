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
#   flat trees at 1 MiB) makes it worse.
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

echo "collmodel: $passed passed, $failed failed"
test "$failed" = 0
