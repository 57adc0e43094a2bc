/* lifecycle.c - contexts are created lazily and freed with their
 * communicator: CYCLES rounds of split / collective / free leave no
 * context, no communicator (MPICH runs out of context ids after a few
 * thousand leaked ones) and no memory behind. A dup of a communicator
 * with a context does not inherit it (MPI_COMM_NULL_COPY_FN).
 * Ends with "lifecycle: N passed, N failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "collshim.h"
#include "expect.h"


static long resident_kib(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * 4;
}

static int cycle(int rank)
{
    MPI_Comm c;
    int v = rank, sum = -1, err;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c);
    err = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c);
    MPI_Comm_free(&c);
    return err == MPI_SUCCESS ? sum : -1;
}

int main(int argc, char **argv)
{
    int rank, size, cycles = argc > 1 ? atoi(argv[1]) : 10000, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    collshim_tune("allreduce @recursive_doubling", NULL, 0);
    MPI_Barrier(MPI_COMM_WORLD); /* world's own context */
    int base = collshim_live_contexts();
    long long ran0 = collshim_algorithm_calls("allreduce", "recursive_doubling");
    for (int i = 0; i < 200; i++) /* warm-up: allocator and MPI pools settle */
        bad += cycle(rank) != size * (size - 1) / 2;
    long rss0 = resident_kib();
    for (int i = 0; i < cycles; i++)
        bad += cycle(rank) != size * (size - 1) / 2;
    long grown = resident_kib() - rss0;
    long long ran = collshim_algorithm_calls("allreduce", "recursive_doubling") - ran0;
    expect(rank, bad == 0, "every cycle's native allreduce was right");
    expect(rank, ran == cycles + 200, "the native algorithm ran in every cycle");
    expect(rank, collshim_live_contexts() == base, "no context is left after the cycles");
    if (rank == 0)
        printf("     %d cycles: resident memory grew by %ld KiB\n", cycles, grown);
    expect(rank, grown < 4096, "resident memory grew by less than 4 MiB");

    MPI_Comm a, b;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &a);
    expect(rank, collshim_live_contexts() == base + 1, "a split gets its context when it is made");
    MPI_Comm_dup(a, &b);
    expect(rank, collshim_live_contexts() == base + 2, "a dup gets its own when it is made");
    MPI_Barrier(b);
    expect(rank, collshim_live_contexts() == base + 2, "its first collective makes no other");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    expect(rank, collshim_live_contexts() == base, "freeing both frees both contexts");
    collshim_tune(NULL, NULL, 0);
    MPI_Finalize();
    return expect_finish(rank, "lifecycle");
}
