/* validate.c - argument checks of the standard's collective chapter, made
 * locally before any communication.
 *
 * The rule: an argument the vendor rejects is rejected with the vendor's
 * error class; a call the vendor completes is completed. Checks therefore
 * look only at what is significant at this rank (the receive buffer of
 * reduce and gather at the root, the send buffer of scatter at the root,
 * recvbuf of exscan except at rank 0, ...), and where the two MPIs differ
 * (buffer aliasing, uncommitted types) each build follows its own MPI;
 * doc/design-notes.md has the table. A NULL buffer that would hold data
 * is MPI_ERR_BUFFER in both builds: MPICH says so, and Open MPI crashes on
 * it (the shim reports it instead). */
#include "config.h"
#include "shim/shim.h"
#include "shim/op_check.h"
#include "shim/validate.h"
#include "engine/buf.h"

#include <string.h>

/* ---- one buffer, one count, one type ---- */

/* NULL holding data: count > 0 of a type with bytes that starts at the
 * buffer (a derived type with absolute addresses may use MPI_BOTTOM). */
int check_buffer(const void *buf, MPI_Aint count, MPI_Datatype type)
{
    MPI_Aint true_lb, true_extent;
    if (buf || count <= 0 || buf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    if (type_is_named(type))
        return MPI_ERR_BUFFER;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return true_lb == 0 && buf_type_size(type) > 0 ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

/* A significant buffer: count, then type (vendor_checks: the vendor
 * refuses it uncommitted), then the buffer. */
int check_side(const void *buf, MPI_Aint count, MPI_Datatype *type, int vendor_checks)
{
    int err;
    if (count < 0)
        return MPI_ERR_COUNT;
    if ((err = type_check(type, vendor_checks)))
        return err;
    return check_buffer(buf, count, *type);
}

int check_counts(struct coll_array counts, int n)
{
    if (!counts.base)
        return MPI_ERR_COUNT;
    for (int i = 0; i < n; i++)
        if (coll_array_at(counts, i) < 0)
            return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

MPI_Aint check_count_sum(struct coll_array counts, int n)
{
    const MPI_Aint most = (MPI_Aint)(~(uint64_t)0 >> 1);
    MPI_Aint sum = 0;
    for (int i = 0; i < n; i++) {
        MPI_Aint c = coll_array_at(counts, i);
        sum = c > most - sum ? most : sum + c;
    }
    return sum;
}

/* A significant buffer with a count per rank. */
int check_vside(const void *buf, struct coll_array counts, int n, MPI_Datatype *type,
                int vendor_checks)
{
    int err;
    MPI_Aint first = 0;
    if ((err = check_counts(counts, n)))
        return err;
    for (int i = 0; i < n && !first; i++)
        first = coll_array_at(counts, i);
    if ((err = type_check(type, vendor_checks)))
        return err;
    return check_buffer(buf, first, *type);
}

/* A significant buffer with a count and a type per rank (alltoallw); both
 * MPIs check every type, and MPICH a NULL buffer at displacement 0. */
int check_wside(const void *buf, struct coll_array counts, struct coll_array displs,
                const MPI_Datatype *types, int n)
{
    int err;
    if ((err = check_counts(counts, n)))
        return err;
    if (!types)
        return MPI_ERR_TYPE;
    for (int i = 0; i < n; i++) {
        MPI_Datatype t = types[i]; /* vendor_checks = 1: never replaced */
        MPI_Aint count = coll_array_at(counts, i);
        if (count > 0 && (err = type_check(&t, 1)))
            return err;
        if (count > 0 && (!displs.base || coll_array_at(displs, i) == 0) &&
            (err = check_buffer(buf, count, t)))
            return err;
    }
    return MPI_SUCCESS;
}

/* ---- aliasing, as each vendor checks it ---- */

/* Reductions: MPICH refuses sendbuf == recvbuf wherever recvbuf is
 * significant (MPI_ERR_BUFFER); Open MPI only at the root of reduce
 * (MPI_ERR_ARG) and in allreduce of more than one element (MPI_ERR_BUFFER),
 * and completes the rest, which the shim runs as the in-place call the
 * buffers describe. */
static int check_alias_reduction(struct coll_args *a, MPI_Aint n, int recv_significant)
{
    if (a->in_place || n == 0 || !a->sendbuf || a->sendbuf != a->recvbuf || !recv_significant)
        return MPI_SUCCESS;
    if (VENDOR_IS_MPICH)
        return MPI_ERR_BUFFER;
    if (a->coll == COLL_reduce)
        return MPI_ERR_ARG;
    if (a->coll == COLL_allreduce && n > 1)
        return MPI_ERR_BUFFER;
    a->sendbuf = MPI_IN_PLACE;
    a->in_place = a->alias_in_place = 1;
    return MPI_SUCCESS;
}

/* Bytes before this rank's own block of count elements of type. */
static MPI_Aint own_offset(const struct coll_args *a, MPI_Aint count, MPI_Datatype type)
{
    return (MPI_Aint)a->rank * count * (MPI_Aint)buf_type_size(type);
}

/* Data movement: MPICH refuses the aliases it can see cheaply (MPI_ERR_BUFFER):
 * this rank's own block when send and receive counts and types are equal
 * (gather, allgather at the block of the rank; scatter at the root), the
 * whole buffer for alltoall(v,w) with the same counts and types (for the v
 * and w forms: the same arrays). Open MPI checks none of these. */
static int check_alias_movement(const struct coll_args *a)
{
    const char *s = a->sendbuf, *r = a->recvbuf;
    int same = a->sendtype == a->recvtype && a->sendcount == a->recvcount && a->sendcount != 0;
    int root = a->rank == a->root;
    if (!VENDOR_IS_MPICH || a->in_place || !s || !r)
        return MPI_SUCCESS;
    /* A type is asked its size only where it is significant: a non-root's
     * receive type of gather may be MPI_DATATYPE_NULL, and alltoallw has
     * none, and PMPI_Type_size_x would raise MPI_ERR_TYPE on the world's
     * (fatal) handler. */
    switch (a->coll) {
    case COLL_gather:
        return root && same && s == r + own_offset(a, a->recvcount, a->recvtype)
                   ? MPI_ERR_BUFFER : MPI_SUCCESS;
    case COLL_allgather:
        return same && s == r + own_offset(a, a->recvcount, a->recvtype) ? MPI_ERR_BUFFER
                                                                          : MPI_SUCCESS;
    case COLL_scatter:
        return root && same && r == s + own_offset(a, a->sendcount, a->sendtype)
                   ? MPI_ERR_BUFFER : MPI_SUCCESS;
    case COLL_alltoall:
        return same && s == r ? MPI_ERR_BUFFER : MPI_SUCCESS;
    case COLL_alltoallv:
        return a->sendcounts.base == a->recvcounts.base && a->sendtype == a->recvtype && s == r
                   ? MPI_ERR_BUFFER : MPI_SUCCESS;
    case COLL_alltoallw:
        return a->sendcounts.base == a->recvcounts.base && a->sendtypes == a->recvtypes &&
                       s == r
                   ? MPI_ERR_BUFFER : MPI_SUCCESS;
    default:
        return MPI_SUCCESS;
    }
}

/* ---- reductions ---- */

static MPI_Aint reduction_count(const struct coll_args *a)
{
    if (a->coll == COLL_reduce_scatter)
        return a->recvcounts.base ? coll_array_at(a->recvcounts, a->rank) : 0;
    return a->coll == COLL_reduce_scatter_block ? a->recvcount : a->count;
}

/* Whether the send vector (all of reduce_scatter's blocks) holds elements:
 * its length, or 1 for a vector too long to say. */
static MPI_Aint reduction_send_count(const struct coll_args *a)
{
    if (a->coll == COLL_reduce_scatter)
        return check_count_sum(a->recvcounts, a->size);
    if (a->coll == COLL_reduce_scatter_block)
        return a->recvcount > 0 ? 1 : 0;
    return a->count;
}

static int recv_is_significant(const struct coll_args *a)
{
    if (a->coll == COLL_reduce)
        return a->rank == a->root;
    if (a->coll == COLL_exscan) /* the standard: not at rank 0; MPICH checks it anyway */
        return a->rank != 0 || VENDOR_IS_MPICH;
    return 1;
}

int check_op_and_type(struct coll_args *a)
{
    int err;
    if (a->datatype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    if (a->op == MPI_OP_NULL)
        return MPI_ERR_OP;
    /* Predefined ops take predefined types only (both MPIs refuse more). */
    if (a->predefined_op && !type_is_named(a->datatype))
        return MPI_ERR_OP;
    /* Pairs the vendor refuses, with its class, on every rank. */
    if (a->predefined_op && (err = op_check(a->op, a->datatype)))
        return err;
    return type_check(&a->datatype, 1);
}

static int check_reduction(struct coll_args *a)
{
    int err, recv_sig = recv_is_significant(a);
    if (a->coll == COLL_reduce_scatter && (err = check_counts(a->recvcounts, a->size)))
        return err;
    if (reduction_count(a) < 0)
        return MPI_ERR_COUNT;
    if ((err = check_op_and_type(a)))
        return err;
    if (a->recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    /* In place at a non-root of reduce is erroneous. */
    if (a->coll == COLL_reduce && a->in_place && a->rank != a->root)
        return MPI_ERR_BUFFER;
    if (!a->in_place && (err = check_buffer(a->sendbuf, reduction_send_count(a), a->datatype)))
        return err;
    if (recv_sig && (err = check_buffer(a->recvbuf, reduction_count(a), a->datatype)))
        return err;
    return check_alias_reduction(a, reduction_count(a), recv_sig);
}

/* ---- data movement ---- */

static int check_rooted(struct coll_args *a)
{
    int is_root = a->rank == a->root, strict = VENDOR_IS_MPICH, err = MPI_SUCCESS;
    switch (a->coll) {
    case COLL_gather:
        if (!a->in_place)
            err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
        if (!err && is_root)
            err = check_side(a->recvbuf, a->recvcount, &a->recvtype, strict);
        return err;
    case COLL_gatherv:
        if (!a->in_place)
            err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
        if (!err && is_root)
            err = check_vside(a->recvbuf, a->recvcounts, a->size, &a->recvtype, strict);
        return err;
    case COLL_scatter:
        if (is_root)
            err = check_side(a->sendbuf, a->sendcount, &a->sendtype, strict);
        if (!err && a->recvbuf != MPI_IN_PLACE)
            err = check_side(a->recvbuf, a->recvcount, &a->recvtype, strict);
        return err;
    default: /* scatterv */
        if (is_root)
            err = check_vside(a->sendbuf, a->sendcounts, a->size, &a->sendtype, 1);
        if (!err && a->recvbuf != MPI_IN_PLACE)
            err = check_side(a->recvbuf, a->recvcount, &a->recvtype, strict);
        return err;
    }
}

/* In place where the standard forbids it. */
static int check_in_place(const struct coll_args *a)
{
    int is_root = a->rank == a->root;
    switch (a->coll) {
    case COLL_gather: case COLL_gatherv:
        return a->in_place && !is_root ? MPI_ERR_BUFFER : MPI_SUCCESS;
    case COLL_scatter: case COLL_scatterv:
        return a->recvbuf == MPI_IN_PLACE && !is_root ? MPI_ERR_BUFFER : MPI_SUCCESS;
    default:
        return a->recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS;
    }
}

static int check_data_movement(struct coll_args *a)
{
    int strict = VENDOR_IS_MPICH, err = check_in_place(a);
    if (err)
        return err;
    switch (a->coll) {
    case COLL_gather: case COLL_gatherv: case COLL_scatter: case COLL_scatterv:
        err = check_rooted(a);
        break;
    case COLL_allgather: case COLL_alltoall:
        if (!a->in_place)
            err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
        if (!err)
            err = check_side(a->recvbuf, a->recvcount, &a->recvtype,
                             a->coll == COLL_alltoall || strict);
        break;
    case COLL_allgatherv:
        if (!a->in_place)
            err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
        if (!err)
            err = check_vside(a->recvbuf, a->recvcounts, a->size, &a->recvtype, strict);
        break;
    case COLL_alltoallv:
        if (!a->in_place)
            err = check_vside(a->sendbuf, a->sendcounts, a->size, &a->sendtype, 1);
        if (!err)
            err = check_vside(a->recvbuf, a->recvcounts, a->size, &a->recvtype, 1);
        break;
    default: /* alltoallw */
        if (!a->in_place)
            err = check_wside(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes, a->size);
        if (!err)
            err = check_wside(a->recvbuf, a->recvcounts, a->rdispls, a->recvtypes, a->size);
        break;
    }
    return err ? err : check_alias_movement(a);
}

int validate_args(struct coll_args *a)
{
    if (coll_is(a->coll, COLL_ROOTED) && (a->root < 0 || a->root >= a->size))
        return MPI_ERR_ROOT;
    if (a->coll == COLL_barrier)
        return MPI_SUCCESS;
    if (a->coll == COLL_bcast)
        return check_side(a->recvbuf, a->count, &a->datatype, 1);
    if (coll_is(a->coll, COLL_REDUCES))
        return check_reduction(a);
    return check_data_movement(a);
}
