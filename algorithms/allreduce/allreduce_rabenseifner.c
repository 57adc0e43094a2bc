/* allreduce_rabenseifner.c - Rabenseifner's allreduce: reduce-scatter by
 * recursive halving, then allgather by recursive doubling (Rabenseifner
 * 2004; Thakur, Rabenseifner & Gropp 2005, section 4.5).
 *
 * Instead of swapping whole vectors lg p times (recursive_doubling), each
 * rank halves the part of the vector it is responsible for at every step,
 * ends with one fully reduced chunk, and the chunks are then collected by
 * the mirror-image exchanges:
 *
 *   p = 4   reduce-scatter  d=1: 0<->1, 2<->3 swap halves
 *                           d=2: 0<->2, 1<->3 swap quarters
 *           allgather       d=2, then d=1, the same pairs in reverse
 *
 * Halving starts at distance 1, so each exchange merges two adjacent
 * groups of ranks and the lower one's partial goes on the left: any op,
 * in rank order (common/rabenseifner.c). Each chunk is reduced once, by
 * one rank, and copied everywhere: bitwise identical on every rank. Any
 * count: chunks may be empty when count < p. Non-power-of-two p: the
 * first 2r ranks (r = p - 2^floor(lg p)) fold pairwise (even sends its
 * vector to odd, which reduces lower-left), the survivors run the above,
 * and each odd rank sends the result to its even neighbour at the end.
 *
 * Cost = 2 lg(p) alpha + 2n(p-1)/p beta + n(p-1)/p gamma
 *        (+ 2 alpha + 2n beta + n gamma when p is not a power of two)
 * Wins for medium and long vectors at moderate p: the bandwidth of the
 * ring with the latency of lg p steps. */
#include "engine/buf.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/common/rabenseifner.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Halving at distances 1, 2, ... (n/2, n/4, ... swapped and reduced), then
 * doubling back at ..., 2, 1; the fold in and back when p is not pow2. */
double allreduce_rabenseifner_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double n = c->bytes, cost = model_fold(c, m, n, n);
    int pow2 = model_pow2_floor(c->p);
    for (int distance = 1; distance < pow2; distance *= 2) {
        double half = n / (2.0 * distance);
        cost += model_exchange(c, m, half, distance) + model_reduce(m, half) +
                model_exchange(c, m, half, distance);
    }
    return cost;
}

static int survivor(const struct coll_args *a, int vrank, void *scratch)
{
    void *acc = a->recvbuf;
    MPI_Aint off, len;
    int err = rabenseifner_reduce_scatter(a, vrank, &acc, &scratch);
    rabenseifner_final_range(a, vrank, &off, &len);
    if (!err && acc != a->recvbuf)
        err = buf_copy(buf_at(acc, off, a->datatype), len, a->datatype,
                       buf_at(a->recvbuf, off, a->datatype), len, a->datatype, a);
    return err ? err : rabenseifner_allgather(a, vrank, a->recvbuf);
}

int allreduce_rabenseifner(const struct coll_args *a)
{
    int rem = a->size - pattern_pow2_floor(a->size),
        vrank = pattern_fold_virtual(a->rank, a->size);
    void *scratch = NULL, *base = NULL;
    int err = MPI_SUCCESS;

    if (!a->in_place &&
        (err = buf_copy(a->sendbuf, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a)))
        return err;
    if (a->size == 1 || a->count == 0)
        return MPI_SUCCESS;
    if (vrank >= 0 && (err = buf_alloc_checked(a, a->count, a->datatype, &scratch, &base)))
        return err;
    if (a->rank < 2 * rem)
        err = reduce_scatter_core_fold_in(a, a->recvbuf, a->recvbuf, scratch, a->count);
    if (!err && vrank >= 0)
        err = survivor(a, vrank, scratch);
    if (!err && a->rank < 2 * rem)
        err = reduce_scatter_core_fold_back(a, a->recvbuf, a->count);
    buf_free(a, base);
    return err;
}
