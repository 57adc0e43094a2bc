#!/bin/bash
# badargs.sh - bad and borderline arguments as the vendor treats them
# (badargs.c) at np 2 and 3; under MPI_ERRORS_ARE_FATAL the abort message
# names the collective the user called.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
# np=3 twice: on this machine's one node, and as 2 nodes (COLLSHIM_NODES,
# a testing aid) so that the node-aware algorithms run too.
for np in 2 3 3:0,0,1; do
    nodes=; [[ $np == *:* ]] && nodes=${np#*:}; np=${np%%:*}
    mpi_run $np ${nodes:+COLLSHIM_NODES=$nodes} -- "$TOP_BUILDDIR/tests/mpi/badargs" >"$log" 2>&1
    grep -E '^(FAIL)' "$log"
    grep -q 'badargs: ' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np: did not finish"; tail -5 "$log"; }
    count_results "$log"
done
mpi_run 2 -- "$TOP_BUILDDIR/tests/mpi/badargs" fatal >"$log" 2>&1
expect "MPI_ERRORS_ARE_FATAL: the job stops" test $? -ne 0
expect "MPI_ERRORS_ARE_FATAL: the message names MPI_Bcast and its error" \
    grep -q "collshim: error in MPI_Bcast on communicator MPI_COMM_WORLD, rank [01]: MPI_ERR_BUFFER" "$log"
expect "MPI_ERRORS_ARE_FATAL: no mention of MPI_Comm_call_errhandler" \
    bash -c "! grep -q MPI_Comm_call_errhandler '$log'"
rm -f "$log"
finish badargs
