/* check_reduction.c - matrix of the reduction family: reduce, allreduce,
 * reduce_scatter, reduce_scatter_block, scan, exscan.
 *
 * Kinds of data (type + op): SUM on int and double (exact and rounding),
 * MAX on int, MINLOC on MPI_DOUBLE_INT with ties, a non-commutative user op
 * (2x2 matrix product mod 2^32), a commutative user op (sum) on a strided
 * type with nonzero lower bound (gaps must stay untouched), SUM on int8 (must wrap). Expected values
 * are computed from the inputs; the vendor's result is compared too (except
 * int8: Open MPI 4.1.4's AVX kernels saturate, ompi#8045). */
#include "tests/mpi/check.h"
#include "tests/mpi/check_call.h"
#include "collshim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct di { double v; int i; };

enum kind { K_INT_SUM, K_DBL_EXACT, K_DBL_ROUND, K_INT_MAX, K_MINLOC, K_MATMUL, K_STRIDED,
            K_INT8, K_COUNT };

struct kind_info {
    const char *name;
    size_t esz;           /* logical element size */
    int commutative, predefined, vendor_comparable;
};

static const struct kind_info kinds[K_COUNT] = {
    [K_INT_SUM] = {"int-sum", sizeof(int), 1, 1, 1},
    [K_DBL_EXACT] = {"double-sum", sizeof(double), 1, 1, 1},
    [K_DBL_ROUND] = {"double-sum-rounding", sizeof(double), 1, 1, 1},
    [K_INT_MAX] = {"int-max", sizeof(int), 1, 1, 1},
    [K_MINLOC] = {"minloc-double-int", sizeof(struct di), 1, 1, 1},
    [K_MATMUL] = {"matmul-noncommutative", 4 * sizeof(uint32_t), 0, 0, 1},
    [K_STRIDED] = {"strided-lb-user-sum", sizeof(int), 1, 0, 1},
    [K_INT8] = {"int8-sum-wraps", 1, 1, 1, 0},
};

/* ---- the non-commutative op: inout = in x inout, 2x2 mod 2^32 ---- */
static void matmul(const uint32_t *a, uint32_t *b)
{
    uint32_t r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(b, r, sizeof r);
}

static void matmul_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int k = 0; k < *len; k++)
        matmul((uint32_t *)in + 4 * k, (uint32_t *)inout + 4 * k);
}

/* Created once, on first use; freed by check_reduction_cleanup. */
static MPI_Datatype mat_type = MPI_DATATYPE_NULL;
static MPI_Op mat_op = MPI_OP_NULL, strided_op = MPI_OP_NULL;

void check_reduction_cleanup(void)
{
    if (mat_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&mat_type);
    if (mat_op != MPI_OP_NULL)
        MPI_Op_free(&mat_op);
    if (strided_op != MPI_OP_NULL)
        MPI_Op_free(&strided_op);
}

static MPI_Datatype kind_type(enum kind k)
{
    switch (k) {
    case K_INT_SUM: case K_INT_MAX: return MPI_INT;
    case K_DBL_EXACT: case K_DBL_ROUND: return MPI_DOUBLE;
    case K_MINLOC: return MPI_DOUBLE_INT;
    case K_STRIDED: return type_strided_int();
    case K_INT8: return MPI_INT8_T;
    case K_MATMUL:
        if (mat_type == MPI_DATATYPE_NULL) {
            MPI_Type_contiguous(4, MPI_UINT32_T, &mat_type);
            MPI_Type_commit(&mat_type);
        }
        return mat_type;
    default: return MPI_DATATYPE_NULL;
    }
}

/* A user op on the strided type: MPI lays the vectors out by the type
 * (predefined ops take predefined types only). */
static void strided_sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int k = 0; k < *len; k++)
        *strided_at(inout, k) += *strided_at(in, k);
}

static MPI_Op kind_op(enum kind k)
{
    switch (k) {
    case K_STRIDED:
        if (strided_op == MPI_OP_NULL)
            MPI_Op_create(strided_sum_op, 1, &strided_op);
        return strided_op;
    case K_INT_MAX: return MPI_MAX;
    case K_MINLOC: return MPI_MINLOC;
    case K_MATMUL:
        if (mat_op == MPI_OP_NULL)
            MPI_Op_create(matmul_op, 0, &mat_op);
        return mat_op;
    default: return MPI_SUM;
    }
}

