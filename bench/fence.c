/* fence.c - barrier and synchronized-window starts (fence.h). */
#include "bench/fence.h"
#include "bench/util.h"
#include "collshim.h"

#include <sched.h>
#include <string.h>

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
    err = collshim_clock_offset(comm, &f->offset); /* shim/clock_sync.c */
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
