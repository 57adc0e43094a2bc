/* allreduce_recursive_doubling.c - recursive doubling.
 *
 * At step k every rank swaps its whole partial vector with the rank 2^k
 * away and combines the two, the lower-ranked half on the left, so after
 * lg p steps every rank holds x_0 op x_1 op ... op x_{p-1}:
 *
 *   step 0:  0<->1  2<->3  4<->5  6<->7
 *   step 1:  0<->2  1<->3  4<->6  5<->7
 *   step 2:  0<->4  1<->5  2<->6  3<->7
 *
 * Both partners combine the same two operands in the same order, so the
 * result is bitwise identical on every rank. Non-power-of-two p: the first
 * 2r ranks (r = p - 2^floor(lg p)) fold pairwise (even sends to odd, which
 * reduces lower-left), the 2^floor(lg p) survivors double, and the folded
 * ranks get the result back at the end.
 *
 * Cost = lg(p) alpha + n lg(p) beta + n lg(p) gamma
 *        (+ 2 alpha + 2 n beta + n gamma when p is not a power of two)
 * Wins for small n, where the lg(p) latency term dominates. */
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Non-power-of-two p: the fold in (n sent 1 away, reduced) and back (n
 * sent 1 away) around the doubling; partners at virtual distances. */
double allreduce_recursive_doubling_cost(const struct cost_call *c,
                                         const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double n = c->bytes, cost = model_fold(c, m, n, n);
    int pow2 = model_pow2_floor(c->p);
    for (int distance = 1; distance < pow2; distance *= 2)
        cost += model_exchange(c, m, n, distance) + model_reduce(m, n);
    return cost;
}

/* Doubling among the 2^floor(lg p) virtual ranks; the result ends in *acc. */
static int double_up(const struct coll_args *a, int vrank, void **acc, void **scratch)
{
    int pof2 = pattern_pow2_floor(a->size), err = MPI_SUCCESS;
    for (int mask = 1; mask < pof2 && !err; mask <<= 1) {
        int vpeer = vrank ^ mask, peer = pattern_fold_real(vpeer, a->size);
        err = p2p_sendrecv(*acc, a->count, a->datatype, peer, *scratch, a->count,
                           a->datatype, peer, a);
        if (err)
            break;
        if (vpeer < vrank) {
            err = buf_reduce(a, *scratch, *acc, a->count, a->datatype, a->op);
        } else {
            err = buf_reduce(a, *acc, *scratch, a->count, a->datatype, a->op);
            void *t = *acc;
            *acc = *scratch;
            *scratch = t;
        }
    }
    return err;
}

int allreduce_recursive_doubling(const struct coll_args *a)
{
    int rem = a->size - pattern_pow2_floor(a->size),
        vrank = pattern_fold_virtual(a->rank, a->size);
    void *tmp, *base = NULL, *acc = a->recvbuf;
    int err = MPI_SUCCESS;

    if (!a->in_place &&
        (err = buf_copy(a->sendbuf, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a)))
        return err;
    if (a->size == 1 || a->count == 0)
        return MPI_SUCCESS;
    if ((err = buf_alloc_checked(a, a->count, a->datatype, &tmp, &base)))
        return err;
    void *scratch = tmp;
    if (a->rank < 2 * rem)
        err = reduce_scatter_core_fold_in(a, acc, acc, scratch, a->count);
    if (!err && vrank >= 0)
        err = double_up(a, vrank, &acc, &scratch);
    if (!err && acc != a->recvbuf)
        err = buf_copy(acc, a->count, a->datatype, a->recvbuf, a->count, a->datatype, a);
    if (!err && a->rank < 2 * rem)
        err = reduce_scatter_core_fold_back(a, a->recvbuf, a->count);
    buf_free(a, base);
    return err;
}
