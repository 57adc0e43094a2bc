/* test_op_kernels.c - the reduction kernels (ops/op_kernels.c)
 * against values computed here from the inputs: wrap-around, signedness,
 * MINLOC/MAXLOC ties, logical ops on ints, complex products, vector tails,
 * and which (op, type) pairs have a kernel at all. */
#include "tests/unit/unit.h"
#include "ops/op_kernels.h"

#include <complex.h>
#include <stdint.h>
#include <string.h>

static op_kernel_fn kernel(MPI_Op op, MPI_Datatype type)
{
    op_kernel_fn fn = op_kernel_find(op, type);
    ck_assert_msg(fn != NULL, "no kernel");
    return fn;
}

/* inout starts at 0; n rounds of inout = in + inout, all elements v. */
static void accumulate(MPI_Datatype type, void *acc, const void *in, size_t count, int rounds)
{
    op_kernel_fn sum = kernel(MPI_SUM, type);
    for (int r = 0; r < rounds; r++)
        sum(in, acc, count);
}

/* Two's complement wrap of an exact integer into `bits` bits. */
static long long wrap(long long v, int bits, int is_signed)
{
    long long m = 1ll << bits, w = ((v % m) + m) % m;
    return is_signed && w >= m / 2 ? w - m : w;
}

START_TEST(eight_bit_sums_wrap)
{
    /* 16 and 32 elements: the lengths at which Open MPI's AVX kernels
     * saturate (127 and 255) instead of wrapping. */
    const MPI_Datatype signed_types[] = {MPI_CHAR, MPI_SIGNED_CHAR, MPI_INT8_T, MPI_INTEGER1};
    for (size_t t = 0; t < sizeof signed_types / sizeof signed_types[0]; t++) {
        signed char in[33], acc[33] = {0};
        memset(in, 100, sizeof in);
        accumulate(signed_types[t], acc, in, sizeof in, 16);
        for (size_t i = 0; i < sizeof acc; i++)
            ck_assert_int_eq(acc[i], wrap(1600, 8, 1)); /* 64 */
    }
    const MPI_Datatype unsigned_types[] = {MPI_UNSIGNED_CHAR, MPI_UINT8_T, MPI_BYTE};
    for (size_t t = 0; t < sizeof unsigned_types / sizeof unsigned_types[0]; t++) {
        unsigned char in[33], acc[33] = {0};
        memset(in, 200, sizeof in);
        accumulate(unsigned_types[t], acc, in, sizeof in, 3);
        for (size_t i = 0; i < sizeof acc; i++)
            ck_assert_int_eq(acc[i], wrap(600, 8, 0)); /* 88 */
    }
}
END_TEST

START_TEST(sixteen_bit_arithmetic_wraps)
{
    int16_t s_in[20], s_acc[20];
    uint16_t u_in[20], u_acc[20];
    for (int i = 0; i < 20; i++) {
        s_in[i] = 32767;
        s_acc[i] = (int16_t)(i + 1);
        u_in[i] = 65535;
        u_acc[i] = 65535;
    }
    kernel(MPI_SUM, MPI_SHORT)(s_in, s_acc, 20);
    kernel(MPI_PROD, MPI_UINT16_T)(u_in, u_acc, 20); /* would overflow int if promoted */
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(s_acc[i], wrap(32767 + i + 1, 16, 1));
        ck_assert_int_eq(u_acc[i], wrap(65535ll * 65535ll, 16, 0)); /* 1 */
    }
}
END_TEST

