/* check_bcast.c - matrix of barrier and bcast.
 *
 * bcast: counts from case_counts(), roots 0, a middle one and p-1, and five
 * kinds of buffers: MPI_INT, MPI_DOUBLE, the strided type with nonzero
 * lower bound on every rank, and two with type maps that differ between
 * ranks (the root sends one vector of n ints while the others receive n
 * MPI_INT, and the reverse). Every rank must end with the root's values
 * (computed from the inputs), bytes between elements must keep their
 * sentinel, and the buffer must equal the vendor's. Segmented algorithms
 * run the matrix again with a small segment that cuts elements apart.
 *
 * barrier: rank r enters late by a rotating multiple of 2 ms; no rank may
 * leave before the last one entered (entry and exit times compared through
 * the vendor's allgather). The times come from CLOCK_MONOTONIC, which is
 * one clock for all processes of a host: Open MPI 4.1's MPI_Wtime counts
 * from a per-process origin (MPI_WTIME_IS_GLOBAL is false), so its values
 * cannot be compared between ranks. The matrix runs on one host. Then a run of consecutive
 * barriers with nothing in between, which must neither deadlock nor let a
 * message of one barrier complete another. */
#include "tests/mpi/check.h"
#include "tests/mpi/check_call.h"
#include "collshim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SENTINEL 0x5a
#define GUARD 16 /* bytes after the last element that must stay untouched */

/* ---------------------------------------------------------------- bcast */

enum bkind { B_INT, B_DOUBLE, B_STRIDED, B_VEC_ROOT, B_VEC_OTHERS, B_COUNT };

static const char *const bkind_names[B_COUNT] = {
    [B_INT] = "int", [B_DOUBLE] = "double", [B_STRIDED] = "strided-lb",
    [B_VEC_ROOT] = "root-vector/others-int", [B_VEC_OTHERS] = "root-int/others-vector",
};

/* How one rank holds n logical elements: the call's (count, type), and
 * element i at byte off + i * stride, esz bytes long, in a total-byte buffer. */
struct layout {
    MPI_Datatype type;
    int count;
    size_t esz, off, stride, total;
};

/* Vector of n ints, stride 2 ints, one per count the checker uses:
 * created on first use, freed at the end of check_bcast. */
#define MAX_VEC 8
static struct { int n; MPI_Datatype type; } vecs[MAX_VEC];
static int nvecs;

static MPI_Datatype vec_type(int n)
{
    for (int i = 0; i < nvecs; i++)
        if (vecs[i].n == n)
            return vecs[i].type;
    if (nvecs == MAX_VEC)
        return MPI_DATATYPE_NULL;
    vecs[nvecs].n = n;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vecs[nvecs].type);
    MPI_Type_commit(&vecs[nvecs].type);
    return vecs[nvecs++].type;
}

static void free_vecs(void)
{
    for (int i = 0; i < nvecs; i++)
        MPI_Type_free(&vecs[i].type);
    nvecs = 0;
}

static struct layout contiguous(MPI_Datatype type, size_t esz, int n)
{
    struct layout l = {type, n, esz, 0, esz, esz * (size_t)n + GUARD};
    return l;
}

static struct layout layout_of(enum bkind k, int n, int is_root)
{
    int vector = (k == B_VEC_ROOT && is_root) || (k == B_VEC_OTHERS && !is_root);
    if (vector) {
        struct layout l = {vec_type(n > 0 ? n : 1), n > 0, 4, 0, 8, 8 * (size_t)n + GUARD};
        return l;
    }
    if (k == B_STRIDED) {
        struct layout l = {type_strided_int(), n, 4, 8, 12, 8 + 12 * (size_t)n + GUARD};
        return l;
    }
    return k == B_DOUBLE ? contiguous(MPI_DOUBLE, 8, n) : contiguous(MPI_INT, 4, n);
}

/* Element i as the root holds it. */
static void gen(size_t esz, int root, int i, unsigned char *out)
{
    if (esz == 8) {
        double d = root + 0.5 + i * 0.125;
        memcpy(out, &d, 8);
    } else {
        int32_t v = (int32_t)((uint32_t)(root + 1) * 1000003u + (uint32_t)i * 7919u);
        memcpy(out, &v, 4);
    }
}

