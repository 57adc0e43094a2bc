/* comms.c - the communicator budget: the shim takes one communicator from
 * the user's budget whatever the number of user communicators, never makes
 * a user call fail because of its own communicators, and keeps collectives
 * on different communicators apart, also from concurrent threads.
 *   comms            budget and churn (MPI_THREAD_SINGLE is enough)
 *   comms threads    two threads, each its own communicators, at once
 *   comms exhaust N  run with COLLSHIM_TEST_TAG_IDS=N: communicators past
 *                    the N-th go to the vendor and still compute right
 * Ends with "comms: N passed, N failed". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collshim.h"
#include "tests/mpi/expect.h"

#define MAX_COMMS 70000
static MPI_Comm held[MAX_COMMS];

/* Dup MPI_COMM_WORLD until MPI refuses (or limit); with_coll: an
 * allreduce on each right after its dup. Returns the number held;
 * *bad counts wrong or failed allreduces. */
static int hold_dups(int limit, int with_coll, int *bad)
{
    int n = 0, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    while (n < limit && MPI_Comm_dup(MPI_COMM_WORLD, &held[n]) == MPI_SUCCESS) {
        int one = 1, sum = 0;
        MPI_Comm_set_errhandler(held[n], MPI_ERRORS_RETURN);
        if (with_coll && (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, held[n]) ||
                          sum != size))
            ++*bad;
        n++;
    }
    return n;
}

static void free_held(int n)
{
    for (int i = 0; i < n; i++)
        MPI_Comm_free(&held[i]);
}

static long long native_allreduces(void)
{
    return collshim_algorithm_calls("allreduce", "recursive_doubling");
}

static void budget(int rank, int size)
{
    int bad = 0, vendor_max, shim_max, late_bad = 0;
    char line[200];
    int one = 1, sum = 0;
    collshim_tune("allreduce @recursive_doubling", NULL, 0);
    /* world's context, the shadow and the op checker's communicator exist */
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    vendor_max = hold_dups(MAX_COMMS, 0, &bad);
    free_held(vendor_max);
    long long ran0 = native_allreduces();
    shim_max = hold_dups(MAX_COMMS, 1, &bad);
    long long ran = native_allreduces() - ran0;
    free_held(shim_max);
    if (rank == 0)
        printf("     communicators MPI lets this job hold: %d; with an allreduce on each "
               "under collshim: %d\n", vendor_max, shim_max);
    snprintf(line, sizeof line, "a collective on each of %d communicators: all right, all native",
             shim_max);
    expect(rank, bad == 0 && ran == shim_max, line);
    expect(rank, shim_max == vendor_max,
           "beyond what it made at start-up, the shim takes no communicator of the user's budget");

    /* Hold most of the budget first, then a collective on each (a user
     * call used to fail when the shim's own split was the one refused). */
    int n = hold_dups(vendor_max - 2, 0, &bad);
    for (int i = 0; i < n; i++) {
        int one = 1, sum = 0;
        late_bad += MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, held[i]) || sum != size;
    }
    free_held(n);
    expect(rank, late_bad == 0, "holding the budget first, then a collective on each: all right");
    expect(rank, collshim_live_contexts() == 1, "every freed communicator released its context");
    collshim_tune(NULL, NULL, 0);
}

/* Two threads, each on its own communicators, allreduce values that tell
 * the threads apart; a cross-matched message would give a wrong sum. */
struct worker {
    int id, rank, size, bad;
    MPI_Comm parent; /* collectives on one communicator must not be concurrent */
};

static void *work(void *arg)
{
    struct worker *w = arg;
    for (int round = 0; round < 40; round++) {
        MPI_Comm c;
        MPI_Comm_dup(w->parent, &c); /* a new context agreed while the other thread runs */
        for (int i = 0; i < 25; i++) {
            long v[64], sum[64];
            for (int k = 0; k < 64; k++)
                v[k] = (w->id + 1) * 1000000L + w->rank * 1000 + k + i;
            MPI_Allreduce(v, sum, 64, MPI_LONG, MPI_SUM, c);
            for (int k = 0; k < 64; k++) {
                long want = w->size * ((w->id + 1) * 1000000L + k + i) +
                            1000L * w->size * (w->size - 1) / 2;
                w->bad += sum[k] != want;
            }
        }
        MPI_Comm_free(&c);
    }
    return NULL;
}

static void threads(int rank, int size)
{
    pthread_t t[2];
    struct worker w[2] = {{0, rank, size, 0, MPI_COMM_NULL}, {1, rank, size, 0, MPI_COMM_NULL}};
    long long ran0 = native_allreduces();
    collshim_tune("allreduce @recursive_doubling", NULL, 0);
    for (int i = 0; i < 2; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &w[i].parent);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &w[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        MPI_Comm_free(&w[i].parent);
    collshim_tune(NULL, NULL, 0);
    expect(rank, w[0].bad == 0 && w[1].bad == 0,
           "two threads, 80 communicators, 2000 concurrent allreduces: every sum right");
    expect(rank, native_allreduces() - ran0 == 2000, "all 2000 ran the forced native algorithm");
}

static void exhaust(int rank, int size, int ids)
{
    int bad = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* MPI_COMM_WORLD takes the first id */
    long long ran0 = native_allreduces();
    collshim_tune("allreduce @recursive_doubling", NULL, 0);
    int n = hold_dups(3 * ids, 1, &bad);
    long long ran = native_allreduces() - ran0;
    free_held(n);
    collshim_tune(NULL, NULL, 0);
    expect(rank, n == 3 * ids && bad == 0, "past the last tag id, every allreduce is still right");
    /* MPI_COMM_WORLD holds one id: the first ids-1 dups run natively */
    expect(rank, ran == ids - 1, "exactly the communicators with an id ran natively");
    (void)size;
}

int main(int argc, char **argv)
{
    int rank, size, provided;
    const char *mode = argc > 1 ? argv[1] : "budget";
    MPI_Init_thread(&argc, &argv, strcmp(mode, "threads") ? MPI_THREAD_SINGLE
                                                          : MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!strcmp(mode, "threads"))
        provided == MPI_THREAD_MULTIPLE ? threads(rank, size)
                                        : expect(rank, 0, "MPI_THREAD_MULTIPLE provided");
    else if (!strcmp(mode, "exhaust"))
        exhaust(rank, size, argc > 2 ? atoi(argv[2]) : 8);
    else
        budget(rank, size);
    MPI_Finalize();
    return expect_finish(rank, "comms");
}
