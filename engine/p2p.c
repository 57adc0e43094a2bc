/* p2p.c - point-to-point helpers on the shadow communicator: peers and
 * tags of the caller's communicator mapped onto it. */
#include "engine/p2p.h"
#include "engine/sched.h"

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc 12
 * mistakes for a too-small array. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

/* Peers are ranks of the caller's communicator; the shadow numbers them as
 * MPI_COMM_WORLD does. MPI_PROC_NULL passes through. */
static int peer_of(int peer, const struct coll_args *a)
{
    return a->peers && peer >= 0 ? a->peers[peer] : peer;
}

/* The tag of this call on the shadow (shim/dispatch.c, shim/nbc.c). */
static int tag_of(const struct coll_args *a) { return a->tag; }

/* While a schedule is being built (sched.h), each call below appends its
 * steps instead of acting: a blocking call is its nonblocking form and a
 * wait. */

int p2p_isend(const void *buf, int count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    if (a->sched)
        return sched_add_p2p(a->sched, STEP_SEND, buf, count, type, peer_of(peer, a), req);
    return a->env->transport->isend(buf, count, type, peer_of(peer, a), tag_of(a), a->comm,
                                    req);
}

int p2p_irecv(void *buf, int count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    if (a->sched)
        return sched_add_p2p(a->sched, STEP_RECV, buf, count, type, peer_of(peer, a), req);
    return a->env->transport->irecv(buf, count, type, peer_of(peer, a), tag_of(a), a->comm,
                                    req);
}

int p2p_wait(const struct coll_args *a, MPI_Request *req)
{
    if (a->sched)
        return sched_add_wait(a->sched, 1, req);
    return a->env->transport->wait(req, MPI_STATUS_IGNORE);
}

int p2p_waitall(const struct coll_args *a, int n, MPI_Request *reqs)
{
    if (a->sched)
        return sched_add_wait(a->sched, n, reqs);
    return n > 0 ? a->env->transport->waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
}

/* Building, "any" is the first pending request: the schedule keeps the
 * algorithm's window of requests in flight, served in posting order. */
int p2p_waitany(const struct coll_args *a, int n, MPI_Request *reqs, int *idx)
{
    struct sched *s = a->sched;
    /* Set before the call: SimGrid 3.32's MPI_Waitany returns at once for
     * n == 0 without writing *idx (doc/scale.md), and a linear root with
     * no non-empty block to receive would then loop on garbage. */
    *idx = MPI_UNDEFINED;
    if (!s)
        return a->env->transport->waitany(n, reqs, idx, MPI_STATUS_IGNORE);
    for (int i = 0; i < n && *idx == MPI_UNDEFINED; i++)
        if (reqs[i] != MPI_REQUEST_NULL)
            *idx = i;
    return *idx == MPI_UNDEFINED ? MPI_SUCCESS : sched_add_wait(s, 1, &reqs[*idx]);
}

static int send_and_wait(const void *buf, int count, MPI_Datatype type, int peer,
                         const struct coll_args *a)
{
    MPI_Request r;
    int err = p2p_isend(buf, count, type, peer, a, &r);
    return err ? err : p2p_wait(a, &r);
}

int p2p_send(const void *buf, int count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    if (a->sched)
        return send_and_wait(buf, count, type, peer, a);
    return a->env->transport->send(buf, count, type, peer_of(peer, a), tag_of(a), a->comm);
}

int p2p_recv(void *buf, int count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    MPI_Request r;
    int err;
    if (!a->sched)
        return a->env->transport->recv(buf, count, type, peer_of(peer, a), tag_of(a), a->comm,
                         MPI_STATUS_IGNORE);
    return (err = p2p_irecv(buf, count, type, peer, a, &r)) ? err : p2p_wait(a, &r);
}

int p2p_sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source,
                 const struct coll_args *a)
{
    MPI_Request r[2];
    int err;
    if (!a->sched)
        return a->env->transport->sendrecv(sbuf, scount, stype, peer_of(dest, a), tag_of(a),
                                           rbuf, rcount, rtype, peer_of(source, a), tag_of(a),
                                           a->comm, MPI_STATUS_IGNORE);
    if ((err = p2p_irecv(rbuf, rcount, rtype, source, a, &r[0])) ||
        (err = p2p_isend(sbuf, scount, stype, dest, a, &r[1])))
        return err;
    return p2p_waitall(a, 2, r);
}
