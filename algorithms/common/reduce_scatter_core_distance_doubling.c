/* reduce_scatter_core_distance_doubling.c - reduce-scatter by recursive
 * halving of the vector with the partner distance doubling (1, 2, 4, ...)
 * instead of halving, the core of reduce_scatter_distance_doubling and
 * reduce_scatter_block_distance_doubling. Commutative ops only.
 *
 * At step j (partner vrank ^ 2^j) both partners hold the same contiguous
 * range of blocks; each keeps the half chosen by bit j of its virtual rank,
 * sends the other half and reduces the partner's partial of its own in.
 * The first, largest exchanges (n/2, n/4, ...) go to the nearest ranks:
 * with ranks laid out in blocks of nodes they stay inside a node, and only
 * the last, small ones cross the network, where recursive_halving (which
 * starts p/2 away) sends n/2 from every rank of a node through the node's
 * one link at once. After lg p steps rank v holds the block whose index is
 * v with its bits reversed; one swap with that rank (bit reversal is its
 * own inverse) puts every block at its owner:
 *
 *   p = 4, blocks 0123:  j=0: 0<->1, 2<->3 swap halves {01 | 23}
 *                        j=1: 0<->2, 1<->3 swap quarters
 *                        rank 1 holds block 2, rank 2 block 1: they swap
 *
 * Non-power-of-two p folds as reduce_scatter_core_halving does
 * (reduce_scatter_core_folded_run): the steps run on virtual ranks and
 * virtual blocks.
 *
 * Cost = (lg p + 1) alpha + n(p-1)/p beta + n/p beta + n(p-1)/p gamma
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * with the n/2 .. n/2^j exchanges at the nearest distances (measured on
 * SMPI's fat tree at p = 64, hosts of 16: results/scale.md). */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/reduce_scatter_pattern.h"

/* Halve with partners 1, 2, 4, ... apart: after the loop rank v holds
 * block lo = bit-reverse(v) (reduce_scatter_pattern_halving_range), whose
 * owner is rank lo, and rank lo holds block v: one swap. */
static int halve_nearest_first(const struct coll_args *a,
                               const struct reduce_scatter_core_blocks *b, int vrank, void **accp,
                               void **scratchp)
{
    int pof2 = pattern_pow2_floor(a->size), lo = 0, len = pof2, err = MPI_SUCCESS;
    for (int m = 1; m < pof2 && !err; m *= 2) {
        len /= 2;
        int mine = (vrank & m) ? lo + len : lo, other = (vrank & m) ? lo : lo + len;
        err = reduce_scatter_core_exchange_halves(a, b, pattern_fold_real(vrank ^ m, a->size),
                                                  mine, other, len, *accp, *scratchp);
        lo = mine;
    }
    if (err || lo == vrank)
        return err;
    MPI_Datatype t = a->datatype;
    MPI_Aint h0 = reduce_scatter_core_blocks_voffset(b, lo),
             h1 = reduce_scatter_core_blocks_voffset(b, lo + 1);
    MPI_Aint v0 = reduce_scatter_core_blocks_voffset(b, vrank),
             v1 = reduce_scatter_core_blocks_voffset(b, vrank + 1);
    int peer = pattern_fold_real(lo, a->size);
    return p2p_sendrecv(buf_at(*accp, h0, t), h1 - h0, t, peer, buf_at(*accp, v0, t), v1 - v0, t,
                          peer, a);
}

int reduce_scatter_core_distance_doubling(const struct coll_args *a, struct coll_array counts)
{
    return reduce_scatter_core_folded_run(a, counts, halve_nearest_first);
}
