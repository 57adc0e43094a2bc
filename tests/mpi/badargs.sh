#!/bin/bash
# badargs.sh - bad and borderline arguments as the vendor treats them
# (badargs.c) at np 2 and 3, and in the nonblocking and persistent forms;
# where the MPI has MPI-4's large-count collectives (HAVE_MPI_ALLREDUCE_C:
# MPICH 4), all three forms again at np 2 through their _c functions, with
# negative MPI_Counts beyond an int's range; under MPI_ERRORS_ARE_FATAL the
# abort message names the collective the user called (MPI_Bcast_c too).
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
large=; grep -q '^#define HAVE_MPI_ALLREDUCE_C 1' "$TOP_BUILDDIR/config.h" && large=1
# the nonblocking and persistent forms at np 2 (MPICH busy-polls at 3);
# np=3 blocking twice: on this machine's one node, and as 2 nodes
# (COLLSHIM_NODES, a testing aid) so that the node-aware algorithms run too.
runs=("2 blocking" "3 blocking" "3:0,0,1 blocking" "2 nonblocking" "2 persistent")
[ -n "$large" ] && runs+=("2 blocking large-count" "2 nonblocking large-count"
                          "2 persistent large-count")
[ -z "$large" ] && echo "== large-count forms (MPI_Allreduce_c, ...) not run: this MPI ($FLAVOUR) has none"
for run in "${runs[@]}"; do
    set -- $run
    nodes=; [[ $1 == *:* ]] && nodes=${1#*:}; np=${1%%:*}
    mpi_run $np ${nodes:+COLLSHIM_NODES=$nodes} -- "$TOP_BUILDDIR/tests/mpi/badargs" $2 ${3:-} \
        >"$log" 2>&1
    echo "== np=$1 $2 ${3:-}"
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
if [ -n "$large" ]; then
    mpi_run 2 -- "$TOP_BUILDDIR/tests/mpi/badargs" fatal-large-count >"$log" 2>&1
    expect "MPI_ERRORS_ARE_FATAL: the job stops (MPI_Bcast_c)" test $? -ne 0
    expect "MPI_ERRORS_ARE_FATAL: the message names MPI_Bcast_c and its error" \
        grep -q "collshim: error in MPI_Bcast_c on communicator MPI_COMM_WORLD, rank [01]: MPI_ERR_BUFFER" "$log"
fi
rm -f "$log"
finish badargs