/* Input element i of rank r. */
static void gen(enum kind k, int r, int i, void *e)
{
    switch (k) {
    case K_INT_SUM: *(int *)e = (r + 1) * 1000 + i % 977 - 500; break;
    case K_DBL_EXACT: *(double *)e = ((r * 13 + i) % 64) * 0.25; break;
    case K_DBL_ROUND: *(double *)e = 1.0 / (r + 3) + i * 1e-3 + ((r * i) % 7) * 1e10; break;
    case K_INT_MAX: *(int *)e = (i * 31 + r * 17) % 101; break;
    case K_MINLOC: ((struct di *)e)->v = (i * 7 + r * 3) % 5; ((struct di *)e)->i = r; break;
    case K_STRIDED: *(int *)e = r * 5 + i % 13; break;
    case K_INT8: *(int8_t *)e = (int8_t)((r * 50 + i) % 128); break;
    case K_MATMUL: {
        uint32_t *m = e;
        m[0] = 1; m[1] = (uint32_t)((r + i) % 3 + 1); m[2] = (uint32_t)((r * i) % 2); m[3] = 1;
        break;
    }
    default: break;
    }
}

/* inout = in op inout, in logical form. */
static void combine(enum kind k, const void *in, void *inout)
{
    switch (k) {
    case K_INT_SUM: case K_STRIDED:
        *(int *)inout = (int)((unsigned)*(const int *)in + (unsigned)*(int *)inout); break;
    case K_DBL_EXACT: case K_DBL_ROUND: *(double *)inout = *(const double *)in + *(double *)inout; break;
    case K_INT_MAX: if (*(const int *)in > *(int *)inout) *(int *)inout = *(const int *)in; break;
    case K_INT8: *(int8_t *)inout = (int8_t)(uint8_t)((uint8_t)*(const int8_t *)in + (uint8_t)*(int8_t *)inout); break;
    case K_MATMUL: matmul(in, inout); break;
    case K_MINLOC: {
        const struct di *a = in;
        struct di *b = inout;
        if (a->v < b->v || (a->v == b->v && a->i < b->i))
            *b = *a;
        break;
    }
    default: break;
    }
}

static int close_enough(enum kind k, const void *a, const void *b)
{
    switch (k) {
    case K_DBL_ROUND: {
        double x = *(const double *)a, y = *(const double *)b;
        return fabs(x - y) <= 1e-12 * (fabs(x) + fabs(y)) + 1e-300;
    }
    case K_DBL_EXACT: return *(const double *)a == *(const double *)b;
    case K_MINLOC: return ((const struct di *)a)->v == ((const struct di *)b)->v &&
                          ((const struct di *)a)->i == ((const struct di *)b)->i;
    default: return !memcmp(a, b, kinds[k].esz);
    }
}

/* ---- buffers: logical element i lives at elem(k, buf, i) ---- */
static void *kbuf_alloc(enum kind k, int n)
{
    if (k == K_STRIDED)
        return strided_alloc(n);
    return calloc((size_t)(n > 0 ? n : 1), kinds[k].esz);
}

static void *elem(enum kind k, void *buf, int i)
{
    return k == K_STRIDED ? (void *)strided_at(buf, i) : (char *)buf + (size_t)i * kinds[k].esz;
}

static size_t kbuf_bytes(enum kind k, int n)
{
    return k == K_STRIDED ? ((size_t)(n > 0 ? n : 1) * 3 + 2) * sizeof(int)
                          : (size_t)(n > 0 ? n : 1) * kinds[k].esz;
}

#define SENTINEL 0x5a

static void fill_inputs(enum kind k, void *buf, int n, int rank, int offset)
{
    memset(buf, SENTINEL, kbuf_bytes(k, n));
    for (int i = 0; i < n; i++)
        gen(k, rank, offset + i, elem(k, buf, i));
}

