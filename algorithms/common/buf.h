/* buf.h - temporary buffers, local copies and reductions for any datatype.
 *
 * A buffer of `count` elements of `type` spans true_extent + (count-1)*extent
 * bytes starting at true_lb; buf_alloc returns the pointer an MPI call takes
 * (which may point before the allocation when true_lb > 0) and the base to
 * free. Offsets of element i are i * extent from that pointer. */
#ifndef COLLSHIM_BUF_H
#define COLLSHIM_BUF_H

#include "../coll.h"

/* Room for count elements of type; *base gets what buf_free takes. NULL
 * with *base NULL when count is 0; NULL on out-of-memory (check *base). */
void *buf_alloc(int count, MPI_Datatype type, void **base);
void buf_free(void *base);
/* malloc that returns an MPI error code. */
int buf_alloc_checked(int count, MPI_Datatype type, void **buf, void **base);

/* Address of element i of a buffer of type (i * extent bytes on). */
void *buf_at(const void *buf, MPI_Aint i, MPI_Datatype type);
MPI_Aint buf_extent(MPI_Datatype type);
int buf_type_size(MPI_Datatype type);
/* 1 when count elements of type occupy exactly count*size bytes, no gaps. */
int buf_is_contiguous(int count, MPI_Datatype type);

/* Copy scount of stype at src into rcount of rtype at dst (signatures must
 * match); memcpy when both are contiguous and the same type. */
int buf_copy(const void *src, int scount, MPI_Datatype stype,
             void *dst, int rcount, MPI_Datatype rtype);

/* Pack count elements into a new contiguous byte buffer (*packed, malloc'd,
 * *nbytes long) and back. */
int buf_pack(const void *src, int count, MPI_Datatype type, void **packed,
             int *nbytes);
int buf_unpack(const void *packed, int nbytes, void *dst, int count,
               MPI_Datatype type);

/* inout[i] = in[i] op inout[i] for count elements: our kernels for
 * predefined ops on named types (op_kernels.h), MPI_Reduce_local for user
 * ops. "in" is the left operand: for non-commutative ops pass the lower
 * ranks' data as in. */
int buf_op_is_predefined(MPI_Op op);
int buf_reduce(const void *in, void *inout, int count, MPI_Datatype type,
               MPI_Op op);

#endif
