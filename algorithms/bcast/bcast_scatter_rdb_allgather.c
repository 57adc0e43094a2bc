/* bcast_scatter_rdb_allgather.c - binomial scatter then a doubling
 * allgather (Thakur, Rabenseifner & Gropp 2005 sec. 4.1; the allgather in
 * the dissemination form of Bruck et al. 1997, so any p needs ceil(lg p)
 * steps).
 *
 * The packed message is cut into p blocks, block i for relative rank i; a
 * binomial scatter leaves each rank its own block. Then the number of
 * blocks a rank holds doubles every step: holding the h blocks rel ..
 * rel + h - 1 (mod p), rank rel sends min(h, p - h) of them to rel - h and
 * receives as many, rel + h onwards, from rel + h:
 *
 *   p = 4, holding:   step h=1        step h=2
 *     rel 0: {0}      {0,1}           {0,1,2,3}
 *     rel 1: {1}      {1,2}           {1,2,3,0}
 *     rel 3: {3}      {3,0}           {3,0,1,2}
 *
 * A window that wraps past block p - 1 travels as two messages. The root
 * already holds everything: it receives nothing and nobody sends to it.
 * Blocks are split from the packed bytes, so ranks with different type maps
 * agree on them; empty blocks (fewer bytes than ranks) are skipped on both
 * sides. Same bandwidth as scatter_allgather, but ceil(lg p) instead of
 * p - 1 latencies in the allgather: wins for medium messages and large p.
 *
 * Cost = 2 ceil(lg p) alpha + 2 (p-1)/p n beta
 *        (a step whose window wraps sends two messages at once: + o, the
 *        second's overhead; both leave together, so no second alpha)
 * Non-power-of-two p: handled, not restricted: the last step sends only
 * the p - h blocks still missing, so the cost above holds for any p (for a
 * power of two the steps move the same data as the pairwise exchange
 * rel <-> rel xor h of recursive doubling). */
#include "algorithms/common/bcast_bytes.h"
#include "algorithms/patterns/bcast_pattern.h"
#include "engine/p2p.h"
#include "algorithms/model.h"

/* The binomial scatter of the p blocks, then ceil(lg p) doubling steps:
 * min(h, p - h) blocks to rel - h; a window of two or more blocks wraps on
 * some rank: one message more, posted with the first (its overhead). */
double bcast_scatter_rdb_allgather_cost(const struct cost_call *c, const struct machine_model *m)
{
    int p = c->p;
    double cost;
    if (p <= 1 || c->bytes <= 0)
        return 0;
    cost = model_binomial_blocks(c, m);
    for (int have = 1; have < p; have *= 2) {
        int blocks = have < p - have ? have : p - have;
        cost += model_shift(c, m, blocks * (c->bytes / p), have);
        if (blocks > 1)
            cost += m->overhead;
    }
    return cost;
}

/* Post the (at most two) messages of cnt blocks from block first. */
static int post_runs(const struct bcast_bytes *b, int first, int cnt, int peer, int recv,
                     const struct coll_args *a, MPI_Request *reqs, int *nreq)
{
    int run[4], err = MPI_SUCCESS;
    size_t len;
    int nrun = bcast_pattern_wrapped_runs(first, cnt, a->size, run);
    for (int r = 0; r < nrun && !err; r++) {
        char *at = bcast_bytes_blocks(b, a->size, run[2 * r], run[2 * r] + run[2 * r + 1], &len);
        if (len == 0)
            continue;
        err = recv ? p2p_irecv(at, (MPI_Aint)len, MPI_BYTE, peer, a, &reqs[*nreq])
                   : p2p_isend(at, (MPI_Aint)len, MPI_BYTE, peer, a, &reqs[*nreq]);
        if (!err)
            (*nreq)++;
    }
    return err;
}

static int doubling_step(const struct bcast_bytes *b, int rel, int have, const struct coll_args *a)
{
    MPI_Request reqs[4];
    int p = a->size, cnt = have < p - have ? have : p - have, nreq = 0, err = MPI_SUCCESS;
    int to = (rel - have + p) % p, from = (rel + have) % p;
    if (rel != 0)
        err = post_runs(b, rel + have, cnt, pattern_abs(from, a->root, p), 1, a, reqs, &nreq);
    if (!err && to != 0)
        err = post_runs(b, rel, cnt, pattern_abs(to, a->root, p), 0, a, reqs, &nreq);
    int werr = p2p_waitall(a, nreq, reqs);
    return err ? err : werr;
}

int bcast_scatter_rdb_allgather(const struct coll_args *a)
{
    struct bcast_bytes b;
    int rel = pattern_rel(a->rank, a->root, a->size), err;
    if (a->size == 1)
        return MPI_SUCCESS;
    if ((err = bcast_bytes_open(&b, a)) || b.n == 0)
        return bcast_bytes_close(&b, err, a);
    err = bcast_bytes_scatter(&b, a);
    for (int have = 1; have < a->size && !err; have *= 2)
        err = doubling_step(&b, rel, have, a);
    return bcast_bytes_close(&b, err, a);
}
