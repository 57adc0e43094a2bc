/* op_kernels.h - MPI's predefined reduction ops on named datatypes, as our
 * own loops: inout[i] = in[i] op inout[i].
 *
 * Every (predefined op, named type) pair that makes sense on the type's C
 * representation has a kernel, whichever vendor accepts it; which pairs a
 * call may use is the vendor's decision (shim/op_check.c). Integer sums and
 * products wrap (two's complement), MAX/MIN compare in the type's own
 * signedness, MINLOC/MAXLOC keep the lower index on ties, logical ops give
 * 0 or 1 in the operand type, complex products are (ac - bd, ad + bc).
 * Operand order follows both vendors: MAX is `inout > in ? inout : in`,
 * which only matters for NaN and signed zeros. */
#ifndef COLLSHIM_OP_KERNELS_H
#define COLLSHIM_OP_KERNELS_H

#include <mpi.h>
#include <stddef.h>

/* in and inout never overlap; count elements of the type's C layout. */
typedef void (*op_kernel_fn)(const void *in, void *inout, size_t count);

/* The kernel of op on type, or NULL (user op, derived or unknown type, or
 * an op with no meaning on that representation, like BAND on double).
 * Handles only: no MPI call, usable before MPI_Init. A linear search: hot
 * paths use op_entry_get(). */
op_kernel_fn op_kernel_find(MPI_Op op, MPI_Datatype type);
/* Bytes of one element as the kernels of type see it (the C struct for
 * pair types); 0 for a type without kernels. */
size_t op_kernel_elem_size(MPI_Datatype type);
/* 1 for MPI's predefined ops, MPI_REPLACE and MPI_NO_OP included. */
int op_is_predefined(MPI_Op op);

/* ---- op_cache.c: (op, type) -> kernel, resolved once per process ---- */
#define OP_CLASS_UNKNOWN (-1)
struct op_entry {
    MPI_Op op;
    MPI_Datatype type;
    op_kernel_fn kernel;  /* NULL: MPI_Reduce_local */
    int vendor_class;     /* shim/op_check.c; OP_CLASS_UNKNOWN until probed */
    int ready;            /* published (atomic) */
};
/* The entry of a predefined op on a named type, created on first use
 * (thread-safe, lock-free when cached); NULL for user-defined ops and
 * derived types, which are never cached (their handles can be reused). */
struct op_entry *op_entry_get(MPI_Op op, MPI_Datatype type);

#endif
