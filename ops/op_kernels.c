/* op_kernels.c - the loops of op_kernels.h, generated per C type family by
 * the X-macros below, and the table from (op, named type) to loop.
 *
 * One loop shape (ELEMENTWISE) with restrict pointers and no branches the
 * compiler cannot turn into selects, built with -fvect-cost-model=dynamic
 * (Makefile.am): GCC vectorizes all but the long double kernels in the
 * AVX2 and AVX-512 clones (117 of 126), 101 in the SSE2 one (no 64-bit
 * compares there). bench/opbench measures them against MPI_Reduce_local. */
#include "ops/op_kernels.h"

#include <stdint.h>
#include <wchar.h>

/* Each kernel is compiled for AVX-512, AVX2 and the x86-64 baseline (SSE2);
 * the loader picks the widest the CPU has (GNU ifunc), as the vendors' own
 * AVX kernels do. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WIDEST_VECTORS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define WIDEST_VECTORS
#endif

/* a is the in operand, b the inout one; the result (the expression, given
 * last: it may contain commas) replaces b. */
#define ELEMENTWISE(fname, T, ...)                                             \
    static WIDEST_VECTORS void fname(const void *restrict in,                  \
                                     void *restrict inout, size_t n)           \
    {                                                                          \
        const T *restrict x = in;                                              \
        T *restrict y = inout;                                                 \
        for (size_t i = 0; i < n; i++) {                                       \
            T a = x[i], b = y[i];                                              \
            y[i] = (__VA_ARGS__);                                              \
        }                                                                      \
    }

/* The C type families: name, element type, and for integers the unsigned
 * type the arithmetic wraps in (at least unsigned int, so that uint16_t
 * products do not overflow int after promotion). */
#define INT_CTYPES(X)                                                          \
    X(i8, int8_t, unsigned) X(u8, uint8_t, unsigned)                           \
    X(i16, int16_t, unsigned) X(u16, uint16_t, unsigned)                       \
    X(i32, int32_t, uint32_t) X(u32, uint32_t, uint32_t)                       \
    X(i64, int64_t, uint64_t) X(u64, uint64_t, uint64_t)
#if defined(MPIX_C_FLOAT16) && defined(__FLT16_MAX__)
#define HAVE_F16 1
#define F16_CTYPE(X) X(f16, _Float16)
#else
#define F16_CTYPE(X)
#endif
#define FLOAT_CTYPES(X) X(f32, float) X(f64, double) X(fld, long double) F16_CTYPE(X)
#define COMPLEX_CTYPES(X) X(c32, float) X(c64, double) X(cld, long double)
#define BOOL_CTYPES(X) X(bool, _Bool)
/* MINLOC/MAXLOC pairs: value type, index type (MPI's struct layouts). */
#define PAIR_CTYPES(X)                                                         \
    X(float_int, float, int) X(double_int, double, int)                        \
    X(long_int, long, int) X(short_int, short, int) X(int_int, int, int)       \
    X(ldouble_int, long double, int) X(float_float, float, float)              \
    X(double_double, double, double)

