/* p2p.c - point-to-point helpers on the shadow communicator: peers and
 * tags of the caller's communicator mapped onto it. */
#include "p2p.h"

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc 12
 * mistakes for a too-small array. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

/* Peers are ranks of the caller's communicator; the shadow numbers them as
 * MPI_COMM_WORLD does. MPI_PROC_NULL passes through. */
static int peer_of(int peer, const struct coll_args *a)
{
    return a->peers && peer >= 0 ? a->peers[peer] : peer;
}

/* The caller's communicator owns [a->tag, a->tag + CTX_TAG_SPAN). */
static int tag_of(const struct coll_args *a) { return a->tag + (int)a->coll; }

int p2p_send(const void *buf, int count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    return PMPI_Send(buf, count, type, peer_of(peer, a), tag_of(a), a->comm);
}

int p2p_recv(void *buf, int count, MPI_Datatype type, int peer,
             const struct coll_args *a)
{
    return PMPI_Recv(buf, count, type, peer_of(peer, a), tag_of(a), a->comm, MPI_STATUS_IGNORE);
}

int p2p_sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source,
                 const struct coll_args *a)
{
    return PMPI_Sendrecv(sbuf, scount, stype, peer_of(dest, a), tag_of(a), rbuf, rcount,
                         rtype, peer_of(source, a), tag_of(a), a->comm, MPI_STATUS_IGNORE);
}

int p2p_isend(const void *buf, int count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    return PMPI_Isend(buf, count, type, peer_of(peer, a), tag_of(a), a->comm, req);
}

int p2p_irecv(void *buf, int count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req)
{
    return PMPI_Irecv(buf, count, type, peer_of(peer, a), tag_of(a), a->comm, req);
}

int p2p_wait(MPI_Request *req) { return PMPI_Wait(req, MPI_STATUS_IGNORE); }

int p2p_waitall(int n, MPI_Request *reqs)
{
    return n > 0 ? PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
}
