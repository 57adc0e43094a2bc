/* scatterv_inter_linear_throttled.c - intercommunicator scatterv, linear,
 * with at most w = outstanding (default 8) sends in flight at the root,
 * refilled in rank order as they complete; the remote ranks receive as in
 * inter_linear.
 *
 * Cost = q alpha + n beta, w messages in flight; large blocks to many
 * ranks. */
#include "algorithms/compose/inter.h"
#include "algorithms/common/linear_root.h"

int scatterv_inter_linear_throttled(const struct coll_args *a)
{
    return inter_rooted_linear(a, a->params.outstanding > 0 ? a->params.outstanding
                                                           : LINEAR_ROOT_DEFAULT_OUTSTANDING);
}
