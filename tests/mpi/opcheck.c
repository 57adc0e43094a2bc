/* opcheck.c - MPI's predefined ops on named datatypes through the six
 * reduction collectives (issue 10, items 5 and 8).
 *
 * 1. Refused pairs: for every (op, named type) the MPI library refuses
 *    (asked of it on a one-rank communicator), every collective returns
 *    the library's error class on every rank, with the built-in selection
 *    and with each algorithm forced, at count 2 and 0, and nothing hangs.
 *    The library's own collectives on the same communicator are run too,
 *    to check that its verdict does not depend on the communicator.
 * 2. Arithmetic where a vendor is wrong or semantics are subtle (8- and
 *    16-bit sums wrap, MPI_CHAR included; unsigned MIN/MAX; MINLOC/MAXLOC
 *    ties; logical ops on ints; complex products): every collective, every
 *    native algorithm that can run the case, results equal to values
 *    computed here from the inputs.
 * 3. Every pair the library accepts: allreduce, reduce and scan through
 *    native algorithms equal values computed from the inputs and the
 *    library's own result (except where the library aborts or computes
 *    garbage: MPICH on logical ops over floating point, MPIX_C_FLOAT16,
 *    MPI_REAL16), and never fall back to MPI_Reduce_local (counted by the
 *    interposer below).
 * Communicator with MPI_ERRORS_RETURN. Ends "opcheck: N passed, N failed". */
#define _GNU_SOURCE
#include <mpi.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collshim.h"
#include "tests/mpi/expect.h"

/* ---- MPI_Reduce_local calls made by collshim (the interposer) ---- */
static long long reduce_local_calls;

int PMPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype t, MPI_Op op)
{
    static int (*next)(const void *, void *, int, MPI_Datatype, MPI_Op);
    if (!next)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Reduce_local");
    reduce_local_calls++;
    return next(in, inout, count, t, op);
}
int MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype t, MPI_Op op)
{
    return PMPI_Reduce_local(in, inout, count, t, op);
}

/* ---- the named types and ops ---- */
enum kind { K_INT, K_UINT, K_FLOAT, K_COMPLEX, K_BOOL, K_PAIR, K_OTHER };
struct ntype {
    const char *name;
    MPI_Datatype type;
    enum kind kind;
};
#define NT(t, k) {#t, t, k}
static const struct ntype types[] = {
    NT(MPI_CHAR, K_INT), NT(MPI_SIGNED_CHAR, K_INT), NT(MPI_UNSIGNED_CHAR, K_UINT),
    NT(MPI_BYTE, K_UINT), NT(MPI_WCHAR, K_INT), NT(MPI_SHORT, K_INT),
    NT(MPI_UNSIGNED_SHORT, K_UINT), NT(MPI_INT, K_INT), NT(MPI_UNSIGNED, K_UINT),
    NT(MPI_LONG, K_INT), NT(MPI_UNSIGNED_LONG, K_UINT), NT(MPI_LONG_LONG_INT, K_INT),
    NT(MPI_LONG_LONG, K_INT), NT(MPI_UNSIGNED_LONG_LONG, K_UINT), NT(MPI_FLOAT, K_FLOAT),
    NT(MPI_DOUBLE, K_FLOAT), NT(MPI_LONG_DOUBLE, K_FLOAT), NT(MPI_PACKED, K_OTHER),
    NT(MPI_FLOAT_INT, K_PAIR), NT(MPI_DOUBLE_INT, K_PAIR), NT(MPI_LONG_INT, K_PAIR),
    NT(MPI_SHORT_INT, K_PAIR), NT(MPI_2INT, K_PAIR), NT(MPI_LONG_DOUBLE_INT, K_PAIR),
    NT(MPI_COMPLEX, K_COMPLEX), NT(MPI_DOUBLE_COMPLEX, K_COMPLEX), NT(MPI_LOGICAL, K_INT),
    NT(MPI_REAL, K_FLOAT), NT(MPI_DOUBLE_PRECISION, K_FLOAT), NT(MPI_INTEGER, K_INT),
    NT(MPI_2INTEGER, K_PAIR), NT(MPI_2REAL, K_PAIR), NT(MPI_2DOUBLE_PRECISION, K_PAIR),
    NT(MPI_CHARACTER, K_UINT), NT(MPI_REAL4, K_FLOAT), NT(MPI_REAL8, K_FLOAT),
    NT(MPI_REAL16, K_FLOAT), NT(MPI_COMPLEX8, K_COMPLEX), NT(MPI_COMPLEX16, K_COMPLEX),
    NT(MPI_COMPLEX32, K_COMPLEX), NT(MPI_INTEGER1, K_INT), NT(MPI_INTEGER2, K_INT),
    NT(MPI_INTEGER4, K_INT), NT(MPI_INTEGER8, K_INT), NT(MPI_INT8_T, K_INT),
    NT(MPI_INT16_T, K_INT), NT(MPI_INT32_T, K_INT), NT(MPI_INT64_T, K_INT),
    NT(MPI_UINT8_T, K_UINT), NT(MPI_UINT16_T, K_UINT), NT(MPI_UINT32_T, K_UINT),
    NT(MPI_UINT64_T, K_UINT), NT(MPI_C_BOOL, K_BOOL), NT(MPI_C_COMPLEX, K_COMPLEX),
    NT(MPI_C_FLOAT_COMPLEX, K_COMPLEX), NT(MPI_C_DOUBLE_COMPLEX, K_COMPLEX),
    NT(MPI_C_LONG_DOUBLE_COMPLEX, K_COMPLEX), NT(MPI_AINT, K_INT), NT(MPI_OFFSET, K_INT),
    NT(MPI_COUNT, K_INT), NT(MPI_CXX_BOOL, K_BOOL), NT(MPI_CXX_FLOAT_COMPLEX, K_COMPLEX),
    NT(MPI_CXX_DOUBLE_COMPLEX, K_COMPLEX), NT(MPI_CXX_LONG_DOUBLE_COMPLEX, K_COMPLEX),
#ifdef OPEN_MPI
    NT(MPI_LOGICAL1, K_INT), NT(MPI_LOGICAL2, K_INT), NT(MPI_LOGICAL4, K_INT),
    NT(MPI_LOGICAL8, K_INT), NT(MPI_CXX_COMPLEX, K_COMPLEX), NT(MPI_2COMPLEX, K_OTHER),
    NT(MPI_2DOUBLE_COMPLEX, K_OTHER),
#else
    NT(MPI_INTEGER16, K_INT),
#endif
#if defined(MPIX_C_FLOAT16) && defined(__FLT16_MAX__)
    NT(MPIX_C_FLOAT16, K_FLOAT),
#endif
};
#define NTYPES (int)(sizeof types / sizeof types[0])

