/* tree_bytes.c - byte staging and child traffic of binomial gather and
 * scatter trees. */
#include "tree_bytes.h"
#include "buf.h"
#include "p2p.h"

size_t tb_bytes(int count, MPI_Datatype type)
{
    return count > 0 ? (size_t)count * (size_t)buf_type_size(type) : 0;
}

char *tb_contiguous(const void *buf, int count, MPI_Datatype type)
{
    MPI_Aint true_lb, true_extent;
    if (!buf_is_contiguous(count, type))
        return NULL;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return (char *)buf + true_lb;
}

int tb_pack(const void *buf, int count, MPI_Datatype type, char *bytes, size_t nbytes)
{
    int pos = 0;
    if (nbytes == 0)
        return MPI_SUCCESS;
    return PMPI_Pack(buf, count, type, bytes, (int)nbytes, &pos, MPI_COMM_SELF);
}

int tb_unpack(const char *bytes, size_t nbytes, void *buf, int count, MPI_Datatype type)
{
    int pos = 0;
    if (nbytes == 0)
        return MPI_SUCCESS;
    return PMPI_Unpack(bytes, (int)nbytes, &pos, buf, count, type, MPI_COMM_SELF);
}

/* Relative [lo, hi) splits at the relative index of rank 0 into at most
 * two runs of consecutive absolute ranks. */
static int rotated(const void *buf, int count, MPI_Datatype type, int lo, int hi,
                   const struct coll_args *a, char *bytes, size_t blk, int pack)
{
    int cut = a->size - a->root, err = MPI_SUCCESS;
    int runs[2][2] = {{lo, hi < cut ? hi : cut}, {lo > cut ? lo : cut, hi}};
    for (int i = 0; i < 2 && !err; i++) {
        int r0 = runs[i][0], n = runs[i][1] - r0;
        if (n <= 0)
            continue;
        void *user = buf_at(buf, (MPI_Aint)pat_abs(r0, a->root, a->size) * count, type);
        char *b = bytes + (size_t)r0 * blk;
        err = pack ? tb_pack(user, n * count, type, b, (size_t)n * blk)
                   : tb_unpack(b, (size_t)n * blk, user, n * count, type);
    }
    return err;
}

int tb_pack_rotated(const void *buf, int count, MPI_Datatype type, int lo, int hi,
                    const struct coll_args *a, char *bytes, size_t blk)
{
    return rotated(buf, count, type, lo, hi, a, bytes, blk, 1);
}

int tb_unpack_rotated(const char *bytes, size_t blk, int lo, int hi,
                      const struct coll_args *a, void *buf, int count, MPI_Datatype type)
{
    return rotated(buf, count, type, lo, hi, a, (char *)bytes, blk, 0);
}

int tb_post_children(const struct coll_args *a, int rel, char *stage, size_t blk, int sending,
                     MPI_Request *reqs, int *n)
{
    int p = a->size, err = MPI_SUCCESS;
    *n = 0;
    for (int m = pat_binomial_mask(rel, p) >> 1; m > 0 && !err; m >>= 1) {
        int child = rel + m, peer = pat_abs(child, a->root, p);
        if (child >= p)
            continue;
        int len = (int)((size_t)tb_subtree(child, p) * blk);
        char *at = stage + (size_t)m * blk;
        err = sending ? p2p_isend(at, len, MPI_BYTE, peer, a, &reqs[*n])
                      : p2p_irecv(at, len, MPI_BYTE, peer, a, &reqs[*n]);
        if (!err)
            (*n)++;
    }
    return err;
}
