/* test_bcast_pattern.c - the arithmetic of
 * algorithms/patterns/bcast_pattern.h: binomial subtree ranges, binary-tree
 * peers, wrapped block runs, segments, checked as invariants over p = 1..64
 * rather than as examples. */
#include "tests/unit/unit.h"
#include "algorithms/patterns/bcast_pattern.h"

#include <limits.h>
#include <string.h>

#define P_MAX 64

/* Is a an ancestor of (or equal to) x in the binomial tree of pattern.h? */
static int binomial_ancestor(int a, int x)
{
    for (; x > a; x = pattern_binomial_parent(x))
        ;
    return x == a;
}

/* [rel, bcast_pattern_subtree_end) is exactly rel and its binomial
 * descendants: the blocks the scatter hands to rel are the blocks of its
 * whole subtree. */
START_TEST(subtree_is_the_binomial_descendants)
{
    for (int p = 1; p <= P_MAX; p++) {
        ck_assert_int_eq(bcast_pattern_subtree_end(0, p), p);
        for (int rel = 0; rel < p; rel++) {
            int end = bcast_pattern_subtree_end(rel, p);
            unit_expect(end > rel && end <= p, "p=%d rel=%d end=%d", p, rel, end);
            for (int x = 0; x < p; x++)
                unit_expect((x >= rel && x < end) == binomial_ancestor(rel, x),
                              "p=%d rel=%d end=%d x=%d", p, rel, end, x);
        }
    }
}
END_TEST

/* The children rel + 1, rel + 2, rel + 4, ... (below rel's mask, < p) tile
 * [rel + 1, end) with their subtrees, in increasing order: what the scatter
 * sends down is exactly what rel received, minus its own block. */
START_TEST(children_subtrees_tile_the_parent)
{
    for (int p = 1; p <= P_MAX; p++)
        for (int rel = 0; rel < p; rel++) {
            int next = rel + 1;
            for (int m = 1; m < pattern_binomial_mask(rel, p) && rel + m < p; m *= 2) {
                unit_expect(rel + m == next, "p=%d rel=%d child %d, expected %d", p, rel,
                              rel + m, next);
                next = bcast_pattern_subtree_end(rel + m, p);
            }
            unit_expect(next == bcast_pattern_subtree_end(rel, p),
                        "p=%d rel=%d: children end at %d", p, rel, next);
        }
}
END_TEST

/* Heap-ordered binary tree: parent and children agree, every rank but 0
 * has exactly one parent, depth is floor(lg p). */
START_TEST(binary_tree_parent_and_children_agree)
{
    for (int p = 1; p <= P_MAX; p++) {
        int claimed[P_MAX] = {0}, depth_max = 0;
        ck_assert_int_eq(bcast_pattern_binary_parent(0), -1);
        for (int rel = 0; rel < p; rel++) {
            for (int k = 0; k < 2; k++) {
                int c = bcast_pattern_binary_child(rel, k, p);
                unit_expect(c == -1 || (c > rel && c < p), "p=%d rel=%d k=%d c=%d", p, rel, k, c);
                unit_expect((c == -1) == (2 * rel + 1 + k >= p), "p=%d rel=%d k=%d: child %d",
                              p, rel, k, c);
                if (c < 0)
                    continue;
                unit_expect(bcast_pattern_binary_parent(c) == rel,
                            "p=%d: child %d of %d has parent %d", p, c, rel,
                            bcast_pattern_binary_parent(c));
                claimed[c]++;
            }
            int depth = 0;
            for (int x = rel; x > 0; x = bcast_pattern_binary_parent(x)) {
                unit_expect(bcast_pattern_binary_parent(x) < x, "p=%d x=%d", p, x);
                depth++;
            }
            depth_max = depth > depth_max ? depth : depth_max;
        }
        ck_assert_int_eq(claimed[0], 0);
        for (int rel = 1; rel < p; rel++)
            unit_expect(claimed[rel] == 1, "p=%d rel=%d claimed %d times", p, rel, claimed[rel]);
        ck_assert_int_eq(1 << depth_max, pattern_pow2_floor(p));
    }
}
END_TEST

