/* test_alltoall_pattern.c - the all-to-all schedules of
 * algorithms/patterns/alltoall_pattern.h over p = 1..64: the in-place
 * round-robin tournament, the pairwise exchange, Bruck's rotation. */
#include "tests/unit/unit.h"

#include <limits.h>
#include "algorithms/patterns/alltoall_pattern.h"

#define P_MAX 64

/* Every round pairs ranks symmetrically; over all rounds every pair of
 * distinct ranks meets exactly once; each rank sits out once for odd p and
 * never for even p. */
START_TEST(tournament_meets_every_pair_once)
{
    static int met[P_MAX][P_MAX];
    for (int p = 1; p <= P_MAX; p++) {
        int rounds = alltoall_pattern_inplace_rounds(p), idle[P_MAX] = {0};
        ck_assert_int_eq(rounds, (p % 2 ? p : p - 1));
        for (int x = 0; x < p; x++)
            for (int y = 0; y < p; y++)
                met[x][y] = 0;
        for (int r = 0; r < rounds; r++)
            for (int x = 0; x < p; x++) {
                int y = alltoall_pattern_inplace_partner(x, p, r);
                unit_expect(y >= 0 && y < p, "p=%d round %d: partner of %d is %d", p, r, x, y);
                unit_expect(alltoall_pattern_inplace_partner(y, p, r) == x,
                              "p=%d round %d: %d -> %d -> %d", p, r, x, y,
                              alltoall_pattern_inplace_partner(y, p, r));
                if (y == x)
                    idle[x]++;
                else
                    met[x][y]++;
            }
        for (int x = 0; x < p; x++) {
            unit_expect(idle[x] == p % 2, "p=%d: %d sits out %d times", p, x, idle[x]);
            for (int y = 0; y < p; y++)
                unit_expect(x == y || met[x][y] == 1, "p=%d: %d meets %d %d times", p, x, y,
                              met[x][y]);
        }
    }
}
END_TEST

/* Step s of the pairwise exchange: `to` is a permutation without fixed
 * points, whoever rank sends to receives from rank at the same step, and
 * over the p - 1 steps a rank sends to and receives from every other rank
 * once. Power-of-two p swaps (to == from). */
START_TEST(pairwise_steps_are_matched_permutations)
{
    for (int p = 1; p <= P_MAX; p++) {
        int sent_to[P_MAX][P_MAX] = {{0}}, got_from[P_MAX][P_MAX] = {{0}};
        for (int s = 1; s < p; s++) {
            int hit[P_MAX] = {0};
            for (int r = 0; r < p; r++) {
                int to, from, to2, from2;
                alltoall_pattern_pairwise_peers(r, p, s, &to, &from);
                unit_expect(to >= 0 && to < p && from >= 0 && from < p && to != r && from != r,
                              "p=%d s=%d rank %d: to %d from %d", p, s, r, to, from);
                alltoall_pattern_pairwise_peers(to, p, s, &to2, &from2);
                unit_expect(from2 == r, "p=%d s=%d: %d sends to %d, which expects %d", p, s, r,
                              to, from2);
                if ((p & (p - 1)) == 0)
                    unit_expect(to == from, "p=%d s=%d rank %d: to %d from %d", p, s, r, to, from);
                hit[to]++;
                sent_to[r][to]++;
                got_from[r][from]++;
            }
            for (int r = 0; r < p; r++)
                unit_expect(hit[r] == 1, "p=%d s=%d: %d receives %d messages", p, s, r, hit[r]);
        }
        for (int r = 0; r < p; r++)
            for (int q = 0; q < p; q++)
                unit_expect(sent_to[r][q] == (q != r) && got_from[r][q] == (q != r),
                              "p=%d: %d sends to %d %d times, receives %d times", p, r, q,
                              sent_to[r][q], got_from[r][q]);
    }
}
END_TEST

/* Bruck: the send and receive rotations are inverse permutations of the
 * working index, and the distances a block at index k moves by (the bits
 * of k, taken at dist = 1, 2, 4, ... < p) add up to k, so it lands at rank
 * + k whose receive rotation puts it back at index k. */
