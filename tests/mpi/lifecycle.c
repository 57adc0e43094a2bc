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
#include "tests/mpi/expect.h"


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

/* Communicators of alternating shapes (all ranks, then even and odd ranks
 * apart), each freed after one allreduce: the MPI library hands a freed
 * handle out again, and the shim caches the last context it looked up per
 * thread, so a stale cache would run the new communicator on the old one's
 * ranks. Returns the cycles whose sum was wrong; *reused counts handles
 * seen again (0 would leave the cache's invalidation unexercised). */
static int reshape_cycles(int rank, int size, int n, int *reused)
{
    MPI_Comm prev = MPI_COMM_NULL;
    int bad = 0;
    *reused = 0;
    for (int i = 0; i < n; i++) {
        MPI_Comm c;
        int split = i % 2 && size > 1, one = 1, members = -1;
        MPI_Comm_split(MPI_COMM_WORLD, split ? rank % 2 : 0, rank, &c);
        *reused += c == prev;
        prev = c;
        MPI_Allreduce(&one, &members, 1, MPI_INT, MPI_SUM, c);
        bad += members != (split ? size / 2 + (size % 2 && rank % 2 == 0) : size);
        MPI_Comm_free(&c);
    }
    return bad;
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

    int reused = 0;
    bad = reshape_cycles(rank, size, 50, &reused);
    expect(rank, bad == 0, "a freed handle given to a new communicator runs on the new one's ranks");
    if (rank == 0)
        printf("     %d of 50 reshaped communicators reused the previous handle\n", reused);

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
