/* scatterv_linear_throttled.c - linear scatterv with a bounded window.
 *
 * As scatterv_linear, but the root keeps at most w sends in flight
 * (a->params.outstanding, default LINEAR_ROOT_DEFAULT_OUTSTANDING = 8); each
 * completion (Waitany) starts the send to the next rank, in rank order
 * from root+1:
 *
 *   in flight:  [1 2 3 .. w]  -> 2 done ->  [1 w+1 3 .. w]  -> ...
 *
 * Bounds the root's buffered eager data and the number of receivers a
 * large scatter streams to at once. Any p.
 *
 * Cost = (p-1) alpha + n beta, with at most w transfers in flight
 * Wins over plain linear for large blocks at large p; the same elsewhere.
 * Tune with `scatterv @linear_throttled outstanding=4`. */
#include "algorithms/common/linear_root.h"

int scatterv_linear_throttled(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = (void *)a->sendbuf, .type = a->sendtype,
                                   .counts = a->sendcounts, .displs = a->sdispls};
    int w = a->params.outstanding > 0 ? a->params.outstanding : LINEAR_ROOT_DEFAULT_OUTSTANDING;
    return linear_root_scatter(a, &b, w);
}