/* Fold of ranks lo..hi of input element i. */
static void expected(enum kind k, int lo, int hi, int i, void *out)
{
    unsigned char in[32];
    gen(k, lo, i, out);
    for (int r = lo + 1; r <= hi; r++) {
        gen(k, r, i, in);
        /* out = out op in: compute in place as tmp = out; in' = tmp op in */
        unsigned char acc[32];
        memcpy(acc, out, kinds[k].esz);
        combine(k, acc, in);
        memcpy(out, in, kinds[k].esz);
    }
}

/* Strided buffers: the ints between elements must keep the sentinel. */
static int gaps_intact(enum kind k, void *buf, int n)
{
    if (k != K_STRIDED)
        return 1;
    unsigned char *b = buf;
    size_t total = kbuf_bytes(k, n);
    for (size_t off = 0; off < total; off++) {
        int in_elem = off >= 8 && (off - 8) % 12 < 4 && (int)((off - 8) / 12) < n;
        if (!in_elem && b[off] != SENTINEL)
            return 0;
    }
    return 1;
}

/* ---- one reduction call through a uniform shape ---- */
struct red_call {
    const char *coll;
    enum kind k;
    int n;          /* total vector length */
    int in_place, root;
    int *counts;    /* reduce_scatter: per-rank counts; block: all equal */
};

/* The collective under test (in the matrix's mode) or the vendor's
 * reference (blocking, between vendor_on and vendor_off). */
static int call_coll(const struct check_env *env, const struct red_call *c, void *sbuf,
                     void *rbuf, int under_test)
{
    MPI_Datatype t = kind_type(c->k);
    MPI_Op op = kind_op(c->k);
    MPI_Comm comm = env->comm;
    const char *s = c->coll;
    if (!strcmp(s, "allreduce"))
        return under_test ? mode_allreduce(sbuf, rbuf, c->n, t, op, comm)
                          : MPI_Allreduce(sbuf, rbuf, c->n, t, op, comm);
    if (!strcmp(s, "reduce"))
        return under_test ? mode_reduce(sbuf, rbuf, c->n, t, op, c->root, comm)
                          : MPI_Reduce(sbuf, rbuf, c->n, t, op, c->root, comm);
    if (!strcmp(s, "scan"))
        return under_test ? mode_scan(sbuf, rbuf, c->n, t, op, comm)
                          : MPI_Scan(sbuf, rbuf, c->n, t, op, comm);
    if (!strcmp(s, "exscan"))
        return under_test ? mode_exscan(sbuf, rbuf, c->n, t, op, comm)
                          : MPI_Exscan(sbuf, rbuf, c->n, t, op, comm);
    if (!strcmp(s, "reduce_scatter"))
        return under_test ? mode_reduce_scatter(sbuf, rbuf, c->counts, t, op, comm)
                          : MPI_Reduce_scatter(sbuf, rbuf, c->counts, t, op, comm);
    return under_test ? mode_reduce_scatter_block(sbuf, rbuf, c->counts[0], t, op, comm)
                      : MPI_Reduce_scatter_block(sbuf, rbuf, c->counts[0], t, op, comm);
}

/* Which elements of which input fold land in my receive buffer. */
static void my_result_shape(const struct check_env *env, const struct red_call *c, int *first,
                            int *len, int *lo, int *hi)
{
    const char *s = c->coll;
    *first = 0; *len = c->n; *lo = 0; *hi = env->size - 1;
    if (!strcmp(s, "reduce") && env->rank != c->root) *len = 0;
    else if (!strcmp(s, "scan")) *hi = env->rank;
    else if (!strcmp(s, "exscan")) { *hi = env->rank - 1; if (env->rank == 0) *len = 0; }
    else if (!strncmp(s, "reduce_scatter", 14)) {
        for (int r = 0; r < env->rank; r++)
            *first += c->counts[r];
        *len = c->counts[env->rank];
    }
}

static int is_scatter_like(const char *coll) { return !strncmp(coll, "reduce_scatter", 14); }

/* Under SMPI scan and exscan are checked against a chain of messages of
 * the test's own instead of the vendor's result (chain_prefix, below). */
static int chain_reference(const struct red_call *c)
{
    return (!strcmp(c->coll, "scan") || !strcmp(c->coll, "exscan")) &&
           !strcmp(collshim_flavour(), "smpi");
}

