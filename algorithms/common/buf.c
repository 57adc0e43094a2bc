/* buf.c - temporary buffers, copies and packing for any datatype. */
#include "buf.h"

#include <stdlib.h>
#include <string.h>

MPI_Aint buf_extent(MPI_Datatype type)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

int buf_type_size(MPI_Datatype type)
{
    int size;
    PMPI_Type_size(type, &size);
    return size;
}

void *buf_at(const void *buf, MPI_Aint i, MPI_Datatype type)
{
    return (char *)buf + i * buf_extent(type);
}

void *buf_alloc(int count, MPI_Datatype type, void **base)
{
    MPI_Aint true_lb, true_extent, lb, extent;
    *base = NULL;
    if (count <= 0)
        return NULL;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    PMPI_Type_get_extent(type, &lb, &extent);
    MPI_Aint span = true_extent + (MPI_Aint)(count - 1) * (extent < 0 ? -extent : extent);
    *base = malloc(span > 0 ? (size_t)span : 1);
    if (!*base)
        return NULL;
    return (char *)*base - true_lb;
}

int buf_alloc_checked(int count, MPI_Datatype type, void **buf, void **base)
{
    *buf = buf_alloc(count, type, base);
    return (count > 0 && !*base) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

void buf_free(void *base) { free(base); }

int buf_is_contiguous(int count, MPI_Datatype type)
{
    MPI_Aint true_lb, true_extent, lb, extent;
    int size;
    if (count <= 0)
        return 1;
    PMPI_Type_size(type, &size);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    PMPI_Type_get_extent(type, &lb, &extent);
    return true_extent == size && (count == 1 || extent == size);
}

int buf_pack(const void *src, int count, MPI_Datatype type, void **packed,
             int *nbytes)
{
    int size = 0, pos = 0, err;
    *packed = NULL;
    *nbytes = 0;
    if ((err = PMPI_Pack_size(count, type, MPI_COMM_SELF, &size)))
        return err;
    *packed = malloc(size > 0 ? (size_t)size : 1);
    if (!*packed)
        return MPI_ERR_NO_MEM;
    if (count > 0 && (err = PMPI_Pack(src, count, type, *packed, size, &pos, MPI_COMM_SELF)))
        return err;
    *nbytes = pos;
    return MPI_SUCCESS;
}

int buf_unpack(const void *packed, int nbytes, void *dst, int count,
               MPI_Datatype type)
{
    int pos = 0;
    if (count <= 0)
        return MPI_SUCCESS;
    return PMPI_Unpack(packed, nbytes, &pos, dst, count, type, MPI_COMM_SELF);
}

int buf_copy(const void *src, int scount, MPI_Datatype stype,
             void *dst, int rcount, MPI_Datatype rtype)
{
    void *packed;
    int nbytes, err;
    if (scount <= 0 || rcount <= 0 || src == dst)
        return MPI_SUCCESS;
    if (stype == rtype && scount == rcount && buf_is_contiguous(scount, stype)) {
        MPI_Aint true_lb, true_extent;
        PMPI_Type_get_true_extent(stype, &true_lb, &true_extent);
        memmove((char *)dst + true_lb, (const char *)src + true_lb,
                (size_t)scount * (size_t)buf_type_size(stype));
        return MPI_SUCCESS;
    }
    err = buf_pack(src, scount, stype, &packed, &nbytes);
    if (!err)
        err = buf_unpack(packed, nbytes, dst, rcount, rtype);
    free(packed);
    return err;
}
