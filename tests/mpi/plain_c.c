/* plain_c.c - an unmodified MPI program: built with the vendor's mpicc,
 * not linked to collshim, run under LD_PRELOAD. It checks its own results
 * and prints "plain_c: ok" or the first wrong value. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double x[1000], sum[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = rank + i * 0.5;
    MPI_Allreduce(x, sum, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 1000; i++)
        bad += sum[i] != size * (size - 1) / 2.0 + size * i * 0.5;

    int b[16];
    for (int i = 0; i < 16; i++)
        b[i] = rank == size - 1 ? 100 + i : -1;
    MPI_Bcast(b, 16, MPI_INT, size - 1, MPI_COMM_WORLD);
    for (int i = 0; i < 16; i++)
        bad += b[i] != 100 + i;

    int mine = rank * 3, all[64];
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size && r < 64; r++)
        bad += all[r] != r * 3;
    MPI_Barrier(MPI_COMM_WORLD);

    /* A large allreduce (the built-in table picks another algorithm). */
    enum { BIG = 100000 };
    static double big[BIG], bigsum[BIG];
    for (int i = 0; i < BIG; i++)
        big[i] = (rank + 1) * 0.25 + i % 7;
    MPI_Allreduce(big, bigsum, BIG, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < BIG; i++)
        bad += bigsum[i] != size * (size + 1) / 2 * 0.25 + size * (i % 7);

    /* Every rank contributes r + j to block j; rank r gets sum over ranks. */
    int rsb_in[64], rsb_out = -1, a2a_in[64], a2a_out[64], pre = -1;
    for (int j = 0; j < size && j < 64; j++) {
        rsb_in[j] = rank + j;
        a2a_in[j] = rank * 100 + j;
    }
    MPI_Reduce_scatter_block(rsb_in, &rsb_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad += rsb_out != size * (size - 1) / 2 + size * rank;
    MPI_Alltoall(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size && r < 64; r++)
        bad += a2a_out[r] != r * 100 + rank;
    MPI_Scan(&rank, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad += pre != rank * (rank + 1) / 2;

    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("plain_c: %s (np=%d)\n", total ? "WRONG RESULTS" : "ok", size);
    MPI_Finalize();
    return total != 0;
}
