/* collops.c - buffers, calls and checks of the 17 collectives for the
 * benchmarks (collops.h). */
#include "config.h"
#include "bench/collops.h"
#include "collshim.h"
#include "algorithms/coll.h"
#include "bench/pcoll.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
#define COLLOP_NAME(name, facts) #name,
    COLLSHIM_COLLECTIVES(COLLOP_NAME)
#undef COLLOP_NAME
};
_Static_assert(sizeof names / sizeof names[0] == COLLOP_COUNT, "17 collectives");

int collop_from_name(const char *name)
{
    for (int c = 0; name && c < COLLOP_COUNT; c++)
        if (!strcmp(names[c], name))
            return c;
    return -1;
}

const char *collop_name(int coll)
{
    return coll >= 0 && coll < COLLOP_COUNT ? names[coll] : "?";
}

int collop_has_op(int coll)
{
    return coll == COLL_reduce || coll == COLL_allreduce || coll == COLL_reduce_scatter ||
           coll == COLL_reduce_scatter_block || coll == COLL_scan || coll == COLL_exscan;
}

int collop_uses_elements(int coll) { return collop_has_op(coll); }

static int is_rooted(int coll)
{
    return coll == COLL_bcast || coll == COLL_gather || coll == COLL_gatherv ||
           coll == COLL_scatter || coll == COLL_scatterv || coll == COLL_reduce;
}

static int has_vectors(int coll)
{
    return coll == COLL_gatherv || coll == COLL_scatterv || coll == COLL_allgatherv ||
           coll == COLL_alltoallv || coll == COLL_alltoallw || coll == COLL_reduce_scatter;
}

/* This rank is the root (intercommunicator: passes MPI_ROOT). */
static int is_root(const struct collop *c)
{
    return c->icomm != MPI_COMM_NULL ? c->root == MPI_ROOT : c->rank == c->root;
}

/* Buffer lengths and byte counts of a block collective: `b` elements
 * per block, p blocks at the side that holds all of them (the remote
 * group's p on an intercommunicator). */
static void size_blocks(struct collop *c, size_t b)
{
    size_t p = (size_t)c->remote, blk = b * (size_t)c->elem, all = p * blk;
    int root = is_root(c);
    c->count = (int)b;
    c->key_bytes = c->full_bytes = all;
    switch (c->coll) {
    case COLL_gather: case COLL_gatherv:
        c->sendlen = blk, c->recvlen = root ? all : 0;
        break;
    case COLL_scatter: case COLL_scatterv:
        c->sendlen = root ? all : 0, c->recvlen = blk;
        break;
    case COLL_allgather: case COLL_allgatherv:
        c->sendlen = blk, c->recvlen = all;
        break;
    default: /* alltoall(v,w): b to each rank, p*b per rank in all */
        c->sendlen = c->recvlen = all;
        break;
    }
    if (has_vectors(c->coll))
        c->key_bytes = 0; /* no rank knows the total: the shim keys 0 */
}

/* Sizes of a vector collective of n elements. */
static void size_vector(struct collop *c, size_t n)
{
    size_t bytes = n * (size_t)c->elem;
    c->count = (int)n;
    c->key_bytes = c->full_bytes = bytes;
    c->sendlen = c->coll == COLL_bcast ? 0 : bytes;
    c->recvlen = c->coll == COLL_reduce && !is_root(c) ? 0 : bytes;
}

static void size_reduce_scatter(struct collop *c, size_t n)
{
    size_t p = (size_t)c->size;
    for (size_t i = 0; i < p; i++)
        c->counts[i] = (int)(n / p + (i < n % p));
    c->count = (int)n;
    c->key_bytes = c->full_bytes = n * (size_t)c->elem;
    c->sendlen = n * (size_t)c->elem;
    c->recvlen = (size_t)c->counts[c->rank] * (size_t)c->elem;
}

/* The per-rank counts, element displacements (byte displacements for
 * alltoallw) and types of the v/w variants: uniform blocks. */
static void fill_vectors(struct collop *c)
{
    for (int i = 0; i < c->remote; i++) {
        c->counts[i] = c->count;
        c->displs[i] = i * c->count * (c->coll == COLL_alltoallw ? c->elem : 1);
        c->types[i] = c->type;
    }
}

