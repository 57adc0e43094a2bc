/* bcast_pattern.h - pure arithmetic of the broadcast algorithms: subtree
 * block ranges of the binomial scatter, binary-tree peers, wrapped block
 * ranges of the doubling allgather, segments. Ranks are relative to the
 * root; block i of the message belongs to relative rank i. No MPI. */
#ifndef COLLSHIM_BCAST_PATTERN_H
#define COLLSHIM_BCAST_PATTERN_H

#include "algorithms/patterns/pattern.h"

/* The binomial subtree of rel covers relative ranks [rel, end) with
 * end = min(rel + lowest set bit of rel, p) (the whole of 0..p-1 for rel 0). */
static inline int bcast_pattern_subtree_end(int rel, int p)
{
    int end = rel + pattern_binomial_mask(rel, p);
    return end < p ? end : p;
}

/* Binary tree in heap order over relative ranks: children 2 rel + 1 and
 * 2 rel + 2 (when < p), parent (rel - 1) / 2. */
static inline int bcast_pattern_binary_parent(int rel) { return rel > 0 ? (rel - 1) / 2 : -1; }
static inline int bcast_pattern_binary_child(int rel, int k, int p)
{
    int c = 2 * rel + 1 + k;
    return c < p ? c : -1;
}

/* The cnt blocks first, first + 1, ... taken mod p, as at most two runs
 * of consecutive block indices: [run[0], run[0] + run[1]) and
 * [run[2], run[2] + run[3]). Returns the number of runs. */
static inline int bcast_pattern_wrapped_runs(int first, int cnt, int p, int run[4])
{
    first %= p;
    if (first + cnt <= p) {
        run[0] = first; run[1] = cnt;
        return 1;
    }
    run[0] = first; run[1] = p - first;
    run[2] = 0; run[3] = first + cnt - p;
    return 2;
}

/* Byte offset of block i when n bytes are split into p blocks as evenly as
 * possible (pattern_block_offset in bytes, which may exceed 2^31). */
static inline size_t bcast_pattern_block_offset(size_t n, int p, int i)
{
    size_t r = n % (size_t)p, k = (size_t)i;
    return k * (n / (size_t)p) + (k < r ? k : r);
}

/* Segments of seg bytes over n bytes (the last one shorter). */
static inline size_t bcast_pattern_seg_count(size_t n, size_t seg)
{
    return n / seg + (n % seg != 0);
}

static inline size_t bcast_pattern_seg_len(size_t n, size_t seg, size_t i)
{
    size_t off = i * seg, left = n - off;
    return left < seg ? left : seg;
}

#endif
