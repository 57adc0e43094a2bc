/* scatter_linear.c - linear (flat tree) scatter.
 *
 * The root posts one send per other rank, straight from sendbuf with its
 * own (sendcount, sendtype), and waits for all; every other rank receives
 * its block into recvbuf:
 *
 *          /--> 1
 *   root -----> 2    (in place at the root: its block stays in sendbuf)
 *          \--> 3
 *
 * No forwarding, no packing, no temporaries. Any p.
 *
 * Cost = (p-1) alpha + ((p-1)/p) n beta
 * Wins for large n and small p, where the binomial tree only adds copies.
 * The core is linear_root_scatter (common/linear_root.c). */
#include "algorithms/common/linear_root.h"
#include "algorithms/model.h"

double scatter_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_flat_blocks(c, m);
}

int scatter_linear(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = (void *)a->sendbuf, .type = a->sendtype,
                                   .count = a->sendcount};
    return linear_root_scatter(a, &b, 0);
}
