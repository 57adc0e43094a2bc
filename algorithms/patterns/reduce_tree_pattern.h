/* reduce_tree_pattern.h - shapes of the reduction trees (reduce_tree.c):
 * pure arithmetic on positions, no MPI, so unit tests reach all of it.
 *
 * A side of m positions 0..m-1 is numbered in preorder from its root at
 * position 0: every node is the first position of its subtree and its
 * children's subtrees follow it as consecutive ranges in increasing order.
 * Folding a node's own data with its children's partial results in
 * increasing position order therefore combines positions in order, which
 * keeps non-commutative operations correct.
 *
 *   chain     0 <- 1 <- 2 <- 3 <- 4            children: d+1
 *   binary    0 <- {1 <- {2, 3}, 4 <- {5, 6}}  left half first (preorder)
 *   binomial  0 <- {1, 2 <- 3, 4 <- {5, 6 <- 7}}  children: d + 1, 2, 4, ...
 *   flat      0 <- {1, 2, 3, ...}              children: everyone */
#ifndef COLLSHIM_REDUCE_TREE_PATTERN_H
#define COLLSHIM_REDUCE_TREE_PATTERN_H

enum reduce_tree_shape {
    REDUCE_TREE_CHAIN,
    REDUCE_TREE_BINARY,
    REDUCE_TREE_BINOMIAL,
    REDUCE_TREE_FLAT
};

/* Binary tree in preorder: walk down from the root to d; returns d's
 * parent (-1 for the root) and d's subtree size in *size. A node of size s
 * keeps s/2 positions for its left subtree and the rest for its right. */
static inline int reduce_tree_binary_walk(int d, int m, int *size)
{
    int node = 0, sz = m, parent = -1;
    while (node != d) {
        int left = sz / 2;
        parent = node;
        if (d <= node + left) {
            node += 1;
            sz = left;
        } else {
            node += 1 + left;
            sz -= 1 + left;
        }
    }
    *size = sz;
    return parent;
}

/* Parent position of d (0 <= d < m), -1 for the root. */
static inline int reduce_tree_parent(enum reduce_tree_shape s, int d, int m)
{
    int size;
    if (d == 0)
        return -1;
    switch (s) {
    case REDUCE_TREE_CHAIN: return d - 1;
    case REDUCE_TREE_BINARY: return reduce_tree_binary_walk(d, m, &size);
    case REDUCE_TREE_BINOMIAL: return d & (d - 1);
    default: return 0;
    }
}

/* The children of binary-tree node d whose subtree has size positions
 * (reduce_tree_binary_walk), in increasing order into out; returns how
 * many (0-2). */
static inline int reduce_tree_binary_children(int d, int size, int *out)
{
    int n = 0;
    if (size > 1)
        out[n++] = d + 1;
    if (size > 2)
        out[n++] = d + 1 + size / 2;
    return n;
}

/* Children positions of d in increasing order into out (room for m);
 * returns how many. */
static inline int reduce_tree_children(enum reduce_tree_shape s, int d, int m, int *out)
{
    int n = 0, size;
    switch (s) {
    case REDUCE_TREE_CHAIN:
        if (d + 1 < m)
            out[n++] = d + 1;
        break;
    case REDUCE_TREE_BINARY:
        reduce_tree_binary_walk(d, m, &size);
        n = reduce_tree_binary_children(d, size, out);
        break;
    case REDUCE_TREE_BINOMIAL:
        for (int k = 1; (d == 0 || k < (d & -d)) && d + k < m; k *= 2)
            out[n++] = d + k;
        break;
    default:
        for (int c = 1; d == 0 && c < m; c++)
            out[n++] = c;
        break;
    }
    return n;
}

/* d's parent (-1 for the root) into *parent and its children, as
 * reduce_tree_children; the binary tree is walked once for both. */
static inline int reduce_tree_node(enum reduce_tree_shape s, int d, int m, int *parent, int *out)
{
    int size;
    if (s != REDUCE_TREE_BINARY) {
        *parent = reduce_tree_parent(s, d, m);
        return reduce_tree_children(s, d, m, out);
    }
    *parent = reduce_tree_binary_walk(d, m, &size);
    return reduce_tree_binary_children(d, size, out);
}

#endif
