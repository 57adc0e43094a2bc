/* barrier_tree.c - binomial fan-in then fan-out.
 *
 * Every rank waits for a zero-byte signal from each child of the binomial
 * tree rooted at 0 and then signals its parent (fan-in: rank 0 learns that
 * all have arrived); rank 0 then releases everyone down the same tree
 * (fan-out, algorithms/common/bcast_tree.c):
 *
 *   fan-in  (p = 8):  1->0 3->2 5->4 7->6 | 2->0 6->4 | 4->0
 *   fan-out (p = 8):  0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7
 *
 * Twice the rounds of dissemination, but only p - 1 messages per phase
 * instead of p per round: wins where message injection, not latency, is
 * the bottleneck (many ranks sharing one NIC).
 *
 * Cost = 2 ceil(lg p) alpha
 * Non-power-of-two p: the tree is cut at p, still ceil(lg p) deep. */
#include "algorithms/common/bcast_tree.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/model.h"

/* Fan-in, then fan-out down the same binomial tree: one message a level. */
double barrier_tree_cost(const struct cost_call *c, const struct machine_model *m)
{
    double cost = 0;
    for (int d = 1; d < c->p; d *= 2)
        cost += 2 * model_tree(c, m, 0, d, 1);
    return cost;
}

static int fan_in(const struct coll_args *a)
{
    MPI_Request reqs[32];
    int p = a->size, rank = a->rank, n = 0, err = MPI_SUCCESS;
    for (int m = pattern_binomial_mask(rank, p) / 2; m > 0 && !err; m /= 2)
        if (rank + m < p && !(err = p2p_irecv(NULL, 0, MPI_BYTE, rank + m, a, &reqs[n])))
            n++;
    int werr = p2p_waitall(a, n, reqs);
    if (err || werr || rank == 0)
        return err ? err : werr;
    return p2p_send(NULL, 0, MPI_BYTE, pattern_binomial_parent(rank), a);
}

int barrier_tree(const struct coll_args *a)
{
    int err = a->size > 1 ? fan_in(a) : MPI_SUCCESS;
    return err ? err : bcast_tree_release(0, a);
}
