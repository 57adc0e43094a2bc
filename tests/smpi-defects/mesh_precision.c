/* mesh_precision.c - SimGrid SMPI 3.32's bandwidth-sharing solver gives up
 * on a full mesh of small messages: every rank posts a receive from every
 * other rank, then a send of N ints to every other rank, then waits for
 * all. On bench/platforms/fattree-64x16.xml without its maxmin/precision
 * line (SimGrid's default, 1e-5) at 64 ranks (4 hosts of 16) and N = 63,
 * the simulator dies in lmm::MaxMin::do_solve: a segfault, or at 96-128
 * ranks "Cannot saturate more a constraint that has no active element!
 * ... the usage of this constraint is 1.10379e-05 while the maxmin
 * precision to which it is compared is 1e-05". It needs the per-message
 * overhead smpi/ois at 64 ranks; at 256 ranks it dies without overheads
 * too. No collshim here: plain MPI, any MPI. MPI_Alltoallv under SMPI's
 * default selector (its nonblocking alltoallv) posts the same mesh, so
 * collcheck's vendor reference died of it at np 64 in CI.
 *
 *   smpicc -o mesh_precision mesh_precision.c
 *   smpirun -np 64 -platform P.xml -hostfile H ./mesh_precision 63
 *     maxmin/precision 1e-5: "Execution failed with code 139."
 *     maxmin/precision 1e-4 (the shipped platforms): "mesh_precision:
 *     64 ranks, 63 ints per peer: done"
 *   Open MPI 4.1.4, MPICH 4.0.2: done. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int size, rank, n = argc > 1 ? atoi(argv[1]) : 63, posted = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *out = calloc((size_t)n * size + 1, sizeof(int));
    int *in = calloc((size_t)n * size + 1, sizeof(int));
    MPI_Request *reqs = malloc(2 * (size_t)size * sizeof *reqs);
    for (int peer = 0; peer < size; peer++)
        if (peer != rank)
            MPI_Irecv(in + (size_t)peer * n, n, MPI_INT, peer, 0, MPI_COMM_WORLD, &reqs[posted++]);
    for (int peer = 0; peer < size; peer++)
        if (peer != rank)
            MPI_Isend(out + (size_t)peer * n, n, MPI_INT, peer, 0, MPI_COMM_WORLD, &reqs[posted++]);
    MPI_Waitall(posted, reqs, MPI_STATUSES_IGNORE);
    if (rank == 0)
        printf("mesh_precision: %d ranks, %d ints per peer: done\n", size, n);
    free(out); free(in); free(reqs);
    MPI_Finalize();
    return 0;
}
