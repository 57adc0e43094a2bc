/* alltoall_scattered.c - all exchanges nonblocking, in windows.
 *
 * The own block is copied locally; then the p - 1 exchanges are posted as
 * irecv from rank - s and isend to rank + s (blocks of sendcount elements at j * sendcount), at most
 * `outstanding` (a->params.outstanding, default 8) steps at a time, and
 * each window is completed with one waitall before the next is posted:
 *
 *   outstanding = 3, p = 8:  window 1: s = 1,2,3   window 2: s = 4,5,6
 *                            window 3: s = 7
 *
 * Spreading the targets (rank + s) keeps any rank from being hit by every
 * sender at once; the window bounds the requests and unexpected messages
 * a rank must hold. Any p works: shifts need no pairing. Zero-byte blocks
 * are not sent.
 * Wins for medium blocks, where overlapping the latencies of a window of
 * messages beats the one-at-a-time pairwise exchange.
 *
 * Cost = ceil((p-1)/k) alpha + ((p-1)/p) n beta, k = outstanding,
 *        n = sendcount * p * type size (bandwidth shared by k messages in flight)
 * Restriction: not in place (the selector walks on to alltoall/inplace).
 * Core shared with the other all-to-alls: common/alltoall_core.c
 * (alltoall_core_scattered). */
#include "algorithms/common/alltoall_core.h"
#include "algorithms/model.h"

/* Windows of w = c->outstanding shifts (0: ALLTOALL_CORE_DEFAULT_OUTSTANDING):
 * a window's w blocks leave back to back, as one message of w blocks to
 * its farthest distance. */
double alltoall_scattered_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int window = c->outstanding > 0 ? c->outstanding : ALLTOALL_CORE_DEFAULT_OUTSTANDING;
    double block = c->bytes / c->p, cost = 0;
    for (int first = 1; first < c->p; first += window) {
        int last = first + window < c->p ? first + window : c->p;
        cost += model_burst(c, m, block, last - first, last - 1);
    }
    return cost;
}

int alltoall_scattered(const struct coll_args *a) { return alltoall_core_scattered(a); }
