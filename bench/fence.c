/* fence.c - barrier and synchronized-window starts (fence.h). */
#include "fence.h"
#include "util.h"
#include "collshim.h"

#include <math.h>
#include <sched.h>
#include <string.h>

#define SYNC_PINGS 8
#define SYNC_TAG 7301
#define DELIVERY_TRIES 4
#define LEAD_SLACK 20e-6

int fence_parse(const char *name)
{
    return !strcmp(name, "window") ? FENCE_WINDOW : !strcmp(name, "barrier") ? FENCE_BARRIER : -1;
}

const char *fence_name(enum fence_kind kind)
{
    return kind == FENCE_WINDOW ? "window" : "barrier";
}

/* Rank k's side: its clock minus rank 0's, from the fastest round trip. */
static int ping_rank0(MPI_Comm comm, double *offset)
{
    double best = INFINITY, t0 = 0;
    int err = MPI_SUCCESS;
    for (int i = 0; i < SYNC_PINGS && !err; i++) {
        double t1 = MPI_Wtime();
        err = MPI_Send(&t1, 1, MPI_DOUBLE, 0, SYNC_TAG, comm);
        if (!err)
            err = MPI_Recv(&t0, 1, MPI_DOUBLE, 0, SYNC_TAG, comm, MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        if (!err && t2 - t1 < best)
            best = t2 - t1, *offset = (t1 + t2) / 2 - t0;
    }
    return err;
}

/* Rank 0's side: answer every ping of rank k with the time it arrived. */
static int answer_pings(MPI_Comm comm, int k)
{
    double t;
    int err = MPI_SUCCESS;
    for (int i = 0; i < SYNC_PINGS && !err; i++) {
        err = MPI_Recv(&t, 1, MPI_DOUBLE, k, SYNC_TAG, comm, MPI_STATUS_IGNORE);
        t = MPI_Wtime();
        if (!err)
            err = MPI_Send(&t, 1, MPI_DOUBLE, k, SYNC_TAG, comm);
    }
    return err;
}

static int clock_offset(MPI_Comm comm, double *offset)
{
    int rank, size, err = MPI_SUCCESS;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *offset = 0;
    for (int k = 1; k < size && !err; k++)
        if (rank == 0)
            err = answer_pings(comm, k);
        else if (rank == k)
            err = ping_rank0(comm, offset);
    return err;
}

/* The latest ready time of all ranks, in rank 0's clock; on every rank. */
static int latest_ready(const struct fence *f, MPI_Comm comm, double *t)
{
    int err;
    *t = MPI_Wtime() - f->offset;
    collshim_bypass(1);
    err = MPI_Allreduce(MPI_IN_PLACE, t, 1, MPI_DOUBLE, MPI_MAX, comm);
    collshim_bypass(0);
    return err;
}

/* The longest time from the last rank's readiness to some rank learning
 * it, in seconds, on all ranks. */
static int slowest_delivery(const struct fence *f, MPI_Comm comm, double *worst)
{
    int err = MPI_SUCCESS;
    *worst = 0;
    for (int i = 0; i < DELIVERY_TRIES && !err; i++) {
        double ready;
        err = latest_ready(f, comm, &ready);
        double took = MPI_Wtime() - f->offset - ready;
        *worst = took > *worst ? took : *worst;
    }
    collshim_bypass(1);
    if (!err)
        err = MPI_Allreduce(MPI_IN_PLACE, worst, 1, MPI_DOUBLE, MPI_MAX, comm);
    collshim_bypass(0);
    return err;
}

int fence_setup(struct fence *f, enum fence_kind kind, MPI_Comm comm)
{
    double worst = 0;
    int err;
    memset(f, 0, sizeof *f);
    f->kind = kind;
    if (kind == FENCE_BARRIER)
        return MPI_SUCCESS;
    err = clock_offset(comm, &f->offset);
    if (!err)
        err = slowest_delivery(f, comm, &worst);
    f->lead = 2 * worst + LEAD_SLACK;
    return err;
}

double fence_start(const struct fence *f, MPI_Comm comm, int *late)
{
    double start = 0;
    *late = 0;
    if (f->kind == FENCE_BARRIER) {
        bench_vendor_barrier(comm);
        return MPI_Wtime();
    }
    latest_ready(f, comm, &start);
    start += f->lead + f->offset;
    *late = MPI_Wtime() > start;
    while (MPI_Wtime() < start)
        sched_yield();
    return start;
}

void fence_widen(struct fence *f)
{
    f->lead *= 2;
}