/* ---- the kernels ---- */
#define LOGICAL_KERNELS(name, T)                                               \
    ELEMENTWISE(land_##name, T, (T)((a != 0) & (b != 0)))                      \
    ELEMENTWISE(lor_##name, T, (T)((a != 0) | (b != 0)))                       \
    ELEMENTWISE(lxor_##name, T, (T)((a != 0) ^ (b != 0)))

#define ORDER_KERNELS(name, T)                                                 \
    ELEMENTWISE(max_##name, T, b > a ? b : a)                                  \
    ELEMENTWISE(min_##name, T, b < a ? b : a)

#define INT_KERNELS(name, T, W)                                                \
    ORDER_KERNELS(name, T)                                                     \
    ELEMENTWISE(sum_##name, T, (T)((W)a + (W)b))                               \
    ELEMENTWISE(prod_##name, T, (T)((W)a * (W)b))                              \
    LOGICAL_KERNELS(name, T)                                                   \
    ELEMENTWISE(band_##name, T, (T)(a & b))                                    \
    ELEMENTWISE(bor_##name, T, (T)(a | b))                                     \
    ELEMENTWISE(bxor_##name, T, (T)(a ^ b))

#define FLOAT_KERNELS(name, T)                                                 \
    ORDER_KERNELS(name, T)                                                     \
    ELEMENTWISE(sum_##name, T, b + a)                                          \
    ELEMENTWISE(prod_##name, T, b * a)                                         \
    LOGICAL_KERNELS(name, T)

#define COMPLEX_KERNELS(name, T)                                               \
    typedef struct { T re, im; } name##_t;                                     \
    ELEMENTWISE(sum_##name, name##_t, ((name##_t){b.re + a.re, b.im + a.im}))  \
    ELEMENTWISE(prod_##name, name##_t,                                         \
                ((name##_t){b.re * a.re - b.im * a.im,                         \
                            b.re * a.im + b.im * a.re}))

/* The larger value wins; equal values keep the lower index. */
#define PAIR_KERNELS(name, V, I)                                               \
    typedef struct { V v; I i; } name##_t;                                     \
    ELEMENTWISE(maxloc_##name, name##_t,                                       \
                a.v > b.v ? a : (name##_t){b.v, a.v == b.v && a.i < b.i ? a.i : b.i}) \
    ELEMENTWISE(minloc_##name, name##_t,                                       \
                a.v < b.v ? a : (name##_t){b.v, a.v == b.v && a.i < b.i ? a.i : b.i})

INT_CTYPES(INT_KERNELS)
FLOAT_CTYPES(FLOAT_KERNELS)
COMPLEX_CTYPES(COMPLEX_KERNELS)
BOOL_CTYPES(LOGICAL_KERNELS)
PAIR_CTYPES(PAIR_KERNELS)

/* ---- the table: C type family -> kernel per op ---- */
#define PREDEFINED_OPS(X)                                                      \
    X(MAX) X(MIN) X(SUM) X(PROD) X(LAND) X(BAND) X(LOR) X(BOR) X(LXOR)         \
    X(BXOR) X(MAXLOC) X(MINLOC)

enum op_index {
#define OP_ENUM(op) OPI_##op,
    PREDEFINED_OPS(OP_ENUM)
#undef OP_ENUM
    OPI_COUNT
};

static const MPI_Op op_handles[OPI_COUNT] = {
#define OP_HANDLE(op) MPI_##op,
    PREDEFINED_OPS(OP_HANDLE)
#undef OP_HANDLE
};

enum ctype {
    CT_NONE,
#define CT_ENUM(name, ...) CT_##name,
    INT_CTYPES(CT_ENUM) FLOAT_CTYPES(CT_ENUM) COMPLEX_CTYPES(CT_ENUM)
    BOOL_CTYPES(CT_ENUM) PAIR_CTYPES(CT_ENUM)
#undef CT_ENUM
    CT_COUNT
};

struct kernel_row {
    size_t size;
    op_kernel_fn fn[OPI_COUNT];
};

#define LOGICAL_FNS(name)                                                      \
    [OPI_LAND] = land_##name, [OPI_LOR] = lor_##name, [OPI_LXOR] = lxor_##name
#define ORDER_FNS(name) [OPI_MAX] = max_##name, [OPI_MIN] = min_##name

#define INT_ROW(name, T, W)                                                    \
    [CT_##name] = {sizeof(T), {ORDER_FNS(name), [OPI_SUM] = sum_##name,        \
                               [OPI_PROD] = prod_##name, LOGICAL_FNS(name),    \
                               [OPI_BAND] = band_##name, [OPI_BOR] = bor_##name, \
                               [OPI_BXOR] = bxor_##name}},
#define FLOAT_ROW(name, T)                                                     \
    [CT_##name] = {sizeof(T), {ORDER_FNS(name), [OPI_SUM] = sum_##name,        \
                               [OPI_PROD] = prod_##name, LOGICAL_FNS(name)}},
#define COMPLEX_ROW(name, T)                                                   \
    [CT_##name] = {sizeof(name##_t), {[OPI_SUM] = sum_##name, [OPI_PROD] = prod_##name}},
#define BOOL_ROW(name, T) [CT_##name] = {sizeof(T), {LOGICAL_FNS(name)}},
#define PAIR_ROW(name, V, I)                                                   \
    [CT_##name] = {sizeof(name##_t), {[OPI_MAXLOC] = maxloc_##name,             \
                                      [OPI_MINLOC] = minloc_##name}},

static const struct kernel_row rows[CT_COUNT] = {
    INT_CTYPES(INT_ROW) FLOAT_CTYPES(FLOAT_ROW) COMPLEX_CTYPES(COMPLEX_ROW)
    BOOL_CTYPES(BOOL_ROW) PAIR_CTYPES(PAIR_ROW)
};

/* ---- named MPI types -> C type family ---- */
#define SIGNED_CT(n) ((n) == 1 ? CT_i8 : (n) == 2 ? CT_i16 : (n) == 4 ? CT_i32 : (n) == 8 ? CT_i64 : CT_NONE)
#define UNSIGNED_CT(n) ((n) == 1 ? CT_u8 : (n) == 2 ? CT_u16 : (n) == 4 ? CT_u32 : (n) == 8 ? CT_u64 : CT_NONE)
/* The integer family of C type T, by size and signedness (char, wchar_t,
 * MPI_Aint and MPI_Fint differ between platforms). */
#define INT_CT(T) ((T)-1 < (T)1 ? SIGNED_CT(sizeof(T)) : UNSIGNED_CT(sizeof(T)))

/* Fortran types as the MPI library defines them: INTEGER and LOGICAL are
 * MPI_Fint, REAL float, DOUBLE PRECISION double, REAL16 and COMPLEX32 long
 * double (the C type both libraries use for them), Fortran logicals are
 * integers where nonzero is true. MPI_CHARACTER is unsigned in Open MPI's
 * ops and char in MPICH's. */
#ifdef OPEN_MPI
#define CHARACTER_CT CT_u8
#else
#define CHARACTER_CT INT_CT(char)
#endif

static const struct {
    MPI_Datatype type;
    enum ctype ct;
} named_types[] = {
    /* C integers */
    {MPI_INT, INT_CT(int)}, {MPI_UNSIGNED, INT_CT(unsigned)},
    {MPI_LONG, INT_CT(long)}, {MPI_UNSIGNED_LONG, INT_CT(unsigned long)},
    {MPI_SHORT, INT_CT(short)}, {MPI_UNSIGNED_SHORT, INT_CT(unsigned short)},
    {MPI_LONG_LONG_INT, INT_CT(long long)}, {MPI_LONG_LONG, INT_CT(long long)},
    {MPI_UNSIGNED_LONG_LONG, INT_CT(unsigned long long)},
    {MPI_SIGNED_CHAR, CT_i8}, {MPI_UNSIGNED_CHAR, CT_u8}, {MPI_CHAR, INT_CT(char)},
    {MPI_WCHAR, INT_CT(wchar_t)}, {MPI_BYTE, CT_u8},
    {MPI_INT8_T, CT_i8}, {MPI_INT16_T, CT_i16}, {MPI_INT32_T, CT_i32}, {MPI_INT64_T, CT_i64},
    {MPI_UINT8_T, CT_u8}, {MPI_UINT16_T, CT_u16}, {MPI_UINT32_T, CT_u32},
    {MPI_UINT64_T, CT_u64},
    {MPI_AINT, INT_CT(MPI_Aint)}, {MPI_OFFSET, INT_CT(MPI_Offset)},
    {MPI_COUNT, INT_CT(MPI_Count)},
    /* Fortran integers, logicals and characters */
    {MPI_INTEGER, INT_CT(MPI_Fint)}, {MPI_INTEGER1, CT_i8}, {MPI_INTEGER2, CT_i16},
    {MPI_INTEGER4, CT_i32}, {MPI_INTEGER8, CT_i64},
    {MPI_LOGICAL, INT_CT(MPI_Fint)}, {MPI_CHARACTER, CHARACTER_CT},
#ifdef OPEN_MPI
    {MPI_LOGICAL1, CT_i8}, {MPI_LOGICAL2, CT_i16}, {MPI_LOGICAL4, CT_i32},
    {MPI_LOGICAL8, CT_i64},
#endif
    /* floating point */
    {MPI_FLOAT, CT_f32}, {MPI_DOUBLE, CT_f64}, {MPI_LONG_DOUBLE, CT_fld},
    {MPI_REAL, CT_f32}, {MPI_DOUBLE_PRECISION, CT_f64}, {MPI_REAL4, CT_f32},
    {MPI_REAL8, CT_f64}, {MPI_REAL16, CT_fld},
#ifdef HAVE_F16
    {MPIX_C_FLOAT16, CT_f16},
#endif
    /* logical */
    {MPI_C_BOOL, CT_bool}, {MPI_CXX_BOOL, CT_bool},
    /* complex */
    {MPI_C_FLOAT_COMPLEX, CT_c32}, {MPI_C_COMPLEX, CT_c32},
    {MPI_C_DOUBLE_COMPLEX, CT_c64}, {MPI_C_LONG_DOUBLE_COMPLEX, CT_cld},
    {MPI_COMPLEX, CT_c32}, {MPI_DOUBLE_COMPLEX, CT_c64}, {MPI_COMPLEX8, CT_c32},
    {MPI_COMPLEX16, CT_c64}, {MPI_COMPLEX32, CT_cld},
    {MPI_CXX_FLOAT_COMPLEX, CT_c32}, {MPI_CXX_DOUBLE_COMPLEX, CT_c64},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, CT_cld},
#ifdef OPEN_MPI
    {MPI_CXX_COMPLEX, CT_c32},
#endif
    /* MINLOC/MAXLOC pairs */
    {MPI_FLOAT_INT, CT_float_int}, {MPI_DOUBLE_INT, CT_double_int},
    {MPI_LONG_INT, CT_long_int}, {MPI_SHORT_INT, CT_short_int}, {MPI_2INT, CT_int_int},
    {MPI_LONG_DOUBLE_INT, CT_ldouble_int}, {MPI_2REAL, CT_float_float},
    {MPI_2DOUBLE_PRECISION, CT_double_double}, {MPI_2INTEGER, CT_int_int},
};

static int op_index(MPI_Op op)
{
    for (int i = 0; i < OPI_COUNT; i++)
        if (op_handles[i] == op)
            return i;
    return -1;
}

static const struct kernel_row *type_row(MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL)
        return NULL;
    for (size_t i = 0; i < sizeof named_types / sizeof named_types[0]; i++)
        if (named_types[i].type == type)
            return named_types[i].ct == CT_NONE ? NULL : &rows[named_types[i].ct];
    return NULL;
}

op_kernel_fn op_kernel_find(MPI_Op op, MPI_Datatype type)
{
    int o = op_index(op);
    const struct kernel_row *row = type_row(type);
    return o < 0 || !row ? NULL : row->fn[o];
}

size_t op_kernel_elem_size(MPI_Datatype type)
{
    const struct kernel_row *row = type_row(type);
    return row ? row->size : 0;
}

int op_is_predefined(MPI_Op op)
{
    return op != MPI_OP_NULL && (op_index(op) >= 0 || op == MPI_REPLACE || op == MPI_NO_OP);
}
