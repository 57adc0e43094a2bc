/* test_reduce_tree_pattern.c - the tree shapes of
 * algorithms/patterns/reduce_tree_pattern.h, for every shape and every side
 * size m = 1..64: parent and children agree (and reduce_tree_node gives
 * both), every position is reached once
 * from the root, every subtree is the consecutive range that preorder
 * promises (so folds stay in position order), and each shape has the depth
 * and fan-out its name says. */
#include "tests/unit/unit.h"
#include "algorithms/patterns/reduce_tree_pattern.h"
#include "algorithms/patterns/pattern.h"

#define M_MAX 64

static const enum reduce_tree_shape shapes[] = {REDUCE_TREE_CHAIN, REDUCE_TREE_BINARY,
                                                REDUCE_TREE_BINOMIAL, REDUCE_TREE_FLAT};
static const char *const shape_names[] = {"chain", "binary", "binomial", "flat"};

/* Children lists of every position of one tree, checked for range and order. */
struct tree {
    int m, nchild[M_MAX], child[M_MAX][M_MAX];
};

static void tree_build(struct tree *t, enum reduce_tree_shape s, int m)
{
    t->m = m;
    for (int d = 0; d < m; d++) {
        for (int i = 0; i < M_MAX; i++)
            t->child[d][i] = -7; /* canary: reduce_tree_children writes only what it returns */
        t->nchild[d] = reduce_tree_children(s, d, m, t->child[d]);
        unit_expect(t->nchild[d] >= 0 && t->nchild[d] < m, "%s m=%d d=%d: %d children",
                      shape_names[s], m, d, t->nchild[d]);
        for (int i = 0; i < t->nchild[d]; i++)
            unit_expect(t->child[d][i] > (i ? t->child[d][i - 1] : d) && t->child[d][i] < m,
                          "%s m=%d d=%d: child %d = %d out of order", shape_names[s], m, d, i,
                          t->child[d][i]);
        unit_expect(t->child[d][t->nchild[d]] == -7, "%s m=%d d=%d: writes past its children",
                    shape_names[s], m, d);
    }
}

/* Size of d's subtree by walking its children; -1 if a position is met twice. */
static int subtree_size(const struct tree *t, int d, int *seen)
{
    if (seen[d]++)
        return -1;
    int size = 1;
    for (int i = 0; i < t->nchild[d]; i++) {
        int sub = subtree_size(t, t->child[d][i], seen);
        if (sub < 0)
            return -1;
        size += sub;
    }
    return size;
}

static int depth_of(enum reduce_tree_shape s, int d, int m)
{
    int depth = 0;
    for (; d > 0 && depth <= m; d = reduce_tree_parent(s, d, m))
        depth++;
    return depth;
}

/* reduce_tree_node gives d's parent and children as the two calls do. */
static void node_agrees(const struct tree *t, enum reduce_tree_shape s, int d)
{
    int parent = -7, child[M_MAX];
    int n = reduce_tree_node(s, d, t->m, &parent, child);
    unit_expect(parent == reduce_tree_parent(s, d, t->m) && n == t->nchild[d],
                "%s m=%d d=%d: node gives parent %d and %d children", shape_names[s], t->m, d,
                parent, n);
    for (int i = 0; i < n && i < t->nchild[d]; i++)
        unit_expect(child[i] == t->child[d][i], "%s m=%d d=%d: node's child %d is %d, not %d",
                    shape_names[s], t->m, d, i, child[i], t->child[d][i]);
}

START_TEST(parent_and_children_agree)
{
    enum reduce_tree_shape s = shapes[_i];
    struct tree t;
    for (int m = 1; m <= M_MAX; m++) {
        tree_build(&t, s, m);
        int claimed[M_MAX] = {0};
        ck_assert_int_eq(reduce_tree_parent(s, 0, m), -1);
        for (int d = 0; d < m; d++)
            for (int i = 0; i < t.nchild[d]; i++) {
                int c = t.child[d][i];
                unit_expect(reduce_tree_parent(s, c, m) == d,
                            "%s m=%d: child %d of %d has parent %d", shape_names[s], m, c, d,
                            reduce_tree_parent(s, c, m));
                claimed[c]++;
            }
        ck_assert_int_eq(claimed[0], 0);
        for (int d = 1; d < m; d++) {
            int par = reduce_tree_parent(s, d, m);
            unit_expect(par >= 0 && par < d, "%s m=%d: parent of %d is %d (not before it)",
                          shape_names[s], m, d, par);
            unit_expect(claimed[d] == 1, "%s m=%d: %d is a child %d times", shape_names[s], m,
                          d, claimed[d]);
        }
        for (int d = 0; d < m; d++)
            node_agrees(&t, s, d);
    }
}
END_TEST

/* From the root every position is reached exactly once, and the subtree of
 * d is [d, d + size): its first child is d + 1 and each next child starts
 * where the previous child's subtree ends. */
