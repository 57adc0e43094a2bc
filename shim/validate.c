/* validate.c - argument checks of the standard's collective chapter, and
 * the selection key's message size. Checks are local and cheap: counts,
 * roots, null handles, MPI_IN_PLACE where the standard forbids it, and
 * aliased send and receive buffers. */
#include "shim.h"
#include "op_check.h"
#include "../algorithms/common/buf.h"

static int is_root_coll(enum coll_id c)
{
    return c == COLL_bcast || c == COLL_reduce || c == COLL_gather || c == COLL_gatherv ||
           c == COLL_scatter || c == COLL_scatterv;
}

static int is_reduction(enum coll_id c)
{
    return c == COLL_reduce || c == COLL_allreduce || c == COLL_reduce_scatter ||
           c == COLL_reduce_scatter_block || c == COLL_scan || c == COLL_exscan;
}

static int check_counts(const int *counts, int n)
{
    if (!counts)
        return MPI_ERR_COUNT;
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

static int is_named(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    return combiner == MPI_COMBINER_NAMED;
}

static int check_reduction(const struct coll_args *a)
{
    if (a->datatype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    if (a->op == MPI_OP_NULL)
        return MPI_ERR_OP;
    /* Predefined ops take predefined types only (both MPIs refuse more). */
    if (a->predefined_op && !is_named(a->datatype))
        return MPI_ERR_OP;
    /* Pairs the vendor refuses, with its class, on every rank (issue 10.5). */
    int op_err = a->predefined_op ? op_check(a->op, a->datatype) : MPI_SUCCESS;
    if (op_err)
        return op_err;
    if (a->recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (a->coll == COLL_reduce_scatter)
        return check_counts(a->recvcounts, a->size);
    int n = a->coll == COLL_reduce_scatter_block ? a->recvcount : a->count;
    if (n < 0)
        return MPI_ERR_COUNT;
    /* In place at a non-root of reduce is erroneous; buffers must not alias. */
    if (a->coll == COLL_reduce && a->in_place && a->rank != a->root)
        return MPI_ERR_BUFFER;
    if (n > 0 && a->sendbuf == a->recvbuf && a->sendbuf)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* The send side of gather-like calls (ignored where MPI_IN_PLACE). */
static int check_send_side(const struct coll_args *a, int used)
{
    if (!used)
        return MPI_SUCCESS;
    if (a->sendcount < 0)
        return MPI_ERR_COUNT;
    return a->sendtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
}

static int check_recv_side(const struct coll_args *a, int used)
{
    if (!used)
        return MPI_SUCCESS;
    if (a->recvcount < 0)
        return MPI_ERR_COUNT;
    return a->recvtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
}

static int check_types(const MPI_Datatype *types, int n)
{
    if (!types)
        return MPI_ERR_TYPE;
    for (int i = 0; i < n; i++)
        if (types[i] == MPI_DATATYPE_NULL)
            return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

static int check_data_movement(const struct coll_args *a)
{
    int is_root = a->rank == a->root, err = MPI_SUCCESS;
    if (a->recvbuf == MPI_IN_PLACE && a->coll != COLL_scatter && a->coll != COLL_scatterv)
        return MPI_ERR_BUFFER;
    switch (a->coll) {
    case COLL_gather:
        if (a->in_place && !is_root)
            return MPI_ERR_BUFFER;
        if (!(err = check_send_side(a, !a->in_place)))
            err = check_recv_side(a, is_root);
        return err;
    case COLL_gatherv:
        if (a->in_place && !is_root)
            return MPI_ERR_BUFFER;
        if (!(err = check_send_side(a, !a->in_place)) && is_root)
            err = a->recvtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : check_counts(a->recvcounts, a->size);
        return err;
    case COLL_scatter:
        if (a->recvbuf == MPI_IN_PLACE && !is_root)
            return MPI_ERR_BUFFER;
        if (!(err = check_send_side(a, is_root)))
            err = check_recv_side(a, a->recvbuf != MPI_IN_PLACE);
        return err;
    case COLL_scatterv:
        if (a->recvbuf == MPI_IN_PLACE && !is_root)
            return MPI_ERR_BUFFER;
        if (is_root && !(err = a->sendtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS))
            err = check_counts(a->sendcounts, a->size);
        return err ? err : check_recv_side(a, a->recvbuf != MPI_IN_PLACE);
    case COLL_allgather: case COLL_alltoall:
        if (!(err = check_send_side(a, !a->in_place)))
            err = check_recv_side(a, 1);
        return err;
    case COLL_allgatherv:
        if (!(err = check_send_side(a, !a->in_place)))
            err = a->recvtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : check_counts(a->recvcounts, a->size);
        return err;
    case COLL_alltoallv:
        if (!a->in_place && !(err = check_counts(a->sendcounts, a->size)))
            err = a->sendtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
        if (!err && !(err = check_counts(a->recvcounts, a->size)))
            err = a->recvtype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
        return err;
    case COLL_alltoallw:
        if (!a->in_place && !(err = check_counts(a->sendcounts, a->size)))
            err = check_types(a->sendtypes, a->size);
        if (!err && !(err = check_counts(a->recvcounts, a->size)))
            err = check_types(a->recvtypes, a->size);
        return err;
    default:
        return MPI_SUCCESS;
    }
}

int validate_args(const struct coll_args *a)
{
    if (is_root_coll(a->coll) && (a->root < 0 || a->root >= a->size))
        return MPI_ERR_ROOT;
    if (a->coll == COLL_barrier)
        return MPI_SUCCESS;
    if (a->coll == COLL_bcast) {
        if (a->count < 0)
            return MPI_ERR_COUNT;
        return a->datatype == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
    }
    if (is_reduction(a->coll))
        return check_reduction(a);
    return check_data_movement(a);
}

static uint64_t sum_counts(const int *counts, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += (uint64_t)counts[i];
    return s;
}

/* Message size of the selection key: the same number on every rank. */
uint64_t key_bytes(const struct coll_args *a)
{
    uint64_t p = (uint64_t)a->size;
    int root = a->rank == a->root;
    switch (a->coll) {
    case COLL_bcast: case COLL_reduce: case COLL_allreduce: case COLL_scan: case COLL_exscan:
        return (uint64_t)a->count * (uint64_t)buf_type_size(a->datatype);
    case COLL_reduce_scatter:
        return sum_counts(a->recvcounts, a->size) * (uint64_t)buf_type_size(a->datatype);
    case COLL_reduce_scatter_block:
        return (uint64_t)a->recvcount * p * (uint64_t)buf_type_size(a->datatype);
    case COLL_gather:
        return root ? (uint64_t)a->recvcount * (uint64_t)buf_type_size(a->recvtype) * p
                    : (uint64_t)a->sendcount * (uint64_t)buf_type_size(a->sendtype) * p;
    case COLL_scatter:
        return root ? (uint64_t)a->sendcount * (uint64_t)buf_type_size(a->sendtype) * p
                    : (uint64_t)a->recvcount * (uint64_t)buf_type_size(a->recvtype) * p;
    case COLL_allgather: case COLL_alltoall:
        return (uint64_t)a->recvcount * (uint64_t)buf_type_size(a->recvtype) * p;
    case COLL_allgatherv: /* every rank has every count */
        return sum_counts(a->recvcounts, a->size) * (uint64_t)buf_type_size(a->recvtype);
    default: /* barrier, gatherv, scatterv, alltoallv, alltoallw: no rank knows the total */
        return 0;
    }
}

/* Element count for the count>=p restriction: reductions only, where the
 * standard makes count identical on every rank; bytes elsewhere. */
int key_count(const struct coll_args *a)
{
    switch (a->coll) {
    case COLL_reduce: case COLL_allreduce: case COLL_scan: case COLL_exscan:
        return a->count;
    case COLL_reduce_scatter_block:
        return a->recvcount * a->size;
    case COLL_reduce_scatter:
        return (int)sum_counts(a->recvcounts, a->size);
    default:
        return a->bytes > 0x7fffffff ? 0x7fffffff : (int)a->bytes;
    }
}