/* rbuf against the values computed from inputs written at `offset` (see
 * fill_inputs) and, when ref is not NULL, against the vendor's result;
 * `when` starts the messages. */
static void compare(const struct check_env *env, struct check_case *cc, const struct red_call *c,
                    void *rbuf, void *ref, int offset, const char *when)
{
    int first, len, lo, hi;
    unsigned char want[32];
    my_result_shape(env, c, &first, &len, &lo, &hi);
    for (int j = 0; j < len && !cc->failed; j++) {
        expected(c->k, lo, hi, offset + first + j, want);
        if (!close_enough(c->k, elem(c->k, rbuf, j), want))
            check_fail(cc, "%selement %d differs from the value computed from the inputs", when, j);
        else if (ref && kinds[c->k].vendor_comparable &&
                 !close_enough(c->k, elem(c->k, rbuf, j), elem(c->k, ref, j)))
            check_fail(cc, "%selement %d differs from %s", when, j,
                       chain_reference(c) ? "the reference chain's result" : "the vendor's result");
    }
    int rlen = is_scatter_like(c->coll) && c->in_place ? c->n : len;
    if (!strcmp(c->coll, "exscan") && c->in_place && env->rank == 0)
        rlen = c->n; /* rank 0's recvbuf keeps its input, untouched */
    if (!gaps_intact(c->k, rbuf, rlen))
        check_fail(cc, "%sbytes between strided elements were overwritten", when);
}

/* The inputs of one run, elements shifted by `offset`: the send buffer,
 * and the receive buffer (its input when in place, sentinels otherwise). */
static void write_inputs(const struct red_call *c, int rank, int me_in_place, void *sbuf,
                         void *rbuf, int rn, int offset)
{
    fill_inputs(c->k, sbuf, c->n, rank, offset);
    memset(rbuf, SENTINEL, kbuf_bytes(c->k, rn));
    if (me_in_place)
        fill_inputs(c->k, rbuf, c->n, rank, offset);
}

/* Persistent mode starts each request twice: first on inputs shifted by
 * FIRST_START_OFFSET elements, checked between the starts, then on the
 * matrix's usual inputs, checked as in the other modes. */
#define FIRST_START_OFFSET 3

struct red_restart {
    const struct check_env *env;
    struct check_case *cc;
    const struct red_call *c;
    void *sbuf, *rbuf;
    int rn, me_in_place;
    int checkable; /* our algorithm ran, or the vendor on a kind it gets right */
};

static void between_starts(void *arg)
{
    struct red_restart *r = arg;
    if (r->checkable)
        compare(r->env, r->cc, r->c, r->rbuf, NULL, FIRST_START_OFFSET, "first start: ");
    write_inputs(r->c, r->env->rank, r->me_in_place, r->sbuf, r->rbuf, r->rn, 0);
}

/* MPICH 4.0.2's MPI_Reduce in place at a non-zero root crashes for some
 * counts (hence the reference below is never in place); where the forced
 * algorithm's restrictions hand such a call to the vendor (node-aware
 * algorithms on some layouts), the case is skipped. */
static const char mpich_reduce_bug[] =
    "in-place reduce at a non-zero root where the vendor would run: MPICH 4.0.2's MPI_Reduce "
    "crashes there (check_reduction.c)";

/* MPICH 4.0.2's MPI_Reduce_scatter in place (np=2, count=100003,
 * double-sum) stops the job in yaksa: "memcpy argument memory ranges
 * overlap" with src == dst over the whole buffer. Skipped likewise where
 * the vendor would run it. */
static const char mpich_reduce_scatter_bug[] =
    "in-place reduce_scatter where the vendor would run: MPICH 4.0.2's MPI_Reduce_scatter "
    "aborts there (check_reduction.c)";

/* Open MPI 4.1.4's MPI_Ireduce (coll/libnbc) with the user op on the
 * strided type (lower bound 4) at np >= 3 reads and writes outside its
 * temporary buffers (valgrind: invalid reads in the op called from
 * NBC_Progress, invalid writes unpacking into them), then the heap is
 * corrupt. Skipped where the vendor's nonblocking or persistent reduce
 * would run. */