/* The runs hold exactly the blocks first, first + 1, ... (mod p), each once,
 * inside [0, p), and wrap only when they must (first may be >= p: the
 * allgather passes rel + have). */
START_TEST(wrapped_runs_cover_the_window_once)
{
    for (int p = 1; p <= P_MAX; p++)
        for (int first = 0; first < 2 * p; first++)
            for (int cnt = 0; cnt <= p; cnt++) {
                int run[4] = {-1, -1, -1, -1}, hit[P_MAX] = {0};
                int nrun = bcast_pattern_wrapped_runs(first, cnt, p, run);
                unit_expect(nrun == (first % p + cnt > p ? 2 : 1), "p=%d first=%d cnt=%d: %d runs",
                              p, first, cnt, nrun);
                unit_expect(run[0] == first % p && (nrun == 1 || run[2] == 0),
                            "p=%d first=%d cnt=%d: runs start at %d and %d", p, first, cnt, run[0],
                            run[2]);
                for (int r = 0; r < nrun; r++) {
                    unit_expect(run[2 * r + 1] >= 0 && run[2 * r] + run[2 * r + 1] <= p,
                                  "p=%d first=%d cnt=%d run %d = [%d, +%d)", p, first, cnt, r,
                                  run[2 * r], run[2 * r + 1]);
                    for (int b = run[2 * r]; b < run[2 * r] + run[2 * r + 1]; b++)
                        hit[b]++;
                }
                for (int i = 0; i < cnt; i++)
                    hit[(first + i) % p]--;
                for (int b = 0; b < p; b++)
                    unit_expect(hit[b] == 0, "p=%d first=%d cnt=%d: block %d off by %d", p,
                                  first, cnt, b, hit[b]);
            }
}
END_TEST

/* The doubling allgather of bcast_scatter_rdb_allgather, replayed on block
 * sets: every rank starts with its own block, receives min(have, p - have)
 * blocks from rel + have that the sender holds, never a block twice, and
 * ends with all p (the root receives nothing). */
START_TEST(doubling_allgather_delivers_every_block_once)
{
    static unsigned char hold[P_MAX][P_MAX], next[P_MAX][P_MAX];
    for (int p = 1; p <= P_MAX; p++) {
        memset(hold, 0, sizeof hold);
        for (int rel = 0; rel < p; rel++)
            hold[rel][rel] = 1;
        for (int b = 0; b < p; b++)
            hold[0][b] = 1;
        for (int have = 1; have < p; have *= 2) {
            int cnt = have < p - have ? have : p - have;
            memcpy(next, hold, sizeof hold);
            for (int rel = 1; rel < p; rel++) {
                int from = (rel + have) % p, run[4];
                int nrun = bcast_pattern_wrapped_runs(rel + have, cnt, p, run);
                for (int r = 0; r < nrun; r++)
                    for (int b = run[2 * r]; b < run[2 * r] + run[2 * r + 1]; b++) {
                        unit_expect(hold[from][b], "p=%d have=%d: %d sends block %d it lacks",
                                      p, have, from, b);
                        unit_expect(!next[rel][b], "p=%d have=%d: %d gets block %d twice", p,
                                      have, rel, b);
                        next[rel][b] = 1;
                    }
            }
            memcpy(hold, next, sizeof hold);
        }
        for (int rel = 0; rel < p; rel++)
            for (int b = 0; b < p; b++)
                unit_expect(hold[rel][b], "p=%d: rel %d misses block %d", p, rel, b);
    }
}
END_TEST

/* Segments: all full but the last, which is 1..seg bytes; they sum to n;
 * none for n = 0; sizes and counts beyond 2^31 and 2^32 bytes. */
