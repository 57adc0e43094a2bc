/* check_call.c - see check_call.h. */
#include "config.h"
#include "tests/mpi/check_call.h"
#include "bench/pcoll.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum check_mode check_mode = MODE_BLOCKING;
int check_large_count;

static const char *const mode_names[] = {
    [MODE_BLOCKING] = "blocking", [MODE_NONBLOCKING] = "nonblocking",
    [MODE_PERSISTENT] = "persistent"};

int check_mode_set(const char *name)
{
    for (size_t m = 0; m < sizeof mode_names / sizeof mode_names[0]; m++)
        if (!strcmp(name, mode_names[m])) {
            check_mode = (enum check_mode)m;
            return 0;
        }
    return -1;
}

int check_large_count_set(void)
{
#ifdef HAVE_MPI_ALLREDUCE_C
    check_large_count = 1;
    return 0;
#else
    return -1;
#endif
}

const char *check_mode_name(void)
{
    static char name[32];
    snprintf(name, sizeof name, "%s%s", mode_names[check_mode],
             check_large_count ? " large-count" : "");
    return name;
}

/* The pending check_call_twice() request, consumed by the next call. */
struct twice {
    void (*between)(void *arg);
    void *arg;
};
static struct twice pending;
static int last_runs = 1;

int check_call_twice(void (*between)(void *arg), void *arg)
{
    pending.between = between;
    pending.arg = arg;
    return check_mode == MODE_PERSISTENT;
}

int check_call_runs(void) { return last_runs; }

static struct twice take_twice(void)
{
    struct twice t = pending;
    pending.between = NULL;
    last_runs = check_mode == MODE_PERSISTENT && t.between ? 2 : 1;
    return t;
}

static int wait_for(int err, MPI_Request *req)
{
    return err != MPI_SUCCESS ? err : MPI_Wait(req, MPI_STATUS_IGNORE);
}

/* Start and complete an initialised persistent request once, or twice with
 * t.between in between, then free it (inactive by then). */
static int run_persistent(int err, MPI_Request *req, struct twice t)
{
    if (err != MPI_SUCCESS)
        return err;
    for (int run = 0; run < last_runs && !err; run++) {
        if (run)
            t.between(t.arg);
        err = MPI_Start(req);
        if (!err)
            err = MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    int free_err = MPI_Request_free(req);
    return err ? err : free_err;
}

/* One call of the collective under test in the current mode, as an
 * expression: blocking, nonblocking and persistent name its three
 * functions; the arguments are the blocking one's. */
#define MODE_RUN(blocking, nonblocking, persistent, ...)                                \
    ({                                                                                  \
        MPI_Request req_;                                                               \
        struct twice t_ = take_twice();                                                 \
        int err_;                                                                       \
        switch (check_mode) {                                                           \
        case MODE_NONBLOCKING:                                                          \
            err_ = wait_for(nonblocking(__VA_ARGS__, &req_), &req_);                    \
            break;                                                                      \
        case MODE_PERSISTENT:                                                           \
            err_ = run_persistent(persistent(__VA_ARGS__, MPI_INFO_NULL, &req_), &req_, t_); \
            break;                                                                      \
        default:                                                                        \
            err_ = blocking(__VA_ARGS__);                                               \
        }                                                                               \
        err_;                                                                           \
    })

/* Coll and icoll spell the MPI names (MPI_Allreduce, MPI_Iallreduce,
 * <init>(Allreduce)); CALL_C the large-count ones (MPI_Allreduce_c,
 * MPI_Iallreduce_c, MPI_Allreduce_init_c), which only MPI-4 libraries have. */
#define CALL(Coll, icoll, ...) MODE_RUN(MPI_##Coll, MPI_I##icoll, PERSISTENT_INIT(Coll), __VA_ARGS__)
#define CALL_C(Coll, icoll, ...)                                                        \
    MODE_RUN(MPI_##Coll##_c, MPI_I##icoll##_c, MPI_##Coll##_init_c, __VA_ARGS__)

/* In the large-count form, return the call through the _c functions. */
#ifdef HAVE_MPI_ALLREDUCE_C
#define LARGE(call)                                                                     \
    do {                                                                                \
        if (check_large_count)                                                          \
            return call;                                                                \
    } while (0)
#else
#define LARGE(call) (void)0
#endif

int mode_barrier(MPI_Comm comm) { return CALL(Barrier, barrier, comm); }

#ifdef HAVE_MPI_ALLREDUCE_C
/* ---- the large-count forms: the int arrays as MPI_Count / MPI_Aint ---- */

/* Entries of a count array on comm: its size, the remote group's on an
 * intercommunicator. */
static int entries(MPI_Comm comm)
{
    int inter = 0, n = 0;
    MPI_Comm_test_inter(comm, &inter);
    if (inter)
        MPI_Comm_remote_size(comm, &n);
    else
        MPI_Comm_size(comm, &n);
    return n;
}

/* Up to two count and two displacement arrays of one call, widened. */
struct wide {
    MPI_Count *counts[2];
    MPI_Aint *displs[2];
};

static MPI_Count *wide_counts(const int *c, int n)
{
    MPI_Count *w = c ? malloc((size_t)(n > 0 ? n : 1) * sizeof *w) : NULL;
    for (int i = 0; w && i < n; i++)
        w[i] = c[i];
    return w;
}

static MPI_Aint *wide_displs(const int *d, int n)
{
    MPI_Aint *w = d ? malloc((size_t)(n > 0 ? n : 1) * sizeof *w) : NULL;
    for (int i = 0; w && i < n; i++)
        w[i] = d[i];
    return w;
}

static struct wide widen(MPI_Comm comm, const int *c0, const int *d0, const int *c1,
                         const int *d1)
{
    int n = entries(comm);
    struct wide w = {{wide_counts(c0, n), wide_counts(c1, n)},
                     {wide_displs(d0, n), wide_displs(d1, n)}};
    return w;
}

static int unwiden(struct wide *w, int err)
{
    for (int i = 0; i < 2; i++) {
        free(w->counts[i]);
        free(w->displs[i]);
    }
    return err;
}

static int gatherv_c(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                     const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                     MPI_Comm comm)
{
    struct wide w = widen(comm, rcounts, displs, NULL, NULL);
    return unwiden(&w, CALL_C(Gatherv, gatherv, sbuf, scount, stype, rbuf, w.counts[0],
                              w.displs[0], rtype, root, comm));
}

static int scatterv_c(const void *sbuf, const int scounts[], const int displs[],
                      MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                      MPI_Comm comm)
{
    struct wide w = widen(comm, scounts, displs, NULL, NULL);
    return unwiden(&w, CALL_C(Scatterv, scatterv, sbuf, w.counts[0], w.displs[0], stype, rbuf,
                              rcount, rtype, root, comm));
}

static int allgatherv_c(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int rcounts[], const int displs[], MPI_Datatype rtype,
                        MPI_Comm comm)
{
    struct wide w = widen(comm, rcounts, displs, NULL, NULL);
    return unwiden(&w, CALL_C(Allgatherv, allgatherv, sbuf, scount, stype, rbuf, w.counts[0],
                              w.displs[0], rtype, comm));
}

static int alltoallv_c(const void *sbuf, const int scounts[], const int sdispls[],
                       MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                       MPI_Datatype rtype, MPI_Comm comm)
{
    struct wide w = widen(comm, scounts, sdispls, rcounts, rdispls);
    return unwiden(&w, CALL_C(Alltoallv, alltoallv, sbuf, w.counts[0], w.displs[0], stype, rbuf,
                              w.counts[1], w.displs[1], rtype, comm));
}

static int alltoallw_c(const void *sbuf, const int scounts[], const int sdispls[],
                       const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                       const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    struct wide w = widen(comm, scounts, sdispls, rcounts, rdispls);
    return unwiden(&w, CALL_C(Alltoallw, alltoallw, sbuf, w.counts[0], w.displs[0], stypes,
                              rbuf, w.counts[1], w.displs[1], rtypes, comm));
}

static int reduce_scatter_c(const void *sbuf, void *rbuf, const int rcounts[],
                            MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size); /* one count per rank of the (local) group */
    struct wide w = {{wide_counts(rcounts, size), NULL}, {NULL, NULL}};
    return unwiden(&w, CALL_C(Reduce_scatter, reduce_scatter, sbuf, rbuf, w.counts[0], type, op,
                              comm));
}
#endif

/* ---- the collectives under test ---- */

int mode_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    LARGE(CALL_C(Bcast, bcast, buf, count, type, root, comm));
    return CALL(Bcast, bcast, buf, count, type, root, comm);
}