START_TEST(unsigned_min_max_compare_unsigned)
{
    /* MPICH 4.0.2 compares MPI_UNSIGNED_CHAR as signed. */
    unsigned char in[40], io[40];
    for (int i = 0; i < 40; i++) {
        in[i] = (unsigned char)(i % 2 ? 200 + i : 5 + i);
        io[i] = (unsigned char)(i % 2 ? 5 + i : 200 + i);
    }
    unsigned char mx[40], mn[40];
    memcpy(mx, io, sizeof io);
    memcpy(mn, io, sizeof io);
    kernel(MPI_MAX, MPI_UNSIGNED_CHAR)(in, mx, 40);
    kernel(MPI_MIN, MPI_UNSIGNED_CHAR)(in, mn, 40);
    for (int i = 0; i < 40; i++) {
        ck_assert_int_eq(mx[i], 200 + i);
        ck_assert_int_eq(mn[i], 5 + i);
    }
    uint64_t big = 1ull << 63, small = 5;
    kernel(MPI_MAX, MPI_UNSIGNED_LONG)(&big, &small, 1);
    ck_assert(small == 1ull << 63);
    signed char neg = -1, pos = 1;
    kernel(MPI_MAX, MPI_SIGNED_CHAR)(&neg, &pos, 1);
    ck_assert_int_eq(pos, 1);
}
END_TEST

START_TEST(minloc_maxloc_ties_keep_the_lower_index)
{
    struct { double v; int i; } in[3] = {{3.0, 7}, {3.0, 1}, {4.0, 9}},
                                io[3] = {{3.0, 2}, {3.0, 2}, {1.0, 0}};
    kernel(MPI_MAXLOC, MPI_DOUBLE_INT)(in, io, 3);
    ck_assert(io[0].v == 3.0 && io[0].i == 2); /* tie, inout's index is lower */
    ck_assert(io[1].v == 3.0 && io[1].i == 1); /* tie, in's index is lower */
    ck_assert(io[2].v == 4.0 && io[2].i == 9); /* larger value wins */
    struct { int v, i; } a[2] = {{-4, 5}, {-4, 3}}, b[2] = {{-4, 4}, {0, 0}};
    kernel(MPI_MINLOC, MPI_2INT)(a, b, 2);
    ck_assert(b[0].v == -4 && b[0].i == 4);
    ck_assert(b[1].v == -4 && b[1].i == 3);
    struct { float v, i; } r_in = {2.0f, 6.0f}, r_io = {2.0f, 8.0f}; /* MPI_2REAL: float index */
    kernel(MPI_MINLOC, MPI_2REAL)(&r_in, &r_io, 1);
    ck_assert(r_io.v == 2.0f && r_io.i == 6.0f);
    struct { short v; int i; } s_in = {-3, 4}, s_io = {2, 1};
    kernel(MPI_MINLOC, MPI_SHORT_INT)(&s_in, &s_io, 1);
    ck_assert(s_io.v == -3 && s_io.i == 4);
}
END_TEST

START_TEST(logical_ops_on_ints_give_zero_or_one)
{
    const int a[5] = {3, 0, -1, 0, 7}, b[5] = {4, 4, 0, 0, -7};
    int land[5], lor[5], lxor[5];
    memcpy(land, b, sizeof b);
    memcpy(lor, b, sizeof b);
    memcpy(lxor, b, sizeof b);
    kernel(MPI_LAND, MPI_INT)(a, land, 5);
    kernel(MPI_LOR, MPI_INT)(a, lor, 5);
    kernel(MPI_LXOR, MPI_INT)(a, lxor, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(land[i], a[i] != 0 && b[i] != 0);
        ck_assert_int_eq(lor[i], a[i] != 0 || b[i] != 0);
        ck_assert_int_eq(lxor[i], (a[i] != 0) != (b[i] != 0));
    }
    _Bool t = 1, f = 0, acc = 1;
    kernel(MPI_LXOR, MPI_C_BOOL)(&t, &acc, 1);
    ck_assert(acc == 0);
    kernel(MPI_LOR, MPI_C_BOOL)(&f, &acc, 1);
    ck_assert(acc == 0);
}
END_TEST

