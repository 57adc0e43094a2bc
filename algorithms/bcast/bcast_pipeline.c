/* bcast_pipeline.c - segmented chain broadcast.
 *
 * Ranks form a chain in relative order root = 0 -> 1 -> ... -> p-1; the
 * packed message moves in segments of seg bytes, every rank forwarding
 * segment i while segment i+1 arrives:
 *
 *   time:   1     2     3     4
 *   0->1:   s0    s1    s2
 *   1->2:         s0    s1    s2
 *   2->3:               s0    s1   ...
 *
 * Segments are cut from the packed bytes (identical on every rank even
 * when type maps differ). Wins for very large messages, where the n beta
 * term dominates and the p - 2 steps of filling the chain are amortised;
 * each link carries the message once.
 *
 * Cost = (p - 2 + n/s) (alpha + s beta), s = segment bytes
 *        (a->params.seg, default 64 KiB); where the MPI sends segments
 *        eagerly between nodes, (p - 1) (alpha + s beta) + (n/s - 1) (s beta + o),
 *        o the per-message overhead
 * Non-power-of-two p: nothing special, a chain has any length. */
#include "algorithms/common/bcast_bytes.h"
#include "algorithms/patterns/bcast_pattern.h"
#include "algorithms/segments.h"
#include "algorithms/model.h"

double bcast_pipeline_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_chain_pipeline(c, m, SEG_DEFAULT_BCAST_PIPELINE, 0, BCAST_BYTES_SLOTS);
}

int bcast_pipeline(const struct coll_args *a)
{
    struct bcast_bytes b;
    int p = a->size, rel = pattern_rel(a->rank, a->root, p), err, next;
    int parent = rel > 0 ? pattern_abs(rel - 1, a->root, p) : -1;
    size_t seg = a->params.seg ? a->params.seg : SEG_DEFAULT_BCAST_PIPELINE;
    if (p == 1)
        return MPI_SUCCESS;
    if ((err = bcast_bytes_open(&b, a)) || b.n == 0)
        return bcast_bytes_close(&b, err, a);
    next = pattern_abs(rel + 1, a->root, p);
    err = bcast_bytes_forward(&b, seg, parent, &next, rel + 1 < p ? 1 : 0, a);
    return bcast_bytes_close(&b, err, a);
}
