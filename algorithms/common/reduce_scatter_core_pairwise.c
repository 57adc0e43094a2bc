/* reduce_scatter_core_pairwise.c - reduce-scatter by pairwise exchange
 * (Thakur, Rabenseifner & Gropp 2005, section 4.4), the core of
 * reduce_scatter_pairwise and reduce_scatter_block_pairwise. Any op.
 *
 * In step i = 1 .. p-1 rank r sends the block of rank r+i straight from
 * its input and receives its own block from rank r-i (mod p), so every
 * step is one sendrecv of one block and nothing is forwarded:
 *
 *   p = 4, rank 1:  i=1: ->2, <-0    i=2: ->3, <-3    i=3: ->0, <-2
 *
 * Contributions arrive from r-1, r-2, ..., 0 and then p-1, p-2, ..., r+1:
 * two accumulators keep rank order for non-commutative ops,
 * low = x_0 op ... op x_r and high = x_{r+1} op ... op x_{p-1}, and the
 * result is low op high (the same number of reductions as one
 * accumulator). Any p: no power-of-two structure.
 *
 * Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma
 * Wins for long vectors where the p-1 latencies are hidden, and when the
 * blocks are very uneven (each block travels once, directly). */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "engine/p2p.h"

struct pairwise {
    void *low, *high, *tmp;
};

/* Step i: send rank r+i its block of my input, fold in rank r-i's part. */
static int step(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                const struct pairwise *w, int i)
{
    MPI_Datatype t = a->datatype;
    int r = a->rank, p = a->size;
    MPI_Aint my = b->counts[r];
    int to = (r + i) % p, from = (r - i + p) % p, first_high = from == p - 1 && from > r;
    void *into = first_high ? w->high : w->tmp;
    int err = p2p_sendrecv(buf_at(reduce_scatter_core_source(a), b->displs[to], t), b->counts[to],
                           t, to, into, my, t, from, a);
    if (err || first_high)
        return err;
    return buf_reduce(a, w->tmp, from < r ? w->low : w->high, my, t, a->op);
}

static int run(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
               const struct pairwise *w)
{
    MPI_Datatype t = a->datatype;
    int r = a->rank;
    MPI_Aint my = b->counts[r];
    int err =
        buf_copy(buf_at(reduce_scatter_core_source(a), b->displs[r], t), my, t, w->low, my, t, a);
    for (int i = 1; i < a->size && !err; i++)
        err = step(a, b, w, i);
    if (err)
        return err;
    if (r == a->size - 1)
        return buf_copy(w->low, my, t, a->recvbuf, my, t, a);
    err = buf_reduce(a, w->low, w->high, my, t, a->op);
    return err ? err : buf_copy(w->high, my, t, a->recvbuf, my, t, a);
}

int reduce_scatter_core_pairwise(const struct coll_args *a, struct coll_array counts)
{
    struct reduce_scatter_core_blocks b;
    struct pairwise w;
    void *base[3] = {NULL, NULL, NULL};
    int err = reduce_scatter_core_blocks_init(&b, counts, a->size);
    MPI_Aint my = coll_array_at(counts, a->rank);
    if (!err)
        err = buf_alloc_checked(a, my, a->datatype, &w.low, &base[0]);
    if (!err)
        err = buf_alloc_checked(a, my, a->datatype, &w.high, &base[1]);
    if (!err)
        err = buf_alloc_checked(a, my, a->datatype, &w.tmp, &base[2]);
    if (!err && b.displs[a->size] > 0)
        err = run(a, &b, &w);
    for (int i = 0; i < 3; i++)
        buf_free(a, base[i]);
    reduce_scatter_core_blocks_free(&b);
    return err;
}
