/* inter.c - helpers of the intercommunicator algorithms (inter.h). */
#include "inter.h"
#include "buf.h"
#include "p2p.h"

#include <stdlib.h>

struct sub_group inter_local_group(const struct coll_args *a)
{
    struct sub_group g = {a->rank, a->size, a->local_peers};
    return g;
}

int inter_local(const struct coll_args *a, struct coll_args *sub)
{
    struct sub_group g = inter_local_group(a);
    return sub_collective(a, &g, sub);
}

enum inter_role inter_role(const struct coll_args *a)
{
    if (a->root == MPI_ROOT)
        return INTER_ROOT;
    return a->root == MPI_PROC_NULL ? INTER_IDLE : INTER_REMOTE;
}

static int block_count(const struct inter_blocks *b, int i)
{
    return b->counts ? b->counts[i] : b->count;
}

static MPI_Datatype block_type(const struct inter_blocks *b, int i)
{
    return b->types ? b->types[i] : b->type;
}

static void *block_at(const struct inter_blocks *b, int i)
{
    if (b->bdispls)
        return (char *)b->buf + b->bdispls[i];
    if (b->same)
        return (void *)b->buf;
    return buf_at(b->buf, b->displs ? b->displs[i] : (MPI_Aint)i * b->count, b->type);
}

int inter_post_blocks(const struct coll_args *a, const struct inter_blocks *b, int sending,
                      MPI_Request *reqs, int *n)
{
    int err = MPI_SUCCESS;
    *n = 0;
    for (int i = 0; i < a->remote_size && !err; i++) {
        int count = block_count(b, i);
        MPI_Datatype type = block_type(b, i);
        if (count <= 0 || buf_type_size(type) == 0)
            continue;
        if (sending)
            err = p2p_isend(block_at(b, i), count, type, i, a, &reqs[(*n)++]);
        else
            err = p2p_irecv(block_at(b, i), count, type, i, a, &reqs[(*n)++]);
    }
    return err;
}

int inter_root_blocks(const struct coll_args *a, const struct inter_blocks *b, int sending)
{
    int n = 0, err;
    MPI_Request *reqs = malloc((size_t)(a->remote_size > 0 ? a->remote_size : 1) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    err = inter_post_blocks(a, b, sending, reqs, &n);
    if (!err)
        err = p2p_waitall(n, reqs);
    free(reqs);
    return err;
}

int inter_to_root(const struct coll_args *a, const void *buf, int count, MPI_Datatype type,
                  int sending)
{
    if (count <= 0 || buf_type_size(type) == 0)
        return MPI_SUCCESS;
    if (sending)
        return p2p_send(buf, count, type, a->root, a);
    return p2p_recv((void *)buf, count, type, a->root, a);
}

int inter_exchange(const struct coll_args *a, const struct inter_blocks *out,
                   const struct inter_blocks *in)
{
    int n = 0, m = 0, err;
    MPI_Request *reqs = malloc(2 * (size_t)(a->remote_size > 0 ? a->remote_size : 1) *
                               sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    err = inter_post_blocks(a, in, 0, reqs, &n);
    if (!err)
        err = inter_post_blocks(a, out, 1, reqs + n, &m);
    if (!err)
        err = p2p_waitall(n + m, reqs);
    free(reqs);
    return err;
}

int inter_reduce_swap(const struct coll_args *a, int n, void *dst)
{
    void *base = NULL, *tmp = NULL;
    int err = MPI_SUCCESS;
    if (a->rank == 0 && (err = buf_alloc_checked(n, a->datatype, &tmp, &base)))
        return err;
    struct coll_args r = {.coll = COLL_reduce, .sendbuf = a->sendbuf, .recvbuf = tmp,
                          .count = n, .datatype = a->datatype, .op = a->op, .root = 0};
    err = inter_local(a, &r);
    if (!err && a->rank == 0)
        err = p2p_sendrecv(tmp, n, a->datatype, 0, dst, n, a->datatype, 0, a);
    buf_free(base);
    return err;
}
