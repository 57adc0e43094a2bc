/* requests.c - the completion calls, intercepted so that they advance
 * collshim's schedules (nbc.c), and MPI_Start / MPI_Startall /
 * MPI_Request_free / MPI_Cancel, which must know collshim's persistent
 * collectives. With no schedule in flight and no persistent collective
 * alive, each goes straight to the library after one load and branch.
 *
 * A wait is a loop of "advance every schedule, test the user's requests
 * without blocking" while schedules are in flight, and the library's own
 * wait once none is: a collective of this process may be what a peer is
 * waiting for, whichever request the program waits on. The blocking
 * point-to-point calls (and collshim's own blocking algorithms, which use
 * them) do the same while schedules are in flight: their nonblocking form
 * and such a wait. Open MPI needs none of this for progress (its progress
 * loop calls nbc_progress); MPICH has no hook, hence these. */
#include "shim/shim.h"

#define ALIAS_STR(name) __attribute__((alias(#name), visibility("default")))
#define EXPORT __attribute__((visibility("default")))

/* A completion call before MPI_Init (or from a program that links the
 * shim and calls PMPI_Init behind its back) still finds the library. */
static void ready(void)
{
    if (__builtin_expect(vendor.test == NULL, 0))
        vendor_resolve();
}

static int busy(void) { return __atomic_load_n(&nbc_active, __ATOMIC_ACQUIRE); }

/* The loop of a blocking completion call while schedules are in flight:
 * advance them, test without blocking, until test_call fails or done;
 * the progress thread, if it runs, stands aside meanwhile (nbc_waiters:
 * two atomic operations only then), since this
 * thread is progressing them already. Returns from the caller when done;
 * falls through to the vendor's blocking call once nothing is in flight. */
#define PROGRESSING_WAIT(test_call, done)                                      \
    if (busy()) {                                                              \
        int err_ = MPI_SUCCESS, done_ = 0, told_ = nbc_thread_running;        \
        if (told_)                                                             \
            __atomic_add_fetch(&nbc_waiters, 1, __ATOMIC_RELAXED);             \
        do {                                                                   \
            nbc_progress();                                                    \
            err_ = (test_call);                                                \
            done_ = err_ != MPI_SUCCESS || (done);                             \
        } while (!done_ && busy());                                            \
        if (told_)                                                             \
            __atomic_sub_fetch(&nbc_waiters, 1, __ATOMIC_RELAXED);             \
        if (done_)                                                             \
            return err_;                                                       \
    }

EXPORT int PMPI_Wait(MPI_Request *req, MPI_Status *status)
{
    int flag = 0;
    ready();
    PROGRESSING_WAIT(vendor.test(req, &flag, status), flag)
    return vendor.wait(req, status);
}
int MPI_Wait(MPI_Request *, MPI_Status *) ALIAS_STR(PMPI_Wait);

EXPORT int PMPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    int flag = 0;
    ready();
    PROGRESSING_WAIT(vendor.testall(n, reqs, &flag, statuses), flag)
    return vendor.waitall(n, reqs, statuses);
}
int MPI_Waitall(int, MPI_Request[], MPI_Status[]) ALIAS_STR(PMPI_Waitall);

EXPORT int PMPI_Waitany(int n, MPI_Request reqs[], int *idx, MPI_Status *status)
{
    int flag = 0;
    ready();
    PROGRESSING_WAIT(vendor.testany(n, reqs, idx, &flag, status), flag)
    return vendor.waitany(n, reqs, idx, status);
}
int MPI_Waitany(int, MPI_Request[], int *, MPI_Status *) ALIAS_STR(PMPI_Waitany);

EXPORT int PMPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int idx[],
                         MPI_Status statuses[])
{
    ready();
    PROGRESSING_WAIT(vendor.testsome(n, reqs, outcount, idx, statuses), *outcount != 0)
    return vendor.waitsome(n, reqs, outcount, idx, statuses);
}
int MPI_Waitsome(int, MPI_Request[], int *, int[], MPI_Status[]) ALIAS_STR(PMPI_Waitsome);

EXPORT int PMPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    ready();
    nbc_progress();
    return vendor.test(req, flag, status);
}
int MPI_Test(MPI_Request *, int *, MPI_Status *) ALIAS_STR(PMPI_Test);

EXPORT int PMPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    ready();
    nbc_progress();
    return vendor.testall(n, reqs, flag, statuses);
}
int MPI_Testall(int, MPI_Request[], int *, MPI_Status[]) ALIAS_STR(PMPI_Testall);

EXPORT int PMPI_Testany(int n, MPI_Request reqs[], int *idx, int *flag, MPI_Status *status)
{
    ready();
    nbc_progress();
    return vendor.testany(n, reqs, idx, flag, status);
}
int MPI_Testany(int, MPI_Request[], int *, int *, MPI_Status *) ALIAS_STR(PMPI_Testany);

EXPORT int PMPI_Testsome(int n, MPI_Request reqs[], int *outcount, int idx[],
                         MPI_Status statuses[])
{
    ready();
    nbc_progress();
    return vendor.testsome(n, reqs, outcount, idx, statuses);
}
int MPI_Testsome(int, MPI_Request[], int *, int[], MPI_Status[]) ALIAS_STR(PMPI_Testsome);

EXPORT int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    ready();
    nbc_progress();
    return vendor.request_get_status(req, flag, status);
}
int MPI_Request_get_status(MPI_Request, int *, MPI_Status *) ALIAS_STR(PMPI_Request_get_status);

