/* scatterv_linear.c - linear scatterv.
 *
 * The root posts one send per rank with a non-empty block, straight from
 * sendbuf at displs[i] with sendcounts[i] of its sendtype, and waits for
 * all; each such rank receives into recvbuf. Empty blocks send nothing.
 * Any p, any order of displacements.
 *
 * Cost = (p-1) alpha + n beta (n = all blocks' bytes; latencies overlap)
 * The usual choice: no rank can know the total, and a tree would have to
 * pack uneven subtrees. The core is linear_root_scatter
 * (common/linear_root.c). */
#include "algorithms/common/linear_root.h"
#include "algorithms/model.h"

double scatterv_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_flat_blocks(c, m);
}

int scatterv_linear(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = (void *)a->sendbuf, .type = a->sendtype,
                                   .counts = a->sendcounts, .displs = a->sdispls};
    return linear_root_scatter(a, &b, 0);
}
