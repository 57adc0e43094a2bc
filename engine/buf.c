/* buf.c - temporary buffers, copies and packing for any datatype and any
 * size (see buf.h). */
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/scratch.h"
#include "engine/sched.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

MPI_Aint buf_extent(MPI_Datatype type)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

size_t buf_type_size(MPI_Datatype type)
{
    MPI_Count size;
    PMPI_Type_size_x(type, &size);
    return size > 0 ? (size_t)size : 0;
}

void *buf_at(const void *buf, MPI_Aint i, MPI_Datatype type)
{
    return (char *)buf + i * buf_extent(type);
}

void *buf_bytes(const struct coll_args *a, size_t n)
{
    void *p = scratch_get(n);
    if (p && a->sched && sched_keep_mem(a->sched, p)) {
        scratch_put(p);
        return NULL;
    }
    return p;
}

void *buf_alloc(const struct coll_args *a, MPI_Aint count, MPI_Datatype type, void **base)
{
    MPI_Aint true_lb, true_extent, lb, extent;
    *base = NULL;
    if (count <= 0)
        return NULL;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    PMPI_Type_get_extent(type, &lb, &extent);
    MPI_Aint span = true_extent + (count - 1) * (extent < 0 ? -extent : extent);
    if (!(*base = buf_bytes(a, span > 0 ? (size_t)span : 1)))
        return NULL;
    return (char *)*base - true_lb;
}

