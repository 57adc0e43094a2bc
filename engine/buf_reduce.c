/* buf_reduce.c - inout = in op inout: our own kernels for MPI's predefined
 * ops on named types (op_kernels.c, looked up once per (op, type) through
 * op_cache.c), MPI_Reduce_local for user-defined ops, and for a named type
 * we have no kernel for (none of the types either vendor accepts). */
#include "engine/buf.h"
#include "ops/op_kernels.h"
#include "engine/sched.h"

int buf_op_is_predefined(MPI_Op op) { return op_is_predefined(op); }

int buf_reduce(const struct coll_args *a, const void *in, void *inout, int count,
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
    return PMPI_Reduce_local(in, inout, count, type, op);
}
