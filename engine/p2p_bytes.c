/* p2p_bytes.c - point-to-point of any size (see p2p_bytes.h). A derived
 * type may be freed as soon as the operation using it is posted: MPI
 * completes pending operations normally. */
#include "engine/p2p_bytes.h"
#include "engine/buf.h"
#include "engine/scratch.h"

#include <limits.h>

/* q chunks of P2P_BIG_CHUNK elements, then the r left over, resized to
 * exactly count extents so that the type also strides correctly. */
static int build_big_type(MPI_Aint count, MPI_Datatype type, MPI_Datatype *t)
{
    MPI_Aint q = count / P2P_BIG_CHUNK, r = count % P2P_BIG_CHUNK, lb, extent;
    MPI_Datatype chunk, whole;
    PMPI_Type_get_extent(type, &lb, &extent);
    int len[2] = {(int)q, (int)r};
    MPI_Aint disp[2] = {0, q * P2P_BIG_CHUNK * extent};
    int err = PMPI_Type_contiguous((int)P2P_BIG_CHUNK, type, &chunk);
    if (err)
        return err;
    MPI_Datatype parts[2] = {chunk, type};
    err = PMPI_Type_create_struct(r ? 2 : 1, len, disp, parts, &whole);
    PMPI_Type_free(&chunk);
    if (err)
        return err;
    err = PMPI_Type_create_resized(whole, lb, count * extent, t);
    PMPI_Type_free(&whole);
    if (!err && (err = PMPI_Type_commit(t)))
        PMPI_Type_free(t);
    return err;
}

int big_type(MPI_Aint count, MPI_Datatype type, int *n, MPI_Datatype *t)
{
    *n = 1;
    *t = type;
    if (count <= INT_MAX) {
        *n = (int)count;
        return MPI_SUCCESS;
    }
    return build_big_type(count, type, t);
}

void big_type_free(const struct coll_args *a, MPI_Datatype type, MPI_Datatype *t)
{
    if (*t != type)
        buf_type_free(a, t);
    *t = type;
}

/* A struct of one piece per block: the block's own type where its length
 * fits an int, else its big type (the pieces are freed at once: the new
 * type keeps what it needs). */
int big_blocks_type(int n, const MPI_Aint *len, const MPI_Aint *disp, MPI_Datatype type,
                    MPI_Datatype *out)
{
    MPI_Datatype *parts = scratch_get((size_t)(n > 0 ? n : 1) * (sizeof *parts + sizeof(int)));
    int made = 0, err = MPI_SUCCESS;
    if (!parts)
        return MPI_ERR_NO_MEM;
    int *lengths = (int *)(parts + n);
    for (; made < n && !err; made++)
        err = big_type(len[made], type, &lengths[made], &parts[made]);
    if (err)
        made--;
    if (!err)
        err = PMPI_Type_create_struct(n, lengths, disp, parts, out);
    if (!err && (err = PMPI_Type_commit(out)))
        PMPI_Type_free(out);
    while (made-- > 0)
        if (parts[made] != type)
            PMPI_Type_free(&parts[made]);
    scratch_put(parts);
    return err;
}
