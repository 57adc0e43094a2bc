/* reduce_scatter_pattern.h - pure arithmetic of the reduce-scatter family
 * (reduce_scatter_core_*.c, rabenseifner.c): which blocks a folded "virtual"
 * rank stands for, which chunk range a rank keeps while the vector is halved,
 * and which blocks a rank still needs during an order-preserving recursive
 * doubling. No MPI, so unit tests reach all of it. Virtual ranks are those of
 * pattern_fold_virtual() (pattern.h). */
#ifndef COLLSHIM_REDUCE_SCATTER_PATTERN_H
#define COLLSHIM_REDUCE_SCATTER_PATTERN_H

#include "algorithms/patterns/pattern.h"

/* First real block of virtual block v (0 <= v <= pof2) when p ranks are
 * folded onto pof2 = pattern_pow2_floor(p): virtual block v < rem stands for
 * real blocks 2v and 2v+1, the others for block v + rem. Virtual ranges
 * [v, w) map to the contiguous real range [first(v), first(w)), and
 * first(pof2) == p. */
static inline int reduce_scatter_pattern_vblock_first(int v, int p)
{
    int rem = p - pattern_pow2_floor(p);
    return v < rem ? 2 * v : v + rem;
}

/* Chunk range [*lo, *lo + *len) of pof2 chunks that rank v keeps after
 * `steps` steps of halving at distances 1, 2, 4, ...: at step i the range
 * is halved and v keeps the upper half when bit i of v is set. After
 * lg(pof2) steps v keeps the single chunk bit-reverse(v). */
static inline void reduce_scatter_pattern_halving_range(int v, int steps, int pof2, int *lo,
                                                        int *len)
{
    *lo = 0;
    *len = pof2;
    for (int i = 0; i < steps; i++) {
        *len /= 2;
        if ((v >> i) & 1)
            *lo += *len;
    }
}

/* Virtual blocks that virtual rank t still needs once it has merged with
 * the rank m away (the exchange at distance m of an order-preserving
 * recursive doubling over pof2 ranks): its own block and every block
 * outside the merged group [base, base + 2m). Three ascending half-open
 * ranges lo[i]..hi[i], some possibly empty; returns 3. */
static inline int reduce_scatter_pattern_needed_ranges(int t, int m, int pof2, int lo[3],
                                                       int hi[3])
{
    int base = t & ~(2 * m - 1);
    lo[0] = 0;            hi[0] = base;
    lo[1] = t;            hi[1] = t + 1;
    lo[2] = base + 2 * m; hi[2] = pof2;
    return 3;
}

#endif
