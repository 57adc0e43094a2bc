/* fuzz_types.c - collfuzz's datatypes, operations and values: derived
 * types of every shape a program builds (gaps, out-of-order blocks,
 * negative and shifted lower bounds, absolute addresses for MPI_BOTTOM, no
 * data at all), the op / type pairs the standard allows, user ops that read
 * any of these types, and values whose reductions are exact in any order
 * of evaluation that keeps the ranks' order. */
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <complex.h>

/* ---- the shapes ---- */

struct kind_row {
    const char *name;
    int k;
    int off[FUZZ_MAX_ELEMS]; /* in units of the base extent */
};
static const struct kind_row kinds[KIND_COUNT] = {
    [KIND_BASE] = {"base", 1, {0}},
    [KIND_DUP] = {"dup", 1, {0}},
    [KIND_CONTIGUOUS] = {"contiguous3", 3, {0, 1, 2}},
    [KIND_VECTOR] = {"vector2x1s3", 2, {0, 3}},
    [KIND_INDEXED] = {"indexed", 3, {3, 4, 0}},
    [KIND_NEG_STRIDE] = {"vector_neg", 2, {0, -2}},
    [KIND_STRUCT] = {"struct", 2, {2, 0}},
    [KIND_RESIZED_NEG] = {"resized_lb-1", 1, {0}},
    [KIND_RESIZED_POS] = {"resized_lb+2", 1, {0}},
    [KIND_ZERO] = {"zero", 0, {0}},
};

int kind_elements(enum kind k) { return kinds[k].k; }
const char *kind_name(enum kind k) { return kinds[k].name; }

MPI_Aint base_extent(MPI_Datatype base)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(base, &lb, &extent);
    return extent;
}

/* ---- the types alive, for the user ops ---- */
#define LIVE_MAX 256
static const struct ftype *live[LIVE_MAX];

static void live_add(const struct ftype *t)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live[i]) {
            live[i] = t;
            return;
        }
    fprintf(stderr, "collfuzz: more than %d live types\n", LIVE_MAX);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void live_remove(const struct ftype *t)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i] == t)
            live[i] = NULL;
}

const struct ftype *ftype_find(MPI_Datatype type)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i] && live[i]->type == type)
            return live[i];
    return NULL;
}

static int build(enum kind kind, MPI_Datatype b, MPI_Aint e, MPI_Datatype *out)
{
    MPI_Datatype two[2] = {b, b};
    int blocklens[2] = {2, 1}, ones[2] = {1, 1}, displs[2] = {3, 0};
    MPI_Aint sdispls[2] = {2 * e, 0};
    switch (kind) {
    case KIND_BASE: *out = b; return MPI_SUCCESS;
    case KIND_DUP: return MPI_Type_dup(b, out);
    case KIND_CONTIGUOUS: return MPI_Type_contiguous(3, b, out);
    case KIND_VECTOR: return MPI_Type_vector(2, 1, 3, b, out);
    case KIND_INDEXED: return MPI_Type_indexed(2, blocklens, displs, b, out);
    case KIND_NEG_STRIDE: return MPI_Type_vector(2, 1, -2, b, out);
    case KIND_STRUCT: return MPI_Type_create_struct(2, ones, sdispls, two, out);
    case KIND_RESIZED_NEG: return MPI_Type_create_resized(b, -e, 3 * e, out);
    case KIND_RESIZED_POS: return MPI_Type_create_resized(b, 2 * e, e, out);
    default: return MPI_Type_contiguous(0, b, out);
    }
}

static void read_bounds(struct ftype *t)
{
    MPI_Type_get_extent(t->type, &t->lb, &t->extent);
    MPI_Type_get_true_extent(t->type, &t->true_lb, &t->true_extent);
}

int ftype_make(struct ftype *t, enum kind kind, MPI_Datatype base)
{
    MPI_Aint e = base_extent(base);
    int err;
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->base = base;
    t->k = kinds[kind].k;
    for (int i = 0; i < t->k; i++)
        t->off[i] = kinds[kind].off[i] * e;
    if ((err = build(kind, base, e, &t->type)))
        return err;
    if (kind != KIND_BASE && (err = MPI_Type_commit(&t->type)))
        return err;
    read_bounds(t);
    live_add(t);
    return MPI_SUCCESS;
}

