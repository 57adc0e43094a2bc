/* test_pattern.c - the arithmetic of algorithms/patterns/pattern.h. */
#include "tests/unit/unit.h"
#include "algorithms/patterns/pattern.h"

#include <limits.h>

START_TEST(pow2_floor_and_log)
{
    int want_floor[] = {0, 1, 2, 2, 4, 4, 4, 4, 8, 8};
    for (int n = 1; n < 10; n++)
        ck_assert_int_eq(pattern_pow2_floor(n), want_floor[n]);
    ck_assert_int_eq(pattern_ceil_log2(1), 0);
    ck_assert_int_eq(pattern_ceil_log2(5), 3);
    ck_assert_int_eq(pattern_ceil_log2(8), 3);
    ck_assert(pattern_is_pow2(16) && !pattern_is_pow2(12) && !pattern_is_pow2(0));
}
END_TEST

START_TEST(blocks_cover_the_vector)
{
    for (int p = 1; p <= 9; p++)
        for (int count = 0; count <= 40; count++) {
            int next = 0;
            for (int i = 0; i < p; i++) {
                ck_assert_int_eq(pattern_block_offset(count, p, i), next);
                int c = pattern_block_count(count, p, i);
                ck_assert(c == count / p || c == count / p + 1);
                next += c;
            }
            ck_assert_int_eq(next, count);
        }
}
END_TEST

/* Element blocks at the largest count: offsets never pass the count, so
 * i * (count / p) cannot overflow an int (element offsets of whole vectors
 * beyond INT_MAX are MPI_Aint in reduce_scatter_core_blocks, not these). */
START_TEST(blocks_at_int_max)
{
    for (int p = 1; p <= 64; p++) {
        int next = 0;
        for (int i = 0; i < p; i++) {
            unit_expect(pattern_block_offset(INT_MAX, p, i) == next, "p=%d i=%d: %lld, not %d", p, i,
                        (long long)pattern_block_offset(INT_MAX, p, i), next);
            next += pattern_block_count(INT_MAX, p, i);
        }
        unit_expect(next == INT_MAX && pattern_block_offset(INT_MAX, p, p) == INT_MAX,
                    "p=%d: blocks end at %d", p, next);
    }
}
END_TEST

START_TEST(folding_is_a_bijection_that_keeps_order)
{
    for (int p = 1; p <= 33; p++) {
        int pof2 = pattern_pow2_floor(p), seen[64] = {0}, last_real = -1;
        for (int r = 0; r < p; r++) {
            int v = pattern_fold_virtual(r, p);
            if (v < 0) {
                ck_assert_int_eq(pattern_fold_virtual(r + 1, p) >= 0, 1); /* partner survives */
                continue;
            }
            ck_assert(v < pof2);
            ck_assert_int_eq(seen[v]++, 0);
            ck_assert_int_eq(pattern_fold_real(v, p), r);
        }
        for (int v = 0; v < pof2; v++) {
            ck_assert_int_eq(seen[v], 1);
            ck_assert(pattern_fold_real(v, p) > last_real); /* order kept */
            last_real = pattern_fold_real(v, p);
        }
    }
}
END_TEST

START_TEST(binomial_tree_reaches_every_rank_once)
{
    for (int p = 1; p <= 20; p++) {
        int parent_count[32] = {0};
        for (int rel = 0; rel < p; rel++)
            for (int m = pattern_binomial_mask(rel, p) >> 1; m > 0; m >>= 1)
                if (rel + m < p) {
                    ck_assert_int_eq(pattern_binomial_parent(rel + m), rel);
                    parent_count[rel + m]++;
                }
        for (int rel = 1; rel < p; rel++)
            ck_assert_int_eq(parent_count[rel], 1);
    }
}
END_TEST

START_TEST(relative_ranks_round_trip)
{
    for (int p = 1; p < 9; p++)
        for (int root = 0; root < p; root++)
            for (int r = 0; r < p; r++)
                ck_assert_int_eq(pattern_abs(pattern_rel(r, root, p), root, p), r);
}
END_TEST

Suite *pattern_suite(void)
{
    return unit_suite("pattern", "math", NULL,
                      UNIT_TESTS(pow2_floor_and_log, blocks_cover_the_vector, blocks_at_int_max,
                                 folding_is_a_bijection_that_keeps_order,
                                 binomial_tree_reaches_every_rank_once,
                                 relative_ranks_round_trip));
}
