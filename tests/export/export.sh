#!/bin/bash
# export.sh - colltune-export's file is read and followed by the MPI library
# alone (doc/export.md). order_probe, a plain MPI program without collshim,
# fingerprints the order in which MPI_Reduce_scatter_block added the ranks'
# floats; each algorithm adds in its own order. At np 4:
#   - the table's algorithm, through the exported file, gives the same
#     fingerprint as the same algorithm forced by the library's own means
#     (Open MPI: coll_tuned_reduce_scatter_block_algorithm; MPICH:
#     MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM), and not the one of
#     the library's default at that size: the file was read and obeyed;
#   - where the table says @vendor the library's default runs;
#   - wrong input gets a clear message and a non-zero exit.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
export_tool=$TOP_BUILDDIR/colltune-export probe=$TOP_BUILDDIR/tests/export/order_probe
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 256 floats a block: 4 KiB in all at np 4, under the table's 32k bound;
# 4096: 64 KiB, over it.
cat >"$dir/table" <<'TABLE'
reduce_scatter_block np=4 0-32k @recursive_doubling
reduce_scatter_block np=4 32k-inf @vendor
TABLE

probe() { # VAR=VALUE... : the fingerprints of 256 and 4096 floats a block
    mpi_run 4 "$@" -- "$probe" reduce_scatter_block 256 4096 2>&1 | awk 'NF == 2 { print $2 }' | paste -sd' '
}

if [ "$FLAVOUR" = openmpi ]; then
    out=$dir/rules
    file_vars=(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename="$out")
    forced_vars=(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_reduce_scatter_block_algorithm=2)
else
    out=$dir/table.json
    file_vars=(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$out"
               MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE="$dir/table-ch4.json")
    forced_vars=(MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=recursive_doubling)
fi

expect "colltune-export writes the $FLAVOUR file" "$export_tool" "$dir/table" "$out"
default=$(probe) file=$(probe "${file_vars[@]}") forced=$(probe "${forced_vars[@]}")
echo "fingerprints (256, 4096 floats a block): default $default; file $file; forced recursive_doubling $forced"
expect "all three runs printed two fingerprints" \
    test "$(wc -w <<<"$default $file $forced")" -eq 6
expect "below 32 KiB the file runs recursive_doubling, as forcing it does" \
    test "${file%% *}" = "${forced%% *}"
expect "and that is not the library's default there (the file changed the choice)" \
    test "${file%% *}" != "${default%% *}"
expect "from 32 KiB (@vendor) the library's default runs" test "${file##* }" = "${default##* }"

refuses() { # what, then the command: it must fail and say why on stderr
    local what=$1 err; shift
    err=$("$@" 2>&1 >/dev/null) && return 1
    echo "  $what: $err"
    [ -n "$err" ]
}
expect "refuses an unknown format" refuses format "$export_tool" --format lam "$dir/table" "$dir/x"
expect "refuses a missing table" refuses table "$export_tool" "$dir/none" "$dir/x"
expect "refuses a table that does not parse" \
    refuses parse bash -c "echo 'allreduce @nosuch' >'$dir/bad'; '$export_tool' '$dir/bad' '$dir/x'"
expect "refuses --ppn 0" refuses ppn "$export_tool" --ppn 0 "$dir/table" "$dir/x"
expect "refuses a library without MPICH's trees" \
    refuses library "$export_tool" --format mpich --mpich-library /bin/true "$dir/table" "$dir/x.json"
expect "refuses an output it cannot write" refuses output "$export_tool" "$dir/table" /nonexistent/dir/x
finish export
