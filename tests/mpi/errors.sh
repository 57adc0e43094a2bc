#!/bin/bash
# errors.sh - bad arguments go through the error handler (in the large-count
# forms too, MPI_Allreduce_c, ..., where the MPI has them); a malformed table
# or an unknown name is reported once by rank 0 with source, line, column
# and what was expected, that source is ignored and the job completes with
# correct results; a tuning file that is not a regular file of at most
# 1 MiB is refused the same way, without blocking or reading it; input is
# quoted with control bytes escaped and numbers too large are named;
# COLLSHIM_LIST, COLLSHIM_VERBOSE, COLLSHIM_EXPLAIN and COLLSHIM_DISABLE.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp) table=$(mktemp) dir=$(mktemp -d)
plain="$TOP_BUILDDIR/tests/mpi/plain_c"
pre="LD_PRELOAD=$LIBCOLLSHIM"

mpi_run 2 -- "$TOP_BUILDDIR/tests/mpi/errors" >"$log" 2>&1
grep -E '^(ok|FAIL|skip)' "$log"
grep -q 'errors: ' "$log" || { FAILED=$((FAILED + 1)); cat "$log"; }
count_results "$log"

once() { [ "$(grep -cF -- "$1" "$log")" -eq 1 ]; }
has() { grep -qF -- "$1" "$log"; }
no_raw_escape() { ! grep -q $'\033' "$log"; }

# A tuning source that is malformed or refused: plain_c on NP ranks with
# the settings given reports MESSAGE once (rank 0) and completes with
# correct results. Under a 3 GB address-space limit and a 120 s timeout, so
# that a regression that reads without bound (/dev/zero) or blocks (a FIFO
# without a writer) fails instead of taking the machine or the CI job.
#   ignored_once WHAT NP MESSAGE VAR=VALUE...
ignored_once() {
    local what=$1 np=$2 message=$3
    shift 3
    (ulimit -v 3000000 && MPI_TIMEOUT=120 mpi_run "$np" "$pre" "$@" -- "$plain") >"$log" 2>&1
    expect "$what: reported once" once "$message"
    expect "$what: the job completes with correct results" has "plain_c: ok (np=$np)"
}

ignored_once "unknown name, with variable, column and known names" 3 \
    "collshim: COLLSHIM_TUNE:1:39: unknown algorithm 'nosuch' for bcast; known: vendor" \
    "COLLSHIM_TUNE=allreduce @recursive_doubling; bcast @nosuch"

printf '# a table with a mistake on line 3\nallreduce @recursive_doubling\nallreduce np=4-2 @vendor\n' >"$table"
ignored_once "malformed file, with path:line:column and what was expected" 3 \
    "collshim: $table:3:14: empty np range 4-2" "COLLSHIM_TUNING_FILE=$table"

ignored_once "missing file, with the reason" 2 \
    "collshim: /nonexistent/table: cannot open tuning file: No such file or directory" \
    "COLLSHIM_TUNING_FILE=/nonexistent/table"

ignored_once "unknown collective, naming those that exist" 2 \
    "COLLSHIM_TUNE:1:1: unknown collective 'allreduse'; known: barrier, bcast" \
    "COLLSHIM_TUNE=allreduse @ring"

# Only regular files up to 1 MiB are read: every rank used to block on a
# FIFO, read /dev/zero until memory ran out, take a directory for an empty
# table.
mkfifo "$dir/fifo"
ignored_once "FIFO: refused without waiting for a writer, with the path and what it is" 2 \
    "collshim: $dir/fifo: is a FIFO (named pipe), not a regular file; a tuning file must be a regular file of at most 1 MiB" \
    "COLLSHIM_TUNING_FILE=$dir/fifo"

ignored_once "directory: refused" 2 "collshim: $dir: is a directory, not a regular file" \
    "COLLSHIM_TUNING_FILE=$dir"

ignored_once "/dev/zero: refused unread" 2 "collshim: /dev/zero: is a character device, not a regular file" \
    "COLLSHIM_TUNING_FILE=/dev/zero"

yes '# a comment line of a tuning table' | head -c 1048577 >"$dir/big"
ignored_once "file over 1 MiB: refused with its size and the cap" 2 \
    "collshim: $dir/big: 1048577 bytes, more than the 1 MiB (1048576 bytes) a tuning file may hold" \
    "COLLSHIM_TUNING_FILE=$dir/big"

ignored_once "control bytes: quoted escaped" 2 \
    "collshim: COLLSHIM_TUNE:1:8: unknown algorithm '\\x1b[31mred' for bcast" \
    "COLLSHIM_TUNE=$(printf 'bcast @\033[31mred')"
expect "control bytes: none reaches the terminal" no_raw_escape

ignored_once "overflow: named out of range with the limit" 2 \
    "collshim: COLLSHIM_TUNE:1:7: '99999999999999999999k' is out of range: byte counts must lie in 0..2^64-1" \
    "COLLSHIM_TUNE=bcast 99999999999999999999k-inf @vendor"

mpi_run 2 "$pre" "COLLSHIM_LIST=1" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_LIST: prints every collective's algorithms with cost lines, once" \
    once "collshim: algorithms (name, restrictions, cost, summary)"
expect "COLLSHIM_LIST: cost lines are there" has "Cost = lg(p) alpha"
expect "COLLSHIM_LIST: the job continues" has "plain_c: ok (np=2)"

mpi_run 2 "$pre" "COLLSHIM_VERBOSE=1" "COLLSHIM_TUNE=allreduce @recursive_doubling" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_VERBOSE: one line per (np, collective, algorithm)" \
    once "collshim: allreduce np=2 bytes=8000 nodes=1 ppn=2 -> recursive_doubling"

mpi_run 2 "$pre" "COLLSHIM_EXPLAIN=1" "COLLSHIM_TUNE=bcast @node; bcast @linear" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_EXPLAIN: the verbose line" once "collshim: bcast np=2 bytes=64 nodes=1 ppn=2 -> linear"
expect "COLLSHIM_EXPLAIN: a rule skipped, with why" \
    once "collshim:     COLLSHIM_TUNE:1 @node: needs 2 or more nodes and 2 or more ranks on some node"
expect "COLLSHIM_EXPLAIN: the rule taken" once "collshim:     COLLSHIM_TUNE:1 @linear: taken"
expect "COLLSHIM_EXPLAIN: the built-in table's rules, for the other collectives" has "built-in:"

mpi_run 2 "$pre" "COLLSHIM_VERBOSE=1" "COLLSHIM_DISABLE=1" -- "$plain" >"$log" 2>&1
expect "COLLSHIM_DISABLE: nothing runs through the shim" bash -c "! grep -q 'collshim: ' '$log'"
expect "COLLSHIM_DISABLE: results still right" has "plain_c: ok (np=2)"

rm -rf "$log" "$table" "$dir"
finish errors
