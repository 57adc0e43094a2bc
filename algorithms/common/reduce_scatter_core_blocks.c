/* reduce_scatter_core_blocks.c - what the reduce-scatter cores share: the
 * block layout of the vector, the power-of-two fold in and out (and the
 * driver around the cores that work on folded virtual ranks), and the adapter
 * that runs a core for reduce_scatter_block. */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/reduce_scatter_pattern.h"
#include "engine/scratch.h"

#include <stdlib.h>

/* One allocation: p + 1 displacements, then p counts. */
static int blocks_alloc(struct reduce_scatter_core_blocks *b, int p)
{
    MPI_Aint *displs = scratch_get((2 * (size_t)p + 1) * sizeof *displs);
    *b = (struct reduce_scatter_core_blocks){
        .p = p, .counts = displs ? displs + p + 1 : NULL, .displs = displs, .owned = displs};
    return displs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int reduce_scatter_core_blocks_init(struct reduce_scatter_core_blocks *b,
                                    struct coll_array counts, int p)
{
    int err = blocks_alloc(b, p);
    if (err)
        return err;
    b->displs[0] = 0;
    for (int i = 0; i < p; i++) {
        b->counts[i] = coll_array_at(counts, i);
        b->displs[i + 1] = b->displs[i] + b->counts[i];
    }
    return MPI_SUCCESS;
}

int reduce_scatter_core_blocks_even(struct reduce_scatter_core_blocks *b, MPI_Aint count, int p)
{
    int err = blocks_alloc(b, p);
    if (err)
        return err;
    for (int i = 0; i < p; i++) {
        b->counts[i] = pattern_block_count(count, p, i);
        b->displs[i] = pattern_block_offset(count, p, i);
    }
    b->displs[p] = count;
    return MPI_SUCCESS;
}

void reduce_scatter_core_blocks_free(struct reduce_scatter_core_blocks *b)
{
    scratch_put(b->owned);
    b->owned = b->displs = NULL;
}

MPI_Aint reduce_scatter_core_blocks_max(const struct reduce_scatter_core_blocks *b)
{
    MPI_Aint max = 0;
    for (int i = 0; i < b->p; i++)
        if (b->counts[i] > max)
            max = b->counts[i];
    return max;
}

MPI_Aint reduce_scatter_core_blocks_voffset(const struct reduce_scatter_core_blocks *b, int v)
{
    return b->displs[reduce_scatter_pattern_vblock_first(v, b->p)];
}

const void *reduce_scatter_core_source(const struct coll_args *a)
{
    return a->in_place ? a->recvbuf : a->sendbuf;
}

int reduce_scatter_core_exchange_halves(const struct coll_args *a,
                                        const struct reduce_scatter_core_blocks *b, int peer,
                                        int keep, int give, int len, void *acc, void *scratch)
{
    MPI_Datatype t = a->datatype;
    MPI_Aint k0 = reduce_scatter_core_blocks_voffset(b, keep),
             k1 = reduce_scatter_core_blocks_voffset(b, keep + len);
    MPI_Aint g0 = reduce_scatter_core_blocks_voffset(b, give),
             g1 = reduce_scatter_core_blocks_voffset(b, give + len);
    int err = p2p_sendrecv(buf_at(acc, g0, t), g1 - g0, t, peer, buf_at(scratch, k0, t),
                             k1 - k0, t, peer, a);
    return err ? err
               : buf_reduce(a, buf_at(scratch, k0, t), buf_at(acc, k0, t), k1 - k0, t, a->op);
}

int reduce_scatter_core_fold_in(const struct coll_args *a, const void *src, void *acc,
                                void *scratch, MPI_Aint count)
{
    if (a->rank % 2 == 0)
        return p2p_send(src, count, a->datatype, a->rank + 1, a);
    int err = p2p_recv(scratch, count, a->datatype, a->rank - 1, a);
    return err ? err : buf_reduce(a, scratch, acc, count, a->datatype, a->op);
}

int reduce_scatter_core_fold_back(const struct coll_args *a, void *buf, MPI_Aint count)
{
    if (a->rank % 2 == 0)
        return p2p_recv(buf, count, a->datatype, a->rank + 1, a);
    return p2p_send(buf, count, a->datatype, a->rank - 1, a);
}

int reduce_scatter_core_fold_out(const struct coll_args *a,
                                 const struct reduce_scatter_core_blocks *b, const void *acc)
{
    MPI_Datatype t = a->datatype;
    int r = a->rank, rem = a->size - pattern_pow2_floor(a->size), err = MPI_SUCCESS;
    if (r < 2 * rem && r % 2 == 0)
        return p2p_recv(a->recvbuf, b->counts[r], t, r + 1, a);
    if (r < 2 * rem)
        err = p2p_send(buf_at(acc, b->displs[r - 1], t), b->counts[r - 1], t, r - 1, a);
    if (!err)
        err = buf_copy(buf_at(acc, b->displs[r], t), b->counts[r], t, a->recvbuf, b->counts[r], t,
                       a);
    return err;
}

int reduce_scatter_core_combine(const struct coll_args *a, int peer_is_lower, int n,
                                const MPI_Aint *off, const MPI_Aint *len, void **acc,
                                void **scratch)
{
    MPI_Datatype t = a->datatype;
    int err = MPI_SUCCESS;
    for (int i = 0; i < n && !err; i++) {
        void *mine = buf_at(*acc, off[i], t), *theirs = buf_at(*scratch, off[i], t);
        err = peer_is_lower ? buf_reduce(a, theirs, mine, len[i], t, a->op)
                            : buf_reduce(a, mine, theirs, len[i], t, a->op);
    }
    if (!peer_is_lower) {
        void *x = *acc;
        *acc = *scratch;
        *scratch = x;
    }
    return err;
}

/* Fold, let the survivors run body over virtual blocks, unfold. */
static int folded(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                  reduce_scatter_core_virtual_fn body)
{
    MPI_Aint total = b->displs[a->size];
    int rem = a->size - pattern_pow2_floor(a->size);
    int vrank = pattern_fold_virtual(a->rank, a->size), err = MPI_SUCCESS;
    void *acc, *scratch = NULL, *abase = NULL, *sbase = NULL;
    if (vrank < 0) { /* folded away: hand the vector over, get the block back */
        err = reduce_scatter_core_fold_in(a, reduce_scatter_core_source(a), NULL, NULL, total);
        return err ? err : reduce_scatter_core_fold_out(a, b, NULL);
    }
    /* The accumulator is ours even in place: recvbuf past this rank's
     * block is the caller's, and stays as it was. */
    if (!(err = buf_alloc_checked(a, total, a->datatype, &acc, &abase)))
        err = buf_copy(reduce_scatter_core_source(a), total, a->datatype, acc, total,
                       a->datatype, a);
    if (!err)
        err = buf_alloc_checked(a, total, a->datatype, &scratch, &sbase);
    if (!err && a->rank < 2 * rem)
        err = reduce_scatter_core_fold_in(a, NULL, acc, scratch, total);
    if (!err)
        err = body(a, b, vrank, &acc, &scratch);
    if (!err)
        err = reduce_scatter_core_fold_out(a, b, acc);
    buf_free(a, abase);
    buf_free(a, sbase);
    return err;
}

int reduce_scatter_core_folded_run(const struct coll_args *a, struct coll_array counts,
                                   reduce_scatter_core_virtual_fn body)
{
    struct reduce_scatter_core_blocks b;
    int err = reduce_scatter_core_blocks_init(&b, counts, a->size);
    if (err)
        return err;
    if (b.displs[a->size] > 0)
        err = folded(a, &b, body);
    reduce_scatter_core_blocks_free(&b);
    return err;
}

int reduce_scatter_core_block_run(const struct coll_args *a, reduce_scatter_core_fn core)
{
    MPI_Aint *counts = scratch_get((size_t)a->size * sizeof *counts);
    int err;
    if (!counts)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < a->size; i++)
        counts[i] = a->recvcount;
    err = core(a, COLL_ARRAY(counts));
    scratch_put(counts);
    return err;
}
