/* bcast_scatter_allgather.c - binomial scatter then ring allgather (van de
 * Geijn; Barnett et al. 1994; Thakur, Rabenseifner & Gropp 2005 sec. 4.1).
 *
 * The packed message is cut into p blocks, block i for relative rank i.
 * A binomial scatter leaves each rank its own block (and its subtree's);
 * then p - 1 ring steps pass blocks to the right, rank rel sending block
 * rel - s at step s, so each rank receives every block once:
 *
 *   scatter (p = 4):  0 -> 2 [blocks 2,3]   0 -> 1 [1]   2 -> 3 [3]
 *   ring step s:      rel sends block (rel - s) to rel + 1
 *
 * The root already has everything: it receives nothing, and its left
 * neighbour does not send to it. Blocks are split from the packed bytes,
 * so ranks with different type maps agree on them; with fewer bytes than
 * ranks some blocks are empty and their messages are skipped on both
 * sides. Wins for large messages: 2n beta instead of lg p n beta.
 *
 * Cost = (lg p + p - 1) alpha + 2 (p-1)/p n beta
 * Non-power-of-two p: nothing special; the binomial scatter is cut at p
 * and the ring does not care. */
#include "algorithms/common/bcast_bytes.h"
#include "algorithms/patterns/bcast_pattern.h"
#include "engine/p2p.h"
#include "algorithms/model.h"

/* The binomial scatter of the p blocks, then p - 1 ring steps of one
 * block to the right neighbour. */
double bcast_scatter_allgather_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return model_binomial_blocks(c, m) + (c->p - 1) * model_shift(c, m, c->bytes / c->p, 1);
}

/* One ring step: send block sblk right, receive block rblk from the left. */
static int ring_step(const struct bcast_bytes *b, int rel, int s, const struct coll_args *a)
{
    int p = a->size;
    size_t slen, rlen;
    int sblk = (rel - s + p) % p, rblk = (rel - s - 1 + 2 * p) % p;
    char *sat = bcast_bytes_blocks(b, p, sblk, sblk + 1, &slen);
    char *rat = bcast_bytes_blocks(b, p, rblk, rblk + 1, &rlen);
    int right = rel + 1 < p && slen > 0 ? pattern_abs(rel + 1, a->root, p) : MPI_PROC_NULL;
    int left = rel > 0 && rlen > 0 ? pattern_abs(rel - 1, a->root, p) : MPI_PROC_NULL;
    return p2p_sendrecv(sat, (MPI_Aint)slen, MPI_BYTE, right, rat, (MPI_Aint)rlen, MPI_BYTE,
                          left, a);
}

int bcast_scatter_allgather(const struct coll_args *a)
{
    struct bcast_bytes b;
    int rel = pattern_rel(a->rank, a->root, a->size), err;
    if (a->size == 1)
        return MPI_SUCCESS;
    if ((err = bcast_bytes_open(&b, a)) || b.n == 0)
        return bcast_bytes_close(&b, err, a);
    err = bcast_bytes_scatter(&b, a);
    for (int s = 0; s < a->size - 1 && !err; s++)
        err = ring_step(&b, rel, s, a);
    return bcast_bytes_close(&b, err, a);
}
