#!/bin/bash
# badargs.sh - bad and borderline arguments as the vendor treats them
# (badargs.c) at np 2 and 3, and in the nonblocking and persistent forms; under MPI_ERRORS_ARE_FATAL the abort message
# names the collective the user called.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
# the nonblocking and persistent forms at np 2 (MPICH busy-polls at 3);
# np=3 blocking twice: on this machine's one node, and as 2 nodes
# (COLLSHIM_NODES, a testing aid) so that the node-aware algorithms run too.
for run in "2 blocking" "3 blocking" "3:0,0,1 blocking" "2 nonblocking" "2 persistent"; do
    set -- $run
    nodes=; [[ $1 == *:* ]] && nodes=${1#*:}; np=${1%%:*}
    mpi_run $np ${nodes:+COLLSHIM_NODES=$nodes} -- "$TOP_BUILDDIR/tests/mpi/badargs" $2 >"$log" 2>&1
    echo "== np=$1 $2"
    grep -E '^(FAIL)' "$log"
    grep -q 'badargs: ' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$1 $2: did not finish"; tail -5 "$log"; }
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
