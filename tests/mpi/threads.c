/* threads.c - collshim_tune() while other threads run collectives
 * (MPI_THREAD_MULTIPLE): the main thread replaces the COLLSHIM_TUNE table
 * thousands of times while three threads each run allreduces of changing
 * sizes on their own communicator, so that their selections walk the
 * tables (the remembered choices miss). The rules always choose the same
 * algorithm, written in different words, so every rank selects alike
 * whichever table it sees. A table freed while a thread walks it was a
 * use-after-free (valgrind: "Invalid read" in tune_select); here every
 * result is checked and the forced algorithm must have run. Ends with
 * "threads: N passed, N failed". */
#include "collshim.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 3
#define CALLS 3000

static int rank, size;
static volatile int workers_done;

struct worker {
    MPI_Comm comm;
    int id, wrong;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    int in[64], out[64];
    for (int call = 0; call < CALLS; call++) {
        int n = 1 + (call * 7 + w->id) % 64;
        for (int i = 0; i < n; i++)
            in[i] = rank + i + call;
        MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, w->comm);
        for (int i = 0; i < n; i++)
            w->wrong += out[i] != size * (size - 1) / 2 + size * (i + call);
    }
    __atomic_fetch_add(&workers_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* The same choice in three wordings; each collshim_tune replaces the table. */
static const char *const wordings[] = {
    "allreduce @recursive_doubling",
    "allreduce 0-inf @recursive_doubling",
    "allreduce np=1-inf @recursive_doubling\nbcast @binomial",
};

int main(int argc, char **argv)
{
    int provided, passed = 0, failed = 0, replaced = 0;
    char err[256];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("threads: the library gives no MPI_THREAD_MULTIPLE\nthreads: 0 passed, 0 failed\n");
        MPI_Finalize();
        return 0;
    }
    collshim_tune(wordings[0], err, sizeof err);
    long long before = collshim_algorithm_calls("allreduce", "recursive_doubling");
    struct worker w[WORKERS];
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        w[i] = (struct worker){.id = i};
        MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm);
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    while (__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE) < WORKERS)
        if (collshim_tune(wordings[replaced++ % 3], err, sizeof err) != MPI_SUCCESS)
            failed++, printf("FAIL collshim_tune: %s\n", err);
    for (int i = 0; i < WORKERS; i++) {
        pthread_join(t[i], NULL);
        if (w[i].wrong)
            printf("FAIL rank %d thread %d: %d wrong elements\n", rank, i, w[i].wrong);
        failed += w[i].wrong != 0;
        passed += w[i].wrong == 0;
        MPI_Comm_free(&w[i].comm);
    }
    long long ran = collshim_algorithm_calls("allreduce", "recursive_doubling") - before;
    if (ran != (long long)WORKERS * CALLS) {
        printf("FAIL rank %d: recursive_doubling ran %lld times of %d\n", rank, ran,
               WORKERS * CALLS);
        failed++;
    } else {
        passed++;
    }
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &passed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("threads: %d tables replaced on rank 0 while %d threads ran\n"
               "threads: %d passed, %d failed\n", replaced, WORKERS, passed, failed);
    MPI_Finalize();
    return failed != 0;
}