int ftype_absolute(struct ftype *t, const struct ftype *of, void *buf)
{
    MPI_Aint at;
    MPI_Datatype one;
    int len = 1, err;
    *t = *of;
    t->absolute = 1;
    MPI_Get_address(buf, &at);
    for (int i = 0; i < t->k; i++)
        t->off[i] = at + of->off[i];
    if ((err = MPI_Type_create_struct(1, &len, &at, (MPI_Datatype *)&of->type, &one)))
        return err;
    err = MPI_Type_create_resized(one, at + of->lb, of->extent, &t->type);
    MPI_Type_free(&one);
    if (err || (err = MPI_Type_commit(&t->type)))
        return err;
    read_bounds(t);
    live_add(t);
    return MPI_SUCCESS;
}

void ftype_free(struct ftype *t)
{
    if (t->type == MPI_DATATYPE_NULL || !t->type)
        return;
    live_remove(t);
    if (t->absolute || t->kind != KIND_BASE)
        MPI_Type_free(&t->type);
    t->type = MPI_DATATYPE_NULL;
}

/* ---- base types ---- */

struct base_row {
    MPI_Datatype type;
    const char *name;
    enum { B_INT, B_UINT, B_FLOAT, B_LDOUBLE, B_COMPLEX, B_DCOMPLEX, B_BOOL, B_BYTE, B_PAIR } cls;
    int size; /* bytes of the C type (pairs: of the value) */
};
#define BASES(X)                                                                                   \
    X(MPI_INT, B_INT, sizeof(int))                                                                 \
    X(MPI_SIGNED_CHAR, B_INT, 1) X(MPI_SHORT, B_INT, sizeof(short))                                \
        X(MPI_LONG, B_INT, sizeof(long)) X(MPI_UNSIGNED, B_UINT, sizeof(unsigned))                 \
            X(MPI_UINT8_T, B_UINT, 1) X(MPI_UINT64_T, B_UINT, 8) X(MPI_INT64_T, B_INT, 8)          \
                X(MPI_FLOAT, B_FLOAT, sizeof(float)) X(MPI_DOUBLE, B_FLOAT, sizeof(double))        \
                    X(MPI_LONG_DOUBLE, B_LDOUBLE, sizeof(long double))                             \
                        X(MPI_C_FLOAT_COMPLEX, B_COMPLEX, sizeof(float complex))                   \
                            X(MPI_C_DOUBLE_COMPLEX, B_DCOMPLEX, sizeof(double complex))            \
                                X(MPI_C_BOOL, B_BOOL, 1) X(MPI_BYTE, B_BYTE, 1)                    \
                                    X(MPI_2INT, B_PAIR, sizeof(int))                               \
                                        X(MPI_FLOAT_INT, B_PAIR, sizeof(float))                    \
                                            X(MPI_DOUBLE_INT, B_PAIR, sizeof(double))              \
                                                X(MPI_LONG_INT, B_PAIR, sizeof(long))              \
                                                    X(MPI_SHORT_INT, B_PAIR, sizeof(short))        \
                                                        X(MPI_LONG_DOUBLE_INT, B_PAIR,             \
                                                          sizeof(long double))
#define BASE_ROW(t, c, s) {t, #t, c, (int)(s)},
static struct base_row bases[32];
static int nbases;

static const struct base_row *base_row(MPI_Datatype t)
{
    for (int i = 0; i < nbases; i++)
        if (bases[i].type == t)
            return &bases[i];
    return NULL;
}

const char *base_name(MPI_Datatype base)
{
    const struct base_row *b = base_row(base);
    return b ? b->name : "?";
}

/* Values whose every reduction is exact: small integers. A pair's value
 * part is written by its class, its index part as an int after it. */
