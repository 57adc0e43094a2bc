/* buf_reduce.c - inout = in op inout: loops for MPI's predefined ops on basic
 * C types, MPI_Reduce_local for everything else (user ops, MINLOC/MAXLOC,
 * derived types). Integer sums and products wrap (computed unsigned), as the
 * standard's C semantics for unsigned types and two's complement expect. */
#include "buf.h"

#define LOOP(T, EXPR)                                                        \
    do {                                                                     \
        const T *x = in;                                                     \
        T *y = inout;                                                        \
        for (int i = 0; i < count; i++)                                      \
            y[i] = (T)(EXPR);                                                \
    } while (0)

/* Ops valid on every basic numeric type. */
#define ARITH_OPS(T, UT)                                                     \
    if (op == MPI_SUM)       LOOP(T, (UT)x[i] + (UT)y[i]);                   \
    else if (op == MPI_PROD) LOOP(T, (UT)x[i] * (UT)y[i]);                   \
    else if (op == MPI_MAX)  LOOP(T, x[i] > y[i] ? x[i] : y[i]);             \
    else if (op == MPI_MIN)  LOOP(T, x[i] < y[i] ? x[i] : y[i]);             \
    else if (op == MPI_LAND) LOOP(T, x[i] && y[i]);                          \
    else if (op == MPI_LOR)  LOOP(T, x[i] || y[i]);                          \
    else if (op == MPI_LXOR) LOOP(T, !x[i] != !y[i]);

#define INT_OPS(T, UT)                                                       \
    ARITH_OPS(T, UT)                                                         \
    else if (op == MPI_BAND) LOOP(T, x[i] & y[i]);                           \
    else if (op == MPI_BOR)  LOOP(T, x[i] | y[i]);                           \
    else if (op == MPI_BXOR) LOOP(T, x[i] ^ y[i]);                           \
    else return 0;                                                           \
    return 1;

#define FLOAT_OPS(T)                                                         \
    if (op == MPI_SUM)       LOOP(T, x[i] + y[i]);                           \
    else if (op == MPI_PROD) LOOP(T, x[i] * y[i]);                           \
    else if (op == MPI_MAX)  LOOP(T, x[i] > y[i] ? x[i] : y[i]);             \
    else if (op == MPI_MIN)  LOOP(T, x[i] < y[i] ? x[i] : y[i]);             \
    else return 0;                                                           \
    return 1;

static int reduce_int(const void *in, void *inout, int count,
                      MPI_Datatype t, MPI_Op op)
{
    if (t == MPI_INT || t == MPI_INT32_T) { INT_OPS(int32_t, uint32_t) }
    if (t == MPI_UNSIGNED || t == MPI_UINT32_T) { INT_OPS(uint32_t, uint32_t) }
    if (t == MPI_LONG || t == MPI_LONG_LONG || t == MPI_INT64_T) {
        if (sizeof(long) == 8 || t != MPI_LONG) { INT_OPS(int64_t, uint64_t) }
    }
    if (t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG || t == MPI_UINT64_T) {
        if (sizeof(long) == 8 || t != MPI_UNSIGNED_LONG) { INT_OPS(uint64_t, uint64_t) }
    }
    if (t == MPI_SHORT || t == MPI_INT16_T) { INT_OPS(int16_t, uint16_t) }
    if (t == MPI_UNSIGNED_SHORT || t == MPI_UINT16_T) { INT_OPS(uint16_t, uint16_t) }
    if (t == MPI_SIGNED_CHAR || t == MPI_INT8_T) { INT_OPS(int8_t, uint8_t) }
    if (t == MPI_UNSIGNED_CHAR || t == MPI_UINT8_T) { INT_OPS(uint8_t, uint8_t) }
    return 0;
}

static int reduce_float(const void *in, void *inout, int count,
                        MPI_Datatype t, MPI_Op op)
{
    if (t == MPI_DOUBLE) { FLOAT_OPS(double) }
    if (t == MPI_FLOAT) { FLOAT_OPS(float) }
    return 0;
}

int buf_op_is_predefined(MPI_Op op)
{
    const MPI_Op predefined[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                                 MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
                                 MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (op == predefined[i])
            return 1;
    return 0;
}

int buf_reduce(const void *in, void *inout, int count, MPI_Datatype type,
               MPI_Op op)
{
    if (count <= 0)
        return MPI_SUCCESS;
    if (reduce_int(in, inout, count, type, op) || reduce_float(in, inout, count, type, op))
        return MPI_SUCCESS;
    return PMPI_Reduce_local(in, inout, count, type, op);
}
