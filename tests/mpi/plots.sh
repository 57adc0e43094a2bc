#!/bin/bash
# plots.sh - the plot scripts on real input: one short 2-rank colltune run
# writes its CSV (sweep and verification) and, under COLLSHIM_REPORT, a
# report; collbench-plot must draw the sweep and the verification of the
# CSV, collshim-report-plot the report, every picture non-empty and naming
# what ran; colltune --check's CSV gives the verification's pictures; both
# scripts must refuse input that is not theirs, saying why. Skipped (77)
# without gnuplot.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
command -v gnuplot > /dev/null || { echo "plots: no gnuplot, skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$tmp/tune.csv report=$tmp/report.txt
bench=$TOP_SRCDIR/bench

mpi_run 2 COLLSHIM_REPORT="$report" -- "$TOP_BUILDDIR/colltune" -c allreduce,barrier -m 4:256 \
    -b 5 -o "$tmp/t.table" --csv "$csv" > "$tmp/tune.txt" 2>&1
rc=$?
expect "colltune exits 0" [ "$rc" -eq 0 ] || cat "$tmp/tune.txt"

# Every file named is there and not empty.
all_drawn() {
    local file
    for file in "$@"; do [ -s "$file" ] || { echo "missing or empty: $file"; return 1; }; done
}

"$bench/collbench-plot" "$csv" "$tmp/tune" > "$tmp/tune-plot.txt" 2>&1
rc=$?
cat "$tmp/tune-plot.txt"
expect "collbench-plot on colltune's CSV exits 0" [ "$rc" -eq 0 ]
expect "the sweep's pictures, PNG and SVG" all_drawn "$tmp"/tune/{allreduce,barrier}-np2-{latency,ratio}.{png,svg}
expect "the verification's pictures, PNG and SVG" \
    all_drawn "$tmp"/tune/{allreduce,barrier}-np2-verify-{latency,ratio}.{png,svg}
# The algorithm auto ran with the new table at the first size, as the CSV says.
ran=$(grep -v '^#' "$csv" | awk -F, '$1 == "allreduce" && $6 == "new" && $7 == "auto" { print $10; exit }')
expect "the verification names the algorithm auto ran (${ran:-none})" \
    grep -q ">ran ${ran:-NONE}<" "$tmp/tune/allreduce-np2-verify-latency.svg"
expect "the verification draws the new table against the vendor" \
    grep -q '>auto, new table<' "$tmp/tune/allreduce-np2-verify-ratio.svg"

# --check: the verification alone, of the table just written; its CSV has
# no sweep, so only the verification's pictures.
mpi_run 2 -- "$TOP_BUILDDIR/colltune" -c allreduce -m 4:64 --check "$tmp/t.table" \
    --csv "$tmp/check.csv" > "$tmp/check.txt" 2>&1
rc=$?
expect "colltune --check --csv exits 0" [ "$rc" -eq 0 ] || cat "$tmp/check.txt"
"$bench/collbench-plot" -f png "$tmp/check.csv" "$tmp/check" > /dev/null
expect "--check's CSV: the verification's pictures" \
    all_drawn "$tmp"/check/allreduce-np2-verify-{latency,ratio}.png
expect "--check's CSV: no sweep, no sweep's pictures" [ ! -e "$tmp/check/allreduce-np2-latency.png" ]

expect "COLLSHIM_REPORT wrote the report" test -s "$report"
"$bench/collshim-report-plot" -f svg "$report" > "$tmp/report-plot.txt" 2>&1
rc=$?
cat "$tmp/report-plot.txt"
expect "collshim-report-plot exits 0" [ "$rc" -eq 0 ]
expect "report pictures in REPORT-plots/, SVG only (-f svg)" \
    all_drawn "$tmp"/report-plots/{allreduce-np2-report,barrier-np2-report,report-share}.svg
expect "no PNG asked, none drawn" [ -z "$(find "$tmp/report-plots" -name '*.png')" ]
alg=$(awk '/^# algorithms per size range/ { on = 1; next } on && $1 == "allreduce" { print $4; exit }' "$report")
expect "the report's picture names an algorithm that ran (${alg:-none})" \
    grep -q ">${alg:-NONE}<" "$tmp/report-plots/allreduce-np2-report.svg"
expect "the share names each collective" \
    grep -q '>allreduce np=2<' "$tmp/report-plots/report-share.svg"

# refused WHAT PATTERN SCRIPT ARGS: exits non-zero, says PATTERN, draws nothing.
refused() {
    local what=$1 pattern=$2; shift 2
    "$@" > "$tmp/bad.txt" 2>&1
    local rc=$?
    expect "$what: refused (exit $rc)" [ "$rc" -ne 0 ]
    expect "$what: says why" grep -q "$pattern" "$tmp/bad.txt" || cat "$tmp/bad.txt"
    expect "$what: nothing drawn" [ ! -e "$tmp/bad" ]
}
sed 's/ 4-8 / 4-x /' "$report" > "$tmp/range.txt"
head -3 "$report" > "$tmp/short.txt"
refused "a CSV as a report" 'not a report of COLLSHIM_REPORT' "$bench/collshim-report-plot" "$csv" "$tmp/bad"
refused "a size range that is none" 'size range "4-x" is neither LO-HI nor 0' \
    "$bench/collshim-report-plot" "$tmp/range.txt" "$tmp/bad"
refused "a report without its rows" 'no collective in' "$bench/collshim-report-plot" "$tmp/short.txt" "$tmp/bad"
refused "a report as a CSV" 'no column coll: not a CSV of collbench or colltune' \
    "$bench/collbench-plot" "$report" "$tmp/bad"
refused "a missing file" 'cannot read' "$bench/collbench-plot" "$tmp/none.csv" "$tmp/bad"
refused "an unknown format" "unknown format 'gif'" "$bench/collshim-report-plot" -f gif "$report" "$tmp/bad"
refused "the shared part run as a command" 'not a command' bash "$bench/collshim-plot-lib.sh"
finish plots
