/* alltoall_inplace.c - the MPI_IN_PLACE path: pairwise swaps through one
 * block-sized temporary.
 *
 * In place the block for peer j and the block from peer j share the same
 * place in recvbuf (recvcounts and receive types describe both), so a rank
 * can only overwrite block j while swapping with j itself. The rounds
 * follow a round-robin tournament (a one-factorization of K_p), in which
 * every rank has at most one partner per round and meets every other rank
 * once: in each round a rank copies block j into the temporary and does
 * one sendrecv with j (send the temporary, receive into block j).
 *
 *   p = 4 (3 rounds):  0<->3 1<->2 | 0<->1 2<->3 | 0<->2 1<->3
 *   p = 5 (5 rounds):  round r pairs i with r - i (mod 5); the rank
 *                      with 2i = r sits out
 *
 * Even p: p - 1 rounds, ranks 0..p-2 run the odd tournament and whoever
 * would sit out meets rank p - 1; odd p: p rounds. Zero-byte blocks are
 * skipped (the partner's block is zero bytes too: signatures match).
 *
 * Cost = (p - 1 + (p mod 2)) alpha + ((p-1)/p) n beta (+ ((p-1)/p) n bytes of
 *        local copying), n = sendcount * p * type size
 * Restriction: only in place (ALG_NEEDS_IN_PLACE).
 * Core shared with the other all-to-alls: common/alltoall_core.c
 * (alltoall_core_inplace). */
#include "algorithms/common/alltoall_core.h"
#include "algorithms/model.h"
#include "algorithms/patterns/alltoall_pattern.h"

/* Tournament rounds of one block swapped with a partner at any distance:
 * each round as a shift by p/2 (most partners, on another node). Copies
 * into the temporary not counted. */
double alltoall_inplace_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return alltoall_pattern_inplace_rounds(c->p) * model_shift(c, m, c->bytes / c->p, c->p / 2);
}

int alltoall_inplace(const struct coll_args *a) { return alltoall_core_inplace(a); }