START_TEST(complex_products)
{
    /* (1 + 2i)(3 + 4i) = -5 + 10i, in C's own complex arithmetic. */
    double _Complex dz_in = 1 + 2 * _Complex_I, dz = 3 + 4 * _Complex_I, want = dz_in * dz;
    kernel(MPI_PROD, MPI_C_DOUBLE_COMPLEX)(&dz_in, &dz, 1);
    ck_assert(dz == want && __real__ dz == -5 && __imag__ dz == 10);
    float _Complex fz_in[9], fz[9];
    for (int i = 0; i < 9; i++) {
        fz_in[i] = (float)i + 2.0f * _Complex_I;
        fz[i] = 1.0f - (float)i * _Complex_I;
    }
    kernel(MPI_PROD, MPI_COMPLEX)(fz_in, fz, 9);
    for (int i = 0; i < 9; i++) {
        float _Complex w = ((float)i + 2.0f * _Complex_I) * (1.0f - (float)i * _Complex_I);
        ck_assert(fz[i] == w);
    }
    long double _Complex lz_in = 2 - 1.0il, lz = 2 + 1.0il;
    kernel(MPI_PROD, MPI_C_LONG_DOUBLE_COMPLEX)(&lz_in, &lz, 1);
    ck_assert(__real__ lz == 5 && __imag__ lz == 0);
    double _Complex s_in = 1 + 1 * _Complex_I, s = 2 - 3 * _Complex_I;
    kernel(MPI_SUM, MPI_DOUBLE_COMPLEX)(&s_in, &s, 1);
    ck_assert(__real__ s == 3 && __imag__ s == -2);
}
END_TEST

/* Every length 0..67 (vector bodies and scalar tails of any width) and a
 * misaligned start, against a plain loop written here. */
START_TEST(vector_bodies_and_tails)
{
    int32_t xi[70], yi[70];
    float xf[70], yf[70];
    for (size_t n = 0; n <= 67; n++)
        for (size_t off = 0; off <= 1; off++) {
            for (size_t i = 0; i < 70; i++) {
                xi[i] = (int32_t)(i * 2654435761u);
                yi[i] = (int32_t)(i * 40503u) - 1000000;
                xf[i] = (float)i * 0.5f - 9.0f;
                yf[i] = 17.0f - (float)i;
            }
            kernel(MPI_SUM, MPI_INT)(xi + off, yi + off, n);
            kernel(MPI_MAX, MPI_FLOAT)(xf + off, yf + off, n);
            for (size_t i = 0; i < 70; i++) {
                int in_range = i >= off && i < off + n;
                int32_t x = (int32_t)(i * 2654435761u), y = (int32_t)(i * 40503u) - 1000000;
                float a = (float)i * 0.5f - 9.0f, b = 17.0f - (float)i;
                unit_expect(yi[i] == (in_range ? (int32_t)((uint32_t)x + (uint32_t)y) : y),
                            "sum n=%zu off=%zu i=%zu", n, off, i);
                unit_expect(yf[i] == (in_range && a > b ? a : b), "max n=%zu i=%zu", n, i);
            }
        }
}
END_TEST