int buf_alloc_checked(const struct coll_args *a, MPI_Aint count, MPI_Datatype type, void **buf,
                      void **base)
{
    *buf = buf_alloc(a, count, type, base);
    return (count > 0 && !*base) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* Recording, temporaries belong to the schedule until sched_free. */
void buf_free(const struct coll_args *a, void *base)
{
    if (!a->sched)
        scratch_put(base);
}

void buf_type_free(const struct coll_args *a, MPI_Datatype *type)
{
    struct sched *s = a->sched;
    if (!s || sched_keep_type(s, *type))
        PMPI_Type_free(type);
    *type = MPI_DATATYPE_NULL;
}

/* Record one local step instead of doing it (recording only). */
static int record(const struct coll_args *a, enum sched_step_kind kind, const void *src,
                  MPI_Aint count, MPI_Datatype type, void *dst, MPI_Aint count2,
                  MPI_Datatype type2)
{
    struct sched_step st = {.kind = kind, .src = src, .dst = dst, .count = count,
                            .count2 = count2, .type = type, .type2 = type2};
    return sched_add_local(a->sched, &st);
}

void buf_memcpy(const struct coll_args *a, void *dst, const void *src, size_t n)
{
    if (a->sched)
        record(a, STEP_MEMCPY, src, (MPI_Aint)n, MPI_BYTE, dst, 0, MPI_BYTE);
    else
        memcpy(dst, src, n);
}

int buf_carries_data(MPI_Aint count, MPI_Datatype type)
{
    return count > 0 && buf_type_size(type) > 0;
}

int buf_is_contiguous(MPI_Aint count, MPI_Datatype type)
{
    MPI_Aint true_lb, true_extent, lb, extent;
    if (count <= 0)
        return 1;
    size_t size = buf_type_size(type);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    PMPI_Type_get_extent(type, &lb, &extent);
    return (size_t)true_extent == size && (count == 1 || (size_t)extent == size);
}

/* Where the data of a contiguous buffer starts. */
static char *data_start(const void *buf, MPI_Datatype type)
{
    MPI_Aint true_lb, true_extent;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return (char *)buf + true_lb;
}

char *buf_contiguous_data(const void *buf, MPI_Aint count, MPI_Datatype type)
{
    return buf_is_contiguous(count, type) ? data_start(buf, type) : NULL;
}

/* Elements per PMPI_Pack call, 0 when one element does not fit an int;
 * elements of no data (a block type of 0 elements) all in one call. */
static MPI_Aint pack_group(size_t size)
{
    if (size == 0)
        return INT_MAX;
    if (size > INT_MAX)
        return 0;
    return size >= BUF_PACK_CHUNK ? 1 : (MPI_Aint)(BUF_PACK_CHUNK / size);
}

/* MPICH's PMPI_Pack and PMPI_Unpack refuse a NULL buffer, and MPI_BOTTOM
 * is NULL: the same elements are reached from the origin NULL + REBASE
 * through the type displaced by -REBASE, made for the call (only there). */
#define REBASE 4096
static int rebased(MPI_Datatype type, MPI_Datatype *out)
{
    int one = 1, err;
    MPI_Aint back = -REBASE, lb, extent;
    MPI_Datatype moved;
    PMPI_Type_get_extent(type, &lb, &extent);
    if ((err = PMPI_Type_create_struct(1, &one, &back, &type, &moved)))
        return err;
    /* a struct may round its extent up to the alignment of its members */
    err = PMPI_Type_create_resized(moved, lb - REBASE, extent, out);
    PMPI_Type_free(&moved);
    if (!err && (err = PMPI_Type_commit(out)))
        PMPI_Type_free(out);
    return err;
}

/* Elements [i, i + n) of user <-> their packed bytes, one PMPI call. */
static int pack_piece(char *user, MPI_Aint i, int n, MPI_Datatype type, char *bytes, int pack,
                      const struct coll_args *a)
{
    size_t size = buf_type_size(type);
    char *u = user + i * buf_extent(type), *b = bytes + (size_t)i * size;
    int len = (int)((size_t)n * size), pos = 0, err;
    MPI_Datatype t = type;
    if (!u && (err = rebased(type, &t)))
        return err;
    if (t != type)
        u += REBASE;
    err = pack ? PMPI_Pack(u, n, t, b, len, &pos, a->comm)
               : PMPI_Unpack(b, len, &pos, u, n, t, a->comm);
    if (t != type)
        PMPI_Type_free(&t);
    return err;
}

/* count elements at user <-> count * size bytes at bytes. An element too
 * large for PMPI_Pack goes as a message to this rank itself, the packed
 * side as MPI_PACKED (which matches any type signature). */
static int pack_any(char *user, MPI_Aint count, MPI_Datatype type, char *bytes, int pack,
                    const struct coll_args *a)
{
    size_t size = buf_type_size(type);
    MPI_Aint group = pack_group(size), nbytes = (MPI_Aint)((size_t)count * size);
    int err = MPI_SUCCESS;
    if (count <= 0 || size == 0)
        return MPI_SUCCESS;
    if (buf_is_contiguous(count, type)) {
        if (pack)
            memcpy(bytes, data_start(user, type), (size_t)nbytes);
        else
            memcpy(data_start(user, type), bytes, (size_t)nbytes);
        return MPI_SUCCESS;
    }
    if (!group)
        return pack ? p2p_sendrecv(user, count, type, a->rank, bytes, nbytes, MPI_PACKED,
                                     a->rank, a)
                    : p2p_sendrecv(bytes, nbytes, MPI_PACKED, a->rank, user, count, type,
                                     a->rank, a);
    for (MPI_Aint i = 0; i < count && !err; i += group)
        err = pack_piece(user, i, (int)(count - i < group ? count - i : group), type, bytes, pack,
                         a);
    return err;
}

int buf_pack(const void *src, MPI_Aint count, MPI_Datatype type, void *out,
             const struct coll_args *a)
{
    if (a->sched)
        return record(a, STEP_PACK, src, count, type, out, 0, type);
    return pack_any((char *)src, count, type, out, 1, a);
}

int buf_unpack(const void *in, void *dst, MPI_Aint count, MPI_Datatype type,
               const struct coll_args *a)
{
    if (a->sched)
        return record(a, STEP_UNPACK, in, count, type, dst, 0, type);
    return pack_any(dst, count, type, (char *)in, 0, a);
}

int buf_copy(const void *src, MPI_Aint scount, MPI_Datatype stype,
             void *dst, MPI_Aint rcount, MPI_Datatype rtype, const struct coll_args *a)
{
    size_t n = scount > 0 ? (size_t)scount * buf_type_size(stype) : 0;
    size_t rsize = buf_type_size(rtype), room = rcount > 0 ? (size_t)rcount * rsize : 0;
    void *tmp;
    int err;
    /* A copy onto itself only when both sides are the same elements: with
     * MPI_BOTTOM two different absolute types share the origin NULL. */
    if (n == 0 || (src == dst && stype == rtype && scount == rcount))
        return MPI_SUCCESS;
    if (room < n)
        return MPI_ERR_TRUNCATE;
    rcount = (MPI_Aint)(n / rsize); /* a longer receive gets the n bytes sent */
    if (a->sched)
        return record(a, STEP_COPY, src, scount, stype, dst, rcount, rtype);
    int scontig = buf_is_contiguous(scount, stype), rcontig = buf_is_contiguous(rcount, rtype);
    if (scontig && rcontig) {
        memmove(data_start(dst, rtype), data_start(src, stype), n);
        return MPI_SUCCESS;
    }
    if (rcontig)
        return buf_pack(src, scount, stype, data_start(dst, rtype), a);
    if (scontig)
        return buf_unpack(data_start(src, stype), dst, rcount, rtype, a);
    if (!(tmp = scratch_get(n)))
        return MPI_ERR_NO_MEM;
    err = buf_pack(src, scount, stype, tmp, a);
    if (!err)
        err = buf_unpack(tmp, dst, rcount, rtype, a);
    scratch_put(tmp);
    return err;
}
