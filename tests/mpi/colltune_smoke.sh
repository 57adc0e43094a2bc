#!/bin/bash
# colltune_smoke.sh - colltune end to end, small and fast: at np=2 with a
# tiny budget for one collective it writes a table with its provenance that
# the shim loads (COLLSHIM_TUNING_FILE under an unmodified program, no error,
# and the rule the table has for the program's allreduce is what runs), and
# it verifies the table; bad input is refused with a clear message before
# anything is measured.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table=$tmp/t.table
tune="$TOP_BUILDDIR/colltune"

mpi_run 2 -- "$tune" -c allreduce -m 4:16k -b 20 -o "$table" --export "$tmp/t.vendor" \
    > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
cat "$tmp/out.txt" "$tmp/err.txt"
expect "colltune exits 0" [ "$rc" -eq 0 ]
expect "table written" test -s "$table"
expect "table has the provenance header" grep -q '^# mpi: ' "$table"
if [ "$FLAVOUR" = openmpi ]; then
    expect "--export wrote Open MPI's rules file" grep -q '^# Open MPI coll/tuned dynamic rules' "$tmp/t.vendor"
else
    expect "--export wrote MPICH's two trees" \
        bash -c "grep -q '\"collective=allreduce\"' '$tmp/t.vendor' && grep -q 'composition=MPIDI_' '$tmp/t.vendor-ch4'"
fi
expect "table names the command line" grep -q '^# command: .*colltune -c allreduce' "$table"
# measured at np 2: its rules reach np 4, twice that, and no further
expect "table has allreduce rules" grep -qE '^allreduce +np=2-4 .*@[a-z_]+' "$table"
expect "rules never reach beyond twice the np measured" sh -c "! grep -qE '^[a-z_]+ +np=[0-9]+-inf' '$table'"
expect "table says how far its rules reach" grep -q '^# reach: these rules apply up to np=4,' "$table"
expect "only allreduce is tuned" [ -z "$(grep -vE '^(#|allreduce |$)' "$table")" ]
expect "progress shows the time left" grep -qE '^colltune: \[ *[0-9]+%\] .* about [0-9:]+ left' "$tmp/err.txt"
# a row for every size measured: under load the time budget measures fewer
# sizes (4, 64, 1k, 16k instead of every power of two), so which sizes is
# not fixed; the first and the last always are
expect "verification printed per size" \
    bash -c "grep -qE '^ +4 +[0-9.]+ +[0-9.]+ ' '$tmp/out.txt' && grep -qE '^ +16k +[0-9.]+ +[0-9.]+ ' '$tmp/out.txt'"
expect "verification summary in the table" grep -q '^# auto with the new table is slower' "$table"
expect "table says the fence" grep -q '^# fence: window' "$table"

# --machine: two ranks as two nodes; a stale file is replaced by the model
# measured in MPI_Init, and colltune says where it is.
printf 'alpha_inter 1.0e+00\n' > "$tmp/machine.txt"
mpi_run 2 COLLSHIM_NODES=block:2 -- "$tune" -c barrier -b 5 --no-verify -o "$tmp/m.table" \
    --machine "$tmp/machine.txt" > "$tmp/machine-out.txt" 2>&1
rc=$?
cat "$tmp/machine-out.txt"
expect "--machine: colltune exits 0" [ "$rc" -eq 0 ]
expect "--machine: the measured model is written, every field" \
    bash -c "[ \$(grep -Ec '^(alpha|beta)_(intra|inter|lone) +[0-9.]+e[-+][0-9]+|^gamma |^overhead(_lone)? ' '$tmp/machine.txt') = 8 ]"
expect "--machine: the stale file is gone" bash -c "! grep -q '^alpha_inter 1.0e+00' '$tmp/machine.txt'"
expect "--machine: colltune says where the model is" \
    grep -q "colltune: the machine model is in $tmp/machine.txt" "$tmp/machine-out.txt"
