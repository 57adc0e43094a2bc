/* alltoall_pattern.h - pure arithmetic of the all-to-all schedules (pairwise
 * shifts, the one-factorization of the in-place exchange, Bruck's rotation).
 * No MPI, so unit tests reach all of it. */
#ifndef COLLSHIM_ALLTOALL_PATTERN_H
#define COLLSHIM_ALLTOALL_PATTERN_H

/* Step s (1 <= s < p) of the pairwise exchange: send to *to, receive from
 * *from. XOR partners when p is a power of two (each pair swaps), else the
 * shift by s: to = rank + s, from = rank - s (mod p). */
static inline void alltoall_pattern_pairwise_peers(int rank, int p, int s, int *to, int *from)
{
    if (p > 0 && (p & (p - 1)) == 0) {
        *to = *from = rank ^ s;
    } else {
        *to = (rank + s) % p;
        *from = (rank - s % p + p) % p;
    }
}

/* Rounds of the in-place exchange: a round-robin tournament (a
 * one-factorization of the complete graph K_p): p - 1 rounds for even p, p
 * rounds for odd p where each rank sits out once. */
static inline int alltoall_pattern_inplace_rounds(int p) { return p % 2 ? p : p - 1; }

/* Partner of rank in round r (0 <= r < alltoall_pattern_inplace_rounds(p));
 * rank itself when it sits out. Symmetric: partner(partner(x)) == x in every
 * round, and over all rounds every other rank is met exactly once.
 *   odd p:  partner = r - rank (mod p)
 *   even p: ranks 0..p-2 play the odd tournament on m = p-1 ranks; whoever
 *           would sit out meets rank p-1 instead (rank p-1 meets the i with
 *           2i = r mod m, i = r * p/2 mod m since 2 * p/2 = 1 mod m). */
static inline int alltoall_pattern_inplace_partner(int rank, int p, int r)
{
    if (p % 2)
        return ((r - rank) % p + p) % p;
    int m = p - 1;
    if (rank == m)
        return (int)(((long long)r * (p / 2)) % m);
    int j = ((r - rank) % m + m) % m;
    return j == rank ? m : j;
}

/* Bruck's rotation: the block at working index k of rank is the one for
 * (send phase) or from (receive phase) this peer. */
static inline int alltoall_pattern_bruck_send_peer(int rank, int p, int k)
{
    return (rank + k) % p;
}
static inline int alltoall_pattern_bruck_recv_peer(int rank, int p, int k)
{
    return (rank - k % p + p) % p;
}

/* Blocks that move in Bruck's step with distance `dist` (a power of two):
 * the working indices with that bit set, among 0..p-1. */
static inline int alltoall_pattern_bruck_moves(int k, int dist) { return (k & dist) != 0; }

/* How many blocks move at dist: the indices 0..p-1 with that bit set
 * (each period of 2 dist indices holds dist of them). */
static inline int alltoall_pattern_bruck_count_moves(int p, int dist)
{
    long long d = dist, n = p / (2 * d) * d, rest = p % (2 * d) - d;
    return (int)(n + (rest > 0 ? rest : 0));
}

/* The most blocks one step moves, over the distances below p. */
static inline int alltoall_pattern_bruck_max_moves(int p)
{
    int most = 0;
    for (long long dist = 1; dist < p; dist <<= 1) {
        int n = alltoall_pattern_bruck_count_moves(p, (int)dist);
        most = n > most ? n : most;
    }
    return most;
}

#endif
