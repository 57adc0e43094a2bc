/* buf.h - temporary buffers, local copies and reductions for any datatype.
 *
 * A buffer of `count` elements of `type` spans true_extent + (count-1)*extent
 * bytes starting at true_lb; buf_alloc returns the pointer an MPI call takes
 * (which may point before the allocation when true_lb > 0) and the base to
 * free. Offsets of element i are i * extent from that pointer. */
#ifndef COLLSHIM_BUF_H
#define COLLSHIM_BUF_H

#include "engine/call.h"

/* Counts here are MPI_Aint: a whole vector (reduce_scatter's sum of
 * counts, p blocks of an allgather) may hold more than INT_MAX elements,
 * and byte sizes beyond 2^31 are ordinary. */

/* Every helper that acts on buffers takes the call's arguments a: when
 * a->sched is set the call is being recorded into that schedule (sched.h)
 * and the helper appends a step instead of acting; temporaries and types
 * made then belong to the schedule. */

/* Room for count elements of type; *base gets what buf_free takes. NULL
 * with *base NULL when count is 0; NULL on out-of-memory (check *base). */
void *buf_alloc(const struct coll_args *a, MPI_Aint count, MPI_Datatype type, void **base);
void buf_free(const struct coll_args *a, void *base);
/* malloc of n bytes for data; free it with buf_free. While a schedule is
 * recorded, data buffers must come from here or buf_alloc: they live on
 * with the schedule. */
void *buf_bytes(const struct coll_args *a, size_t n);
/* PMPI_Type_free of a type the algorithm made; *type becomes NULL. While a
 * schedule is recorded the type lives on with the schedule. */
void buf_type_free(const struct coll_args *a, MPI_Datatype *type);
/* memcpy that a schedule can record. */
void buf_memcpy(const struct coll_args *a, void *dst, const void *src, size_t n);
/* malloc that returns an MPI error code. */
int buf_alloc_checked(const struct coll_args *a, MPI_Aint count, MPI_Datatype type, void **buf,
                      void **base);

/* Address of element i of a buffer of type (i * extent bytes on). */
void *buf_at(const void *buf, MPI_Aint i, MPI_Datatype type);
MPI_Aint buf_extent(MPI_Datatype type);
/* Bytes of data in one element (PMPI_Type_size_x: a type may exceed 2 GiB). */
size_t buf_type_size(MPI_Datatype type);
/* 1 when count elements of type carry bytes: whether a block is sent at
 * all. Both sides of a transfer must decide alike, and only bytes are
 * common to them (a type of no data may come in any count). */
int buf_carries_data(MPI_Aint count, MPI_Datatype type);
/* 1 when count elements of type occupy exactly count*size bytes, no gaps. */
int buf_is_contiguous(MPI_Aint count, MPI_Datatype type);
/* Where the data of count elements of type at buf starts when it has no
 * gaps (so bytes can go straight there), else NULL. */
char *buf_contiguous_data(const void *buf, MPI_Aint count, MPI_Datatype type);

/* Packing assumes a homogeneous job: the packed form of count elements is
 * their raw data, count * size bytes, which is what lets one rank's packed
 * bytes feed another rank's typed buffer. PMPI_Pack's sizes and positions
 * are ints, so these pack in groups of elements of at most BUF_PACK_CHUNK
 * bytes; an element larger than INT_MAX bytes (which PMPI_Pack cannot take
 * at all) goes through a message to this rank itself, received as
 * MPI_PACKED. Errors are reported on a->comm, never on MPI_COMM_SELF
 * (whose handler is fatal). */
#define BUF_PACK_CHUNK ((size_t)1 << 30)
/* count elements of type at src -> count * size bytes at out. */
int buf_pack(const void *src, MPI_Aint count, MPI_Datatype type, void *out,
             const struct coll_args *a);
/* count * size bytes at in -> count elements of type at dst. */
int buf_unpack(const void *in, void *dst, MPI_Aint count, MPI_Datatype type,
               const struct coll_args *a);

/* Copy scount of stype at src into rcount of rtype at dst (signatures must
 * match): memmove when both sides are contiguous, else packing straight
 * from or into the contiguous side, through a temporary when neither is. */
int buf_copy(const void *src, MPI_Aint scount, MPI_Datatype stype,
             void *dst, MPI_Aint rcount, MPI_Datatype rtype, const struct coll_args *a);

/* inout[i] = in[i] op inout[i] for count elements: our kernels for
 * predefined ops on named types (op_kernels.h), MPI_Reduce_local for user
 * ops (in pieces: its count is an int). "in" is the left operand: for non-commutative ops pass the lower
 * ranks' data as in. */
int buf_op_is_predefined(MPI_Op op);
int buf_reduce(const struct coll_args *a, const void *in, void *inout, MPI_Aint count,
               MPI_Datatype type, MPI_Op op);

#endif
