/* barrier_dissemination.c - dissemination barrier (Hensgen, Finkel &
 * Manber 1988).
 *
 * In round k every rank signals rank + 2^k and waits for rank - 2^k (mod p),
 * with zero-byte messages. After round k a rank has heard, directly or
 * through a chain, from the 2^(k+1) - 1 ranks before it, so after
 * ceil(lg p) rounds it knows every rank has arrived:
 *
 *   p = 5, round 0:  0->1 1->2 2->3 3->4 4->0
 *          round 1:  0->2 1->3 2->4 3->0 4->1
 *          round 2:  0->4 1->0 2->1 3->2 4->3
 *
 * Wins almost everywhere: every rank is busy in every round and there is
 * no separate release phase.
 *
 * Cost = ceil(lg p) alpha
 * Non-power-of-two p: nothing special, distances wrap mod p. */
#include "engine/p2p.h"
#include "algorithms/model.h"

double barrier_dissemination_cost(const struct cost_call *c, const struct machine_model *m)
{
    double cost = 0;
    for (int d = 1; d < c->p; d *= 2)
        cost += model_shift(c, m, 0, d);
    return cost;
}

int barrier_dissemination(const struct coll_args *a)
{
    int p = a->size, err = MPI_SUCCESS;
    for (int d = 1; d < p && !err; d *= 2)
        err = p2p_sendrecv(NULL, 0, MPI_BYTE, (a->rank + d) % p, NULL, 0, MPI_BYTE,
                           (a->rank - d + p) % p, a);
    return err;
}
