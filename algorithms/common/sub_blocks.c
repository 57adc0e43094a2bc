/* sub_blocks.c - block tables for the steps of composed algorithms (sub.h). */
#include "engine/buf.h"
#include "algorithms/common/pattern.h"
#include "algorithms/common/sub.h"

int *sub_block_table(const struct coll_args *a, int count, int p)
{
    int *counts = buf_bytes(a, 2 * (size_t)p * sizeof *counts);
    for (int i = 0; counts && i < p; i++) {
        counts[i] = pat_block_count(count, p, i);
        counts[p + i] = (int)pat_block_offset(count, p, i);
    }
    return counts;
}
