/* expect.c - see expect.h. */
#include "tests/mpi/expect.h"
#include "collshim.h"

#include <mpi.h>
#include <stdio.h>

static int passed, failed;

void expect(int rank, int ok, const char *what)
{
    int all_ok = 0;
    collshim_bypass(1);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    collshim_bypass(0);
    if (rank == 0)
        printf("%s %s\n", all_ok ? "ok  " : "FAIL", what);
    all_ok ? passed++ : failed++;
}

int expect_finish(int rank, const char *name)
{
    if (rank == 0)
        printf("%s: %d passed, %d failed\n", name, passed, failed);
    return failed != 0;
}
