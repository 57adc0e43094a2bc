/* check_call.c - see check_call.h. */
#include "tests/mpi/check_call.h"
#include "bench/pcoll.h"

#include <stddef.h>
#include <string.h>

enum check_mode check_mode = MODE_BLOCKING;

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

const char *check_mode_name(void) { return mode_names[check_mode]; }

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

/* The body of every mode_<coll>(): Coll and icoll spell the MPI names
 * (MPI_Allreduce, MPI_Iallreduce, <init>(Allreduce)); the arguments are
 * MPI_<Coll>'s. */
#define MODE_CALL(Coll, icoll, ...)                                                     \
    do {                                                                                \
        MPI_Request req;                                                                \
        struct twice t = take_twice();                                                  \
        switch (check_mode) {                                                           \
        case MODE_NONBLOCKING:                                                          \
            return wait_for(MPI_I##icoll(__VA_ARGS__, &req), &req);                     \
        case MODE_PERSISTENT:                                                           \
            return run_persistent(PERSISTENT_INIT(Coll)(__VA_ARGS__, MPI_INFO_NULL, &req), \
                                  &req, t);                                             \
        default:                                                                        \
            return MPI_##Coll(__VA_ARGS__);                                             \
        }                                                                               \
    } while (0)

int mode_barrier(MPI_Comm comm) { MODE_CALL(Barrier, barrier, comm); }

int mode_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    MODE_CALL(Bcast, bcast, buf, count, type, root, comm);
}

int mode_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MODE_CALL(Gather, gather, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int mode_gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm)
{
    MODE_CALL(Gatherv, gatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
}

int mode_scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MODE_CALL(Scatter, scatter, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int mode_scatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                  MPI_Comm comm)
{
    MODE_CALL(Scatterv, scatterv, sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
}

int mode_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    MODE_CALL(Allgather, allgather, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int mode_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm)
{
    MODE_CALL(Allgatherv, allgatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int mode_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    MODE_CALL(Alltoall, alltoall, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int mode_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
    MODE_CALL(Alltoallv, alltoallv, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
              rtype, comm);
}

int mode_alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    MODE_CALL(Alltoallw, alltoallw, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
              rtypes, comm);
}

int mode_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm)
{
    MODE_CALL(Reduce, reduce, sbuf, rbuf, count, type, op, root, comm);
}

int mode_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    MODE_CALL(Allreduce, allreduce, sbuf, rbuf, count, type, op, comm);
}

int mode_reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm)
{
    MODE_CALL(Reduce_scatter, reduce_scatter, sbuf, rbuf, rcounts, type, op, comm);
}

int mode_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm)
{
    MODE_CALL(Reduce_scatter_block, reduce_scatter_block, sbuf, rbuf, rcount, type, op, comm);
}

int mode_scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm)
{
    MODE_CALL(Scan, scan, sbuf, rbuf, count, type, op, comm);
}

int mode_exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm)
{
    MODE_CALL(Exscan, exscan, sbuf, rbuf, count, type, op, comm);
}
