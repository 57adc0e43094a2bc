/* gather_linear.c - linear (flat tree) gather.
 *
 * Every rank sends its block to the root, which posts all p-1 receives at
 * once straight into recvbuf with its own (recvcount, recvtype) and waits
 * for them:
 *
 *   1 --\
 *   2 ---> root      (in place at the root: its block is already there)
 *   3 --/
 *
 * No forwarding, so no packing and no temporaries anywhere. Any p.
 *
 * Cost = (p-1) alpha + ((p-1)/p) n beta
 * The root's link carries everything either way; with the latencies
 * overlapped it wins for large n and small p, where the binomial tree's
 * lg(p) rounds of store-and-forward only add copies. The core is
 * linear_root_gather (common/linear_root.c). */
#include "algorithms/common/linear_root.h"
#include "algorithms/model.h"

double gather_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_flat_blocks(c, m);
}

int gather_linear(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = a->recvbuf, .type = a->recvtype,
                                   .count = a->recvcount};
    return linear_root_gather(a, &b, 0);
}
