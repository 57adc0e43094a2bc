/* iallreduce.c - SimGrid SMPI 3.32's own MPI_Iallreduce (the vendor's
 * nonblocking allreduce there) does not give every rank the same result:
 * a sum of doubles comes back different in its last bits on different
 * ranks, where its blocking MPI_Allreduce, Open MPI 4.1.4's and MPICH
 * 4.0.2's (blocking and nonblocking) give one result everywhere; and
 * MPI_MINLOC on MPI_DOUBLE_INT in place over 4099 pairs comes back wrong.
 * No collshim here: plain MPI, any MPI. collcheck skips those cases where
 * SMPI's call would run (check_reduction.c); collshim's own algorithms
 * are checked there as everywhere.
 *
 *   smpicc -o iallreduce iallreduce.c
 *   smpirun -np 16 -platform P.xml -hostfile H ./iallreduce
 *     -> "sum: 2 different results over 16 ranks", "minloc: ... wrong"
 *   Open MPI (mpirun -np 16) and MPICH (mpiexec -n 4): "one result on every
 *   rank", "right". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4099

/* Values whose sum depends on the order of the additions. */
static double term(int rank, int i) { return (rank % 3 == 0 ? 1e16 : 1.0) + 0.1 * rank + i; }

static int sum_differs(MPI_Comm comm, int rank)
{
    double mine[17], sum[17];
    unsigned long long bits, lo, hi;
    MPI_Request req;
    for (int i = 0; i < 17; i++)
        mine[i] = term(rank, i);
    MPI_Iallreduce(mine, sum, 17, MPI_DOUBLE, MPI_SUM, comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    memcpy(&bits, &sum[0], sizeof bits);
    for (int i = 1; i < 17; i++) {
        unsigned long long b;
        memcpy(&b, &sum[i], sizeof b);
        bits = bits * 1099511628211ull ^ b;
    }
    MPI_Allreduce(&bits, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
    MPI_Allreduce(&bits, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
    return lo != hi;
}

/* Element i's minimum is at rank i % p, value -i. */
static int minloc_wrong(MPI_Comm comm, int rank, int size)
{
    struct { double v; int at; } *pairs = malloc(N * sizeof *pairs);
    MPI_Request req;
    int wrong = 0, any;
    for (int i = 0; i < N; i++) {
        pairs[i].v = i % size == rank ? -i : i + rank;
        pairs[i].at = rank;
    }
    MPI_Iallreduce(MPI_IN_PLACE, pairs, N, MPI_DOUBLE_INT, MPI_MINLOC, comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        wrong |= pairs[i].v != -i || pairs[i].at != i % size;
    free(pairs);
    MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_LOR, comm);
    return any;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int differs = sum_differs(MPI_COMM_WORLD, rank);
    int wrong = minloc_wrong(MPI_COMM_WORLD, rank, size);
    if (rank == 0)
        printf("iallreduce np=%d: sum: %s; minloc in place, %d pairs: %s\n", size,
               differs ? "the ranks got different results" : "one result on every rank", N,
               wrong ? "wrong" : "right");
    MPI_Finalize();
    return 0;
}