static const struct {
    const char *name;
    MPI_Op op;
} ops[] = {
    {"MPI_MAX", MPI_MAX}, {"MPI_MIN", MPI_MIN}, {"MPI_SUM", MPI_SUM}, {"MPI_PROD", MPI_PROD},
    {"MPI_LAND", MPI_LAND}, {"MPI_BAND", MPI_BAND}, {"MPI_LOR", MPI_LOR},
    {"MPI_BOR", MPI_BOR}, {"MPI_LXOR", MPI_LXOR}, {"MPI_BXOR", MPI_BXOR},
    {"MPI_MAXLOC", MPI_MAXLOC}, {"MPI_MINLOC", MPI_MINLOC}, {"MPI_REPLACE", MPI_REPLACE},
    {"MPI_NO_OP", MPI_NO_OP},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])
#define NARITH 12 /* ops[0..11]: all but REPLACE and NO_OP */

/* ---- the six collectives, sized by a per-rank block of n elements ---- */
static const char *const colls[] = {"reduce", "allreduce", "reduce_scatter",
                                    "reduce_scatter_block", "scan", "exscan"};
#define NCOLLS 6
enum { REDUCE, ALLREDUCE, RS, RSB, SCAN, EXSCAN };

struct env {
    MPI_Comm comm, self;
    int rank, size;
    int counts[64];
};

static int rs_count(const struct env *e, int n, int r) { return n + (r % 2); }

/* Runs collective c with n elements per rank-block; rbuf big enough. */
static int run_coll(struct env *e, int c, const void *s, void *r, int n, MPI_Datatype t,
                    MPI_Op op)
{
    int total = n * e->size;
    switch (c) {
    case REDUCE: return MPI_Reduce(s, r, total, t, op, e->size - 1, e->comm);
    case ALLREDUCE: return MPI_Allreduce(s, r, total, t, op, e->comm);
    case RS:
        for (int i = 0; i < e->size; i++)
            e->counts[i] = rs_count(e, n, i);
        return MPI_Reduce_scatter(s, r, e->counts, t, op, e->comm);
    case RSB: return MPI_Reduce_scatter_block(s, r, n, t, op, e->comm);
    case SCAN: return MPI_Scan(s, r, total, t, op, e->comm);
    default: return MPI_Exscan(s, r, total, t, op, e->comm);
    }
}

/* Elements of the send buffer (rs sends sum of rs_count >= n * size). */
static int send_elems(const struct env *e, int n) { return n * e->size + e->size; }

/* Global element index of local result element j, and the ranks whose
 * inputs it combines ([lo, hi]); 0 when this rank's result is undefined. */
