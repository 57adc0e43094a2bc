/* progress.c - does a nonblocking collective advance while the program
 * computes without calling MPI?
 *
 * Two ranks run MPI_Iallreduce of 64 KiB under the segmented ring (4 KiB
 * segments): its allgather half can only send what the reduce-scatter half
 * received, so it needs progress after the start. Rank 0 starts at once
 * and computes for 1 s without an MPI call; rank 1 computes 50 ms,
 * starts, computes 300 ms; each then calls MPI_Test once.
 *   COLLSHIM_PROGRESS_THREAD=1: rank 0's thread answers rank 1's data
 *     while rank 0 computes: the first MPI_Test completes it on every rank.
 *   without: rank 1 tests at about 350 ms and needs rank 0's reduced block,
 *     which rank 0 can only send from inside an MPI call, at 1 s: rank 1
 *     is not complete; this half shows that the check can fail.
 * Either way the result equals the vendor's and the ring ran.
 * Ends with "progress: N passed, N failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collshim.h"
#include "tests/mpi/expect.h"

#define COUNT 16384 /* floats: 64 KiB */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Busy computation, no MPI call, for about `seconds`. */
static double compute(double seconds)
{
    volatile double x = 1.0;
    double end = now() + seconds;
    while (now() < end)
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int rank, provided, flag = 0, thread = 0;
    const char *env = getenv("COLLSHIM_PROGRESS_THREAD");
    static float in[COUNT], out[COUNT], want[COUNT];
    MPI_Request req;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    thread = env && !strcmp(env, "1") && provided == MPI_THREAD_MULTIPLE;
    for (int i = 0; i < COUNT; i++)
        in[i] = (float)(rank + 1) * (float)(i % 97);
    collshim_bypass(1);
    MPI_Allreduce(in, want, COUNT, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    collshim_bypass(0);
    collshim_tune("iallreduce @ring seg=4k", NULL, 0);
    long long ran = collshim_algorithm_calls("allreduce", "ring");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        compute(0.05);
    MPI_Iallreduce(in, out, COUNT, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &req);
    compute(rank == 0 ? 1.0 : 0.3);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    int first_test_done = flag, some_not_done = 0;
    if (!flag)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    int not_done = !first_test_done;
    MPI_Allreduce(&not_done, &some_not_done, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    expect(rank, collshim_algorithm_calls("allreduce", "ring") == ran + 1,
           "the forced ring ran the MPI_Iallreduce");
    expect(rank, !memcmp(out, want, sizeof out), "the result is the vendor's");
    if (thread)
        expect(rank, first_test_done,
               "with the progress thread, the first MPI_Test after the computation finds "
               "the collective complete on every rank");
    else
        expect(rank, some_not_done,
               "without it, the first MPI_Test finds the collective incomplete on some rank");
    collshim_tune(NULL, NULL, 0);
    MPI_Finalize();
    return expect_finish(rank, "progress");
}
