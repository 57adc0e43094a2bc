/* key.c - the selection key of a call: facts identical on every rank of
 * the communicator (both groups of an intercommunicator), so that every
 * rank selects the same algorithm. Which collective is rooted, reduces or
 * is in place at the root comes from the facts of engine/call.h; the
 * message size from one function per collective, below. */
#include "select/select.h"
#include "engine/buf.h"

void select_call_facts(struct coll_args *a)
{
    a->in_place = a->sendbuf == MPI_IN_PLACE ||
                  (coll_is(a->coll, COLL_IN_PLACE_RECV) && a->recvbuf == MPI_IN_PLACE);
    a->commutative = 1;
    a->predefined_op = 1;
    /* an intercommunicator reduce's MPI_PROC_NULL ranks: the op is not significant */
    int idle = a->remote_size && a->coll == COLL_reduce && a->root == MPI_PROC_NULL;
    if (coll_is(a->coll, COLL_REDUCES) && a->op != MPI_OP_NULL && !idle) {
        PMPI_Op_commutative(a->op, &a->commutative);
        a->predefined_op = buf_op_is_predefined(a->op);
    }
}

/* ---- the selection bytes, one function per collective ----
 * Where the ranks' arguments differ (a root's and the others'), each side
 * computes the same total from what it holds. On an intercommunicator the
 * blocks go between the groups: "mine" counts the local group's, "theirs"
 * the remote group's. A collective where no rank knows the total (the
 * v and w forms but allgatherv) has 0. */

static uint64_t type_bytes(MPI_Aint count, MPI_Datatype type)
{
    return count > 0 ? (uint64_t)count * (uint64_t)buf_type_size(type) : 0;
}

static uint64_t sum_counts(struct coll_array counts, int n)
{
    uint64_t s = 0;
    for (int i = 0; counts.base && i < n; i++)
        s += (uint64_t)coll_array_at(counts, i);
    return s;
}

static uint64_t mine(const struct coll_args *a) { return (uint64_t)a->size; }
static uint64_t theirs(const struct coll_args *a)
{
    return (uint64_t)(a->remote_size ? a->remote_size : a->size);
}
static int at_root(const struct coll_args *a)
{
    return a->remote_size ? a->root == MPI_ROOT : a->rank == a->root;
}

static uint64_t bytes_none(const struct coll_args *a) { (void)a; return 0; }

static uint64_t bytes_of_count(const struct coll_args *a)
{
    return type_bytes(a->count, a->datatype);
}

static uint64_t bytes_reduce_scatter(const struct coll_args *a)
{
    return sum_counts(a->recvcounts, a->size) * (uint64_t)buf_type_size(a->datatype);
}

static uint64_t bytes_reduce_scatter_block(const struct coll_args *a)
{
    return type_bytes(a->recvcount, a->datatype) * mine(a);
}

static uint64_t bytes_gather(const struct coll_args *a)
{
    return at_root(a) ? type_bytes(a->recvcount, a->recvtype) * theirs(a)
                      : type_bytes(a->sendcount, a->sendtype) * mine(a);
}

static uint64_t bytes_scatter(const struct coll_args *a)
{
    return at_root(a) ? type_bytes(a->sendcount, a->sendtype) * theirs(a)
                      : type_bytes(a->recvcount, a->recvtype) * mine(a);
}

static uint64_t bytes_allgather(const struct coll_args *a)
{
    if (a->remote_size)
        return type_bytes(a->sendcount, a->sendtype) * mine(a) +
               type_bytes(a->recvcount, a->recvtype) * theirs(a);
    return type_bytes(a->recvcount, a->recvtype) * mine(a);
}

static uint64_t bytes_alltoall(const struct coll_args *a)
{
    if (a->remote_size)
        return type_bytes(a->sendcount, a->sendtype) * theirs(a) +
               type_bytes(a->recvcount, a->recvtype) * mine(a);
    return type_bytes(a->recvcount, a->recvtype) * mine(a);
}

static uint64_t bytes_allgatherv(const struct coll_args *a)
{
    if (a->remote_size) /* each group holds the other's counts only */
        return 0;
    return sum_counts(a->recvcounts, a->size) * (uint64_t)buf_type_size(a->recvtype);
}

static uint64_t (*const bytes_of[COLL_COUNT])(const struct coll_args *) = {
    [COLL_barrier] = bytes_none,
    [COLL_bcast] = bytes_of_count,
    [COLL_gather] = bytes_gather,
    [COLL_gatherv] = bytes_none,
    [COLL_scatter] = bytes_scatter,
    [COLL_scatterv] = bytes_none,
    [COLL_allgather] = bytes_allgather,
    [COLL_allgatherv] = bytes_allgatherv,
    [COLL_alltoall] = bytes_alltoall,
    [COLL_alltoallv] = bytes_none,
    [COLL_alltoallw] = bytes_none,
    [COLL_reduce] = bytes_of_count,
    [COLL_allreduce] = bytes_of_count,
    [COLL_reduce_scatter] = bytes_reduce_scatter,
    [COLL_reduce_scatter_block] = bytes_reduce_scatter_block,
    [COLL_scan] = bytes_of_count,
    [COLL_exscan] = bytes_of_count,
};

uint64_t select_key_bytes(const struct coll_args *a)
{
    /* an intercommunicator's idle ranks of the root's group: nothing but
     * the root is significant there */
    if (a->remote_size && coll_is(a->coll, COLL_ROOTED) && a->root == MPI_PROC_NULL)
        return 0;
    return bytes_of[a->coll](a);
}

/* Element count for the count>=p restriction: reductions only, where the
 * standard makes count identical on every rank; bytes elsewhere. */
static int64_t key_count(const struct coll_args *a)
{
    switch (a->coll) {
    case COLL_reduce_scatter_block:
        return a->recvcount * a->size;
    case COLL_reduce_scatter:
        return (int64_t)sum_counts(a->recvcounts, a->size);
    default:
        if (coll_is(a->coll, COLL_REDUCES))
            return a->count;
        return a->bytes > INT64_MAX ? INT64_MAX : (int64_t)a->bytes;
    }
}

struct coll_key select_key(const struct coll_args *a)
{
    /* In place at the root only cannot be part of the key: every rank
     * must select the same algorithm. */
    int in_place = a->in_place && !a->alias_in_place && !coll_is(a->coll, COLL_ROOT_IN_PLACE);
    struct coll_key k = {.coll = a->coll, .np = a->size, .bytes = a->bytes,
                         .count = key_count(a), .commutative = a->commutative != 0,
                         .predefined_op = a->predefined_op != 0,
                         .in_place = in_place, .shape = a->shape,
                         .large_count = a->large_count != 0};
    if (a->remote_size) { /* both groups must read the same key */
        k.inter = 1;
        k.np = a->size < a->remote_size ? a->size : a->remote_size;
        k.remote = a->size < a->remote_size ? a->remote_size : a->size;
    }
    return k;
}
