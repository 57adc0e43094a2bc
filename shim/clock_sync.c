/* clock_sync.c - each rank's clock offset to rank 0's of a communicator,
 * from the fastest of CLOCK_PINGS round trips with rank 0 (Cristian's
 * method, as ReproMPI and Hoefler et al. synchronize their benchmarks):
 * the common clock of COLLSHIM_LEARN's measurements (learn.c) and of
 * collbench's window fence (collshim_clock_offset). Rank 0 answers the
 * ranks one after the other: (p-1) * CLOCK_PINGS round trips, once per
 * communicator (and again when learning finds it stale). */
#include "shim/shim.h"
#include "engine/p2p.h"

#include <math.h>

#define CLOCK_PINGS 8

/* Rank k's side: its clock minus rank 0's, from the fastest round trip. */
static int ping_rank0(const struct coll_args *a, double *offset)
{
    double best = INFINITY, t0 = 0;
    int err = MPI_SUCCESS;
    for (int i = 0; i < CLOCK_PINGS && !err; i++) {
        double t1 = PMPI_Wtime();
        err = p2p_send(&t1, 1, MPI_DOUBLE, 0, a);
        if (!err)
            err = p2p_recv(&t0, 1, MPI_DOUBLE, 0, a);
        double t2 = PMPI_Wtime();
        if (!err && t2 - t1 < best) {
            best = t2 - t1;
            *offset = (t1 + t2) / 2 - t0;
        }
    }
    return err;
}

/* Rank 0's side: answer every ping of rank k with the time it arrived. */
static int answer_pings(const struct coll_args *a, int k)
{
    double t;
    int err = MPI_SUCCESS;
    for (int i = 0; i < CLOCK_PINGS && !err; i++) {
        err = p2p_recv(&t, 1, MPI_DOUBLE, k, a);
        t = PMPI_Wtime();
        if (!err)
            err = p2p_send(&t, 1, MPI_DOUBLE, k, a);
    }
    return err;
}

int clock_offset_of(const struct coll_args *a, double *offset)
{
    int err = MPI_SUCCESS;
    *offset = 0;
    for (int k = 1; k < a->size && !err; k++)
        if (a->rank == 0)
            err = answer_pings(a, k);
        else if (a->rank == k)
            err = ping_rank0(a, offset);
    return err;
}