/* Sentinels, and the elements of `seed` (a root) where fill is set. */
static void bbuf_fill(const struct layout *l, int n, int seed, int fill, unsigned char *b)
{
    memset(b, SENTINEL, l->total);
    for (int i = 0; fill && i < n; i++)
        gen(l->esz, seed, i, b + l->off + (size_t)i * l->stride);
}

static unsigned char *bbuf_new(const struct layout *l, int n, int root, int fill)
{
    unsigned char *b = malloc(l->total);
    bbuf_fill(l, n, root, fill, b);
    return b;
}

/* The elements of `seed` (the root, or the first start's seed), sentinels
 * everywhere else; `when` starts the messages. */
static void bcast_verify(struct check_case *cc, const struct layout *l, int n, int seed,
                         const unsigned char *buf, const char *when)
{
    unsigned char want[8];
    size_t next = 0; /* first byte not yet checked */
    for (int i = 0; i < n && !cc->failed; i++) {
        size_t at = l->off + (size_t)i * l->stride;
        for (; next < at && !cc->failed; next++)
            if (buf[next] != SENTINEL)
                check_fail(cc, "%sbyte %zu between elements was overwritten", when, next);
        gen(l->esz, seed, i, want);
        if (memcmp(buf + at, want, l->esz))
            check_fail(cc, "%selement %d differs from the root's value", when, i);
        next = at + l->esz;
    }
    for (; next < l->total && !cc->failed; next++)
        if (buf[next] != SENTINEL)
            check_fail(cc, "%sbyte %zu outside the elements was overwritten", when, next);
}

/* Persistent mode starts each request twice: the first start broadcasts
 * the elements of seed root + FIRST_START_SEED, checked between the starts. */
#define FIRST_START_SEED 1000

struct bcast_restart {
    struct check_case *cc;
    const struct layout *l;
    int n, root, is_root;
    unsigned char *buf;
};

static void bcast_between_starts(void *arg)
{
    struct bcast_restart *r = arg;
    bcast_verify(r->cc, r->l, r->n, r->root + FIRST_START_SEED, r->buf, "first start: ");
    bbuf_fill(r->l, r->n, r->root, r->is_root, r->buf);
}

static void bcast_case(const struct check_env *env, const char *alg, const char *params,
                       enum bkind k, int n, int root)
{
    struct check_case cc;
    int is_root = env->rank == root;
    struct layout l = layout_of(k, n, is_root);
    int bytes = n * (int)l.esz;
    int can = collshim_algorithm_can_run("bcast", alg, env->size, bytes, 1, 1, 0);
    if (k == B_STRIDED && strided_type_broken()) {
        check_skip(env, strided_type_broken());
        return;
    }
    if (params)
        check_begin_params(env, &cc, "bcast", alg, params, can, "count=%d root=%d kind=%s", n,
                           root, bkind_names[k]);
    else
        check_begin(env, &cc, "bcast", alg, can, "count=%d root=%d kind=%s", n, root,
                    bkind_names[k]);
    unsigned char *buf = bbuf_new(&l, n, root, is_root), *ref = bbuf_new(&l, n, root, is_root);
    struct bcast_restart restart = {&cc, &l, n, root, is_root, buf};
    if (check_call_twice(bcast_between_starts, &restart))
        bbuf_fill(&l, n, root + FIRST_START_SEED, is_root, buf);
    int err = mode_bcast(buf, l.count, l.type, root, env->comm);
    check_expect_runs(&cc, check_call_runs());
    vendor_on();
    MPI_Bcast(ref, l.count, l.type, root, env->comm);
    vendor_off();
    if (err != MPI_SUCCESS)
        check_fail(&cc, "returned error %d", err);
    bcast_verify(&cc, &l, n, root, buf, "");
    if (!cc.failed && memcmp(buf, ref, l.total))
        check_fail(&cc, "buffer differs from the vendor's result");
    check_end(env, &cc);
    free(buf);
    free(ref);
}

static int is_segmented(const char *alg) { return strstr(alg, "pipeline") != NULL; }

static void bcast_matrix(const struct check_env *env, const char *alg, const char *params,
                         int cap)
{
    int counts[8], ncounts = case_counts(env, counts, 8), p = env->size;
    int roots[3] = {0, p / 2, p - 1}, nroots = p == 1 ? 1 : p == 2 ? 2 : 3;
    if (p == 2)
        roots[1] = 1;
    for (int ci = 0; ci < ncounts; ci++)
        for (int ri = 0; ri < nroots; ri++)
            for (int k = 0; k < B_COUNT; k++)
                bcast_case(env, alg, params, (enum bkind)k,
                           counts[ci] < cap ? counts[ci] : cap, roots[ri]);
}

