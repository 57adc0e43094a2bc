/* scan_linear.c - order-preserving chain, pipelined in segments.
 *
 * Rank r receives the prefix of ranks 0..r-1 from r - 1, combines it on the
 * left of its own data and passes the new prefix to r + 1. The vector is
 * cut into segments of a->params.seg bytes (default 64 KiB), so rank r + 1
 * works on segment i while rank r works on segment i + 1:
 *
 *   time ->   t1     t2     t3     t4
 *   0 -> 1    s0     s1     s2
 *   1 -> 2           s0     s1     s2
 *   2 -> 3                  s0     s1   ...
 *
 * Any p works. The prefix is always the left operand, so non-commutative
 * ops work.
 * Wins for large vectors: every byte crosses one link and is reduced once
 * per rank, against lg p times for recursive doubling; the pipeline fill
 * costs p - 2 segment times.
 *
 * Cost = (p - 2 + S) (alpha + (n/S) beta + (n/S) gamma), S = ceil(n / seg)
 *        ((p - 1)(alpha + n beta + n gamma) unsegmented)
 * Core shared with exscan: common/prefix.c (prefix_linear). */
#include "algorithms/common/prefix.h"

int scan_linear(const struct coll_args *a) { return prefix_linear(a, 0); }
