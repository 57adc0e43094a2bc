/* allgather_bruck.c - Bruck's concatenation (Bruck et al. 1997).
 *
 * Each rank keeps its blocks in a byte buffer rotated so that its own
 * block comes first (position i holds block r+i). At step k it sends its
 * first min(2^k, p-2^k) positions to rank r-2^k and appends as many from
 * rank r+2^k; after ceil(lg p) steps it holds all p blocks and one unpack
 * puts positions 1..p-1 where they belong in recvbuf (the local rotation):
 *
 *   p = 5, rank 0:  [0]  ->  [0 1]  ->  [0 1 2 3]  ->  [0 1 2 3 4]
 *                     from 1       from 2         from 4 (1 block)
 *
 * Any p, no folding: ceil(lg p) steps whatever p is, the last one short.
 * Data crosses ranks as bytes, so differing type maps do not matter.
 *
 * Cost = ceil(lg p) alpha + ((p-1)/p) n beta (+ n beta_mem for packing
 *        and the rotation)
 * Wins for small n at non-power-of-two p, where recursive doubling pays
 * for folding. The core is allgather_blocks_bruck
 * (common/allgather_blocks.c), shared with allgatherv_bruck. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/model.h"

/* Step d: min(d, p - d) blocks to rank r - d. The local rotation (n bytes
 * copied) is not in the model. */
double allgather_bruck_cost(const struct cost_call *c, const struct machine_model *m)
{
    int p = c->p;
    double cost = 0;
    for (int d = 1; d < p; d *= 2)
        cost += model_shift(c, m, (d < p - d ? d : p - d) * (c->bytes / p), d);
    return cost + model_copy(m, c->bytes); /* the final rotation */
}

int allgather_bruck(const struct coll_args *a) { return allgather_blocks_bruck(a); }
