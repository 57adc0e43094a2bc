/* test_allgather_pattern.c - the arithmetic of
 * algorithms/patterns/allgather_pattern.h: folded group ranges of recursive
 * doubling and the neighbor-exchange schedule, each replayed on block sets
 * over p = 1..64 so that every block must arrive exactly once. */
#include "tests/unit/unit.h"
#include "algorithms/patterns/allgather_pattern.h"

#include <string.h>

#define P_MAX 64

/* The virtual rank that carries real rank r's block: its own, or its odd
 * partner's when r is folded away (pattern.h). */
static int owner(int r, int p)
{
    int v = pattern_fold_virtual(r, p);
    return v >= 0 ? v : pattern_fold_virtual(r + 1, p);
}

START_TEST(mod_is_the_mathematical_one)
{
    for (int m = 1; m <= P_MAX; m++)
        for (int x = -3 * P_MAX; x <= 3 * P_MAX; x++) {
            int r = allgather_pattern_mod(x, m);
            unit_expect(r >= 0 && r < m && (x - r) % m == 0, "allgather_pattern_mod(%d, %d) = %d",
                        x, m, r);
        }
}
END_TEST

/* [lo, lo + n) is exactly the real ranks whose blocks the virtual ranks
 * [v0, v0 + m) carry, for every range of virtual ranks. */
START_TEST(vgroup_range_is_the_folded_ranks)
{
    for (int p = 1; p <= P_MAX; p++) {
        int pof2 = pattern_pow2_floor(p);
        for (int v0 = 0; v0 < pof2; v0++)
            for (int m = 1; v0 + m <= pof2; m++) {
                int lo = -1, n = -1;
                allgather_pattern_vgroup_range(v0, m, p, &lo, &n);
                for (int r = 0; r < p; r++) {
                    int in = owner(r, p) >= v0 && owner(r, p) < v0 + m;
                    unit_expect(in == (r >= lo && r < lo + n),
                                  "p=%d v=[%d,+%d): range [%d,+%d), rank %d (owner %d)", p, v0,
                                  m, lo, n, r, owner(r, p));
                }
            }
    }
}
END_TEST

/* For each step's group size, the groups [v0, v0 + mask) partition 0..p-1
 * into consecutive ranges in order. */
START_TEST(vgroup_ranges_partition_the_ranks)
{
    for (int p = 1; p <= P_MAX; p++) {
        int pof2 = pattern_pow2_floor(p);
        for (int mask = 1; mask <= pof2; mask *= 2) {
            int next = 0;
            for (int v0 = 0; v0 < pof2; v0 += mask) {
                int lo, n;
                allgather_pattern_vgroup_range(v0, mask, p, &lo, &n);
                unit_expect(lo == next && n >= mask && n <= 2 * mask,
                              "p=%d mask=%d v0=%d: [%d,+%d), expected to start at %d", p, mask,
                              v0, lo, n, next);
                next = lo + n;
            }
            ck_assert_int_eq(next, p);
        }
    }
}
END_TEST

/* The doubling of allgather_blocks.c (rd_double) on block sets: after the
 * fold-in each virtual rank holds its group's blocks; at every step it sends
 * what it holds and receives only blocks it lacks; at the end it holds all. */
START_TEST(recursive_doubling_delivers_every_block_once)
{
    static unsigned char hold[P_MAX][P_MAX], next[P_MAX][P_MAX];
    for (int p = 1; p <= P_MAX; p++) {
        int pof2 = pattern_pow2_floor(p);
        memset(hold, 0, sizeof hold);
        for (int r = 0; r < p; r++)
            hold[owner(r, p)][r] = 1;
        for (int mask = 1; mask < pof2; mask <<= 1) {
            memcpy(next, hold, sizeof hold);
            for (int v = 0; v < pof2; v++) {
                int vpeer = v ^ mask, slo, sn, rlo, rn;
                allgather_pattern_vgroup_range(v & ~(mask - 1), mask, p, &slo, &sn);
                allgather_pattern_vgroup_range(vpeer & ~(mask - 1), mask, p, &rlo, &rn);
                for (int b = slo; b < slo + sn; b++)
                    unit_expect(hold[v][b], "p=%d mask=%d: v%d sends block %d it lacks", p,
                                  mask, v, b);
                for (int b = rlo; b < rlo + rn; b++) {
                    unit_expect(!hold[v][b], "p=%d mask=%d: v%d gets block %d twice", p, mask,
                                  v, b);
                    next[v][b] = 1;
                }
            }
            memcpy(hold, next, sizeof hold);
        }
        for (int v = 0; v < pof2; v++)
            for (int b = 0; b < p; b++)
                unit_expect(hold[v][b], "p=%d: v%d misses block %d", p, v, b);
    }
}
END_TEST

/* Neighbor exchange, every even p: peers meet symmetrically at every step
 * (step 0 and even steps inside the pair, odd steps across a pair border);
 * the pair a rank receives is the one its peer sends (what that peer got the
 * step before, its own at step 1), never one it holds; after p/2 steps
 * every rank holds all p/2 pairs, so every block arrived exactly once. */
START_TEST(neighbor_exchange_delivers_every_pair_once)
{
    static unsigned char hold[P_MAX][P_MAX / 2];
    for (int p = 2; p <= P_MAX; p += 2) {
        int sent[P_MAX], got[P_MAX], np = p / 2;
        memset(hold, 0, sizeof hold);
        for (int r = 0; r < p; r++) {
            ck_assert_int_eq(allgather_pattern_nx_peer(r, 0, p), r ^ 1);
            hold[r][r / 2] = 1; /* own block + partner's block from step 0 */
            sent[r] = r / 2;
        }
        for (int s = 1; s < np; s++) {
            for (int r = 0; r < p; r++) {
                int peer = allgather_pattern_nx_peer(r, s, p);
                unit_expect(peer >= 0 && peer < p && peer != r &&
                                allgather_pattern_nx_peer(peer, s, p) == r,
                            "p=%d step %d: %d -> %d -> %d", p, s, r, peer,
                            peer >= 0 && peer < p ? allgather_pattern_nx_peer(peer, s, p) : -1);
                unit_expect(s % 2 ? peer / 2 != r / 2 : peer == (r ^ 1),
                              "p=%d step %d: rank %d talks to %d", p, s, r, peer);
                got[r] = allgather_pattern_nx_recv_pair(r, s, p);
                unit_expect(got[r] == sent[peer], "p=%d step %d: %d expects pair %d, %d sends %d",
                              p, s, r, got[r], peer, sent[peer]);
                unit_expect(got[r] >= 0 && got[r] < np && !hold[r][got[r]],
                              "p=%d step %d: %d gets pair %d twice", p, s, r, got[r]);
            }
            for (int r = 0; r < p; r++) {
                hold[r][got[r]] = 1;
                sent[r] = got[r];
            }
        }
        for (int r = 0; r < p; r++)
            for (int q = 0; q < np; q++)
                unit_expect(hold[r][q], "p=%d: rank %d misses pair %d", p, r, q);
    }
}
END_TEST

Suite *allgather_pattern_suite(void)
{
    return unit_suite("allgather_pattern", "math", NULL,
                      UNIT_TESTS(mod_is_the_mathematical_one, vgroup_range_is_the_folded_ranks,
                                 vgroup_ranges_partition_the_ranks,
                                 recursive_doubling_delivers_every_block_once,
                                 neighbor_exchange_delivers_every_pair_once));
}
