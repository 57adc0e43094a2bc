/* ibarrier.c - SimGrid SMPI 3.32's own MPI_Ibarrier lets ranks complete
 * it before the last rank has entered: MPI 3.1 section 5.12.1 says the
 * nonblocking barrier completes at a rank only after all ranks called
 * MPI_Ibarrier. Rank r enters r ms late; each rank's exit must be at or
 * after the latest entry (MPI_Wtime is the simulated clock, one for all).
 * No collshim here: plain MPI, any MPI. collcheck skips the barrier cases
 * where SMPI's call would run (check_bcast.c).
 *
 *   smpicc -o ibarrier ibarrier.c
 *   smpirun -np 16 -platform P.xml -hostfile H ./ibarrier
 *     -> "ibarrier np=16: 15 ranks left before the last entry"
 *   The blocking MPI_Barrier (./ibarrier blocking), and MPI_Ibarrier on
 *   Open MPI (mpirun -np 8) and MPICH (mpiexec -n 3): "every rank left
 *   after the last entry". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, early, blocking = argc > 1 && !strcmp(argv[1], "blocking");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(1000 * (useconds_t)rank);
    double in = MPI_Wtime(), latest;
    if (blocking) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Request req;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    double out = MPI_Wtime();
    MPI_Allreduce(&in, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int mine = out < latest;
    MPI_Reduce(&mine, &early, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (early)
            printf("%s np=%d: %d ranks left before the last entry\n",
                   blocking ? "barrier" : "ibarrier", size, early);
        else
            printf("%s np=%d: every rank left after the last entry\n",
                   blocking ? "barrier" : "ibarrier", size);
    }
    MPI_Finalize();
    return 0;
}
