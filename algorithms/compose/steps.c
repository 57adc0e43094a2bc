/* steps.c - one collective over a group, as a step (steps.h). */
#include "algorithms/compose/steps.h"
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "engine/p2p_bytes.h"

#include <limits.h>

int step_barrier(const struct coll_args *a, const struct sub_group *g)
{
    struct coll_args s = {.coll = COLL_barrier};
    return sub_collective(a, g, &s);
}

int step_bcast(const struct coll_args *a, const struct sub_group *g, void *buf, MPI_Aint count,
               MPI_Datatype type, int root)
{
    struct coll_args s = {.coll = COLL_bcast, .recvbuf = buf, .count = count, .datatype = type,
                          .root = root};
    return sub_collective(a, g, &s);
}

int step_reduce(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                void *recvbuf, MPI_Aint count, int root)
{
    struct coll_args s = {.coll = COLL_reduce, .sendbuf = sendbuf,
                          .recvbuf = g->rank == root ? recvbuf : NULL, .count = count,
                          .datatype = a->datatype, .op = a->op, .root = root};
    return sub_collective(a, g, &s);
}

int step_allreduce(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                   void *recvbuf, MPI_Aint count)
{
    struct coll_args s = {.coll = COLL_allreduce, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count, .datatype = a->datatype, .op = a->op};
    return sub_collective(a, g, &s);
}

int step_reduce_scatter(const struct coll_args *a, const struct sub_group *g,
                        const void *sendbuf, void *recvbuf, struct coll_array counts)
{
    struct coll_args s = {.coll = COLL_reduce_scatter, .datatype = a->datatype, .op = a->op,
                          .sendbuf = sendbuf, .recvbuf = recvbuf, .recvcounts = counts};
    return sub_collective(a, g, &s);
}

int step_allgatherv(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                    MPI_Aint sendcount, void *recvbuf, struct coll_array counts,
                    struct coll_array displs,
                    MPI_Datatype type)
{
    struct coll_args s = {.coll = COLL_allgatherv, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = type, .recvbuf = recvbuf, .recvcounts = counts,
                          .rdispls = displs, .recvtype = type};
    return sub_collective(a, g, &s);
}

int step_block_type(MPI_Aint count, MPI_Datatype type, MPI_Datatype *block)
{
    int n, err;
    if (count > INT_MAX) /* a large-count call's block: always a new type */
        return big_type(count, type, &n, block);
    err = PMPI_Type_contiguous((int)count, type, block);
    if (!err && (err = PMPI_Type_commit(block)))
        PMPI_Type_free(block);
    return err;
}

int node_run(const struct coll_args *a, const struct node_layout *L, int root_receives,
             MPI_Datatype *blk, void **run, void **base)
{
    int is_root = a->rank == a->root, recv_side = is_root == (root_receives != 0);
    MPI_Aint count = recv_side ? a->recvcount : a->sendcount;
    MPI_Datatype type = recv_side ? a->recvtype : a->sendtype;
    int err = step_block_type(count, type, blk);
    *run = *base = NULL;
    if (err) {
        *blk = MPI_DATATYPE_NULL;
        return err;
    }
    if (is_root)
        *run = buf_at(root_receives ? a->recvbuf : a->sendbuf,
                      (MPI_Aint)L->node_start[L->my_node] * count, type);
    else if (node_is_rep(L, a->root))
        err = buf_alloc_checked(a, L->node_size[L->my_node], *blk, run, base);
    return err;
}

void node_run_free(const struct coll_args *a, MPI_Datatype *blk, void *base)
{
    buf_free(a, base);
    if (*blk != MPI_DATATYPE_NULL)
        buf_type_free(a, blk);
}