static const char ompi_ireduce_lb_bug[] =
    "nonblocking/persistent reduce of the strided user-op type where the vendor would run: "
    "Open MPI 4.1.4's libnbc writes outside its buffers there (check_reduction.c)";

/* SimGrid SMPI 3.32's own MPI_Iallreduce gives the ranks different sums of
 * doubles (last bits) and gets MINLOC in place over 4099 pairs wrong
 * (tests/smpi-defects/iallreduce.c, without collshim). Skipped where the
 * vendor's nonblocking or persistent allreduce would run. */
static const char smpi_iallreduce_bug[] =
    "nonblocking/persistent allreduce where the vendor would run: SimGrid SMPI 3.32's "
    "MPI_Iallreduce gives the ranks different results (tests/smpi-defects/iallreduce.c)";

static const char *vendor_reduce_broken(const struct red_call *c, int can)
{
    if (!can && check_mode != MODE_BLOCKING && !strcmp(c->coll, "allreduce") &&
        !strcmp(collshim_flavour(), "smpi"))
        return smpi_iallreduce_bug;
    if (!can && c->k == K_STRIDED && check_mode != MODE_BLOCKING && !strcmp(c->coll, "reduce") &&
        !strcmp(collshim_flavour(), "openmpi"))
        return ompi_ireduce_lb_bug;
    if (can || !c->in_place || strcmp(collshim_flavour(), "mpich"))
        return NULL;
    if (c->root != 0 && !strcmp(c->coll, "reduce"))
        return mpich_reduce_bug;
    return strcmp(c->coll, "reduce_scatter") ? NULL : mpich_reduce_scatter_bug;
}

/* SimGrid SMPI 3.32's own MPI_Scan and MPI_Reduce get non-commutative user
 * ops wrong (with "first operand wins" a scan returns each rank's own input;
 * found without collshim), so the matmul cases, checked against the vendor,
 * cannot be checked there. Probed once, collectively, with that op. */
static const char vendor_noncommutative_bug[] =
    "the vendor's scan with a non-commutative user op is wrong on this MPI (SimGrid SMPI 3.32); "
    "matmul-noncommutative cases, checked against the vendor, skipped (check_reduction.c)";