static struct nbc_request *persistent_of(MPI_Request req)
{
    return __atomic_load_n(&nbc_persistent_count, __ATOMIC_ACQUIRE) ? nbc_persistent_find(req)
                                                                    : NULL;
}

EXPORT int PMPI_Start(MPI_Request *req)
{
    ready();
    struct nbc_request *r = persistent_of(*req);
    return r ? nbc_persistent_start(r) : vendor.start(req);
}
int MPI_Start(MPI_Request *) ALIAS_STR(PMPI_Start);

/* Each request on its own, in order: the library's MPI_Startall could not
 * start collshim's. */
EXPORT int PMPI_Startall(int n, MPI_Request reqs[])
{
    ready();
    int err = MPI_SUCCESS;
    if (!__atomic_load_n(&nbc_persistent_count, __ATOMIC_ACQUIRE))
        return vendor.startall(n, reqs);
    for (int i = 0; i < n && !err; i++)
        err = PMPI_Start(&reqs[i]);
    return err;
}
int MPI_Startall(int, MPI_Request[]) ALIAS_STR(PMPI_Startall);

EXPORT int PMPI_Request_free(MPI_Request *req)
{
    ready();
    struct nbc_request *r = persistent_of(*req);
    return r ? nbc_persistent_free(r, req) : vendor.request_free(req);
}
int MPI_Request_free(MPI_Request *) ALIAS_STR(PMPI_Request_free);

/* A persistent collective cannot be cancelled: its receive must stay
 * posted for the schedule's end. Like a nonblocking one (nbc.c), it
 * completes normally. */
EXPORT int PMPI_Cancel(MPI_Request *req)
{
    ready();
    struct nbc_request *r = persistent_of(*req);
    return r && !nbc_persistent_is_vendor(r) ? MPI_SUCCESS : vendor.cancel(req);
}
int MPI_Cancel(MPI_Request *) ALIAS_STR(PMPI_Cancel);

/* ---- blocking point-to-point: the nonblocking form and a progressing
 * wait while schedules are in flight ---- */

typedef int (*isend_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static int send_progressing(isend_fn isend, const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    int err = isend(buf, count, type, dest, tag, comm, &r);
    return err ? err : PMPI_Wait(&r, MPI_STATUS_IGNORE);
}

EXPORT int PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm)
{
    ready();
    return busy() ? send_progressing(PMPI_Isend, buf, count, type, dest, tag, comm)
                  : vendor.send(buf, count, type, dest, tag, comm);
}
int MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm) ALIAS_STR(PMPI_Send);

EXPORT int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    ready();
    return busy() ? send_progressing(PMPI_Issend, buf, count, type, dest, tag, comm)
                  : vendor.ssend(buf, count, type, dest, tag, comm);
}
int MPI_Ssend(const void *, int, MPI_Datatype, int, int, MPI_Comm) ALIAS_STR(PMPI_Ssend);

EXPORT int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    int err;
    ready();
    if (!busy())
        return vendor.recv(buf, count, type, source, tag, comm, status);
    return (err = PMPI_Irecv(buf, count, type, source, tag, comm, &r)) ? err
                                                                       : PMPI_Wait(&r, status);
}
int MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *) ALIAS_STR(PMPI_Recv);

EXPORT int PMPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                         void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                         MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r[2];
    MPI_Status st[2];
    int err;
    ready();
    if (!busy())
        return vendor.sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source,
                               rtag, comm, status);
    if ((err = PMPI_Irecv(rbuf, rcount, rtype, source, rtag, comm, &r[0])))
        return err;
    if ((err = PMPI_Isend(sbuf, scount, stype, dest, stag, comm, &r[1]))) {
        vendor.cancel(&r[0]);
        vendor.request_free(&r[0]);
        return err;
    }
    err = PMPI_Waitall(2, r, st);
    if (status != MPI_STATUS_IGNORE)
        *status = st[0];
    return err == MPI_ERR_IN_STATUS ? (st[0].MPI_ERROR ? st[0].MPI_ERROR : st[1].MPI_ERROR) : err;
}
int MPI_Sendrecv(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int,
                 MPI_Comm, MPI_Status *) ALIAS_STR(PMPI_Sendrecv);

EXPORT int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag = 0;
    ready();
    PROGRESSING_WAIT(PMPI_Iprobe(source, tag, comm, &flag, status), flag)
    return vendor.probe(source, tag, comm, status);
}
int MPI_Probe(int, int, MPI_Comm, MPI_Status *) ALIAS_STR(PMPI_Probe);

/* ---- the transport the algorithms are handed (coll_args.env) ----
 * Blocking calls are the ones above, which advance schedules while they
 * wait; test and request_free are the library's own (the engine calls them
 * while it advances schedules itself). */

static int vendor_test(MPI_Request *req, int *flag, MPI_Status *status)
{
    return vendor.test(req, flag, status);
}

static int vendor_request_free(MPI_Request *req) { return vendor.request_free(req); }

const struct transport shim_transport = {
    .isend = PMPI_Isend, .irecv = PMPI_Irecv, .send = PMPI_Send, .recv = PMPI_Recv,
    .sendrecv = PMPI_Sendrecv, .wait = PMPI_Wait, .waitall = PMPI_Waitall,
    .waitany = PMPI_Waitany, .test = vendor_test, .request_free = vendor_request_free};
