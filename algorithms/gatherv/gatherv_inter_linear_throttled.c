/* gatherv_inter_linear_throttled.c - intercommunicator gatherv, linear,
 * with at most w = outstanding (default 8) receives in flight at the root,
 * refilled in rank order as they complete; the remote ranks send as in
 * inter_linear.
 *
 * Cost = q alpha + n beta, w messages in flight; large blocks from many
 * ranks, where q receives at once flood the root. */
#include "algorithms/compose/inter.h"
#include "algorithms/common/linear_root.h"

int gatherv_inter_linear_throttled(const struct coll_args *a)
{
    return inter_rooted_linear(a, a->params.outstanding > 0 ? a->params.outstanding
                                                           : LINEAR_ROOT_DEFAULT_OUTSTANDING);
}