START_TEST(bruck_rotation_and_moves)
{
    for (int p = 1; p <= P_MAX; p++)
        for (int rank = 0; rank < p; rank++) {
            int seen_s[P_MAX] = {0}, seen_r[P_MAX] = {0};
            for (int k = 0; k < p; k++) {
                int to = alltoall_pattern_bruck_send_peer(rank, p, k),
                    from = alltoall_pattern_bruck_recv_peer(rank, p, k);
                unit_expect(to >= 0 && to < p && from >= 0 && from < p,
                              "p=%d rank %d k=%d: %d %d", p, rank, k, to, from);
                unit_expect((to - rank - k) % p == 0 &&
                                alltoall_pattern_bruck_recv_peer(to, p, k) == rank,
                            "p=%d rank %d k=%d: sends to %d, which receives index %d from %d", p,
                            rank, k, to, k, alltoall_pattern_bruck_recv_peer(to, p, k));
                seen_s[to]++;
                seen_r[from]++;
                int moved = 0;
                for (int dist = 1; dist < p; dist *= 2)
                    moved += alltoall_pattern_bruck_moves(k, dist) ? dist : 0;
                unit_expect(moved == k, "p=%d k=%d moves %d", p, k, moved);
            }
            for (int q = 0; q < p; q++)
                unit_expect(seen_s[q] == 1 && seen_r[q] == 1, "p=%d rank %d: peer %d hit %d/%d", p,
                            rank, q, seen_s[q], seen_r[q]);
        }
}
END_TEST

/* The step sizes: count_moves is the number of indices with the bit set
 * (brute force, and up to near INT_MAX where 2 dist overflows an int),
 * max_moves the largest over the steps, which bounds Bruck's buffers; the
 * swap of blocks k and rank - k that ends Bruck in place is an involution. */
START_TEST(bruck_step_sizes_and_swaps)
{
    for (int p = 1; p <= 4 * P_MAX; p++) {
        int most = 0;
        for (int dist = 1; dist < p; dist *= 2) {
            int n = 0;
            for (int k = 0; k < p; k++)
                n += alltoall_pattern_bruck_moves(k, dist);
            unit_expect(alltoall_pattern_bruck_count_moves(p, dist) == n,
                        "p=%d dist=%d: %d, not %d", p, dist,
                        alltoall_pattern_bruck_count_moves(p, dist), n);
            most = n > most ? n : most;
        }
        unit_expect(alltoall_pattern_bruck_max_moves(p) == most && most <= (p + 1) / 2,
                    "p=%d: max moves %d, not %d", p, alltoall_pattern_bruck_max_moves(p), most);
        for (int rank = 0; rank < p && p <= P_MAX; rank++)
            for (int k = 0; k < p; k++) {
                int j = alltoall_pattern_bruck_recv_peer(rank, p, k);
                unit_expect(alltoall_pattern_bruck_recv_peer(rank, p, j) == k,
                            "p=%d rank %d: %d -> %d -> %d", p, rank, k, j,
                            alltoall_pattern_bruck_recv_peer(rank, p, j));
            }
    }
    ck_assert_int_eq(alltoall_pattern_bruck_count_moves(INT_MAX, 1 << 30), INT_MAX - (1 << 30));
    ck_assert_int_eq(alltoall_pattern_bruck_count_moves(INT_MAX, 1), (INT_MAX - 1) / 2);
    ck_assert_int_eq(alltoall_pattern_bruck_max_moves(INT_MAX), INT_MAX - (1 << 30));
}
END_TEST

Suite *alltoall_pattern_suite(void)
{
    return unit_suite("alltoall_pattern", "schedules", NULL,
                      UNIT_TESTS(tournament_meets_every_pair_once,
                                 pairwise_steps_are_matched_permutations, bruck_rotation_and_moves,
                                 bruck_step_sizes_and_swaps));
}
