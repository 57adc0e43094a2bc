/* reduce_scatter_core_halving.c - reduce-scatter by recursive halving
 * (Thakur, Rabenseifner & Gropp 2005, section 4.4), the core of
 * reduce_scatter_recursive_halving and
 * reduce_scatter_block_recursive_halving. Commutative ops only.
 *
 * At distance m = p/2, p/4, ..., 1 every rank swaps half of the blocks it
 * is still responsible for with the rank m away: it sends the half the
 * partner's side needs, receives the partner's partial of its own half and
 * reduces it in. After lg p steps each rank holds its own block:
 *
 *   p = 4, blocks 0123:  m=2: 0<->2, 1<->3 swap halves {01 | 23}
 *                        m=1: 0<->1, 2<->3 swap quarters
 *
 * The contributions of a block arrive in the order of the exchanges, not
 * in rank order: hence commutative ops only (recursive_doubling keeps the
 * order). Non-power-of-two p: the first 2r ranks (r = p - 2^floor(lg p))
 * fold pairwise first (even sends its vector to odd), the 2^floor(lg p)
 * survivors halve over "virtual blocks" (a folded pair's two blocks count
 * as one, reduce_scatter_pattern_vblock_first), and each odd survivor hands
 * the even rank its block at the end.
 *
 * Cost = lg(p) alpha + n(p-1)/p beta + n(p-1)/p gamma
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * Wins for medium and large vectors: bandwidth-optimal with lg(p) steps. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/patterns/reduce_scatter_pattern.h"

/* Halve over the virtual blocks; acc ends with virtual block vrank. */
static int halve(const struct coll_args *a, const struct reduce_scatter_core_blocks *b, int vrank,
                 void **accp, void **scratchp)
{
    int err = MPI_SUCCESS;
    for (int m = pattern_pow2_floor(a->size) / 2; m >= 1 && !err; m /= 2) {
        int lo = vrank & ~(2 * m - 1), keep = lo + (vrank & m), give = lo + m - (vrank & m);
        err = reduce_scatter_core_exchange_halves(a, b, pattern_fold_real(vrank ^ m, a->size),
                                                  keep, give, m, *accp, *scratchp);
    }
    return err;
}

int reduce_scatter_core_halving(const struct coll_args *a, struct coll_array counts)
{
    return reduce_scatter_core_folded_run(a, counts, halve);
}