static void write_int(void *p, int size, long long v)
{
    switch (size) {
    case 1: {
        signed char x = (signed char)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        short x = (short)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        int x = (int)v;
        memcpy(p, &x, 4);
        break;
    }
    default: {
        long long x = v;
        memcpy(p, &x, 8);
        break;
    }
    }
}

/* A pair type's value, then its index where the C struct puts it; the
 * padding between and after stays zero. */
#define WRITE_PAIR(p, V, v, index)                                                                 \
    do {                                                                                           \
        struct {                                                                                   \
            V value;                                                                               \
            int index;                                                                             \
        } pair_;                                                                                   \
        V value_ = (V)(v);                                                                         \
        int index_ = (index);                                                                      \
        memset(p, 0, sizeof pair_);                                                                \
        memcpy(p, &value_, sizeof(V) == sizeof(long double) ? 10 : sizeof(V));                     \
        memcpy((char *)(p) + offsetof(__typeof__(pair_), index), &index_, sizeof index_);          \
    } while (0)

static void write_pair(void *p, MPI_Datatype t, long long v, int index)
{
    if (t == MPI_2INT)
        WRITE_PAIR(p, int, v, index);
    else if (t == MPI_FLOAT_INT)
        WRITE_PAIR(p, float, v, index);
    else if (t == MPI_DOUBLE_INT)
        WRITE_PAIR(p, double, v, index);
    else if (t == MPI_LONG_INT)
        WRITE_PAIR(p, long, v, index);
    else if (t == MPI_SHORT_INT)
        WRITE_PAIR(p, short, v, index);
    else
        WRITE_PAIR(p, long double, v, index); /* MPI_LONG_DOUBLE_INT */
}

/* The bytes of a pair type that hold neither value nor index. */
#define PAIR_PADDING(mask, V)                                                                      \
    do {                                                                                           \
        struct {                                                                                   \
            V value;                                                                               \
            int index;                                                                             \
        } pair_;                                                                                   \
        memset(mask, 1, sizeof pair_);                                                             \
        memset(mask, 0, sizeof(V) == sizeof(long double) ? 10 : sizeof(V));                        \
        memset((mask) + offsetof(__typeof__(pair_), index), 0, sizeof(int));                       \
    } while (0)

void base_padding(MPI_Datatype base, unsigned char *mask)
{
    memset(mask, 0, (size_t)base_extent(base));
    if (base == MPI_LONG_DOUBLE) /* x87's 80 bits in 16 bytes */
        memset(mask + 10, 1, sizeof(long double) - 10);
    else if (base == MPI_DOUBLE_INT)
        PAIR_PADDING(mask, double);
    else if (base == MPI_LONG_INT)
        PAIR_PADDING(mask, long);
    else if (base == MPI_SHORT_INT)
        PAIR_PADDING(mask, short);
    else if (base == MPI_LONG_DOUBLE_INT)
        PAIR_PADDING(mask, long double);
}

static long long small_value(enum value_kind values, int is_unsigned, struct rng *r)
{
    static const int prod[] = {1, 1, 2, -1, 1, 2};
    switch (values) {
    case VALUES_SUM: return is_unsigned ? rng_below(r, 5) : rng_below(r, 9) - 4;
    case VALUES_PROD: return is_unsigned ? 1 + rng_below(r, 2) : prod[rng_below(r, 6)];
    case VALUES_LOGICAL: return rng_below(r, 3);
    case VALUES_PAIR: return rng_below(r, 4) - 2;
    default: return (long long)rng_next(r); /* VALUES_ANY, VALUES_NO_TOP_BIT */
    }
}