static int alloc_buffers(struct collop *c)
{
    size_t p = (size_t)(c->size > c->remote ? c->size : c->remote);
    c->counts = calloc(p, sizeof *c->counts);
    c->displs = calloc(p, sizeof *c->displs);
    c->types = calloc(p, sizeof *c->types);
    return c->counts && c->displs && c->types ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static int alloc_data(struct collop *c)
{
    c->sendbuf = malloc(c->sendlen ? c->sendlen : 1);
    c->recvbuf = malloc(c->recvlen ? c->recvlen : 1);
    c->refbuf = malloc(c->recvlen ? c->recvlen : 1);
    return c->sendbuf && c->recvbuf && c->refbuf ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Elements of the case, or 0 when the size cannot be expressed. On an
 * intercommunicator reduce_scatter_block's recvcount times the group size
 * must be the same in both groups: blocks of n / (p q) * q here. */
static size_t case_elements(const struct collop *c, size_t size)
{
    size_t n = size / (size_t)c->elem;
    if (c->coll == COLL_reduce_scatter_block && c->icomm != MPI_COMM_NULL)
        return n / ((size_t)c->size * (size_t)c->remote) * (size_t)c->remote;
    if (c->coll == COLL_reduce_scatter_block)
        return n / (size_t)c->size;
    return n;
}

static int setup(struct collop *c, int coll, MPI_Comm comm, MPI_Comm inter, size_t size,
                 MPI_Datatype type, int root);

int collop_setup(struct collop *c, int coll, MPI_Comm comm, size_t size,
                 MPI_Datatype type, int root)
{
    return setup(c, coll, comm, MPI_COMM_NULL, size, type, root);
}

/* The root argument at this rank. inter joins comm's ranks in order, the
 * group holding comm's rank 0 (where the root is) first: there a rank's
 * local rank is its rank in comm, in the other group it is lower. */
static int inter_root(MPI_Comm comm, MPI_Comm inter, int root)
{
    int rank, lrank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_rank(inter, &lrank);
    if (lrank != rank)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

int collop_setup_inter(struct collop *c, int coll, MPI_Comm comm, MPI_Comm inter, size_t size,
                       MPI_Datatype type, int root)
{
    if (coll == COLL_scan || coll == COLL_exscan)
        return 1;
    return setup(c, coll, comm, inter, size, type, inter_root(comm, inter, root));
}

/* The shim's selection bytes on an intercommunicator (the same in both
 * groups; shim/validate_inter.c). */
static uint64_t inter_key_bytes(const struct collop *c)
{
    uint64_t blk = (uint64_t)c->count * (uint64_t)c->elem;
    switch (c->coll) {
    case COLL_allgather: case COLL_alltoall:
        return blk * (uint64_t)(c->size + c->remote);
    case COLL_gather: case COLL_scatter: /* blocks of the group that is not the root's */
        return blk * (uint64_t)(c->root >= 0 ? c->size : c->remote);
    case COLL_reduce_scatter_block:
        return c->full_bytes;
    default:
        return c->key_bytes;
    }
}

static int setup(struct collop *c, int coll, MPI_Comm comm, MPI_Comm inter, size_t size,
                 MPI_Datatype type, int root)
{
    int err, tsize = 1;
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->comm = comm;
    c->icomm = inter;
    c->root = is_rooted(coll) ? root : 0;
    c->size_bytes = size;
    c->type = collop_has_op(coll) ? type : MPI_CHAR;
    c->op = collop_has_op(coll) ? MPI_SUM : MPI_OP_NULL;
    MPI_Comm_rank(inter != MPI_COMM_NULL ? inter : comm, &c->rank);
    MPI_Comm_size(inter != MPI_COMM_NULL ? inter : comm, &c->size);
    c->remote = c->size;
    if (inter != MPI_COMM_NULL)
        MPI_Comm_remote_size(inter, &c->remote);
    MPI_Type_size(c->type, &tsize);
    c->elem = tsize;
    if ((err = alloc_buffers(c)))
        return err;
    size_t n = case_elements(c, size);
    if (coll != COLL_barrier && n == 0)
        return 1;
    if (coll == COLL_barrier)
        c->size_bytes = 0;
    else if (coll == COLL_bcast || coll == COLL_reduce || coll == COLL_allreduce ||
             coll == COLL_scan || coll == COLL_exscan)
        size_vector(c, n);
    else if (coll == COLL_reduce_scatter)
        size_reduce_scatter(c, n);
    else if (coll == COLL_reduce_scatter_block) {
        size_blocks(c, n);
        c->full_bytes = (size_t)c->size * n * (size_t)c->elem; /* the local group's vector */
        c->sendlen = c->full_bytes, c->recvlen = n * (size_t)c->elem;
    } else {
        size_blocks(c, n);
        fill_vectors(c);
    }
    if (inter != MPI_COMM_NULL)
        c->key_bytes = inter_key_bytes(c);
    return alloc_data(c);
}

void collop_free(struct collop *c)
{
    free(c->counts);
    free(c->displs);
    free(c->types);
    free(c->sendbuf);
    free(c->recvbuf);
    free(c->refbuf);
    free(c->large);
    memset(c, 0, sizeof *c);
}

int collop_large_count(struct collop *c)
{
#ifdef HAVE_MPI_ALLREDUCE_C
    int n = c->remote > c->size ? c->remote : c->size;
    MPI_Count *counts = malloc((size_t)n * (sizeof(MPI_Count) + sizeof(MPI_Aint)));
    MPI_Aint *displs = (MPI_Aint *)(counts + n);
    if (!counts)
        return -1;
    for (int i = 0; i < n; i++) {
        counts[i] = c->counts ? c->counts[i] : 0;
        displs[i] = c->displs ? c->displs[i] : 0;
    }
    free(c->large);
    c->large = counts;
    return 0;
#else
    (void)c;
    return -1;
#endif
}

/* Small integers in every element type: sums of a few thousand of them are
 * exact in float, so every algorithm's result is bitwise the vendor's. */
static void fill_pattern(void *buf, size_t len, MPI_Datatype type, int rank)
{
    int tsize = 1;
    MPI_Type_size(type, &tsize);
    for (size_t i = 0; i < len / (size_t)tsize; i++) {
        int v = (int)((rank * 37 + i * 11) % 61);
        if (type == MPI_FLOAT)
            ((float *)buf)[i] = (float)v;
        else if (type == MPI_DOUBLE)
            ((double *)buf)[i] = (double)v;
        else if (type == MPI_INT)
            ((int *)buf)[i] = v;
        else if (tsize == 1)
            ((unsigned char *)buf)[i] = (unsigned char)(v + 1);
        else
            memset((char *)buf + i * (size_t)tsize, v + 1, (size_t)tsize);
    }
}

void collop_prepare(struct collop *c)
{
    fill_pattern(c->sendbuf, c->sendlen, c->type, c->rank);
    if (c->coll == COLL_bcast && is_root(c))
        fill_pattern(c->recvbuf, c->recvlen, c->type, c->rank);
    else
        memset(c->recvbuf, 0xa5, c->recvlen);
}

enum form { BLOCKING, NONBLOCKING, PERSISTENT };

/* One argument list for the three forms of a collective MPI_Name: the
 * blocking call, the nonblocking MPI_IName and the persistent init (its
 * request in *req for the last two). */
#define EITHER(Name, IName, ...)                                                   \
    (form == BLOCKING      ? MPI_##Name(__VA_ARGS__)                               \
     : form == NONBLOCKING ? MPI_##IName(__VA_ARGS__, req)                         \
                           : PERSISTENT_INIT(Name)(__VA_ARGS__, MPI_INFO_NULL, req))

#ifdef HAVE_MPI_ALLREDUCE_C
/* The same in the large-count forms (collop_large_count). */
#define EITHER_C(Name, IName, ...)                                                 \
    (form == BLOCKING      ? MPI_##Name##_c(__VA_ARGS__)                           \
     : form == NONBLOCKING ? MPI_##IName##_c(__VA_ARGS__, req)                     \
                           : MPI_##Name##_init_c(__VA_ARGS__, MPI_INFO_NULL, req))

static int issue_large(const struct collop *c, enum form form, MPI_Request *req)
{
    const void *s = c->sendbuf;
    void *r = c->recvbuf;
    MPI_Datatype t = c->type;
    MPI_Count n = c->count, *cs = c->large;
    int q = c->remote > c->size ? c->remote : c->size;
    MPI_Aint *ds = (MPI_Aint *)(cs + q);
    switch (c->coll) {
    case COLL_bcast: return EITHER_C(Bcast, Ibcast, r, n, t, c->root, c->comm);
    case COLL_gather: return EITHER_C(Gather, Igather, s, n, t, r, n, t, c->root, c->comm);
    case COLL_gatherv:
        return EITHER_C(Gatherv, Igatherv, s, n, t, r, cs, ds, t, c->root, c->comm);
    case COLL_scatter: return EITHER_C(Scatter, Iscatter, s, n, t, r, n, t, c->root, c->comm);
    case COLL_scatterv:
        return EITHER_C(Scatterv, Iscatterv, s, cs, ds, t, r, n, t, c->root, c->comm);
    case COLL_allgather: return EITHER_C(Allgather, Iallgather, s, n, t, r, n, t, c->comm);
    case COLL_allgatherv:
        return EITHER_C(Allgatherv, Iallgatherv, s, n, t, r, cs, ds, t, c->comm);
    case COLL_alltoall: return EITHER_C(Alltoall, Ialltoall, s, n, t, r, n, t, c->comm);
    case COLL_alltoallv:
        return EITHER_C(Alltoallv, Ialltoallv, s, cs, ds, t, r, cs, ds, t, c->comm);
    case COLL_alltoallw:
        return EITHER_C(Alltoallw, Ialltoallw, s, cs, ds, c->types, r, cs, ds, c->types,
                        c->comm);
    case COLL_reduce: return EITHER_C(Reduce, Ireduce, s, r, n, t, c->op, c->root, c->comm);
    case COLL_allreduce: return EITHER_C(Allreduce, Iallreduce, s, r, n, t, c->op, c->comm);
    case COLL_reduce_scatter:
        return EITHER_C(Reduce_scatter, Ireduce_scatter, s, r, cs, t, c->op, c->comm);
    case COLL_reduce_scatter_block:
        return EITHER_C(Reduce_scatter_block, Ireduce_scatter_block, s, r, n, t, c->op, c->comm);
    case COLL_scan: return EITHER_C(Scan, Iscan, s, r, n, t, c->op, c->comm);
    case COLL_exscan: return EITHER_C(Exscan, Iexscan, s, r, n, t, c->op, c->comm);
    default: return MPI_ERR_ARG;
    }
}
#endif

static int issue(const struct collop *c, enum form form, MPI_Request *req)
{
    const void *s = c->sendbuf;
    void *r = c->recvbuf;
    MPI_Datatype t = c->type;
    int n = c->count;
    struct collop on = *c; /* the communicator the collective runs on */
    if (c->icomm != MPI_COMM_NULL)
        on.comm = c->icomm;
    c = &on;
#ifdef HAVE_MPI_ALLREDUCE_C
    if (c->large && c->coll != COLL_barrier)
        return issue_large(c, form, req);
#endif
    switch (c->coll) {
    case COLL_barrier: return EITHER(Barrier, Ibarrier, c->comm);
    case COLL_bcast: return EITHER(Bcast, Ibcast, r, n, t, c->root, c->comm);
    case COLL_gather:
        return EITHER(Gather, Igather, s, n, t, r, n, t, c->root, c->comm);
    case COLL_gatherv:
        return EITHER(Gatherv, Igatherv, s, n, t, r, c->counts, c->displs, t, c->root,
                      c->comm);
    case COLL_scatter:
        return EITHER(Scatter, Iscatter, s, n, t, r, n, t, c->root, c->comm);
    case COLL_scatterv:
        return EITHER(Scatterv, Iscatterv, s, c->counts, c->displs, t, r, n, t, c->root,
                      c->comm);
    case COLL_allgather:
        return EITHER(Allgather, Iallgather, s, n, t, r, n, t, c->comm);
    case COLL_allgatherv:
        return EITHER(Allgatherv, Iallgatherv, s, n, t, r, c->counts, c->displs, t,
                      c->comm);
    case COLL_alltoall:
        return EITHER(Alltoall, Ialltoall, s, n, t, r, n, t, c->comm);
    case COLL_alltoallv:
        return EITHER(Alltoallv, Ialltoallv, s, c->counts, c->displs, t, r, c->counts,
                      c->displs, t, c->comm);
    case COLL_alltoallw:
        return EITHER(Alltoallw, Ialltoallw, s, c->counts, c->displs, c->types, r,
                      c->counts, c->displs, c->types, c->comm);
    case COLL_reduce:
        return EITHER(Reduce, Ireduce, s, r, n, t, c->op, c->root, c->comm);
    case COLL_allreduce:
        return EITHER(Allreduce, Iallreduce, s, r, n, t, c->op, c->comm);
    case COLL_reduce_scatter:
        return EITHER(Reduce_scatter, Ireduce_scatter, s, r, c->counts, t, c->op,
                      c->comm);
    case COLL_reduce_scatter_block:
        return EITHER(Reduce_scatter_block, Ireduce_scatter_block, s, r, n, t, c->op,
                      c->comm);
    case COLL_scan: return EITHER(Scan, Iscan, s, r, n, t, c->op, c->comm);
    case COLL_exscan: return EITHER(Exscan, Iexscan, s, r, n, t, c->op, c->comm);
    default: return MPI_ERR_ARG;
    }
}

int collop_call(const struct collop *c) { return issue(c, BLOCKING, NULL); }

int collop_start(const struct collop *c, MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    return issue(c, NONBLOCKING, req);
}

int collop_init(const struct collop *c, MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    return issue(c, PERSISTENT, req);
}

int collop_reference(struct collop *c)
{
    int err;
    collop_prepare(c);
    collshim_bypass(1);
    err = collop_call(c);
    collshim_bypass(0);
    memcpy(c->refbuf, c->recvbuf, c->recvlen);
    return err;
}

/* Whether this rank's output is defined by the standard. */
static int output_significant(const struct collop *c)
{
    switch (c->coll) {
    case COLL_gather: case COLL_gatherv: case COLL_reduce: return is_root(c);
    case COLL_exscan: return c->rank != 0;
    default: return 1;
    }
}

int collop_matches(const struct collop *c)
{
    return !output_significant(c) || !memcmp(c->recvbuf, c->refbuf, c->recvlen);
}
