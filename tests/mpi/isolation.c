/* isolation.c - a user's wildcard receives (MPI_ANY_SOURCE, MPI_ANY_TAG)
 * posted around and during the shim's collectives get the user's messages,
 * never the shim's: all shim traffic runs on a private shadow communicator.
 * Ends with "isolation: N passed, N failed". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "collshim.h"
#include "tests/mpi/expect.h"


/* Collectives whose native algorithms send to rank 0 while it has a
 * wildcard receive pending on the same (user) communicator. */
static long long run_collectives(MPI_Comm comm, int rank, int size)
{
    long long before = collshim_algorithm_calls("allreduce", "recursive_doubling");
    int v = rank + 1, sum = 0, buf[64];
    collshim_tune("allreduce @recursive_doubling", NULL, 0);
    for (int i = 0; i < 20; i++)
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
    collshim_tune(NULL, NULL, 0);
    for (int i = 0; i < 64; i++)
        buf[i] = rank;
    MPI_Bcast(buf, 64, MPI_INT, size - 1, comm);
    MPI_Barrier(comm);
    MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, comm);
    return collshim_algorithm_calls("allreduce", "recursive_doubling") - before;
}

int main(int argc, char **argv)
{
    int rank, size, got = -1, flag = 1;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0 && size > 1)
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    long long ran = run_collectives(MPI_COMM_WORLD, rank, size);
    expect(rank, ran == 20, "the forced native allreduce ran 20 times");
    if (rank == 0 && size > 1) {
        MPI_Test(&req, &flag, &st);
        expect(rank, !flag, "a pending wildcard receive matched nothing during collectives");
    } else {
        expect(rank, 1, "a pending wildcard receive matched nothing during collectives");
    }
    if (rank == 0)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    expect(rank, rank != 0 || size == 1 || !flag || st.MPI_TAG == 77,
           "no shim message is visible to MPI_Iprobe on the user's communicator");
    if (rank == size - 1 && size > 1) {
        int payload = 4242;
        MPI_Send(&payload, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
    }
    if (rank == 0 && size > 1)
        MPI_Wait(&req, &st);
    expect(rank, rank != 0 || size == 1 ||
                 (got == 4242 && st.MPI_TAG == 77 && st.MPI_SOURCE == size - 1),
           "the wildcard receive got the user's message (tag 77, from the last rank)");
    MPI_Finalize();
    return expect_finish(rank, "isolation");
}