/* Algorithm by algorithm: the vendor's reference is one MPI_Bcast, as
 * cheap as the call under test. */
CHECKER(check_bcast)
{
    (void)coll;
    for (int i = 0; i < nalgs; i++) {
        bcast_matrix(env, algs[i], NULL, 1 << 30);
        /* 36-byte segments cut ints and doubles apart and make many
         * segments; capped so a chain over oversubscribed cores stays quick. */
        if (is_segmented(algs[i]))
            bcast_matrix(env, algs[i], "seg=36", 4099);
    }
    free_vecs();
}

/* -------------------------------------------------------------- barrier */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Seconds on the host-wide monotonic clock. */
static double host_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Rank (rank + rep) mod p enters last, 2 (p-1) ms after the first. */
static void barrier_sync_case(const struct check_env *env, const char *alg, int can, int rep)
{
    struct check_case cc;
    int p = env->size;
    double *entries = calloc((size_t)p, sizeof(double)), latest = 0;
    check_begin(env, &cc, "barrier", alg, can, "sync rep=%d last=%d", rep, (p - 1 + p - rep % p) % p);
    vendor_on();
    MPI_Barrier(env->comm);
    vendor_off();
    sleep_ms(2 * ((env->rank + rep) % p));
    double in = host_time();
    int err = mode_barrier(env->comm);
    double out = host_time();
    vendor_on();
    MPI_Allgather(&in, 1, MPI_DOUBLE, entries, 1, MPI_DOUBLE, env->comm);
    vendor_off();
    for (int r = 0; r < p; r++)
        latest = entries[r] > latest ? entries[r] : latest;
    if (err != MPI_SUCCESS)
        check_fail(&cc, "returned error %d", err);
    else if (out < latest)
        check_fail(&cc, "left at %.6f s, before the last rank entered at %.6f s", out, latest);
    check_end(env, &cc);
    free(entries);
}

static void nothing_between(void *arg) { (void)arg; }

/* n barriers back to back (persistent mode: each request started twice in
 * a row); a rotating rank dawdles before some of them. */
static void barrier_burst_case(const struct check_env *env, const char *alg, int can, int n)
{
    struct check_case cc;
    int err = MPI_SUCCESS, runs = 0;
    check_begin(env, &cc, "barrier", alg, can, "consecutive=%d", n);
    for (int i = 0; i < n && !err; i++) {
        if (i % 8 == 3 && env->rank == i % env->size)
            sleep_ms(1);
        check_call_twice(nothing_between, NULL);
        err = mode_barrier(env->comm);
        runs += check_call_runs();
    }
    if (err != MPI_SUCCESS)
        check_fail(&cc, "returned error %d", err);
    check_expect_runs(&cc, runs);
    check_end(env, &cc);
}

/* SimGrid SMPI 3.32's own MPI_Ibarrier lets ranks out before the last one
 * has entered (tests/smpi-defects/ibarrier.c, without collshim): the sync
 * cases are skipped where the vendor's nonblocking or persistent barrier
 * would run. */
static const char smpi_ibarrier_bug[] =
    "nonblocking/persistent barrier sync cases where the vendor would run: SimGrid SMPI 3.32's "
    "MPI_Ibarrier completes before every rank entered (tests/smpi-defects/ibarrier.c)";

static int vendor_ibarrier_broken(int can)
{
    return !can && check_mode != MODE_BLOCKING && !strcmp(collshim_flavour(), "smpi");
}

CHECKER(check_barrier)
{
    (void)coll;
    for (int i = 0; i < nalgs; i++) {
        int can = collshim_algorithm_can_run("barrier", algs[i], env->size, 0, 1, 1, 0);
        for (int rep = 0; rep < 4; rep++) {
            if (vendor_ibarrier_broken(can))
                check_skip(env, smpi_ibarrier_bug);
            else
                barrier_sync_case(env, algs[i], can, rep);
        }
        barrier_burst_case(env, algs[i], can, env->quick ? 20 : 50);
    }
}