expect "table says how many second looks" grep -qE '^# second looks: [0-9]+ cases' "$table"

# The algorithm the table's rule names for the 8000-byte allreduce of plain_c.
want=$(awk '{ gsub(/ +(nodes|ppn)=[^ ]+/, "") } $1 == "allreduce" && $2 ~ /^np=/ {
    n = split($3, r, "-"); lo = r[1]; hi = r[2]
    if ($3 ~ /^@/) { lo = 0; hi = "inf"; alg = $3 } else alg = $4
    if (lo ~ /k$/) lo = lo * 1024; if (hi ~ /k$/) hi = hi * 1024
    if (lo ~ /m$/) lo = lo * 1048576; if (hi ~ /m$/) hi = hi * 1048576
    if (8000 >= lo + 0 && (hi == "inf" || 8000 < hi + 0)) { sub(/^@/, "", alg); print alg; exit } }' "$table")
plain="$TOP_BUILDDIR/tests/mpi/plain_c"
mpi_run 2 LD_PRELOAD="$LIBCOLLSHIM" COLLSHIM_TUNING_FILE="$table" COLLSHIM_VERBOSE=1 -- \
    "$plain" > "$tmp/plain.txt" 2>&1
cat "$tmp/plain.txt"
expect "the table loads without an error" [ -z "$(grep -iE 'ignored|error|expected' "$tmp/plain.txt")" ]
expect "plain_c right under the table" grep -q 'plain_c: ok (np=2)' "$tmp/plain.txt"
expect "the table's rule for 8000 bytes ran (${want:-none found})" \
    grep -q "collshim: allreduce np=2 bytes=8000 nodes=1 ppn=2 -> ${want:-NONE} (table file)\$" "$tmp/plain.txt"

# The repair: with every native choice demoted (test hook), the table is
# rewritten with the vendor there and what changed is verified again.
mpi_run 2 COLLTUNE_TEST_DEMOTE=1 -- "$tune" -c allreduce -m 4:16k -b 20 -o "$tmp/d.table" \
    > "$tmp/d.out" 2> "$tmp/d.err"
rc=$?
expect "repair: colltune exits 0" [ "$rc" -eq 0 ]
expect "repair: no native rule left in the table" \
    [ -z "$(grep -E '^allreduce .*@' "$tmp/d.table" | grep -v '@vendor')" ]
first=$(sed -n '/^# the table, written/,/^$/p' "$tmp/d.out" | grep -E '^allreduce .*@' | grep -vc '@vendor')
if [ "$first" -gt 0 ]; then
    expect "repair: said on stderr" grep -q 'native choice.* slower than the vendor' "$tmp/d.err"
    expect "repair: the table says so" grep -q '^# repaired: [0-9]* cases' "$tmp/d.table"
    expect "repair: verified again" [ "$(grep -c '^# allreduce np=2:' "$tmp/d.out")" -eq 2 ]
fi

# Bad input: a clear message and no measuring.
bad() {
    local what=$1 pattern=$2; shift 2
    mpi_run 2 -- "$tune" -o "$tmp/bad.table" "$@" > "$tmp/bad.txt" 2>&1
    local rc=$?
    expect "$what: refused (exit $rc)" [ "$rc" -ne 0 ]
    expect "$what: says so" grep -q "$pattern" "$tmp/bad.txt"
    expect "$what: nothing measured" [ ! -e "$tmp/bad.table" -a -z "$(grep '%\]' "$tmp/bad.txt")" ]
}
bad "unknown collective" 'unknown collective "allreduc"' -c allreduc
bad "impossible size range" 'impossible size range "1m:4k"' -c allreduce -m 1m:4k
bad "no element fits the range" 'impossible size range "1:2" for allreduce' -c allreduce -m 1:2
bad "budget too small" 'budget of 0.5 s is too small' -c allreduce -b 0.5
bad "unknown fence" '"bogus": the fences are window and barrier' -c allreduce --fence bogus
finish colltune_smoke
