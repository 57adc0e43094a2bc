/* buf_reduce.c - inout = in op inout: our own kernels for MPI's predefined
 * ops on named types (op_kernels.c, looked up once per (op, type) through
 * op_cache.c), MPI_Reduce_local for user-defined ops, and for a named type
 * we have no kernel for (none of the types either vendor accepts). */
#include "engine/buf.h"
#include "ops/op_kernels.h"
#include "engine/sched.h"

int buf_op_is_predefined(MPI_Op op) { return op_is_predefined(op); }

/* PMPI_Reduce_local takes an int count: pieces of at most this many. */
#define REDUCE_LOCAL_PIECE ((MPI_Aint)1 << 30)

static int reduce_local(const void *in, void *inout, MPI_Aint count, MPI_Datatype type,
                        MPI_Op op)
{
    const MPI_Aint extent = buf_extent(type);
    int err = MPI_SUCCESS;
    for (MPI_Aint i = 0; i < count && !err; i += REDUCE_LOCAL_PIECE) {
        MPI_Aint n = count - i < REDUCE_LOCAL_PIECE ? count - i : REDUCE_LOCAL_PIECE;
        err = PMPI_Reduce_local((const char *)in + i * extent, (char *)inout + i * extent, (int)n,
                                type, op);
    }
    return err;
}

int buf_reduce(const struct coll_args *a, const void *in, void *inout, MPI_Aint count,
               MPI_Datatype type, MPI_Op op)
{
    if (count <= 0)
        return MPI_SUCCESS;
    if (a->sched) {
        struct sched_step st = {.kind = STEP_REDUCE, .src = in, .dst = inout, .count = count,
                                .type = type, .op = op};
        return sched_add_local(a->sched, &st);
    }
    const struct op_entry *e = op_entry_get(op, type);
    if (e && e->kernel) {
        e->kernel(in, inout, (size_t)count);
        return MPI_SUCCESS;
    }
    return reduce_local(in, inout, count, type, op);
}