void value_write(void *p, MPI_Datatype base, enum value_kind values, struct rng *r)
{
    const struct base_row *b = base_row(base);
    long long v = small_value(values, b && b->cls == B_UINT, r);
    int any = values == VALUES_ANY || values == VALUES_NO_TOP_BIT;
    if (!b)
        return;
    if (values == VALUES_NO_TOP_BIT && b->cls == B_UINT)
        v &= (long long)((1ull << (8 * b->size - 1)) - 1);
    switch (b->cls) {
    case B_INT:
    case B_UINT: write_int(p, b->size, v); break;
    case B_BOOL: {
        unsigned char x = (unsigned char)(v != 0);
        memcpy(p, &x, 1);
        break;
    }
    case B_BYTE: {
        unsigned char x = (unsigned char)v;
        memcpy(p, &x, 1);
        break;
    }
    case B_FLOAT:
        if (b->size == sizeof(float)) {
            float x = (float)(any ? v % 1000 : v);
            memcpy(p, &x, sizeof x);
        } else {
            double x = (double)(any ? v % 100000 : v);
            memcpy(p, &x, sizeof x);
        }
        break;
    case B_LDOUBLE: {
        long double x = (long double)(any ? v % 100000 : v);
        memset(p, 0, sizeof x);
        memcpy(p, &x, 10);
        break;
    }
    case B_COMPLEX: {
        float x[2] = {(float)(v % 100), (float)small_value(any ? VALUES_SUM : values, 0, r)};
        memcpy(p, x, sizeof x);
        break;
    }
    case B_DCOMPLEX: {
        double x[2] = {(double)(v % 100), (double)small_value(any ? VALUES_SUM : values, 0, r)};
        memcpy(p, x, sizeof x);
        break;
    }
    case B_PAIR: write_pair(p, base, any ? v % 100 : v, rng_below(r, 8)); break;
    }
}

/* ---- user ops: they find the type of each call and apply per element ---- */

/* x o y for x = (m1, c1), y = (m2, c2), each 16 bits of a 32-bit word: the
 * affine map t -> m1 (m2 t + c2) + c1. Associative, not commutative. */
static unsigned affine(unsigned x, unsigned y)
{
    unsigned m1 = x >> 16, c1 = x & 0xffff, m2 = y >> 16, c2 = y & 0xffff;
    return ((m1 * m2) & 0xffff) << 16 | ((m1 * c2 + c1) & 0xffff);
}

static void apply(void *in, void *inout, int *len, MPI_Datatype *dt, int ordered)
{
    const struct ftype *t = ftype_find(*dt);
    if (!t) {
        fprintf(stderr, "collfuzz: a user op was called with a datatype the program never "
                        "passed\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
        return;
    }
    for (int i = 0; i < *len; i++)
        for (int j = 0; j < t->k; j++) {
            char *a = (char *)in + (MPI_Aint)i * t->extent + t->off[j];
            char *b = (char *)inout + (MPI_Aint)i * t->extent + t->off[j];
            if (t->base == MPI_DOUBLE) {
                double x, y;
                memcpy(&x, a, sizeof x);
                memcpy(&y, b, sizeof y);
                y = x + y;
                memcpy(b, &y, sizeof y);
            } else {
                unsigned x, y;
                memcpy(&x, a, sizeof x);
                memcpy(&y, b, sizeof y);
                y = ordered ? affine(x, y) : x + y;
                memcpy(b, &y, sizeof y);
            }
        }
}
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    apply(in, inout, len, dt, 0);
}
static void user_affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    apply(in, inout, len, dt, 1);
}

static MPI_Op op_sum, op_affine;

int ops_init(void)
{
    static const struct base_row rows[] = {BASES(BASE_ROW)};
    int err;
    nbases = (int)(sizeof rows / sizeof rows[0]);
    memcpy(bases, rows, sizeof rows);
    if ((err = MPI_Op_create(user_sum, 1, &op_sum)))
        return err;
    return MPI_Op_create(user_affine, 0, &op_affine);
}

void ops_free(void)
{
    MPI_Op_free(&op_sum);
    MPI_Op_free(&op_affine);
}

/* ---- drawing ---- */

static MPI_Datatype pick(struct rng *r, const MPI_Datatype *from, int n)
{
    return from[rng_below(r, n)];
}
#define PICK(r, ...)                                                                               \
    pick(r, (const MPI_Datatype[]){__VA_ARGS__},                                                   \
         (int)(sizeof((const MPI_Datatype[]){__VA_ARGS__}) / sizeof(MPI_Datatype)))

