/* allreduce_inter_leaders.c - intercommunicator allreduce through the two
 * leaders: each group reduces its vectors at its rank 0 (the reduce the
 * tables choose, sub.h; rank order kept for non-commutative ops), the
 * leaders swap the two results, and each group broadcasts the other
 * group's result from its rank 0 (the selected bcast).
 *
 * Cost = Cost(reduce, p, n) + alpha + n beta + Cost(bcast, p, n); short
 * and medium vectors. */
#include "algorithms/compose/inter.h"

int allreduce_inter_leaders(const struct coll_args *a)
{
    int err = inter_reduce_swap(a, a->count, a->recvbuf);
    struct coll_args b = {.coll = COLL_bcast, .recvbuf = a->recvbuf, .count = a->count,
                          .datatype = a->datatype, .root = 0};
    return err ? err : inter_local(a, &b);
}
