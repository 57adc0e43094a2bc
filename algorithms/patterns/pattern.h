/* pattern.h - pure arithmetic of collective patterns: power-of-two folding,
 * block splits, tree peers. No MPI, so unit tests reach all of it. */
#ifndef COLLSHIM_PATTERN_H
#define COLLSHIM_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* Largest power of two <= n (n >= 1). */
static inline int pattern_pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

/* ceil(log2(n)) for n >= 1. */
static inline int pattern_ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

static inline int pattern_is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/* Split count elements into p blocks as evenly as possible: the first
 * count % p blocks get one element more. 64-bit: a large-count call's
 * vector may hold more than INT_MAX elements. */
static inline int64_t pattern_block_count(int64_t count, int p, int i)
{
    return count / p + (i < count % p ? 1 : 0);
}

static inline int64_t pattern_block_offset(int64_t count, int p, int i)
{
    int64_t r = count % p;
    return i * (count / p) + (i < r ? i : r);
}

/* Rank relative to root and back. */
static inline int pattern_rel(int rank, int root, int p) { return (rank - root + p) % p; }
static inline int pattern_abs(int rel, int root, int p) { return (rel + root) % p; }

/* Power-of-two folding of p ranks onto pof2 = pattern_pow2_floor(p) "virtual"
 * ranks. The first 2*rem ranks (rem = p - pof2) pair up: the even one of
 * each pair is folded away (virtual rank -1), the odd one represents both;
 * ranks >= 2*rem map to rank - rem. Order is kept: virtual rank v stands
 * for real ranks in increasing order, so non-commutative ops stay correct. */
static inline int pattern_fold_virtual(int rank, int p)
{
    int rem = p - pattern_pow2_floor(p);
    if (rank < 2 * rem)
        return (rank % 2) ? rank / 2 : -1;
    return rank - rem;
}

static inline int pattern_fold_real(int vrank, int p)
{
    int rem = p - pattern_pow2_floor(p);
    return vrank < rem ? vrank * 2 + 1 : vrank + rem;
}

/* Binomial tree over relative ranks 0..p-1 rooted at 0: parent of rel
 * (rel > 0) clears its lowest set bit. */
static inline int pattern_binomial_parent(int rel) { return rel & (rel - 1); }

/* Lowest set bit of rel, or the smallest power of two >= p for rel 0: the
 * children of rel are rel + m for m = mask/2, mask/4, ..., 1 with rel+m < p. */
static inline int pattern_binomial_mask(int rel, int p)
{
    if (rel == 0)
        return 1 << pattern_ceil_log2(p);
    return rel & -rel;
}

#endif
