/* order.c - SimGrid SMPI 3.32 breaks MPI's non-overtaking rule (MPI 3.1,
 * section 3.5: two messages from one sender that match the same receive
 * arrive in the order sent) when smpi/async-small-thresh is nonzero.
 * No collshim here: plain MPI, any MPI.
 *
 * Rank 1 posts two receives from rank 0 with the same tag, a short buffer
 * then a long one (LONG ints, at or above the threshold in bytes); a barrier
 * makes both be posted before rank 0 sends two messages.
 *   mode "long":  rank 0 sends SHORT ints, then LONG ints. MPI: the first
 *                 receive gets the short message. SMPI: the short message
 *                 goes to the long receive (posted in the "large" mailbox,
 *                 which a short send probes first), the long message finds
 *                 no receive: deadlock.
 *   mode "short": rank 0 sends two short messages (values 0.., then
 *                 1000..). SMPI swaps them: wrong data, silently.
 * SMPI picks a receive's mailbox by the receive buffer's size and a send's
 * by the message's size (src/smpi/mpi/smpi_request.cpp, Request::start).
 *
 *   smpicc -o order order.c
 *   smpirun -np 2 -platform P.xml -hostfile H --cfg=smpi/async-small-thresh:65536 ./order long
 *     -> "Oops! Deadlock detected"
 *   ... ./order short -> "... swapped"
 *   with --cfg=smpi/async-small-thresh:0 (SimGrid's default): "in order".
 *   Open MPI 4.1.4 and MPICH 4.0.2 (mpicc, mpirun -np 2): "in order". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHORT 4
#define LONG 100000

int main(int argc, char **argv)
{
    int rank, swapped_mode = argc > 1 && !strcmp(argv[1], "short");
    int second = swapped_mode ? SHORT : LONG;
    int *first_buf = calloc(LONG, sizeof(int)), *second_buf = calloc(LONG, sizeof(int));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < LONG; i++)
            first_buf[i] = i;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(first_buf, SHORT, MPI_INT, 1, 7, MPI_COMM_WORLD);
        MPI_Send(first_buf + 1000, second, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Request r[2];
        MPI_Status st[2];
        int n0, n1;
        MPI_Irecv(first_buf, SHORT, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(second_buf, LONG, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[1]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Waitall(2, r, st);
        MPI_Get_count(&st[0], MPI_INT, &n0);
        MPI_Get_count(&st[1], MPI_INT, &n1);
        int ok = n0 == SHORT && first_buf[0] == 0 && n1 == second && second_buf[0] == 1000;
        printf("order: first receive got %d ints starting %d, second %d ints starting %d: %s\n",
               n0, first_buf[0], n1, second_buf[0], ok ? "in order" : "swapped");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    free(first_buf);
    free(second_buf);
    return 0;
}
