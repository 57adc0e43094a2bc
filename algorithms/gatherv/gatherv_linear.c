/* gatherv_linear.c - linear gatherv.
 *
 * Every rank with a non-empty block sends it to the root, which posts one
 * receive per such rank, straight into recvbuf at rdispls[i] with
 * recvcounts[i] of its recvtype, and waits for all of them. Empty blocks
 * send nothing (both sides know the byte count). Any p, any order of
 * displacements; unused parts of recvbuf are never touched.
 *
 * Cost = (p-1) alpha + n beta (n = all blocks' bytes; latencies overlap)
 * The usual choice: no rank can know the total, and a tree would have to
 * pack uneven subtrees. The core is linear_root_gather
 * (common/linear_root.c). */
#include "algorithms/common/linear_root.h"
#include "algorithms/model.h"

double gatherv_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_flat_blocks(c, m);
}

int gatherv_linear(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = a->recvbuf, .type = a->recvtype,
                                   .counts = a->recvcounts, .displs = a->rdispls};
    return linear_root_gather(a, &b, 0);
}
