/* allgather_pattern.h - pure arithmetic of the allgather family's
 * exchange patterns (recursive doubling with folding, neighbor exchange).
 * No MPI, so unit tests reach all of it. */
#ifndef COLLSHIM_ALLGATHER_PATTERN_H
#define COLLSHIM_ALLGATHER_PATTERN_H

#include "algorithms/patterns/pattern.h"

/* Real ranks [*lo, *lo + *n) stood for by the virtual ranks [v0, v0 + m)
 * of the power-of-two folding in pattern.h (pattern_fold_virtual): virtual
 * ranks below rem = p - pof2 stand for two real ranks, the others for one,
 * in rank order, so a virtual range is a contiguous real range. */
static inline void allgather_pattern_vgroup_range(int v0, int m, int p, int *lo, int *n)
{
    int rem = p - pattern_pow2_floor(p);
    *lo = v0 < rem ? 2 * v0 : v0 + rem;
    *n = pattern_fold_real(v0 + m - 1, p) + 1 - *lo;
}

static inline int allgather_pattern_mod(int x, int m) { return ((x % m) + m) % m; }

/* Neighbor exchange (Chen et al. 2005), p even, pairs q = rank / 2.
 * Step 0 swaps blocks inside the pair; step s >= 1 talks to the pair
 * partner when s is even and to the rank across the pair border when s is
 * odd (even ranks look left, odd ranks right). */
static inline int allgather_pattern_nx_peer(int rank, int step, int p)
{
    int even = rank % 2 == 0;
    if (step % 2 == 0)
        return even ? rank + 1 : rank - 1;
    return even ? allgather_pattern_mod(rank - 1, p) : allgather_pattern_mod(rank + 1, p);
}

/* The pair a rank receives at step s >= 1: even ranks grow their window of
 * pairs to the left on odd steps and get the right side from their partner
 * on even steps; odd ranks mirror that. What a rank sends at step s is
 * what it received at step s-1 (its own pair at step 1). */
static inline int allgather_pattern_nx_recv_pair(int rank, int step, int p)
{
    int q = rank / 2, np = p / 2, k = (step + 1) / 2;
    int left = (rank % 2 == 0) == (step % 2 == 1);
    if (step % 2 == 0)
        k = step / 2;
    return allgather_pattern_mod(left ? q - k : q + k, np);
}

#endif
