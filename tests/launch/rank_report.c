/* rank_report.c - an unmodified MPI program (built with the vendor's mpicc,
 * not linked to collshim) that says what collshim-run gave each rank: one
 * line per rank with the collshim build loaded into it (looked up at run
 * time), the algorithm its allreduce ran, COLLSHIM_RUN_TEST and LD_PRELOAD
 * (tests/launch/collshim_run.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char *call_text(const char *symbol)
{
    const char *(*function)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, symbol);
    return function ? function() : "absent";
}

int main(int argc, char **argv)
{
    int rank, size, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const char *marker = getenv("COLLSHIM_RUN_TEST"), *preload = getenv("LD_PRELOAD");
    printf("rank %d of %d: collshim=%s allreduce=%s sum=%s COLLSHIM_RUN_TEST=[%s] LD_PRELOAD=[%s]\n",
           rank, size, call_text("collshim_flavour"), call_text("collshim_last_algorithm"),
           sum == size * (size - 1) / 2 ? "right" : "wrong", marker ? marker : "(unset)",
           preload ? preload : "(unset)");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
