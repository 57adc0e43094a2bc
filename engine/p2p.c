/* p2p.c - point-to-point helpers on the shadow communicator: peers and
 * tags of the caller's communicator mapped onto it. */
#include "engine/p2p.h"
#include "engine/p2p_bytes.h"
#include "engine/sched.h"

#include <limits.h>

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
 * wait. Counts are MPI_Aint: up to INT_MAX one goes to MPI as it is (the
 * test is all it costs), beyond it as one derived type (p2p_bytes.h). */

static int isend_int(const void *buf, int count, MPI_Datatype type, int peer,
                     const struct coll_args *a, MPI_Request *req)
{
    if (a->sched)
        return sched_add_p2p(a->sched, STEP_SEND, buf, count, type, peer_of(peer, a), req);
    return a->env->transport->isend(buf, count, type, peer_of(peer, a), tag_of(a), a->comm,
                                    req);
}

static int irecv_int(void *buf, int count, MPI_Datatype type, int peer,
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

static int send_int(const void *buf, int count, MPI_Datatype type, int peer,
                    const struct coll_args *a)
{
    MPI_Request r;
    int err;
    if (!a->sched)
        return a->env->transport->send(buf, count, type, peer_of(peer, a), tag_of(a), a->comm);
    return (err = isend_int(buf, count, type, peer, a, &r)) ? err : p2p_wait(a, &r);
}

static int recv_int(void *buf, int count, MPI_Datatype type, int peer,
                    const struct coll_args *a)
{
    MPI_Request r;
    int err;
    if (!a->sched)
        return a->env->transport->recv(buf, count, type, peer_of(peer, a), tag_of(a), a->comm,
                                       MPI_STATUS_IGNORE);
    return (err = irecv_int(buf, count, type, peer, a, &r)) ? err : p2p_wait(a, &r);
}

static int sendrecv_int(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                        void *rbuf, int rcount, MPI_Datatype rtype, int source,
                        const struct coll_args *a)
{
    MPI_Request r[2];
    int err;
    if (!a->sched)
        return a->env->transport->sendrecv(sbuf, scount, stype, peer_of(dest, a), tag_of(a),
                                           rbuf, rcount, rtype, peer_of(source, a), tag_of(a),
                                           a->comm, MPI_STATUS_IGNORE);
    if ((err = irecv_int(rbuf, rcount, rtype, source, a, &r[0])) ||
        (err = isend_int(sbuf, scount, stype, dest, a, &r[1])))
        return err;
    return p2p_waitall(a, 2, r);
}

/* ---- any count: beyond INT_MAX elements, one derived type ---- */

int p2p_isend(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    MPI_Datatype t;
    int n, err;
    if (count <= INT_MAX)
        return isend_int(buf, (int)count, type, peer, a, req);
    if ((err = big_type(count, type, &n, &t)))
        return err;
    err = isend_int(buf, n, t, peer, a, req);
    big_type_free(a, type, &t);
    return err;
}

int p2p_irecv(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    MPI_Datatype t;
    int n, err;
    if (count <= INT_MAX)
        return irecv_int(buf, (int)count, type, peer, a, req);
    if ((err = big_type(count, type, &n, &t)))
        return err;
    err = irecv_int(buf, n, t, peer, a, req);
    big_type_free(a, type, &t);
    return err;
}

int p2p_send(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    MPI_Datatype t;
    int n, err;
    if (count <= INT_MAX)
        return send_int(buf, (int)count, type, peer, a);
    if ((err = big_type(count, type, &n, &t)))
        return err;
    err = send_int(buf, n, t, peer, a);
    big_type_free(a, type, &t);
    return err;
}

int p2p_recv(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    MPI_Datatype t;
    int n, err;
    if (count <= INT_MAX)
        return recv_int(buf, (int)count, type, peer, a);
    if ((err = big_type(count, type, &n, &t)))
        return err;
    err = recv_int(buf, n, t, peer, a);
    big_type_free(a, type, &t);
    return err;
}

int p2p_sendrecv(const void *sbuf, MPI_Aint scount, MPI_Datatype stype, int dest,
                 void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int source,
                 const struct coll_args *a)
{
    MPI_Datatype st, rt;
    int sn, rn, err;
    if (scount <= INT_MAX && rcount <= INT_MAX)
        return sendrecv_int(sbuf, (int)scount, stype, dest, rbuf, (int)rcount, rtype, source, a);
    if ((err = big_type(scount, stype, &sn, &st)))
        return err;
    if (!(err = big_type(rcount, rtype, &rn, &rt))) {
        err = sendrecv_int(sbuf, sn, st, dest, rbuf, rn, rt, source, a);
        big_type_free(a, rtype, &rt);
    }
    big_type_free(a, stype, &st);
    return err;
}