START_TEST(segments_cover_the_message)
{
    for (size_t n = 0; n <= 300; n++)
        for (size_t seg = 1; seg <= 70; seg++) {
            size_t nseg = bcast_pattern_seg_count(n, seg), sum = 0;
            unit_expect(nseg == (n + seg - 1) / seg, "n=%zu seg=%zu: %zu", n, seg, nseg);
            for (size_t i = 0; i < nseg; i++) {
                size_t len = bcast_pattern_seg_len(n, seg, i);
                unit_expect(i + 1 < nseg ? len == seg : len >= 1 && len <= seg,
                            "n=%zu seg=%zu i=%zu len=%zu", n, seg, i, len);
                sum += len;
            }
            unit_expect(sum == n, "n=%zu seg=%zu: segments sum to %zu", n, seg, sum);
        }
    ck_assert_uint_eq(bcast_pattern_seg_count(INT_MAX, (size_t)1 << 30), 2);
    ck_assert_uint_eq(bcast_pattern_seg_len(INT_MAX, (size_t)1 << 30, 1), INT_MAX - (1 << 30));
    ck_assert_uint_eq(bcast_pattern_seg_count(INT_MAX, (size_t)1 << 40), 1);
    ck_assert_uint_eq(bcast_pattern_seg_len(INT_MAX, (size_t)1 << 40, 0), INT_MAX);
    /* 2.36 GB in 64 KiB segments: 36011 segments, the last 29184 bytes */
    ck_assert_uint_eq(bcast_pattern_seg_count(2360000000u, 65536), 36011);
    ck_assert_uint_eq(bcast_pattern_seg_len(2360000000u, 65536, 36010),
                      2360000000u - 36010ul * 65536);
    /* one byte per segment past 2^32 segments, and a segment above 2^31 */
    ck_assert_uint_eq(bcast_pattern_seg_count((size_t)5 << 30, 1), (size_t)5 << 30);
    ck_assert_uint_eq(bcast_pattern_seg_len((size_t)5 << 30, 1, ((size_t)5 << 30) - 1), 1);
    ck_assert_uint_eq(bcast_pattern_seg_count((size_t)5 << 30, (size_t)3 << 30), 2);
    ck_assert_uint_eq(bcast_pattern_seg_len((size_t)5 << 30, (size_t)3 << 30, 0), (size_t)3 << 30);
}
END_TEST

/* Byte blocks of n bytes over p ranks tile [0, n) in order, sizes n/p or
 * n/p + 1 (the larger first), also where offsets pass 2^31 and 2^32. */
START_TEST(byte_blocks_tile_the_message)
{
    const size_t sizes[] = {0, 1, 63, 1000, (size_t)INT_MAX - 1, (size_t)INT_MAX,
                            (size_t)INT_MAX + 1, 2360000000u, ((size_t)1 << 32) + 7,
                            (size_t)5 << 30};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int p = 1; p <= P_MAX; p++) {
            size_t n = sizes[s], q = n / (size_t)p;
            unit_expect(bcast_pattern_block_offset(n, p, 0) == 0 &&
                            bcast_pattern_block_offset(n, p, p) == n,
                        "n=%zu p=%d: [%zu, %zu)", n, p, bcast_pattern_block_offset(n, p, 0),
                        bcast_pattern_block_offset(n, p, p));
            for (int i = 0; i < p; i++) {
                size_t len =
                    bcast_pattern_block_offset(n, p, i + 1) - bcast_pattern_block_offset(n, p, i);
                unit_expect(len == q + ((size_t)i < n % (size_t)p), "n=%zu p=%d block %d: %zu",
                            n, p, i, len);
            }
        }
    ck_assert_uint_eq(bcast_pattern_block_offset(2360000000u, 3, 2), 1573333334u);
    ck_assert_uint_eq(bcast_pattern_block_offset((size_t)5 << 30, 2, 1), (size_t)5 << 29);
}
END_TEST

Suite *bcast_pattern_suite(void)
{
    return unit_suite("bcast_pattern", "math", NULL,
                      UNIT_TESTS(subtree_is_the_binomial_descendants,
                                 children_subtrees_tile_the_parent,
                                 binary_tree_parent_and_children_agree,
                                 wrapped_runs_cover_the_window_once,
                                 doubling_allgather_delivers_every_block_once,
                                 segments_cover_the_message, byte_blocks_tile_the_message));
}
