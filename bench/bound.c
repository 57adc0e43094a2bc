/* bound.c - measuring alpha, beta, gamma and the lower bound of each
 * collective (bound.h). */
#include "bench/bound.h"
#include "bench/util.h"
#include "collshim.h"
#include "algorithms/coll.h"

#include <math.h>
#include <stdlib.h>

#define XCHG_TAG 7117
#define BIG (1 << 20)
#define MID (64 << 10)

/* One transfer of `bytes` between ranks 0 and 1: an exchange (MPI_Sendrecv
 * both ways at once, one step of a collective on full-duplex links) or half
 * a ping-pong round trip. */
static double transfer(MPI_Comm comm, int rank, char *buf, int bytes, int pingpong)
{
    double t0 = MPI_Wtime();
    if (!pingpong)
        MPI_Sendrecv(buf, bytes, MPI_BYTE, 1 - rank, XCHG_TAG, buf + BIG, bytes, MPI_BYTE,
                     1 - rank, XCHG_TAG, comm, MPI_STATUS_IGNORE);
    else if (rank == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, 1, XCHG_TAG, comm);
        MPI_Recv(buf, bytes, MPI_BYTE, 1, XCHG_TAG, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, XCHG_TAG, comm, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, XCHG_TAG, comm);
    }
    return (MPI_Wtime() - t0) / (pingpong ? 2 : 1);
}

static double median_transfer(MPI_Comm comm, int rank, char *buf, int bytes, int warm,
                              int reps, int pingpong)
{
    double *t = malloc((size_t)reps * sizeof *t), med = 0;
    for (int i = -warm; t && i < reps; i++) {
        double ti = transfer(comm, rank, buf, bytes, pingpong);
        if (i >= 0)
            t[i] = ti;
    }
    if (t) {
        bench_sort(t, reps);
        med = bench_percentile(t, reps, 0.5);
    }
    free(t);
    return med;
}

/* The faster of an exchange and a ping-pong, so the bound stays a bound:
 * a link that is slower both ways at once (CPU-bound, as in the virtual
 * cluster) shows in the ping-pong, and a rank that loses its core while it
 * waits in strict alternation (busy-polling MPIs on a loaded machine: 5 ms
 * per message) shows in the exchange. */
static double best_transfer(MPI_Comm comm, int rank, char *buf, int bytes, int reps)
{
    double x = median_transfer(comm, rank, buf, bytes, reps / 8 + 2, reps, 0);
    double p = median_transfer(comm, rank, buf, bytes, reps / 8 + 2, reps, 1);
    return x < p ? x : p;
}

/* Seconds per byte of MPI_Reduce_local(MPI_SUM) over 1 MiB of type. */
static double reduce_rate(MPI_Datatype type)
{
    int tsize = 1, reps = 10;
    MPI_Type_size(type, &tsize);
    int n = BIG / tsize;
    char *in = calloc(BIG, 1), *inout = calloc(BIG, 1);
    double t[10], g = 0;
    for (int i = -2; in && inout && i < reps; i++) {
        double t0 = MPI_Wtime();
        MPI_Reduce_local(in, inout, n, type, MPI_SUM);
        if (i >= 0)
            t[i] = MPI_Wtime() - t0;
    }
    if (in && inout) {
        bench_sort(t, reps);
        g = bench_percentile(t, reps, 0.5) / ((double)n * tsize);
    }
    free(in);
    free(inout);
    return g;
}

int bound_measure(MPI_Comm comm, MPI_Datatype type, struct bound_model *m)
{
    int rank, size, err;
    double v[3] = {0, 0, 0};
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char *buf = calloc(2, BIG);
    if (!buf)
        return MPI_ERR_NO_MEM;
    bench_vendor_barrier(comm);
    if (size > 1 && rank < 2) {
        double t8 = best_transfer(comm, rank, buf, 8, 200);
        double tmid = best_transfer(comm, rank, buf, MID, 30);
        double tbig = best_transfer(comm, rank, buf, BIG, 10);
        v[0] = t8;
        v[1] = tbig > tmid ? (tbig - tmid) / (double)(BIG - MID) : tbig / BIG;
    }
    if (rank == 0)
        v[2] = reduce_rate(type);
    free(buf);
    bench_quiet_barrier(comm);
    collshim_bypass(1);
    err = MPI_Bcast(v, 3, MPI_DOUBLE, 0, comm);
    collshim_bypass(0);
    m->alpha = v[0], m->beta = v[1], m->gamma = v[2];
    return err;
}

double bound_time(int coll, int p, double n, const struct bound_model *m)
{
    if (p <= 1)
        return 0;
    double lat = ceil(log2((double)p)) * m->alpha, f = (double)(p - 1) / p;
    switch (coll) {
    case COLL_barrier: return lat;
    case COLL_bcast: return lat + n * m->beta;
    case COLL_reduce: return lat + n * m->beta + f * n * m->gamma;
    case COLL_allreduce: return lat + 2 * f * n * m->beta + f * n * m->gamma;
    case COLL_reduce_scatter: case COLL_reduce_scatter_block:
        return lat + f * n * (m->beta + m->gamma);
    case COLL_scan: case COLL_exscan: return lat + n * m->beta + f * n * m->gamma;
    default: return lat + f * n * m->beta; /* gather, scatter, allgather, alltoall */
    }
}

const char *bound_formula(int coll)
{
    switch (coll) {
    case COLL_barrier: return "lg(p) alpha";
    case COLL_bcast: return "lg(p) alpha + n beta";
    case COLL_reduce: return "lg(p) alpha + n beta + (p-1)/p n gamma";
    case COLL_allreduce: return "lg(p) alpha + 2(p-1)/p n beta + (p-1)/p n gamma";
    case COLL_reduce_scatter: case COLL_reduce_scatter_block:
        return "lg(p) alpha + (p-1)/p n (beta + gamma)";
    case COLL_scan: case COLL_exscan: return "lg(p) alpha + n beta + (p-1)/p n gamma";
    default: return "lg(p) alpha + (p-1)/p n beta";
    }
}
