/* prefix.c - scan and exscan cores: recursive doubling and the pipelined
 * chain (see prefix.h and the algorithm files for diagrams and costs). */
#include "algorithms/common/prefix.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/segments.h"

/* ---- recursive doubling ---- */

/* The partial of a lower block arrived in tmp: result = tmp op result
 * (or tmp itself for exscan's first lower block), partial = tmp op partial. */
static int absorb_lower(const struct coll_args *a, const void *tmp, void *partial, int *have)
{
    int err;
    if (*have)
        err = buf_reduce(a, tmp, a->recvbuf, a->count, a->datatype, a->op);
    else
        err = buf_copy(tmp, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a);
    *have = 1;
    return err ? err : buf_reduce(a, tmp, partial, a->count, a->datatype, a->op);
}

static int doubling_steps(const struct coll_args *a, void *partial, void *tmp, int exclusive)
{
    int err = MPI_SUCCESS, have = !exclusive;
    for (int mask = 1; mask < a->size && !err; mask <<= 1) {
        int peer = a->rank ^ mask;
        if (peer >= a->size)
            continue;
        err = p2p_sendrecv(partial, a->count, a->datatype, peer, tmp, a->count, a->datatype,
                           peer, a);
        if (err)
            break;
        if (peer < a->rank) {
            err = absorb_lower(a, tmp, partial, &have);
        } else { /* partial = partial op tmp, computed in tmp, then swapped */
            err = buf_reduce(a, partial, tmp, a->count, a->datatype, a->op);
            void *t = partial;
            partial = tmp;
            tmp = t;
        }
    }
    return err;
}

int prefix_recursive_doubling(const struct coll_args *a, int exclusive)
{
    const void *input = a->in_place ? a->recvbuf : a->sendbuf;
    void *partial, *tmp, *pbase = NULL, *tbase = NULL;
    int err = MPI_SUCCESS;
    if (!exclusive && !a->in_place &&
        (err = buf_copy(a->sendbuf, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a)))
        return err;
    if (a->size == 1 || a->count == 0)
        return MPI_SUCCESS;
    if (!(err = buf_alloc_checked(a, a->count, a->datatype, &partial, &pbase)))
        err = buf_alloc_checked(a, a->count, a->datatype, &tmp, &tbase);
    if (!err)
        err = buf_copy(input, a->count, a->datatype, partial, a->count, a->datatype, a);
    if (!err)
        err = doubling_steps(a, partial, tmp, exclusive);
    buf_free(a, pbase);
    buf_free(a, tbase);
    return err;
}

/* ---- the pipelined chain ---- */

/* Elements per segment: a->params.seg bytes (default SEG_DEFAULT_PREFIX). */
static MPI_Aint chain_seg_count(const struct coll_args *a)
{
    size_t seg = a->params.seg ? a->params.seg : SEG_DEFAULT_PREFIX;
    size_t tsize = (size_t)buf_type_size(a->datatype);
    size_t n = tsize ? seg / tsize : (size_t)a->count;
    return n < 1 ? 1 : n > (size_t)a->count ? a->count : (MPI_Aint)n;
}

/* One send to rank + 1 in flight: wait for the previous, post the next. */
static int chain_send(const struct coll_args *a, const void *buf, MPI_Aint n, MPI_Request *req)
{
    int err = p2p_wait(a, req);
    return err ? err : p2p_isend(buf, n, a->datatype, a->rank + 1, a, req);
}

/* scan: recvbuf = input; each segment: recv prefix, fold it in on the
 * left, pass the new prefix on. */
static int chain_scan(const struct coll_args *a, MPI_Aint segn, void *tmp, MPI_Request *req)
{
    int err = MPI_SUCCESS;
    for (MPI_Aint off = 0; off < a->count && !err; off += segn) {
        MPI_Aint n = a->count - off < segn ? a->count - off : segn;
        void *r = buf_at(a->recvbuf, off, a->datatype);
        if (a->rank > 0 && !(err = p2p_recv(tmp, n, a->datatype, a->rank - 1, a)))
            err = buf_reduce(a, tmp, r, n, a->datatype, a->op);
        if (!err && a->rank < a->size - 1)
            err = chain_send(a, r, n, req);
    }
    return err;
}

/* exscan: the prefix arrives straight in recvbuf; own (a copy of the input,
 * or the input itself on rank 0) becomes prefix op own and goes on. */
static int chain_exscan(const struct coll_args *a, MPI_Aint segn, void *own, MPI_Request *req)
{
    int err = MPI_SUCCESS, last = a->rank == a->size - 1;
    for (MPI_Aint off = 0; off < a->count && !err; off += segn) {
        MPI_Aint n = a->count - off < segn ? a->count - off : segn;
        void *r = buf_at(a->recvbuf, off, a->datatype), *o = buf_at(own, off, a->datatype);
        if (a->rank > 0)
            err = p2p_recv(r, n, a->datatype, a->rank - 1, a);
        if (!err && a->rank > 0 && !last)
            err = buf_reduce(a, r, o, n, a->datatype, a->op);
        if (!err && !last)
            err = chain_send(a, o, n, req);
    }
    return err;
}

int prefix_linear(const struct coll_args *a, int exclusive)
{
    const void *input = a->in_place ? a->recvbuf : a->sendbuf;
    MPI_Request req = MPI_REQUEST_NULL;
    void *tmp = NULL, *base = NULL;
    int err = MPI_SUCCESS, middle = a->rank > 0 && a->rank < a->size - 1;
    MPI_Aint segn;
    if (!exclusive && !a->in_place &&
        (err = buf_copy(a->sendbuf, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a)))
        return err;
    if (a->size == 1 || a->count == 0)
        return MPI_SUCCESS;
    segn = chain_seg_count(a);
    if (!exclusive) {
        if (a->rank > 0)
            err = buf_alloc_checked(a, segn, a->datatype, &tmp, &base);
        if (!err)
            err = chain_scan(a, segn, tmp, &req);
    } else {
        if (middle && !(err = buf_alloc_checked(a, a->count, a->datatype, &tmp, &base)))
            err = buf_copy(input, a->count, a->datatype, tmp, a->count, a->datatype, a);
        if (!err)
            err = chain_exscan(a, segn, middle ? tmp : (void *)input, &req);
    }
    int werr = p2p_wait(a, &req);
    buf_free(a, base);
    return err ? err : werr;
}