int mode_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    LARGE(CALL_C(Gather, gather, sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
    return CALL(Gather, gather, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int mode_gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm)
{
    LARGE(gatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
    return CALL(Gatherv, gatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
}

int mode_scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    LARGE(CALL_C(Scatter, scatter, sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
    return CALL(Scatter, scatter, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int mode_scatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                  MPI_Comm comm)
{
    LARGE(scatterv_c(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
    return CALL(Scatterv, scatterv, sbuf, scounts, displs, stype, rbuf, rcount, rtype, root,
                comm);
}

int mode_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    LARGE(CALL_C(Allgather, allgather, sbuf, scount, stype, rbuf, rcount, rtype, comm));
    return CALL(Allgather, allgather, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int mode_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm)
{
    LARGE(allgatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
    return CALL(Allgatherv, allgatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int mode_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    LARGE(CALL_C(Alltoall, alltoall, sbuf, scount, stype, rbuf, rcount, rtype, comm));
    return CALL(Alltoall, alltoall, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int mode_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
    LARGE(alltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm));
    return CALL(Alltoallv, alltoallv, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                rtype, comm);
}

int mode_alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    LARGE(alltoallw_c(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm));
    return CALL(Alltoallw, alltoallw, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                rtypes, comm);
}

int mode_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm)
{
    LARGE(CALL_C(Reduce, reduce, sbuf, rbuf, count, type, op, root, comm));
    return CALL(Reduce, reduce, sbuf, rbuf, count, type, op, root, comm);
}

int mode_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    LARGE(CALL_C(Allreduce, allreduce, sbuf, rbuf, count, type, op, comm));
    return CALL(Allreduce, allreduce, sbuf, rbuf, count, type, op, comm);
}

int mode_reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm)
{
    LARGE(reduce_scatter_c(sbuf, rbuf, rcounts, type, op, comm));
    return CALL(Reduce_scatter, reduce_scatter, sbuf, rbuf, rcounts, type, op, comm);
}

int mode_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm)
{
    LARGE(CALL_C(Reduce_scatter_block, reduce_scatter_block, sbuf, rbuf, rcount, type, op, comm));
    return CALL(Reduce_scatter_block, reduce_scatter_block, sbuf, rbuf, rcount, type, op, comm);
}

int mode_scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm)
{
    LARGE(CALL_C(Scan, scan, sbuf, rbuf, count, type, op, comm));
    return CALL(Scan, scan, sbuf, rbuf, count, type, op, comm);
}

int mode_exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm)
{
    LARGE(CALL_C(Exscan, exscan, sbuf, rbuf, count, type, op, comm));
    return CALL(Exscan, exscan, sbuf, rbuf, count, type, op, comm);
}
