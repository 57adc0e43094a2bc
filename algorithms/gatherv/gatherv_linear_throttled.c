/* gatherv_linear_throttled.c - linear gatherv with a bounded window.
 *
 * As gatherv_linear, but the root keeps at most w receives posted
 * (a->params.outstanding, default LINEAR_ROOT_DEFAULT_OUTSTANDING = 8); each
 * completion (Waitany) posts the next rank's receive, in rank order from
 * root+1:
 *
 *   posted:  [1 2 3 .. w]  -> 2 done ->  [1 w+1 3 .. w]  -> ...
 *
 * Large messages go rendezvous, so only w senders stream into the root at
 * a time: less incast congestion and fewer unexpected-message buffers at
 * large p. Any p.
 *
 * Cost = (p-1) alpha + n beta, with at most w transfers in flight
 * Wins over plain linear for large blocks at large p (switch buffers and
 * the root's NIC overflow); the same elsewhere. Tune with
 * `gatherv @linear_throttled outstanding=4`. */
#include "algorithms/common/linear_root.h"

int gatherv_linear_throttled(const struct coll_args *a)
{
    struct linear_root_blocks b = {.buf = a->recvbuf, .type = a->recvtype,
                                   .counts = a->recvcounts, .displs = a->rdispls};
    int w = a->params.outstanding > 0 ? a->params.outstanding : LINEAR_ROOT_DEFAULT_OUTSTANDING;
    return linear_root_gather(a, &b, w);
}
