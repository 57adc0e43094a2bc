/* barrier_recursive_doubling.c - pairwise-exchange barrier.
 *
 * In round k every rank swaps a zero-byte message with rank xor 2^k; after
 * lg p rounds each has heard, through the chain of partners, from all:
 *
 *   round 0:  0<->1  2<->3  4<->5  6<->7
 *   round 1:  0<->2  1<->3  4<->6  5<->7
 *   round 2:  0<->4  1<->5  2<->6  3<->7
 *
 * Non-power-of-two p: the first 2r ranks (r = p - 2^floor(lg p)) fold in
 * pairs: the even one signals the odd one and waits; the 2^floor(lg p)
 * survivors exchange; then each odd one releases its even partner.
 * Wins when p is a power of two and the network favours exchanges
 * (both directions of a link busy at once); dissemination is never worse
 * in rounds.
 *
 * Cost = lg(p) alpha (+ 2 alpha when p is not a power of two) */
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/model.h"

/* p not a power of two: the fold's signal and release, at distance 1. */
double barrier_recursive_doubling_cost(const struct cost_call *c, const struct machine_model *m)
{
    int pow2 = model_pow2_floor(c->p);
    double cost = pow2 < c->p ? 2 * model_exchange(c, m, 0, 1) : 0;
    for (int d = 1; d < pow2; d *= 2)
        cost += model_folded_exchange(c, m, 0, d);
    return cost;
}

static int token_send(int peer, const struct coll_args *a) { return p2p_send(NULL, 0, MPI_BYTE, peer, a); }
static int token_wait(int peer, const struct coll_args *a) { return p2p_recv(NULL, 0, MPI_BYTE, peer, a); }

static int exchange_rounds(int vrank, const struct coll_args *a)
{
    int pof2 = pattern_pow2_floor(a->size), err = MPI_SUCCESS;
    for (int mask = 1; mask < pof2 && !err; mask <<= 1) {
        int peer = pattern_fold_real(vrank ^ mask, a->size);
        err = p2p_sendrecv(NULL, 0, MPI_BYTE, peer, NULL, 0, MPI_BYTE, peer, a);
    }
    return err;
}

int barrier_recursive_doubling(const struct coll_args *a)
{
    int rem = a->size - pattern_pow2_floor(a->size),
        vrank = pattern_fold_virtual(a->rank, a->size);
    int folded = a->rank < 2 * rem, err;
    if (vrank < 0) /* folded away: signal the partner, wait for release */
        return (err = token_send(a->rank + 1, a)) ? err : token_wait(a->rank + 1, a);
    if (folded && (err = token_wait(a->rank - 1, a)))
        return err;
    if ((err = exchange_rounds(vrank, a)))
        return err;
    return folded ? token_send(a->rank - 1, a) : MPI_SUCCESS;
}
