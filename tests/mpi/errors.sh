#!/bin/bash
# errors.sh - bad arguments go through the error handler; a malformed table
# or an unknown name is reported once by rank 0 with source, line, column
# and what was expected, that source is ignored and the job completes with
# correct results; COLLSHIM_LIST, COLLSHIM_VERBOSE and COLLSHIM_DISABLE.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp) table=$(mktemp)
plain="$TOP_BUILDDIR/tests/mpi/plain_c"
pre="LD_PRELOAD=$LIBCOLLSHIM"

mpi_run 2 -- "$TOP_BUILDDIR/tests/mpi/errors" >"$log" 2>&1
grep -E '^(ok|FAIL)' "$log"
grep -q 'errors: ' "$log" || { FAILED=$((FAILED + 1)); cat "$log"; }
count_results "$log"

once() { [ "$(grep -cF -- "$1" "$log")" -eq 1 ]; }
has() { grep -qF -- "$1" "$log"; }

mpi_run 3 "$pre" "COLLSHIM_TUNE=allreduce @recursive_doubling; bcast @nosuch" -- "$plain" >"$log" 2>&1
expect "unknown name: reported once with variable, column and known names" \
    once "collshim: COLLSHIM_TUNE:1:39: unknown algorithm 'nosuch' for bcast; known: vendor"
expect "unknown name: the job completes with correct results" has "plain_c: ok (np=3)"

printf '# a table with a mistake on line 3\nallreduce @recursive_doubling\nallreduce np=4-2 @vendor\n' >"$table"
mpi_run 3 "$pre" "COLLSHIM_TUNING_FILE=$table" -- "$plain" >"$log" 2>&1
expect "malformed file: reported once with path:line:column and what was expected" \
    once "collshim: $table:3:14: empty np range 4-2"
expect "malformed file: the job completes with correct results" has "plain_c: ok (np=3)"

mpi_run 2 "$pre" "COLLSHIM_TUNING_FILE=/nonexistent/table" -- "$plain" >"$log" 2>&1
expect "missing file: reported once" once "collshim: /nonexistent/table: cannot open tuning file"
expect "missing file: the job completes" has "plain_c: ok (np=2)"

mpi_run 2 "$pre" "COLLSHIM_TUNE=allreduse @ring" -- "$plain" >"$log" 2>&1
expect "unknown collective: names the collectives that exist" \
    once "COLLSHIM_TUNE:1:1: unknown collective 'allreduse'; known: barrier, bcast"

mpi_run 2 "$pre" "COLLSHIM_LIST=1" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_LIST: prints every collective's algorithms with cost lines, once" \
    once "collshim: algorithms (name, restrictions, cost, summary)"
expect "COLLSHIM_LIST: cost lines are there" has "Cost = lg(p) alpha"
expect "COLLSHIM_LIST: the job continues" has "plain_c: ok (np=2)"

mpi_run 2 "$pre" "COLLSHIM_VERBOSE=1" "COLLSHIM_TUNE=allreduce @recursive_doubling" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_VERBOSE: one line per (np, collective, algorithm)" \
    once "collshim: allreduce np=2 bytes=8000 -> recursive_doubling"

mpi_run 2 "$pre" "COLLSHIM_VERBOSE=1" "COLLSHIM_DISABLE=1" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_DISABLE: nothing runs through the shim" bash -c "! grep -q 'collshim: ' '$log'"
expect "COLLSHIM_DISABLE: results still right" has "plain_c: ok (np=2)"

rm -f "$log" "$table"
finish errors