START_TEST(subtrees_are_consecutive_ranges)
{
    enum reduce_tree_shape s = shapes[_i];
    struct tree t;
    for (int m = 1; m <= M_MAX; m++) {
        tree_build(&t, s, m);
        int seen[M_MAX] = {0}, size[M_MAX];
        unit_expect(subtree_size(&t, 0, seen) == m, "%s m=%d: root does not reach all once",
                      shape_names[s], m);
        for (int d = 0; d < m; d++) {
            int seen_d[M_MAX] = {0};
            size[d] = subtree_size(&t, d, seen_d);
            for (int x = 0; x < m; x++)
                unit_expect(seen_d[x] == (x >= d && x < d + size[d]),
                              "%s m=%d: subtree of %d (size %d) and position %d", shape_names[s],
                              m, d, size[d], x);
        }
        for (int d = 0; d < m; d++) {
            int next = d + 1;
            for (int i = 0; i < t.nchild[d]; i++) {
                unit_expect(t.child[d][i] == next, "%s m=%d d=%d: child %d starts at %d, not %d",
                              shape_names[s], m, d, i, t.child[d][i], next);
                next += size[t.child[d][i]];
            }
            ck_assert_int_eq(next, d + size[d]);
        }
        if (s == REDUCE_TREE_BINARY)
            for (int d = 0; d < m; d++) {
                int walked;
                reduce_tree_binary_walk(d, m, &walked);
                unit_expect(walked == size[d], "binary m=%d d=%d: walk says %d, tree %d", m, d,
                              walked, size[d]);
            }
    }
}
END_TEST

/* Depth of the deepest binomial position below m: its most set bits. */
static int max_popcount_below(int m)
{
    int best = 0;
    for (int d = 0; d < m; d++)
        best = __builtin_popcount((unsigned)d) > best ? __builtin_popcount((unsigned)d) : best;
    return best;
}

/* What the names promise: the chain is a line, the flat tree a star, the
 * binary tree balanced (<= 2 children, subtrees differ by <= 1, depth
 * floor(lg m)), the binomial tree with the parents of pattern.h, the
 * children d + 1, d + 2, d + 4, ... and at most ceil(lg m) deep. */
START_TEST(shapes_have_their_depth_and_fanout)
{
    struct tree t;
    for (int m = 1; m <= M_MAX; m++)
        for (int k = 0; k < 4; k++) {
            enum reduce_tree_shape s = shapes[k];
            int depth_max = 0;
            tree_build(&t, s, m);
            for (int d = 0; d < m; d++) {
                int depth = depth_of(s, d, m);
                depth_max = depth > depth_max ? depth : depth_max;
                unit_expect(s == REDUCE_TREE_CHAIN ? depth == d
                                                   : s != REDUCE_TREE_FLAT || depth == (d > 0),
                            "%s m=%d: %d at depth %d", shape_names[s], m, d, depth);
                if (s == REDUCE_TREE_BINARY) {
                    int seen_l[M_MAX] = {0}, seen_r[M_MAX] = {0};
                    int l = t.nchild[d] > 0 ? subtree_size(&t, t.child[d][0], seen_l) : 0;
                    int r = t.nchild[d] > 1 ? subtree_size(&t, t.child[d][1], seen_r) : 0;
                    unit_expect(t.nchild[d] <= 2 && (l == r || l == r + 1 || l + 1 == r),
                                  "binary m=%d d=%d: %d children, sizes %d and %d", m, d,
                                  t.nchild[d], l, r);
                }
                if (s == REDUCE_TREE_BINOMIAL) {
                    unit_expect(
                        reduce_tree_parent(s, d, m) == (d ? pattern_binomial_parent(d) : -1),
                        "binomial m=%d: parent of %d is %d", m, d, reduce_tree_parent(s, d, m));
                    for (int i = 0; i < t.nchild[d]; i++)
                        unit_expect(t.child[d][i] == d + (1 << i), "binomial m=%d d=%d: child %d",
                                    m, d, t.child[d][i]);
                }
            }
            int want = s == REDUCE_TREE_CHAIN    ? m - 1
                       : s == REDUCE_TREE_FLAT   ? m > 1
                       : s == REDUCE_TREE_BINARY ? pattern_ceil_log2(m + 1) - 1
                                                 : max_popcount_below(m);
            unit_expect(depth_max == want, "%s m=%d: depth %d, expected %d", shape_names[s], m,
                          depth_max, want);
            ck_assert_int_le(depth_max, s == REDUCE_TREE_CHAIN ? m - 1 : pattern_ceil_log2(m));
        }
}
END_TEST

Suite *reduce_tree_pattern_suite(void)
{
    Suite *s = suite_create("reduce_tree_pattern");
    TCase *tc = tcase_create("shapes");
    tcase_add_loop_test(tc, parent_and_children_agree, 0, 4);
    tcase_add_loop_test(tc, subtrees_are_consecutive_ranges, 0, 4);
    tcase_add_test(tc, shapes_have_their_depth_and_fanout);
    suite_add_tcase(s, tc);
    return s;
}