MPI_Datatype base_draw(struct rng *r)
{
    MPI_Datatype t = PICK(r, MPI_INT, MPI_INT, MPI_SIGNED_CHAR, MPI_BYTE, MPI_DOUBLE, MPI_SHORT,
                          MPI_LONG_DOUBLE, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_C_DOUBLE_COMPLEX);
    if (vendor_mishandles_pairs() && (t == MPI_DOUBLE_INT || t == MPI_SHORT_INT))
        t = MPI_DOUBLE;
    return t;
}

void op_draw(struct rng *r, struct op_choice *op, MPI_Datatype *base)
{
    memset(op, 0, sizeof *op);
    op->commutative = 1;
    switch (rng_below(r, 14)) {
    case 0:
    case 1:
        *op = (struct op_choice){MPI_SUM, "sum", 0, 1, VALUES_SUM};
        *base = PICK(r, MPI_INT, MPI_SIGNED_CHAR, MPI_LONG, MPI_UINT8_T, MPI_FLOAT, MPI_DOUBLE,
                     MPI_LONG_DOUBLE, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_UINT64_T);
        return;
    case 2:
        /* not complex: the sign of a zero part depends on the order of
         * the products, which the standard leaves to the library */
        *op = (struct op_choice){MPI_PROD, "prod", 0, 1, VALUES_PROD};
        *base = PICK(r, MPI_INT, MPI_SHORT, MPI_UNSIGNED, MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE);
        return;
    case 3:
    case 4:
        *op = rng_chance(r, 50) ? (struct op_choice){MPI_MIN, "min", 0, 1, VALUES_ANY}
                                : (struct op_choice){MPI_MAX, "max", 0, 1, VALUES_ANY};
        if (vendor_orders_unsigned_as_signed())
            op->values = VALUES_NO_TOP_BIT;
        *base = PICK(r, MPI_INT, MPI_SIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED, MPI_INT64_T, MPI_FLOAT,
                     MPI_DOUBLE, MPI_LONG_DOUBLE);
        return;
    case 5:
        *op = (struct op_choice){MPI_LAND, "land", 0, 1, VALUES_LOGICAL};
        if (rng_chance(r, 67))
            *op = rng_chance(r, 50) ? (struct op_choice){MPI_LOR, "lor", 0, 1, VALUES_LOGICAL}
                                    : (struct op_choice){MPI_LXOR, "lxor", 0, 1, VALUES_LOGICAL};
        *base = PICK(r, MPI_INT, MPI_C_BOOL, MPI_SIGNED_CHAR, MPI_LONG);
        return;
    case 6:
        *op = (struct op_choice){MPI_BXOR, "bxor", 0, 1, VALUES_ANY};
        if (rng_chance(r, 67))
            *op = rng_chance(r, 50) ? (struct op_choice){MPI_BAND, "band", 0, 1, VALUES_ANY}
                                    : (struct op_choice){MPI_BOR, "bor", 0, 1, VALUES_ANY};
        *base = PICK(r, MPI_INT, MPI_BYTE, MPI_UNSIGNED, MPI_UINT64_T, MPI_SHORT);
        return;
    case 7:
    case 8:
        *op = rng_chance(r, 50) ? (struct op_choice){MPI_MINLOC, "minloc", 0, 1, VALUES_PAIR}
                                : (struct op_choice){MPI_MAXLOC, "maxloc", 0, 1, VALUES_PAIR};
        *base = PICK(r, MPI_2INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
                     MPI_LONG_DOUBLE_INT);
        if (vendor_mishandles_pairs() && *base == MPI_LONG_DOUBLE_INT)
            *base = MPI_DOUBLE_INT;
        return;
    case 9:
    case 10:
        *op = (struct op_choice){op_sum, "user_sum", 1, 1, VALUES_SUM};
        *base = PICK(r, MPI_UNSIGNED, MPI_DOUBLE);
        return;
    default:
        *op = (struct op_choice){op_affine, "user_noncommutative", 1, 0, VALUES_ANY};
        *base = MPI_UNSIGNED;
        return;
    }
}