static int result_span(const struct env *e, int c, int n, int j, int *g, int *lo, int *hi)
{
    *g = j;
    *lo = 0;
    *hi = e->size - 1;
    switch (c) {
    case REDUCE: return e->rank == e->size - 1 && j < n * e->size;
    case ALLREDUCE: return j < n * e->size;
    case RS:
        for (int i = 0; i < e->rank; i++)
            *g += rs_count(e, n, i);
        return j < rs_count(e, n, e->rank);
    case RSB: *g = e->rank * n + j; return j < n;
    case SCAN: *hi = e->rank; return j < n * e->size;
    default: *hi = e->rank - 1; return e->rank > 0 && j < n * e->size;
    }
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* Force alg of coll ("" = the built-in selection). */
static void force(const char *coll, const char *alg)
{
    char rule[128];
    snprintf(rule, sizeof rule, "%s @%s", coll, alg);
    collshim_tune(*alg ? rule : NULL, NULL, 0);
}

/* What the library says of (op, t), on a one-rank communicator. */
static int vendor_verdict(struct env *e, MPI_Op op, MPI_Datatype t)
{
    _Alignas(64) unsigned char in[64] = {0}, out[64];
    collshim_bypass(1);
    int cls = error_class(MPI_Allreduce(in, out, 1, t, op, e->self));
    collshim_bypass(0);
    return cls;
}

/* ---------------------------------------------------------------------
 * 1. refused pairs
 * ------------------------------------------------------------------- */
static char first_failure[256];

static void note_failure(const char *fmt, const char *a, const char *b, const char *c, int got,
                         int want)
{
    if (!first_failure[0])
        snprintf(first_failure, sizeof first_failure, fmt, a, b, c, got, want);
}

/* Every collective, every algorithm forced and none, count 2 and 0. */
static int refused_everywhere(struct env *e, int o, int t, int cls, unsigned char *s,
                              unsigned char *r)
{
    int ok = 1;
    for (int c = 0; c < NCOLLS; c++) {
        int nalg = collshim_algorithm_count(colls[c]);
        for (int a = -1; a < nalg; a++) {
            const char *alg = a < 0 ? "" : collshim_algorithm_name(colls[c], a);
            if (!strncmp(alg, "inter_", 6))
                continue; /* intercommunicators only (intercheck.c) */
            force(colls[c], alg);
            for (int n = 2; n >= 0; n -= 2) {
                int got = error_class(run_coll(e, c, s, r, n, types[t].type, ops[o].op));
                if (got != cls) {
                    note_failure("%s on %s: %s returned class %d, the vendor %d", ops[o].name,
                                 types[t].name, colls[c], got, cls);
                    ok = 0;
                }
            }
        }
    }
    force("allreduce", "");
    return ok;
}

/* The library's own collectives on e->comm give the one-rank verdict. */
static int vendor_agrees(struct env *e, int o, int t, int cls, unsigned char *s, unsigned char *r)
{
    int ok = 1;
    collshim_bypass(1);
    for (int c = 0; c < NCOLLS; c++)
        ok &= error_class(run_coll(e, c, s, r, 2, types[t].type, ops[o].op)) == cls;
    collshim_bypass(0);
    return ok;
}

static void check_refusals(struct env *e)
{
    size_t bytes = (size_t)send_elems(e, 2) * 64;
    unsigned char *s = calloc(1, bytes), *r = calloc(1, bytes);
    for (int o = 0; o < NOPS; o++) {
        int refused = 0, ok = 1, vendor_ok = 1;
        first_failure[0] = '\0';
        for (int t = 0; t < NTYPES; t++) {
            int cls = types[t].type == MPI_DATATYPE_NULL ? MPI_SUCCESS
                                                         : vendor_verdict(e, ops[o].op, types[t].type);
            if (cls == MPI_SUCCESS)
                continue;
            refused++;
            vendor_ok &= vendor_agrees(e, o, t, cls, s, r);
            ok &= refused_everywhere(e, o, t, cls, s, r);
        }
        char what[200];
        snprintf(what, sizeof what, "%s: the vendor refuses %d types, on any communicator", ops[o].name,
                 refused);
        expect(e->rank, vendor_ok, what);
        snprintf(what, sizeof what, "%s on those %d types: every reduction, every algorithm, "
                 "count 2 and 0 -> the vendor's class on every rank", ops[o].name, refused);
        expect(e->rank, ok, what);
        if (!ok && first_failure[0])
            printf("  rank %d: %s\n", e->rank, first_failure);
    }
    free(s);
    free(r);
}

/* Pairs both libraries refuse: the probing above must find them. */
static void check_known_refusals(struct env *e)
{
    static const struct { MPI_Op op; MPI_Datatype type; const char *what; } known[] = {
        {MPI_BAND, MPI_DOUBLE, "BAND/double"}, {MPI_BXOR, MPI_FLOAT, "BXOR/float"},
        {MPI_MINLOC, MPI_INT, "MINLOC/int"}, {MPI_MAXLOC, MPI_DOUBLE, "MAXLOC/double"},
        {MPI_SUM, MPI_FLOAT_INT, "SUM/FLOAT_INT"},
        {MPI_MAX, MPI_C_DOUBLE_COMPLEX, "MAX/C_DOUBLE_COMPLEX"},
        {MPI_SUM, MPI_C_BOOL, "SUM/C_BOOL"}, {MPI_REPLACE, MPI_INT, "REPLACE/int"},
        {MPI_NO_OP, MPI_INT, "NO_OP/int"}, {MPI_PROD, MPI_LOGICAL, "PROD/LOGICAL"},
    };
    int ok = 1;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        ok &= vendor_verdict(e, known[k].op, known[k].type) == MPI_ERR_OP;
    expect(e->rank, ok, "both vendors refuse BAND/double, MINLOC/int, SUM/C_BOOL, REPLACE, ... "
                        "with MPI_ERR_OP");
}

/* ---------------------------------------------------------------------
 * values: write inputs and read results of any kind
 * ------------------------------------------------------------------- */
#define PAIR_LAYOUTS(X)                                                         \
    X(MPI_FLOAT_INT, float, int) X(MPI_DOUBLE_INT, double, int)                 \
    X(MPI_LONG_INT, long, int) X(MPI_SHORT_INT, short, int) X(MPI_2INT, int, int) \
    X(MPI_LONG_DOUBLE_INT, long double, int) X(MPI_2REAL, float, float)         \
    X(MPI_2DOUBLE_PRECISION, double, double) X(MPI_2INTEGER, int, int)

static int type_size(MPI_Datatype t)
{
    int s;
    MPI_Type_size(t, &s);
    return s;
}

static void put_float(void *p, int size, long double v)
{
    switch (size) {
#if defined(MPIX_C_FLOAT16) && defined(__FLT16_MAX__)
    case 2: *(_Float16 *)p = (_Float16)v; break;
#endif
    case 4: *(float *)p = (float)v; break;
    case 8: *(double *)p = (double)v; break;
    default: *(long double *)p = v; break;
    }
}

static long double get_float(const void *p, int size)
{
    switch (size) {
#if defined(MPIX_C_FLOAT16) && defined(__FLT16_MAX__)
    case 2: return *(const _Float16 *)p;
#endif
    case 4: return *(const float *)p;
    case 8: return *(const double *)p;
    default: return *(const long double *)p;
    }
}

/* Integer bits of width 8*size, sign-extended or not by kind. */
static long double get_int(const void *p, int size, enum kind k)
{
    uint64_t u = 0;
    memcpy(&u, p, (size_t)size); /* little-endian */
    if (size < 8 && k == K_INT && (u >> (8 * size - 1)) & 1)
        u |= ~0ull << (8 * size);
    return k == K_INT ? (long double)(int64_t)u : (long double)u;
}

/* Element value v (and index/imaginary part x) into p. */
static void put_value(const struct ntype *t, void *p, long long v, long long x)
{
    int size = type_size(t->type);
    memset(p, 0, (size_t)extent_of(t->type));
    switch (t->kind) {
    case K_INT: case K_UINT: memcpy(p, &v, (size_t)size); break; /* little-endian */
    case K_BOOL: *(_Bool *)p = v != 0; break;
    case K_FLOAT: put_float(p, size, (long double)v); break;
    case K_COMPLEX:
        put_float(p, size / 2, (long double)v);
        put_float((char *)p + size / 2, size / 2, (long double)x);
        break;
    case K_PAIR:
#define PUT_PAIR(T, V, I)                                                       \
    if (t->type == T) {                                                         \
        struct { V v; I i; } *e = p;                                            \
        e->v = (V)v;                                                            \
        e->i = (I)x;                                                            \
    }
        PAIR_LAYOUTS(PUT_PAIR)
        break;
    default: break;
    }
}

/* The element's value and second part (index, imaginary part, or 0). */
static void get_value(const struct ntype *t, const void *p, long double out[2])
{
    int size = type_size(t->type);
    out[1] = 0;
    switch (t->kind) {
    case K_INT: case K_UINT: out[0] = get_int(p, size, t->kind); break;
    case K_BOOL: out[0] = *(const _Bool *)p; break;
    case K_FLOAT: out[0] = get_float(p, size); break;
    case K_COMPLEX:
        out[0] = get_float(p, size / 2);
        out[1] = get_float((const char *)p + size / 2, size / 2);
        break;
    case K_PAIR:
#define GET_PAIR(T, V, I)                                                       \
    if (t->type == T) {                                                         \
        const struct { V v; I i; } *e = p;                                      \
        out[0] = e->v;                                                          \
        out[1] = e->i;                                                          \
    }
        PAIR_LAYOUTS(GET_PAIR)
        break;
    default: out[0] = 0; break;
    }
}

/* ---------------------------------------------------------------------
 * 3. every accepted pair, small inputs: reference, vendor, no fallback
 * ------------------------------------------------------------------- */
/* Input of rank r at global element g: 0..3 (a bool holds 0 or 1),
 * index/imaginary 0..4. */
static long long small_v(const struct ntype *t, int r, int g)
{
    return t->kind == K_BOOL ? (g + 2 * r) % 4 != 0 : (g + 2 * r) % 4;
}
static long long small_x(int r, int g) { return (3 * g + r) % 5; }

/* Reference for small values: ops over ranks lo..hi in exact arithmetic.
 * Complex products and MINLOC/MAXLOC ties have cases of their own (2.). */
static void reference(const struct ntype *t, MPI_Op op, int lo, int hi, int g, long double out[2])
{
    int two_parts = t->kind == K_COMPLEX || t->kind == K_PAIR;
    long double v = small_v(t, lo, g), x = two_parts ? small_x(lo, g) : 0;
    for (int r = lo + 1; r <= hi; r++) {
        long double w = small_v(t, r, g), y = two_parts ? small_x(r, g) : 0;
        if (op == MPI_SUM) { v += w; x += y; }
        else if (op == MPI_PROD) { long double re = v * w - x * y; x = v * y + x * w; v = re; }
        else if (op == MPI_MAX) v = w > v ? w : v;
        else if (op == MPI_MIN) v = w < v ? w : v;
        else if (op == MPI_LAND) v = v != 0 && w != 0;
        else if (op == MPI_LOR) v = v != 0 || w != 0;
        else if (op == MPI_LXOR) v = (v != 0) != (w != 0);
        else if (op == MPI_BAND) v = (long long)v & (long long)w;
        else if (op == MPI_BOR) v = (long long)v | (long long)w;
        else if (op == MPI_BXOR) v = (long long)v ^ (long long)w;
        else if (op == MPI_MAXLOC || op == MPI_MINLOC) {
            int better = op == MPI_MAXLOC ? w > v : w < v;
            if (better || (w == v && y < x)) { v = w; x = y; }
        }
    }
    out[0] = v;
    out[1] = x;
}

/* The library cannot compute these (MPICH 4.0.2 aborts in its logical ops
 * on floating point and in MPIX_C_FLOAT16 packing; its MPI_REAL16 results
 * are garbage): compare with the reference only. */
static int vendor_cannot(const struct ntype *t, MPI_Op op)
{
#ifdef MPICH
    if (t->type == MPI_REAL16)
        return 1;
#if defined(MPIX_C_FLOAT16)
    if (t->type == MPIX_C_FLOAT16)
        return 1;
#endif
    return t->kind == K_FLOAT && (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR);
#else
    (void)t; (void)op;
    return 0;
#endif
}

static const struct { int coll; const char *alg; } native[] = {
    {ALLREDUCE, "recursive_doubling"}, {REDUCE, "binomial"}, {SCAN, "linear"},
};

/* Native algorithm k through collshim into r, and the vendor's own
 * collective into v (where it can compute the pair); 0 and a reason if
 * the algorithm failed, did not run, or fell back to MPI_Reduce_local. */
static int run_native(struct env *e, size_t k, const struct ntype *t, MPI_Op op, int n,
                      const void *s, void *r, void *v, char *why, size_t whylen)
{
    int c = native[k].coll;
    long long before = collshim_algorithm_calls(colls[c], native[k].alg);
    long long fallbacks = reduce_local_calls;
    force(colls[c], native[k].alg);
    int rc = run_coll(e, c, s, r, n, t->type, op);
    force(colls[c], "");
    int ran = collshim_algorithm_calls(colls[c], native[k].alg) == before + 1;
    fallbacks = reduce_local_calls - fallbacks;
    collshim_bypass(1);
    int vrc = vendor_cannot(t, op) ? MPI_SUCCESS : run_coll(e, c, s, v, n, t->type, op);
    collshim_bypass(0);
    if (!rc && !vrc && ran && !fallbacks)
        return 1;
    snprintf(why, whylen, "%s @%s: rc %d, vendor rc %d, ran %d, MPI_Reduce_local calls %lld",
             colls[c], native[k].alg, rc, vrc, ran, fallbacks);
    return 0;
}

/* Our result r against the reference and the vendor's v. */
static int results_match(struct env *e, int c, const struct ntype *t, MPI_Op op, int n,
                         const unsigned char *r, const unsigned char *v, char *why, size_t whylen)
{
    MPI_Aint ext = extent_of(t->type);
    for (int j = 0, g, lo, hi; result_span(e, c, n, j, &g, &lo, &hi); j++) {
        long double got[2], want[2], ven[2];
        get_value(t, r + j * ext, got);
        reference(t, op, lo, hi, g, want);
        get_value(t, v + j * ext, ven);
        if (got[0] != want[0] || got[1] != want[1] ||
            (!vendor_cannot(t, op) && (got[0] != ven[0] || got[1] != ven[1]))) {
            snprintf(why, whylen, "%s element %d: got (%Lg, %Lg), expected (%Lg, %Lg), "
                     "vendor (%Lg, %Lg)", colls[c], g, got[0], got[1], want[0], want[1],
                     ven[0], ven[1]);
            return 0;
        }
    }
    return 1;
}

/* One accepted pair through every entry of native[] (all ranks run all of
 * them, whatever fails); 0 and the first reason on failure. */
static int accepted_pair_ok(struct env *e, const struct ntype *t, MPI_Op op, int n, char *why,
                            size_t whylen)
{
    MPI_Aint ext = extent_of(t->type);
    int elems = send_elems(e, n), ok = 1;
    unsigned char *s = calloc((size_t)elems, (size_t)ext), *r = calloc((size_t)elems, (size_t)ext);
    unsigned char *v = calloc((size_t)elems, (size_t)ext);
    for (int g = 0; g < elems; g++)
        put_value(t, s + g * ext, small_v(t, e->rank, g), small_x(e->rank, g));
    for (size_t k = 0; k < sizeof native / sizeof native[0]; k++) {
        char reason[256];
        int this_ok = run_native(e, k, t, op, n, s, r, v, reason, sizeof reason) &&
                      results_match(e, native[k].coll, t, op, n, r, v, reason, sizeof reason);
        if (!this_ok && ok)
            snprintf(why, whylen, "%s", reason);
        ok &= this_ok;
    }
    free(s);
    free(r);
    free(v);
    return ok;
}

static void check_accepted(struct env *e)
{
    for (int o = 0; o < NARITH; o++) {
        int accepted = 0, ok = 1;
        char why[256] = "", line[400];
        for (int t = 0; t < NTYPES; t++) {
            if (types[t].type == MPI_DATATYPE_NULL ||
                vendor_verdict(e, ops[o].op, types[t].type) != MPI_SUCCESS)
                continue;
            accepted++;
            if (!accepted_pair_ok(e, &types[t], ops[o].op, 5, why, sizeof why) && ok) {
                ok = 0;
                printf("  rank %d: %s on %s: %s\n", e->rank, ops[o].name, types[t].name, why);
            }
        }
        snprintf(line, sizeof line, "%s on the %d types the vendor accepts: our kernels (no "
                 "MPI_Reduce_local), values computed from the inputs and the vendor's",
                 ops[o].name, accepted);
        expect(e->rank, ok, line);
    }
}

/* ---------------------------------------------------------------------
 * 2. arithmetic cases with values computed from the inputs
 * ------------------------------------------------------------------- */
struct vcase {
    const char *what;
    MPI_Op op;
    const struct ntype *t;
    int n;                                      /* elements per rank-block */
    void (*input)(const struct vcase *, int r, int g, void *elem);
    int (*matches)(const struct vcase *, int lo, int hi, int g, const void *elem);
    int bits, is_signed;                        /* integer cases */
};

static uint64_t mask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Integer inputs: near the top of the signed range for sums (they wrap
 * with 2 ranks), the whole range, top bit included, for MIN/MAX. */
static uint64_t int_input(const struct vcase *vc, int r, int g)
{
    uint64_t top = (uint64_t)((g * 37 + r * 101) % 256);
    if (vc->op == MPI_SUM || vc->op == MPI_PROD)
        return (uint64_t)((vc->is_signed ? 90 : 200) + (g * 7 + r * 3) % 38) << (vc->bits - 8);
    if (vc->op == MPI_MAX || vc->op == MPI_MIN)
        return (top << (vc->bits - 8)) | (uint64_t)(g % 7);
    return (g + r) % 3 == 0 ? 0 : (uint64_t)(g * r + 2) & mask_of(vc->bits);
}

static void put_int_input(const struct vcase *vc, int r, int g, void *elem)
{
    uint64_t u = int_input(vc, r, g) & mask_of(vc->bits);
    memcpy(elem, &u, (size_t)vc->bits / 8);
}

static int signed_less(uint64_t a, uint64_t b, int bits, int is_signed)
{
    if (!is_signed)
        return a < b;
    uint64_t flip = 1ull << (bits - 1); /* order-preserving map to unsigned */
    return (a ^ flip) < (b ^ flip);
}

/* Fold in 64-bit unsigned arithmetic, masked to the width at the end. */
static int int_matches(const struct vcase *vc, int lo, int hi, int g, const void *elem)
{
    uint64_t m = mask_of(vc->bits), acc = int_input(vc, lo, g) & m, got = 0;
    for (int r = lo + 1; r <= hi; r++) {
        uint64_t x = int_input(vc, r, g) & m;
        if (vc->op == MPI_SUM) acc += x;
        else if (vc->op == MPI_PROD) acc *= x;
        else if (vc->op == MPI_MAX) acc = signed_less(acc, x, vc->bits, vc->is_signed) ? x : acc;
        else if (vc->op == MPI_MIN) acc = signed_less(x, acc, vc->bits, vc->is_signed) ? x : acc;
        else if (vc->op == MPI_LAND) acc = acc != 0 && x != 0;
        else if (vc->op == MPI_LOR) acc = acc != 0 || x != 0;
        else if (vc->op == MPI_LXOR) acc = (acc != 0) != (x != 0);
        acc &= m;
    }
    memcpy(&got, elem, (size_t)vc->bits / 8);
    return got == acc;
}

/* MINLOC/MAXLOC with many ties: value (g % 3 == 0 ? 7 : (g + r) % 5), index
 * r; equal values must keep the lowest rank. */
static void put_loc_input(const struct vcase *vc, int r, int g, void *elem)
{
    put_value(vc->t, elem, g % 3 == 0 ? 7 : (g + r) % 5, r);
}

static int loc_matches(const struct vcase *vc, int lo, int hi, int g, const void *elem)
{
    int best = lo;
    long long bestv = g % 3 == 0 ? 7 : (g + lo) % 5;
    for (int r = lo + 1; r <= hi; r++) {
        long long v = g % 3 == 0 ? 7 : (g + r) % 5;
        if (vc->op == MPI_MAXLOC ? v > bestv : v < bestv) { /* strictly: ties keep lower r */
            best = r;
            bestv = v;
        }
    }
    long double got[2];
    get_value(vc->t, elem, got);
    return got[0] == bestv && got[1] == best;
}

/* Complex products of small Gaussian integers (exact), against C's own
 * complex multiplication. */
static void put_complex_input(const struct vcase *vc, int r, int g, void *elem)
{
    put_value(vc->t, elem, 1 + (g + r) % 2, (g * r) % 3 - 1);
}

static int complex_matches(const struct vcase *vc, int lo, int hi, int g, const void *elem)
{
    long double _Complex acc = 1;
    for (int r = lo; r <= hi; r++)
        acc *= (long double)(1 + (g + r) % 2) + (long double)((g * r) % 3 - 1) * 1.0il;
    long double got[2];
    get_value(vc->t, elem, got);
    return got[0] == __real__ acc && got[1] == __imag__ acc;
}

static const struct ntype *find_type(MPI_Datatype t)
{
    for (int i = 0; i < NTYPES; i++)
        if (types[i].type == t)
            return &types[i];
    return NULL;
}

/* One case through every collective and every native algorithm that can
 * run it (vendor: not judged here, it is the one that is wrong). */
static int case_ok(struct env *e, const struct vcase *vc, char *why, size_t whylen)
{
    MPI_Aint ext = extent_of(vc->t->type);
    int elems = send_elems(e, vc->n), ok = 1;
    unsigned char *s = calloc((size_t)elems, (size_t)ext), *r = calloc((size_t)elems, (size_t)ext);
    for (int g = 0; g < elems; g++)
        vc->input(vc, e->rank, g, s + g * ext);
    for (int c = 0; c < NCOLLS; c++) {
        int key = vc->n * e->size + (c == RS ? e->size / 2 : 0); /* rs: sum of rs_count */
        for (int a = 1; a < collshim_algorithm_count(colls[c]); a++) {
            const char *alg = collshim_algorithm_name(colls[c], a);
            if (collshim_algorithm_can_run(colls[c], alg, e->size, key, 1, 1, 0) != 1)
                continue;
            long long before = collshim_algorithm_calls(colls[c], alg);
            force(colls[c], alg);
            memset(r, 0, (size_t)elems * (size_t)ext);
            int rc = run_coll(e, c, s, r, vc->n, vc->t->type, vc->op);
            int ran = collshim_algorithm_calls(colls[c], alg) == before + 1;
            for (int j = 0, g, lo, hi; ok && result_span(e, c, vc->n, j, &g, &lo, &hi); j++)
                if (rc || !ran || !vc->matches(vc, lo, hi, g, r + j * ext)) {
                    snprintf(why, whylen, "%s @%s: rc %d, ran %d, element %d wrong", colls[c], alg,
                             rc, ran, g);
                    ok = 0;
                }
        }
    }
    force("allreduce", "");
    free(s);
    free(r);
    return ok;
}

static void check_cases(struct env *e)
{
#define INT_CASE(what, op, t, n, bits, sgn)                                     \
    {what, op, find_type(t), n, put_int_input, int_matches, bits, sgn}
    const struct vcase cases[] = {
        INT_CASE("MPI_CHAR sums wrap", MPI_SUM, MPI_CHAR, 24, 8, (char)-1 < 0),
        INT_CASE("MPI_SIGNED_CHAR sums wrap", MPI_SUM, MPI_SIGNED_CHAR, 24, 8, 1),
        INT_CASE("MPI_INT8_T sums wrap", MPI_SUM, MPI_INT8_T, 40, 8, 1),
        INT_CASE("MPI_UNSIGNED_CHAR sums wrap", MPI_SUM, MPI_UNSIGNED_CHAR, 40, 8, 0),
        INT_CASE("MPI_UINT8_T sums wrap", MPI_SUM, MPI_UINT8_T, 24, 8, 0),
        INT_CASE("MPI_SHORT sums wrap", MPI_SUM, MPI_SHORT, 24, 16, 1),
        INT_CASE("MPI_UINT16_T products wrap", MPI_PROD, MPI_UINT16_T, 24, 16, 0),
        INT_CASE("MPI_UNSIGNED_CHAR MAX is unsigned", MPI_MAX, MPI_UNSIGNED_CHAR, 24, 8, 0),
        INT_CASE("MPI_UNSIGNED_CHAR MIN is unsigned", MPI_MIN, MPI_UNSIGNED_CHAR, 24, 8, 0),
        INT_CASE("MPI_UNSIGNED MAX is unsigned", MPI_MAX, MPI_UNSIGNED, 8, 32, 0),
        INT_CASE("MPI_UNSIGNED_LONG MAX is unsigned", MPI_MAX, MPI_UNSIGNED_LONG, 8,
                 8 * (int)sizeof(long), 0),
        INT_CASE("MPI_UINT64_T MIN is unsigned", MPI_MIN, MPI_UINT64_T, 8, 64, 0),
        INT_CASE("MPI_SIGNED_CHAR MAX is signed", MPI_MAX, MPI_SIGNED_CHAR, 24, 8, 1),
        INT_CASE("MPI_INT LAND of nonzero ints is 1", MPI_LAND, MPI_INT, 8, 32, 1),
        INT_CASE("MPI_INT LXOR of nonzero ints", MPI_LXOR, MPI_INT, 8, 32, 1),
        {"MPI_DOUBLE_INT MAXLOC ties keep the lower index", MPI_MAXLOC, find_type(MPI_DOUBLE_INT),
         6, put_loc_input, loc_matches, 0, 0},
        {"MPI_2INT MINLOC ties keep the lower index", MPI_MINLOC, find_type(MPI_2INT), 6,
         put_loc_input, loc_matches, 0, 0},
        {"MPI_C_DOUBLE_COMPLEX products", MPI_PROD, find_type(MPI_C_DOUBLE_COMPLEX), 6,
         put_complex_input, complex_matches, 0, 0},
        {"MPI_C_FLOAT_COMPLEX products", MPI_PROD, find_type(MPI_C_FLOAT_COMPLEX), 6,
         put_complex_input, complex_matches, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char why[200] = "", line[300];
        int ok = case_ok(e, &cases[k], why, sizeof why);
        snprintf(line, sizeof line, "%s (%d per rank-block): every reduction, every native "
                 "algorithm, values computed from the inputs", cases[k].what, cases[k].n);
        expect(e->rank, ok, line);
        if (!ok)
            printf("  rank %d: %s\n", e->rank, why);
    }
}

static int wants(int argc, char **argv, const char *part)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], part))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct env e;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &e.comm);
    MPI_Comm_dup(MPI_COMM_SELF, &e.self);
    MPI_Comm_set_errhandler(e.comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(e.self, MPI_ERRORS_RETURN);
    MPI_Comm_rank(e.comm, &e.rank);
    MPI_Comm_size(e.comm, &e.size);
    if (e.size > 64)
        MPI_Abort(MPI_COMM_WORLD, 1);

    /* Arguments pick parts (refusals, cases, accepted); none: all. */
    int all = argc < 2;
    if (all || wants(argc, argv, "refusals")) {
        check_known_refusals(&e);
        check_refusals(&e);
    }
    if (all || wants(argc, argv, "cases"))
        check_cases(&e);
    if (all || wants(argc, argv, "accepted"))
        check_accepted(&e);

    MPI_Comm_free(&e.self);
    MPI_Comm_free(&e.comm);
    MPI_Finalize();
    return expect_finish(e.rank, "opcheck");
}
