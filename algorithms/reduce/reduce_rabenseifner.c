/* reduce_rabenseifner.c - Rabenseifner's reduce: reduce-scatter by
 * recursive halving, then a binomial gather of the chunks to the root
 * (Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, section 4.5).
 *
 * The reduce-scatter is allreduce_rabenseifner's (common/rabenseifner.c):
 * halving at distances 1, 2, 4, ... leaves every rank one fully reduced
 * chunk; the gather retraces the exchanges in reverse towards the root,
 * each rank sending everything it has gathered once its distance to the
 * root has its highest bit at the current step:
 *
 *   p = 4, root 0   gather  d=2: 2->0, 3->1 (one chunk each)
 *                           d=1: 1->0 (two chunks)
 *
 * Any op, in rank order: every exchange of the reduce-scatter merges
 * adjacent groups of ranks, the lower one on the left. Any root; in place
 * at the root (its input is then in recvbuf). Non-power-of-two p: the
 * first 2r ranks (r = p - 2^floor(lg p)) fold pairwise (even sends its
 * vector to odd, which reduces lower-left); when the root is one of the
 * folded-away even ranks the chunks are gathered at its odd neighbour,
 * which sends it the result.
 *
 * Cost = 2 lg(p) alpha + 2n(p-1)/p beta + n(p-1)/p gamma
 *        (+ alpha + n beta + n gamma when p is not a power of two,
 *         + alpha + n beta more when the root is folded away)
 * Wins for long vectors, where the binomial tree's n lg(p) beta and
 * n lg(p) gamma hurt. */
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/common/rabenseifner.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Halving step i swaps and folds n / 2^(i+1) with the rank 2^i away; the
 * gather sends the same pieces back at the same distances, one message a
 * pair (model_send). Priced as swaps, on SMPI's torus of 64 hosts it
 * measured 0.86-0.90x its prediction from 64 KiB to 1 MiB, and at 512
 * KiB-1 MiB the binary pipeline ran at 1.06-1.15x it (results/model.md):
 * a swap's messages share the torus's 2-link paths, where the gather's
 * one message a pair does not. p not a power of two: the fold (n and a
 * fold at distance 1), and, the root taken as rank 0 (the call has no
 * root), which is folded away, the result from its neighbour (n at
 * distance 1). */
double reduce_rabenseifner_cost(const struct cost_call *c, const struct machine_model *m)
{
    int pow2 = model_pow2_floor(c->p);
    double cost = 0, piece = c->bytes;
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    if (pow2 < c->p)
        cost += 2 * model_exchange(c, m, c->bytes, 1) + model_reduce(m, c->bytes);
    for (int d = 1; d < pow2; d *= 2) {
        piece /= 2;
        cost += model_folded_exchange(c, m, piece, d) + model_reduce(m, piece) +
                model_send(c, m, piece, d);
    }
    return cost;
}

/* The rank the chunks are gathered at: the root, or its odd neighbour
 * when the root is folded away. */
static int holder_of(const struct coll_args *a)
{
    int rem = a->size - pattern_pow2_floor(a->size);
    return a->root < 2 * rem && a->root % 2 == 0 ? a->root + 1 : a->root;
}

static int survivor(const struct coll_args *a, int vrank, void *acc, void *scratch)
{
    void *res = a->rank == a->root ? a->recvbuf : acc;
    int holder = holder_of(a), err = rabenseifner_reduce_scatter(a, vrank, &acc, &scratch);
    MPI_Aint off, len;
    rabenseifner_final_range(a, vrank, &off, &len);
    if (!err && acc != res)
        err = buf_copy(buf_at(acc, off, a->datatype), len, a->datatype,
                       buf_at(res, off, a->datatype), len, a->datatype, a);
    if (!err)
        err = rabenseifner_gather(a, vrank, pattern_fold_virtual(holder, a->size), res);
    if (!err && a->rank == holder && holder != a->root)
        err = p2p_send(res, a->count, a->datatype, a->root, a);
    return err;
}

int reduce_rabenseifner(const struct coll_args *a)
{
    int rem = a->size - pattern_pow2_floor(a->size),
        vrank = pattern_fold_virtual(a->rank, a->size);
    int is_root = a->rank == a->root, err = MPI_SUCCESS;
    const void *src = a->in_place && is_root ? a->recvbuf : a->sendbuf;
    void *acc = NULL, *scratch = NULL, *abase = NULL, *sbase = NULL;

    if (a->size == 1 || a->count == 0)
        return is_root ? buf_copy(src, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a)
                       : MPI_SUCCESS;
    if (vrank >= 0) {
        err = buf_alloc_checked(a, a->count, a->datatype, &scratch, &sbase);
        acc = a->recvbuf;
        if (!err && !is_root)
            err = buf_alloc_checked(a, a->count, a->datatype, &acc, &abase);
        if (!err)
            err = buf_copy(src, a->count, a->datatype, acc, a->count, a->datatype, a);
    }
    if (!err && a->rank < 2 * rem)
        err = reduce_scatter_core_fold_in(a, src, acc, scratch, a->count);
    if (!err && vrank >= 0)
        err = survivor(a, vrank, acc, scratch);
    if (!err && is_root && holder_of(a) != a->root)
        err = p2p_recv(a->recvbuf, a->count, a->datatype, holder_of(a), a);
    buf_free(a, abase);
    buf_free(a, sbase);
    return err;
}