START_TEST(which_pairs_have_kernels)
{
    /* The standard's table: C integer, floating point, logical, complex,
     * byte and pair groups... */
    const MPI_Datatype integers[] = {MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT,
                                     MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
                                     MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
                                     MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
                                     MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
                                     MPI_INTEGER, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_CHAR};
    const MPI_Op int_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR,
                              MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    for (size_t t = 0; t < sizeof integers / sizeof integers[0]; t++)
        for (size_t o = 0; o < sizeof int_ops / sizeof int_ops[0]; o++)
            ck_assert_ptr_nonnull(op_kernel_find(int_ops[o], integers[t]));
    const MPI_Datatype floats[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL,
                                   MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8, MPI_REAL16};
    for (size_t t = 0; t < sizeof floats / sizeof floats[0]; t++) {
        ck_assert_ptr_nonnull(op_kernel_find(MPI_SUM, floats[t]));
        ck_assert_ptr_nonnull(op_kernel_find(MPI_MIN, floats[t]));
        ck_assert_ptr_nonnull(op_kernel_find(MPI_LAND, floats[t])); /* MPICH accepts it */
        ck_assert_ptr_null(op_kernel_find(MPI_BAND, floats[t]));
        ck_assert_ptr_null(op_kernel_find(MPI_MAXLOC, floats[t]));
    }
    const MPI_Datatype complexes[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                      MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
                                      MPI_DOUBLE_COMPLEX, MPI_CXX_DOUBLE_COMPLEX};
    for (size_t t = 0; t < sizeof complexes / sizeof complexes[0]; t++) {
        ck_assert_ptr_nonnull(op_kernel_find(MPI_PROD, complexes[t]));
        ck_assert_ptr_null(op_kernel_find(MPI_MAX, complexes[t]));
    }
    const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
                                  MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2REAL,
                                  MPI_2DOUBLE_PRECISION, MPI_2INTEGER};
    for (size_t t = 0; t < sizeof pairs / sizeof pairs[0]; t++) {
        ck_assert_ptr_nonnull(op_kernel_find(MPI_MINLOC, pairs[t]));
        ck_assert_ptr_null(op_kernel_find(MPI_SUM, pairs[t]));
    }
    ck_assert_ptr_nonnull(op_kernel_find(MPI_LXOR, MPI_C_BOOL));
    ck_assert_ptr_nonnull(op_kernel_find(MPI_LAND, MPI_LOGICAL));
    ck_assert_ptr_nonnull(op_kernel_find(MPI_BXOR, MPI_BYTE));
    ck_assert_ptr_null(op_kernel_find(MPI_SUM, MPI_C_BOOL));
    ck_assert_ptr_null(op_kernel_find(MPI_REPLACE, MPI_INT));
    ck_assert_ptr_null(op_kernel_find(MPI_SUM, MPI_PACKED));
    ck_assert_ptr_null(op_kernel_find(MPI_SUM, MPI_DATATYPE_NULL));
    ck_assert(op_is_predefined(MPI_NO_OP) && !op_is_predefined(MPI_OP_NULL));
}
END_TEST

START_TEST(element_sizes_follow_the_c_types)
{
    ck_assert_uint_eq(op_kernel_elem_size(MPI_LONG), sizeof(long));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_AINT), sizeof(MPI_Aint));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_WCHAR), sizeof(wchar_t));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_LONG_DOUBLE), sizeof(long double));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_C_BOOL), sizeof(_Bool));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_DOUBLE_INT), sizeof(struct { double v; int i; }));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_SHORT_INT), sizeof(struct { short v; int i; }));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_LONG_DOUBLE_INT),
                      sizeof(struct { long double v; int i; }));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_C_LONG_DOUBLE_COMPLEX), 2 * sizeof(long double));
    ck_assert_uint_eq(op_kernel_elem_size(MPI_PACKED), 0);
}
END_TEST

START_TEST(max_keeps_the_vendors_operand_order)
{
    /* inout > in ? inout : in, as Open MPI and MPICH: a NaN in inout gives
     * way to in, a NaN in in is kept. */
    double nan = __builtin_nan(""), one = 1.0, io = nan;
    kernel(MPI_MAX, MPI_DOUBLE)(&one, &io, 1);
    ck_assert(io == 1.0);
    io = 1.0;
    kernel(MPI_MAX, MPI_DOUBLE)(&nan, &io, 1);
    ck_assert(io != io);
}
END_TEST

Suite *op_kernels_suite(void)
{
    return unit_suite("op_kernels", "kernels", NULL,
                      UNIT_TESTS(eight_bit_sums_wrap, sixteen_bit_arithmetic_wraps,
                                 unsigned_min_max_compare_unsigned,
                                 minloc_maxloc_ties_keep_the_lower_index,
                                 logical_ops_on_ints_give_zero_or_one, complex_products,
                                 vector_bodies_and_tails, which_pairs_have_kernels,
                                 element_sizes_follow_the_c_types,
                                 max_keeps_the_vendors_operand_order));
}
