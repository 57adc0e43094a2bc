/* rabenseifner.c - reduce-scatter by recursive halving at distances 1, 2,
 * 4, ... and its mirror images, allgather and gather by recursive doubling
 * at distances pof2/2, ..., 1 (Rabenseifner 2004; Thakur, Rabenseifner &
 * Gropp 2005, section 4.5). Shared by allreduce_rabenseifner and
 * reduce_rabenseifner.
 *
 * Halving at distance 1 first (not p/2 first as in Thakur's figure) makes
 * every exchange merge two adjacent aligned groups of ranks, so the lower
 * group's partial goes on the left and any op keeps rank order; the price
 * is that rank v ends with chunk bit-reverse(v), which the mirrored
 * doubling undoes:
 *
 *   pof2 = 4, chunks ABCD   halve d=1: 0,1 split {AB|CD}; d=2: {A|B} ...
 *     after: rank 0 A, rank 1 C, rank 2 B, rank 3 D (bit-reversed)
 *   allgather d=2: 0<->2 {A,B}, 1<->3 {C,D}; d=1: 0<->1, 2<->3 {ABCD}
 *
 * Cost = lg(p) alpha + n(p-1)/p beta + n(p-1)/p gamma (reduce-scatter),
 *        lg(p) alpha + n(p-1)/p beta (allgather or gather)
 * on p = 2^k virtual ranks. */
#include "algorithms/common/rabenseifner.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/patterns/reduce_scatter_pattern.h"

static int steps_of(const struct coll_args *a)
{
    return pattern_ceil_log2(pattern_pow2_floor(a->size));
}

/* Element range of virtual rank v after k halving steps. */
static void range(const struct coll_args *a, int v, int k, MPI_Aint *off, MPI_Aint *len)
{
    int pof2 = pattern_pow2_floor(a->size), lo, n;
    reduce_scatter_pattern_halving_range(v, k, pof2, &lo, &n);
    *off = pattern_block_offset(a->count, pof2, lo);
    *len = pattern_block_offset(a->count, pof2, lo + n) - *off;
}

void rabenseifner_final_range(const struct coll_args *a, int vrank, MPI_Aint *off,
                              MPI_Aint *len)
{
    range(a, vrank, steps_of(a), off, len);
}

int rabenseifner_reduce_scatter(const struct coll_args *a, int vrank, void **acc, void **scratch)
{
    MPI_Datatype t = a->datatype;
    int err = MPI_SUCCESS;
    for (int i = 0; i < steps_of(a) && !err; i++) {
        int vpeer = vrank ^ (1 << i), peer = pattern_fold_real(vpeer, a->size);
        MPI_Aint off, len, goff, glen;
        range(a, vrank, i + 1, &off, &len);
        range(a, vpeer, i + 1, &goff, &glen);
        err = p2p_sendrecv(buf_at(*acc, goff, t), glen, t, peer, buf_at(*scratch, off, t), len, t,
                           peer, a);
        if (!err)
            err = reduce_scatter_core_combine(a, vpeer < vrank, 1, &off, &len, acc, scratch);
    }
    return err;
}

int rabenseifner_allgather(const struct coll_args *a, int vrank, void *buf)
{
    MPI_Datatype t = a->datatype;
    int err = MPI_SUCCESS;
    for (int i = steps_of(a) - 1; i >= 0 && !err; i--) {
        int vpeer = vrank ^ (1 << i), peer = pattern_fold_real(vpeer, a->size);
        MPI_Aint moff, mlen, poff, plen;
        range(a, vrank, i + 1, &moff, &mlen);
        range(a, vpeer, i + 1, &poff, &plen);
        err = p2p_sendrecv(buf_at(buf, moff, t), mlen, t, peer, buf_at(buf, poff, t), plen, t,
                           peer, a);
    }
    return err;
}

/* Ranks whose distance to vroot has bit i as its highest bit send at
 * step i and are done; the others receive and grow their range. */
int rabenseifner_gather(const struct coll_args *a, int vrank, int vroot, void *buf)
{
    MPI_Datatype t = a->datatype;
    int err = MPI_SUCCESS;
    for (int i = steps_of(a) - 1; i >= 0 && !err; i--) {
        int vpeer = vrank ^ (1 << i), peer = pattern_fold_real(vpeer, a->size);
        MPI_Aint off, len;
        if ((vrank ^ vroot) & (1 << i)) {
            range(a, vrank, i + 1, &off, &len);
            return p2p_send(buf_at(buf, off, t), len, t, peer, a);
        }
        range(a, vpeer, i + 1, &off, &len);
        err = p2p_recv(buf_at(buf, off, t), len, t, peer, a);
    }
    return err;
}
