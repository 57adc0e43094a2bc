/* sub_blocks.c - block tables and groups for the steps of composed
 * algorithms (sub.h). */
#include "engine/buf.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/compose/sub.h"

MPI_Aint *sub_block_table(const struct coll_args *a, MPI_Aint count, int p)
{
    MPI_Aint *counts = buf_bytes(a, 2 * (size_t)p * sizeof *counts);
    for (int i = 0; counts && i < p; i++) {
        counts[i] = pattern_block_count(count, p, i);
        counts[p + i] = pattern_block_offset(count, p, i);
    }
    return counts;
}

struct sub_group sub_group_all(const struct coll_args *a)
{
    struct sub_group g = {a->rank, a->size, a->peers, a->shape, a->layout};
    return g;
}