static void first_wins(void *in, void *inout, int *len, MPI_Datatype *type)
{
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

static int vendor_noncommutative_broken(const struct check_env *env)
{
    static int probed, broken;
    if (probed)
        return broken;
    MPI_Op op;
    int mine = env->rank + 1, prefix = 0, wrong;
    MPI_Op_create(first_wins, 0, &op);
    vendor_on();
    MPI_Scan(&mine, &prefix, 1, MPI_INT, op, env->comm);
    wrong = prefix != 1;
    MPI_Allreduce(&wrong, &broken, 1, MPI_INT, MPI_LOR, env->comm);
    vendor_off();
    MPI_Op_free(&op);
    probed = 1;
    return broken;
}

/* The vendor's result for one case, computed at the first algorithm that
 * runs it (every rank decides alike) from inputs of its own, never in
 * place (MPICH 4.0.2 crashes in place at a non-zero root for some counts). */
struct reference {
    int ready;
    void *rbuf;
    int chain_differs; /* first element where the chain and the vendor differ, + 1 */
};

/* Under SMPI, scan and exscan are checked against a chain of
 * point-to-point messages instead: rank r receives the prefix of ranks
 * 0..r-1 from r-1, folds its own input onto it and passes it on (p - 1
 * steps, left to right, so non-commutative ops keep their order).
 * SimGrid SMPI 3.32's own MPI_Scan posts a receive from every lower rank
 * and completes them with MPI_Waitany, whose cost grows with the requests
 * pending: at 256 ranks a launch ran 46 min of CPU without finishing a case
 * (doc/scale.md), and it gets non-commutative ops wrong. Up to
 * CHAIN_CROSSCHECK_RANKS ranks the chain is also compared with the
 * vendor's result, element by element, so that make check proves it. */
#define CHAIN_CROSSCHECK_RANKS 128
#define CHAIN_TAG 7351

static void chain_prefix(const struct check_env *env, const struct red_call *c, const void *sbuf,
                         void *rbuf)
{
    MPI_Datatype t = kind_type(c->k);
    size_t bytes = kbuf_bytes(c->k, c->n);
    int r = env->rank, exclusive = !strcmp(c->coll, "exscan");
    void *prefix = kbuf_alloc(c->k, c->n), *mine = kbuf_alloc(c->k, c->n);
    memcpy(mine, sbuf, bytes);
    if (r > 0) {
        MPI_Recv(prefix, c->n, t, r - 1, CHAIN_TAG, env->comm, MPI_STATUS_IGNORE);
        if (exclusive)
            memcpy(rbuf, prefix, bytes);
        MPI_Reduce_local(prefix, mine, c->n, t, kind_op(c->k)); /* mine = prefix op mine */
    }
    if (!exclusive)
        memcpy(rbuf, mine, bytes);
    if (r < env->size - 1)
        MPI_Send(mine, c->n, t, r + 1, CHAIN_TAG, env->comm);
    free(prefix); free(mine);
}

/* The vendor's result of the call on sbuf, into rbuf (blocking). */
static void vendor_result(const struct check_env *env, const struct red_call *c, void *sbuf,
                          void *rbuf)
{
    vendor_on();
    call_coll(env, c, sbuf, rbuf, 0);
    vendor_off();
}

/* The first of my result elements where the chain's and the vendor's
 * results differ, + 1; 0 where they agree or the vendor is not comparable. */
static int chain_against_vendor(const struct check_env *env, const struct red_call *c,
                                const void *sbuf, void *chain, int rn)
{
    int first, len, lo, hi, differs = 0;
    if (env->size > CHAIN_CROSSCHECK_RANKS || !kinds[c->k].vendor_comparable ||
        (c->k == K_MATMUL && vendor_noncommutative_broken(env)))
        return 0;
    void *vendor = kbuf_alloc(c->k, rn);
    memset(vendor, SENTINEL, kbuf_bytes(c->k, rn));
    vendor_result(env, c, (void *)sbuf, vendor);
    my_result_shape(env, c, &first, &len, &lo, &hi);
    for (int j = 0; j < len && !differs; j++)
        if (!close_enough(c->k, elem(c->k, chain, j), elem(c->k, vendor, j)))
            differs = j + 1;
    free(vendor);
    return differs;
}

static const void *reference_of(const struct check_env *env, const struct red_call *c, int rn,
                                struct reference *ref)
{
    if (ref->ready)
        return ref->rbuf;
    ref->ready = 1;
    void *sbuf = kbuf_alloc(c->k, c->n);
    ref->rbuf = kbuf_alloc(c->k, rn);
    if (!sbuf || !ref->rbuf) { /* the other ranks would wait for this one */
        fprintf(stderr, "check_reduction: out of memory for the vendor's reference\n");
        MPI_Abort(env->comm, 1);
    }
    fill_inputs(c->k, sbuf, c->n, env->rank, 0);
    memset(ref->rbuf, SENTINEL, kbuf_bytes(c->k, rn));
    if (chain_reference(c)) {
        chain_prefix(env, c, sbuf, ref->rbuf);
        ref->chain_differs = chain_against_vendor(env, c, sbuf, ref->rbuf, rn);
    } else {
        vendor_result(env, c, sbuf, ref->rbuf);
    }
    free(sbuf);
    return ref->rbuf;
}

static void run_case(const struct check_env *env, const char *alg, const struct red_call *c,
                     struct reference *ref)
{
    struct check_case cc;
    int first, len, lo, hi, rn;
    my_result_shape(env, c, &first, &len, &lo, &hi);
    rn = is_scatter_like(c->coll) ? (c->in_place ? c->n : len) : c->n;
    int key_in_place = c->in_place && strcmp(c->coll, "reduce");
    int count_key = is_scatter_like(c->coll) ? c->n : c->n;
    int can = collshim_algorithm_can_run(c->coll, alg, env->size, count_key,
                                         kinds[c->k].commutative, kinds[c->k].predefined,
                                         key_in_place);
    const char *vendor_broken = vendor_reduce_broken(c, can);
    if (c->k == K_STRIDED && strided_type_broken())
        vendor_broken = strided_type_broken();
    if (c->k == K_MATMUL && (!can || !chain_reference(c)) && vendor_noncommutative_broken(env))
        vendor_broken = vendor_noncommutative_bug;
    if (vendor_broken) {
        check_skip(env, vendor_broken);
        return;
    }
    void *sbuf = kbuf_alloc(c->k, c->n), *rbuf = kbuf_alloc(c->k, rn);
    check_begin(env, &cc, c->coll, alg, can, "count=%d inplace=%d kind=%s root=%d", c->n,
                c->in_place, kinds[c->k].name, c->root);
    int me_in_place = c->in_place && (strcmp(c->coll, "reduce") || env->rank == c->root);
    int checkable = can || kinds[c->k].vendor_comparable;
    struct red_restart restart = {env, &cc, c, sbuf, rbuf, rn, me_in_place, checkable};
    int twice = check_call_twice(between_starts, &restart);
    write_inputs(c, env->rank, me_in_place, sbuf, rbuf, rn, twice ? FIRST_START_OFFSET : 0);
    int err = call_coll(env, c, me_in_place ? MPI_IN_PLACE : sbuf, rbuf, 1);
    check_expect_runs(&cc, check_call_runs());
    const void *vendor = reference_of(env, c, rn, ref);
    /* Where the restrictions hand the call to the vendor, its int8 results
     * are not checked (ompi#8045, above); that the vendor ran still is. */
    if (ref->chain_differs)
        check_fail(&cc, "the reference chain of point-to-point messages differs from the "
                        "vendor's result at element %d", ref->chain_differs - 1);
    else if (err != MPI_SUCCESS)
        check_fail(&cc, "returned error %d", err);
    else if (checkable)
        compare(env, &cc, c, rbuf, (void *)vendor, 0, "");
    if (!strcmp(c->coll, "allreduce") && (c->k == K_DBL_ROUND || c->k == K_DBL_EXACT) &&
        !same_on_all_ranks(env, rbuf, kinds[c->k].esz * (size_t)c->n))
        check_fail(&cc, "allreduce result is not bitwise identical on every rank");
    check_end(env, &cc);
    free(sbuf); free(rbuf);
}

/* One case, every algorithm. */
static void run_case_all(const struct check_env *env, const char *const *algs, int nalgs,
                         const struct red_call *c)
{
    struct reference ref = {0};
    for (int i = 0; i < nalgs; i++)
        run_case(env, algs[i], c, &ref);
    free(ref.rbuf);
}

/* reduce_scatter counts for a total of n: an even split, but rank 0 gets
 * nothing and its share goes to the last rank (zero and uneven counts). */
static void scatter_counts(int n, int p, int *counts, int uneven)
{
    for (int i = 0; i < p; i++)
        counts[i] = n / p + (i < n % p);
    if (uneven && p > 1) {
        counts[p - 1] += counts[0];
        counts[0] = 0;
    }
}

CHECKER(check_reduction)
{
    int counts[8], ncounts = case_counts(env, counts, 8), p = env->size;
    int *rcounts = calloc((size_t)p, sizeof(int));
    int rooted = !strcmp(coll, "reduce"), block = !strcmp(coll, "reduce_scatter_block");
    int roots[2] = {0, p - 1}, nroots = rooted && p > 1 ? 2 : 1;
    int nsplit = !strcmp(coll, "reduce_scatter") ? 2 : 1;
    (void)vendor_noncommutative_broken(env); /* collective: every rank, here */
    for (int ci = 0; ci < ncounts; ci++)
        for (int ip = 0; ip < 2; ip++)
            for (int k = 0; k < K_COUNT; k++)
                for (int ri = 0; ri < nroots; ri++)
                    for (int split = 0; split < nsplit; split++) {
                        struct red_call c = {coll, (enum kind)k, counts[ci], ip, roots[ri], rcounts};
                        if (block) {
                            int per = counts[ci] > 1000 ? counts[ci] / p : counts[ci];
                            for (int i = 0; i < p; i++)
                                rcounts[i] = per;
                            c.n = per * p;
                        } else {
                            scatter_counts(c.n, p, rcounts, split);
                        }
                        run_case_all(env, algs, nalgs, &c);
                    }
    free(rcounts);
}
