/* tree_bytes.c - byte staging and child traffic of binomial gather and
 * scatter trees. */
#include "algorithms/common/tree_bytes.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/common/tree_send.h"

size_t tree_bytes_bytes(MPI_Aint count, MPI_Datatype type)
{
    return count > 0 ? (size_t)count * buf_type_size(type) : 0;
}

/* Relative [lo, hi) splits at the relative index of rank 0 into at most
 * two runs of consecutive absolute ranks. */
static int rotated(const void *buf, MPI_Aint count, MPI_Datatype type, int lo, int hi,
                   const struct coll_args *a, char *bytes, size_t blk, int pack)
{
    int cut = a->size - a->root, err = MPI_SUCCESS;
    int runs[2][2] = {{lo, hi < cut ? hi : cut}, {lo > cut ? lo : cut, hi}};
    for (int i = 0; i < 2 && !err; i++) {
        int r0 = runs[i][0], n = runs[i][1] - r0;
        if (n <= 0)
            continue;
        void *user = buf_at(buf, (MPI_Aint)pattern_abs(r0, a->root, a->size) * count, type);
        char *b = bytes + (size_t)r0 * blk;
        MPI_Aint elems = (MPI_Aint)n * count;
        err = pack ? buf_pack(user, elems, type, b, a) : buf_unpack(b, user, elems, type, a);
    }
    return err;
}

int tree_bytes_pack_rotated(const void *buf, MPI_Aint count, MPI_Datatype type, int lo, int hi,
                            const struct coll_args *a, char *bytes, size_t blk)
{
    return rotated(buf, count, type, lo, hi, a, bytes, blk, 1);
}

int tree_bytes_unpack_rotated(const char *bytes, size_t blk, int lo, int hi,
                              const struct coll_args *a, void *buf, MPI_Aint count,
                              MPI_Datatype type)
{
    return rotated(buf, count, type, lo, hi, a, (char *)bytes, blk, 0);
}

int tree_bytes_post_children(const struct coll_args *a, int rel, char *stage, size_t blk,
                             int sending, MPI_Request *reqs, int *n)
{
    int p = a->size, err = MPI_SUCCESS;
    *n = 0;
    for (int m = pattern_binomial_mask(rel, p) >> 1; m > 0 && !err; m >>= 1) {
        int child = rel + m, peer = pattern_abs(child, a->root, p);
        if (child >= p)
            continue;
        MPI_Aint len = (MPI_Aint)((size_t)tree_bytes_subtree(child, p) * blk);
        char *at = stage + (size_t)m * blk;
        if (sending)
            err = tree_send_child(at, len, MPI_BYTE, peer, a, reqs, n);
        else if (!(err = p2p_irecv(at, len, MPI_BYTE, peer, a, &reqs[*n])))
            (*n)++;
    }
    return err;
}
