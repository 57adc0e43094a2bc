/* front_profiler.c - a PMPI profiler of one call, preloaded in front of
 * collshim (tests/launch/collshim_run.sh): it sees MPI_Allreduce first and
 * passes it on to PMPI_Allreduce, which collshim runs. */
#include <mpi.h>
#include <stdio.h>

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("front_profiler: rank %d saw MPI_Allreduce\n", rank);
    fflush(stdout);
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
