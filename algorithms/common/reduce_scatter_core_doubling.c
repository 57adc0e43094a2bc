/* reduce_scatter_core_doubling.c - order-preserving reduce-scatter by
 * recursive doubling (after Thakur, Rabenseifner & Gropp 2005, section 4.4,
 * non-commutative case), the core of reduce_scatter_recursive_doubling and
 * reduce_scatter_block_recursive_doubling. Any op.
 *
 * At distance m = 1, 2, 4, ... rank v merges with the aligned group of m
 * ranks next to its own. Each side holds the partial over its group of
 * every block still needed; it sends the partner what the partner still
 * needs (the partner's own block and every block outside the merged
 * group of 2m, reduce_scatter_pattern_needed_ranges) and combines what it
 * receives with the lower group's partial on the left, so every block is
 * reduced in rank order:
 *
 *   p = 4     m=1: 0<->1 send all but own block     groups {01} {23}
 *             m=2: 0<->2 send own block only        groups {0123}
 *
 * The up to three ranges per exchange travel as one struct datatype over
 * the full-length temporary (byte displacements, and a range longer than
 * INT_MAX elements as a type of its own, p2p_bytes.h). Non-power-of-two p: the first 2r ranks fold
 * pairwise (even sends its vector to odd, which reduces lower-left), the
 * 2^floor(lg p) survivors run the doubling over virtual blocks, and each
 * odd survivor hands its even neighbour its block at the end.
 *
 * Cost = lg(p) alpha + n(lg(p) - 2(p-1)/p + lg(p)/p) beta + n(lg(p) - 2(p-1)/p + lg(p)/p) gamma
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * Wins for non-commutative ops on short to medium vectors, where lg(p)
 * latency beats the order-preserving reduce-then-scatter. */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/p2p_bytes.h"
#include "algorithms/patterns/reduce_scatter_pattern.h"

/* The ranges [off[i], +len[i]) of a full vector as one struct type. */
static int ranges_type(const struct coll_args *a, int n, const MPI_Aint *off,
                       const MPI_Aint *len, MPI_Datatype *type)
{
    MPI_Aint disp[3], extent = buf_extent(a->datatype);
    for (int i = 0; i < n; i++)
        disp[i] = off[i] * extent;
    return big_blocks_type(n, len, disp, a->datatype, type);
}

/* The element ranges of virtual blocks virtual rank t still needs after
 * merging at distance m, as one type over a full vector. */
static int needed_type(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                       int t, int m, MPI_Aint *off, MPI_Aint *len, MPI_Datatype *type)
{
    int lo[3], hi[3],
        n = reduce_scatter_pattern_needed_ranges(t, m, pattern_pow2_floor(a->size), lo, hi);
    for (int i = 0; i < n; i++) {
        off[i] = reduce_scatter_core_blocks_voffset(b, lo[i]);
        len[i] = hi[i] > lo[i] ? reduce_scatter_core_blocks_voffset(b, hi[i]) - off[i] : 0;
    }
    return ranges_type(a, n, off, len, type);
}

static int exchange(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                    int vrank, int m, void **acc, void **scratch)
{
    int vpeer = vrank ^ m, peer = pattern_fold_real(vpeer, a->size), err;
    MPI_Aint soff[3], slen[3], roff[3], rlen[3];
    MPI_Datatype stype, rtype;
    if ((err = needed_type(a, b, vpeer, m, soff, slen, &stype)))
        return err;
    if (!(err = needed_type(a, b, vrank, m, roff, rlen, &rtype))) {
        err = p2p_sendrecv(*acc, 1, stype, peer, *scratch, 1, rtype, peer, a);
        if (!err)
            err = reduce_scatter_core_combine(a, vpeer < vrank, 3, roff, rlen, acc, scratch);
        buf_type_free(a, &rtype);
    }
    buf_type_free(a, &stype);
    return err;
}

static int doubling(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                    int vrank, void **acc, void **scratch)
{
    int err = MPI_SUCCESS;
    for (int m = 1; m < pattern_pow2_floor(a->size) && !err; m *= 2)
        err = exchange(a, b, vrank, m, acc, scratch);
    return err;
}

int reduce_scatter_core_doubling(const struct coll_args *a, struct coll_array counts)
{
    return reduce_scatter_core_folded_run(a, counts, doubling);
}
