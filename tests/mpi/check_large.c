/* check_large.c - every native algorithm on messages above 2^31 - 1 bytes.
 *
 *   mpirun -np 2|3 check_large [--coll c1,c2] [--alg a1,a2] [--mib M]
 *                              [--bcast-mib B] [--count N] [--mem-gib G]
 *                              [--unit mib|byte|count] [-v]
 *
 * For every algorithm of the chosen collectives (all by default) one call
 * whose message crosses 2^31 bytes: M MiB (default 2049) per rank for the
 * vector collectives, B MiB (default 2250, the 2.36 GB of issue 10) for
 * bcast. Counts stay small: the element is a contiguous type of 1 MiB
 * (reductions use MPI_INT with MPI_BXOR, count M * 2^18). Rooted
 * collectives give every block (M / (p - 1)) MiB so that the last block
 * starts beyond 2^31; v-variants place the blocks in reverse rank order;
 * alltoallw carries its displacements inside its types (its int byte
 * displacements cannot pass 2^31). The collectives whose blocks add up
 * (gather, scatter, allgather, alltoall and their v/w variants,
 * reduce_scatter(_block)) run a second time counting MPI_BYTE (blocks of
 * M/p MiB, MPI_UNSIGNED_CHAR for the reductions): then a whole vector holds
 * more than INT_MAX elements.
 *
 * --unit count (an MPI with MPI-4's large-count collectives,
 * HAVE_MPI_ALLREDUCE_C) calls the _c forms with one count past INT_MAX: N
 * (default 2^31 + 24) one-byte elements, MPI_BYTE, and MPI_UNSIGNED_CHAR
 * with MPI_BXOR for the reductions: MPI_Bcast_c, MPI_Reduce_c,
 * MPI_Allreduce_c, MPI_Scan_c, MPI_Exscan_c of N elements (in place), and
 * MPI_Gather_c, MPI_Scatter_c (root 0 in place) and MPI_Allgather_c (in
 * place) with blocks of N; the vendor's row too (forced, it must run the
 * library's _c function with the whole count).
 *
 * Memory is the limit: one buffer per rank per collective, in place
 * wherever the algorithm allows, and the send side of the not-in-place
 * all-to-alls is an overlapping type of 1 MiB elements one word apart
 * (about 1 MiB of memory for any count). Algorithms still need their own
 * temporaries; the estimate of a case (buffers + temporaries of every
 * rank, table below) is compared with the budget (--mem-gib, default 10)
 * and a case that does not fit is reported as skipped, never run.
 *
 * Without --alg, bcast also runs scatter_allgather on two non-contiguous
 * types (1 MiB elements with gaps: PMPI_Pack in pieces; one element of
 * 2.2 GiB in two halves: packed through a message to self), memory
 * permitting.
 *
 * Results are checked against a formula of the inputs (a hash of stream
 * and position) at sampled words (every 2048th word with a jitter, and
 * the last one) of every receive region, which are poisoned before each
 * call; every case asserts that the forced algorithm ran
 * (check_begin/check_end). With -v rank 0 prints each call's time and the
 * peak memory of all ranks. Rank 0 ends with
 * "check_large np=N: P passed, F failed (S skipped)". */
#include "config.h"
#include "tests/mpi/check.h"
#include "collshim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MIB ((size_t)1 << 20)
#define ELEM_WORDS (MIB / 8)
#define SAMPLE_STRIDE 2048

static MPI_Datatype elem;         /* 1 MiB, contiguous */
static MPI_Datatype elem_overlap; /* 1 MiB elements one word apart (send side only) */

/* What the data-movement collectives count in: 1 MiB elements (small
 * counts, bytes past 2^31), or MPI_BYTE (then totals over blocks pass
 * INT_MAX elements too); blocks are laid out in MiB either way. */
struct unit {
    MPI_Datatype type;
    int per_mib;      /* elements per MiB */
    const char *name; /* for the case's name */
};
static struct unit unit;
static size_t mib = 2049, bcast_mib = 2250;
static size_t count_bytes = ((size_t)1 << 31) + 24; /* --count: the large-count pass */
static double budget_gib = 10;
static int skipped;

/* ---- data: word k of stream s, and the regions that hold it ---- */

/* splitmix64 of (s, k): nonlinear, so that the xor of several streams
 * still depends on k (with a linear mix the xor of two streams would be
 * the same at every word and a misplaced block would go unseen). */
static uint64_t mix(uint64_t s, uint64_t k)
{
    uint64_t z = k * 0xD1B54A32D192ED03ull + s + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

enum layout {
    LINEAR,  /* word i = mix(s, base + i) */
    OVERLAP, /* elements one word apart: word i = mix(s, base + i / ELEM_WORDS + i % ELEM_WORDS) */
    XOR,     /* word i = xor over streams lo..hi of mix(t, base + i) */
};

/* Data word i of a region sits at word i of buf, or, with pieces, at
 * word (i / piece) stride + i % piece (a non-contiguous type's layout). */
struct region {
    void *buf;
    size_t nwords;
    enum layout layout;
    uint64_t s, base;
    int lo, hi;
    size_t piece, stride;
};

static uint64_t *word_at(const struct region *r, size_t i)
{
    size_t w = r->piece ? i / r->piece * r->stride + i % r->piece : i;
    return (uint64_t *)r->buf + w;
}

static uint64_t expected(const struct region *r, size_t i)
{
    uint64_t x = 0;
    switch (r->layout) {
    case LINEAR: return mix(r->s, r->base + i);
    case OVERLAP: return mix(r->s, r->base + i / ELEM_WORDS + i % ELEM_WORDS);
    default:
        for (int t = r->lo; t <= r->hi; t++)
            x ^= mix((uint64_t)t, r->base + i);
        return x;
    }
}

static struct region linear(void *buf, size_t nwords, uint64_t s, uint64_t base)
{
    return (struct region){.buf = buf, .nwords = nwords, .layout = LINEAR, .s = s, .base = base};
}

static void region_fill(const struct region *r)
{
    for (size_t i = 0; i < r->nwords; i++)
        *word_at(r, i) = expected(r, i);
}

/* Sampled words: one per SAMPLE_STRIDE words at a jittered place, and the last. */
static size_t sample_at(size_t j, size_t nwords)
{
    size_t i = j * SAMPLE_STRIDE + (j * 37) % SAMPLE_STRIDE;
    return i < nwords ? i : nwords - 1;
}

static size_t sample_count(size_t nwords)
{
    return nwords ? nwords / SAMPLE_STRIDE + 2 : 0;
}

static void region_poison(const struct region *r)
{
    for (size_t j = 0; j < sample_count(r->nwords); j++) {
        size_t i = sample_at(j, r->nwords);
        *word_at(r, i) = ~expected(r, i);
    }
}

static void region_check(const struct region *r, struct check_case *c, const char *what)
{
    for (size_t j = 0; j < sample_count(r->nwords); j++) {
        size_t i = sample_at(j, r->nwords);
        uint64_t got = *word_at(r, i);
        if (got != expected(r, i)) {
            check_fail(c, "%s: data word %zu (byte %zu) is %016llx, expected %016llx", what, i,
                       i * 8, (unsigned long long)got, (unsigned long long)expected(r, i));
            return;
        }
    }
}

/* ---- cases: memory estimate, forcing, running ---- */

/* Parameters of a case (np 0: any): segments of 16 MiB instead of the
 * default 32-64 KiB for the pipelines, whose tens of thousands of steps
 * crawl when ranks outnumber cores (MPICH busy-polls); 256 MiB for the
 * unsegmented trees at np=3, whose root would otherwise hold a whole
 * vector per child. Every parameter keeps the algorithm's code path. */
static const struct {
    const char *coll, *alg;
    int np;
    const char *params;
} case_params[] = {
    {"bcast", "pipeline", 0, "seg=16m"}, {"bcast", "binary_pipeline", 0, "seg=16m"},
    {"reduce", "pipeline", 0, "seg=16m"}, {"reduce", "binary_pipeline", 0, "seg=16m"},
    {"scan", "linear", 0, "seg=16m"}, {"exscan", "linear", 0, "seg=16m"},
    {"reduce", "binomial", 3, "seg=256m"}, {"reduce", "linear", 3, "seg=256m"},
    {"allreduce", "reduce_bcast", 3, "seg=256m"}, {"allreduce", "linear", 3, "seg=256m"},
    {"reduce_scatter", "reduce_scatterv", 0, "seg=256m"},
    {"reduce_scatter", "linear", 0, "seg=256m"},
    {"reduce_scatter_block", "reduce_scatterv", 0, "seg=256m"},
    {"reduce_scatter_block", "linear", 0, "seg=256m"},
};

/* Temporaries of the algorithms (with the parameters above), summed over
 * ranks, in units of the per-rank vector: what each algorithm allocates
 * and touches for this test's layouts and roots. Not listed: nothing of
 * that size. reduce_scatter and reduce_scatter_block share their rows. */
static const struct {
    const char *coll, *alg;
    double extra2, extra3; /* np = 2, np = 3 */
} temporaries[] = {
    {"allgather", "bruck", 2, 3},           {"allgatherv", "bruck", 2, 3},
    {"alltoall", "inplace", 1, 1},          {"alltoallv", "inplace", 1, 1},
    {"alltoallw", "inplace", 1, 1},         {"alltoall", "bruck", 1, 1},
    {"alltoall", "linear", 2, 3},           {"reduce", "binomial", 1, 0.5},
    {"reduce", "linear", 1, 0.5},           {"reduce", "rabenseifner", 2, 3.5},
    {"allreduce", "recursive_doubling", 2, 2}, {"allreduce", "reduce_bcast", 1, 0.5},
    {"allreduce", "rabenseifner", 1, 1.5},  {"allreduce", "ring", 1, 2},
    {"allreduce", "linear", 1, 0.5},        {"reduce_scatter", "recursive_halving", 1, 1.5},
    {"reduce_scatter", "recursive_doubling", 1, 1.5}, {"reduce_scatter", "pairwise", 2, 3},
    {"reduce_scatter", "ring", 1, 2},       {"reduce_scatter", "reduce_scatterv", 1.25, 1.5},
    {"reduce_scatter", "linear", 1.25, 1.5}, {"scan", "recursive_doubling", 4, 6},
    {"exscan", "recursive_doubling", 4, 6}, {"exscan", "linear", 0, 1},
    /* the library's own (the count pass): a vector-sized temporary per rank */
    {"reduce", "vendor", 2, 3},             {"allreduce", "vendor", 2, 3},
    {"scan", "vendor", 2, 3},               {"exscan", "vendor", 2, 3},
};

static const char *params_of(const char *coll, const char *alg, int np)
{
    for (size_t i = 0; i < sizeof case_params / sizeof case_params[0]; i++)
        if (!strcmp(case_params[i].coll, coll) && !strcmp(case_params[i].alg, alg) &&
            (case_params[i].np == 0 || case_params[i].np == np))
            return case_params[i].params;
    return NULL;
}

static double extra_of(const char *coll, const char *alg, int np)
{
    const char *row = strncmp(coll, "reduce_scatter", 14) ? coll : "reduce_scatter";
    for (size_t i = 0; i < sizeof temporaries / sizeof temporaries[0]; i++)
        if (!strcmp(temporaries[i].coll, row) && !strcmp(temporaries[i].alg, alg))
            return np == 2 ? temporaries[i].extra2 : temporaries[i].extra3;
    return 0;
}

/* One collective at this size: its buffers, and how a case runs. */
struct large {
    const char *coll, *alg, *what; /* what: more words for the case's name */
    size_t vector;     /* bytes of the per-rank vector (unit of the estimate) */
    double user_gib;   /* the test's own buffers, all ranks */
    int in_place;      /* this algorithm runs in place (set per case) */
};

static double gib(double bytes) { return bytes / (double)(1u << 30); }

/* Start a case, or report it skipped when its estimate exceeds the budget. */
static int begin(const struct check_env *env, struct large *L, struct check_case *c)
{
    const char *params = params_of(L->coll, L->alg, env->size);
    double extra = extra_of(L->coll, L->alg, env->size);
    double need = L->user_gib + extra * gib((double)L->vector);
    if (collshim_algorithm_can_run(L->coll, L->alg, env->size, 1 << 30, 1, 1, L->in_place) != 1) {
        if (env->rank == 0)
            printf("skip %s/%s np=%d: its restrictions exclude this call\n", L->coll, L->alg,
                   env->size);
        skipped++;
        return 0;
    }
    if (need > budget_gib) {
        if (env->rank == 0)
            printf("skip %s/%s np=%d: needs about %.1f GiB, over the %.1f GiB budget\n",
                   L->coll, L->alg, env->size, need, budget_gib);
        skipped++;
        return 0;
    }
    const char *what = L->what ? L->what : unit.name, *place = L->in_place ? " in place" : "";
    if (params)
        check_begin_params(env, c, L->coll, L->alg, params, 1, "%.2f GB%s%s", L->vector / 1e9,
                           what, place);
    else
        check_begin(env, c, L->coll, L->alg, 1, "%.2f GB%s%s", L->vector / 1e9, what, place);
    return 1;
}

/* Peak resident memory of this process since the last reset (Linux). */
static void peak_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static double peak_gib(void)
{
    char line[256];
    double kb = 0;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kb = atof(line + 6);
    if (f)
        fclose(f);
    return kb / (1024.0 * 1024.0);
}

static double started;

/* With -v, the time of the call and the peak memory of all ranks. */
static void measure_start(void)
{
    peak_reset();
    started = MPI_Wtime();
}

static void measure_print(const struct check_env *env, const struct large *L)
{
    double t = MPI_Wtime() - started, peak = peak_gib(), tmax = 0, sum = 0;
    vendor_on();
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, env->comm);
    MPI_Reduce(&peak, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, env->comm);
    vendor_off();
    if (env->verbose && env->rank == 0)
        printf("     %s/%s np=%d: %.1f s, peak %.1f GiB over all ranks\n", L->coll, L->alg,
               env->size, tmax, sum);
}

static void end(const struct check_env *env, const struct large *L, struct check_case *c,
                int err)
{
    if (err) {
        char s[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(err, s, &len);
        check_fail(c, "the call returned %s", s);
    }
    measure_print(env, L);
}

static void *alloc_or_die(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "check_large: cannot allocate %zu bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* A buffer of the test, as huge pages where the kernel allows it: in this
 * VM a first touch of a 4 KiB page costs tens of microseconds, which made
 * the first call on a fresh 2 GiB buffer take 20-50 s. */
static char *big_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, bytes ? bytes : 1)) {
        fprintf(stderr, "check_large: cannot allocate %zu bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

static int can_run_in_place(const char *coll, const char *alg, int np)
{
    return collshim_algorithm_can_run(coll, alg, np, 1 << 30, 1, 1, 1) == 1;
}

/* Words of n elements of 1 MiB. */
static size_t words(size_t n) { return n * ELEM_WORDS; }

/* ---- bcast: root p-1, the whole message in one buffer ---- */

static void run_bcast(const struct check_env *env, struct large *L, char *buf)
{
    struct check_case c;
    int root = env->size - 1, n = (int)bcast_mib;
    struct region r = linear(buf, words(bcast_mib), (uint64_t)root, 0);
    if (!begin(env, L, &c))
        return;
    if (env->rank != root)
        region_poison(&r);
    measure_start();
    end(env, L, &c, MPI_Bcast(buf, n, elem, root, env->comm));
    region_check(&r, &c, env->rank == root ? "root buffer" : "received");
    check_end(env, &c);
}

/* ---- bcast of non-contiguous data: the packing paths ---- */

/* kind 0: bcast_mib elements of 1 MiB, each followed by a 64 KiB gap
 * (packed by PMPI_Pack in groups of elements); kind 1: one element of
 * bcast_mib MiB in two halves 64 KiB apart (larger than INT_MAX bytes:
 * packed through a message to this rank itself). scatter_allgather packs
 * at the root and unpacks elsewhere into a temporary of the message. */
static void run_bcast_noncontig(const struct check_env *env, int kind)
{
    const size_t gap = 64 * 1024, half = bcast_mib / 2;
    size_t piece = kind ? half * MIB : MIB, npieces = kind ? 2 : bcast_mib;
    size_t span = npieces * (piece + gap), data = npieces * piece;
    int root = env->size - 1, count = kind ? 1 : (int)bcast_mib;
    struct large L = {"bcast", "scatter_allgather", kind ? " one element of two halves"
                                                        : " of 1 MiB elements with gaps",
                      data, gib((double)(span + data)) * env->size, 0};
    MPI_Datatype type, halfway;
    struct check_case c;
    if (kind) {
        MPI_Type_contiguous((int)half, elem, &halfway);
        MPI_Type_create_hvector(2, 1, (MPI_Aint)(piece + gap), halfway, &type);
        MPI_Type_free(&halfway);
    } else {
        MPI_Type_create_resized(elem, 0, (MPI_Aint)(MIB + gap), &type);
    }
    MPI_Type_commit(&type);
    if (begin(env, &L, &c)) {
        char *buf = big_alloc(span);
        struct region r = linear(buf, data / 8, (uint64_t)root, 0);
        r.piece = piece / 8, r.stride = (piece + gap) / 8;
        if (env->rank == root)
            region_fill(&r);
        else
            region_poison(&r);
        measure_start();
        end(env, &L, &c, MPI_Bcast(buf, count, type, root, env->comm));
        region_check(&r, &c, env->rank == root ? "root buffer" : "received");
        check_end(env, &c);
        free(buf);
    }
    MPI_Type_free(&type);
}

/* ---- gather, gatherv, scatter, scatterv: root 0 in place ---- */

/* Block r of the root's buffer: rank order, or reversed for the v-variants. */
static size_t block_place(const struct large *L, int r, int p)
{
    return strchr(L->coll, 'v') ? (size_t)(p - 1 - r) : (size_t)r;
}

/* Block r where this rank keeps it: all of them at the root, its own
 * elsewhere. */
static struct region rooted_block(const struct check_env *env, const struct large *L, char *buf,
                                  int r, int blk)
{
    size_t at = env->rank == 0 ? block_place(L, r, env->size) * blk * MIB : 0;
    return linear(buf + at, words((size_t)blk), (uint64_t)r, 0);
}

static int rooted_call(const struct check_env *env, const struct large *L, char *buf, int mib_blk)
{
    int p = env->size, counts[3], displs[3], blk = mib_blk * unit.per_mib;
    MPI_Datatype elem = unit.type;
    MPI_Comm comm = env->comm;
    for (int r = 0; r < p; r++) {
        counts[r] = blk;
        displs[r] = (int)block_place(L, r, p) * blk;
    }
    if (!strcmp(L->coll, "gather"))
        return env->rank ? MPI_Gather(buf, blk, elem, NULL, 0, elem, 0, comm)
                         : MPI_Gather(MPI_IN_PLACE, 0, elem, buf, blk, elem, 0, comm);
    if (!strcmp(L->coll, "gatherv"))
        return env->rank ? MPI_Gatherv(buf, blk, elem, NULL, NULL, NULL, elem, 0, comm)
                         : MPI_Gatherv(MPI_IN_PLACE, 0, elem, buf, counts, displs, elem, 0, comm);
    if (!strcmp(L->coll, "scatter"))
        return env->rank ? MPI_Scatter(NULL, 0, elem, buf, blk, elem, 0, comm)
                         : MPI_Scatter(buf, blk, elem, MPI_IN_PLACE, 0, elem, 0, comm);
    return env->rank ? MPI_Scatterv(NULL, NULL, NULL, elem, buf, blk, elem, 0, comm)
                     : MPI_Scatterv(buf, counts, displs, elem, MPI_IN_PLACE, 0, elem, 0, comm);
}

/* Fill what this rank sends, poison what it receives, call, check. */
static void run_rooted(const struct check_env *env, struct large *L, char *buf, int blk)
{
    struct check_case c;
    int gather = !strncmp(L->coll, "gather", 6);
    if (!begin(env, L, &c))
        return;
    for (int r = 0; r < env->size; r++) {
        struct region reg = rooted_block(env, L, buf, r, blk);
        if (env->rank != 0 && r != env->rank)
            continue;
        region_fill(&reg);
        if (gather ? r != env->rank : env->rank != 0)
            region_poison(&reg);
    }
    measure_start();
    end(env, L, &c, rooted_call(env, L, buf, blk));
    for (int r = 0; r < env->size; r++) {
        struct region reg = rooted_block(env, L, buf, r, blk);
        if (env->rank == 0 || r == env->rank)
            region_check(&reg, &c, env->rank == 0 ? "root block" : "block");
    }
    check_end(env, &c);
}

/* ---- allgather, allgatherv: in place, blocks of M/p MiB ---- */

static void run_allgather(const struct check_env *env, struct large *L, char *buf, int blk)
{
    struct check_case c;
    int p = env->size, counts[3], displs[3], n = blk * unit.per_mib, err;
    MPI_Datatype elem = unit.type;
    for (int r = 0; r < p; r++) {
        counts[r] = n;
        displs[r] = (int)block_place(L, r, p) * n;
    }
    if (!begin(env, L, &c))
        return;
    for (int r = 0; r < p; r++) {
        struct region reg = linear(buf + block_place(L, r, p) * blk * MIB, words((size_t)blk),
                                   (uint64_t)r, 0);
        if (r == env->rank)
            region_fill(&reg);
        else
            region_poison(&reg);
    }
    measure_start();
    if (!strcmp(L->coll, "allgather"))
        err = MPI_Allgather(MPI_IN_PLACE, 0, elem, buf, n, elem, env->comm);
    else
        err = MPI_Allgatherv(MPI_IN_PLACE, 0, elem, buf, counts, displs, elem, env->comm);
    end(env, L, &c, err);
    for (int r = 0; r < p; r++) {
        struct region reg = linear(buf + block_place(L, r, p) * blk * MIB, words((size_t)blk),
                                   (uint64_t)r, 0);
        region_check(&reg, &c, "block");
    }
    check_end(env, &c);
}

/* ---- alltoall, alltoallv, alltoallw ---- */

/* The data rank s sends to the rank whose block sits at place q: elements
 * k of 1 MiB, word x = mix(s, q blk + k + x), the overlapping layout of the
 * send buffer (in place it is written out in full). */
static struct region a2a_region(void *at, int s, size_t q, int blk)
{
    return (struct region){.buf = at, .nwords = words((size_t)blk), .layout = OVERLAP,
                           .s = (uint64_t)s, .base = q * (size_t)blk};
}

/* alltoallw: one type per block, its displacement inside the type. */
static void a2a_w_types(int p, int blk, const size_t *place, MPI_Datatype base, MPI_Aint unit,
                        MPI_Datatype *types)
{
    for (int j = 0; j < p; j++) {
        MPI_Aint disp = (MPI_Aint)place[j] * blk * unit;
        MPI_Type_create_hindexed_block(1, blk, &disp, base, &types[j]);
        MPI_Type_commit(&types[j]);
    }
}

/* The send side is blk overlapping MiB elements (not in place), the
 * receive side blk MiB in the unit. */
static int a2a_call(const struct check_env *env, const struct large *L, const void *sbuf,
                    char *rbuf, int blk)
{
    int p = env->size, n = blk * unit.per_mib, counts[3], rcounts[3], sd[3], rd[3], ones[3];
    int zeros[3] = {0, 0, 0}, err;
    size_t place[3];
    MPI_Datatype stypes[3], rtypes[3];
    const void *s = L->in_place ? MPI_IN_PLACE : sbuf;
    for (int j = 0; j < p; j++) {
        place[j] = block_place(L, j, p);
        counts[j] = blk;
        rcounts[j] = n;
        sd[j] = (int)place[j] * blk;
        rd[j] = (int)place[j] * n;
        ones[j] = 1;
    }
    if (!strcmp(L->coll, "alltoall"))
        return MPI_Alltoall(s, blk, elem_overlap, rbuf, n, unit.type, env->comm);
    if (!strcmp(L->coll, "alltoallv"))
        return MPI_Alltoallv(s, counts, sd, elem_overlap, rbuf, rcounts, rd, unit.type, env->comm);
    a2a_w_types(p, n, place, unit.type, (MPI_Aint)MIB / unit.per_mib, rtypes);
    a2a_w_types(p, blk, place, elem_overlap, 8, stypes);
    err = MPI_Alltoallw(L->in_place ? MPI_IN_PLACE : sbuf, ones, zeros, stypes, rbuf, ones,
                        zeros, rtypes, env->comm);
    for (int j = 0; j < p; j++) {
        MPI_Type_free(&stypes[j]);
        MPI_Type_free(&rtypes[j]);
    }
    return err;
}

static void run_alltoall(const struct check_env *env, struct large *L, char *rbuf,
                         const void *sbuf, int blk)
{
    struct check_case c;
    int p = env->size, r = env->rank;
    size_t me = block_place(L, r, p);
    L->in_place = can_run_in_place(L->coll, L->alg, p);
    if (!begin(env, L, &c))
        return;
    for (int j = 0; j < p; j++) { /* in place the send data is the input: no poison */
        size_t q = block_place(L, j, p);
        struct region send = a2a_region(rbuf + q * blk * MIB, r, q, blk);
        struct region recv = a2a_region(rbuf + q * blk * MIB, j, me, blk);
        if (L->in_place)
            region_fill(&send);
        else
            region_poison(&recv);
    }
    measure_start();
    end(env, L, &c, a2a_call(env, L, sbuf, rbuf, blk));
    for (int j = 0; j < p; j++) {
        size_t q = block_place(L, j, p);
        struct region recv = a2a_region(rbuf + q * blk * MIB, j, me, blk);
        region_check(&recv, &c, "block");
    }
    check_end(env, &c);
}

/* ---- reductions: MPI_BXOR, in place ---- */

/* MPI_INT, or with the MPI_BYTE unit MPI_UNSIGNED_CHAR (reduce_scatter's
 * vector then passes INT_MAX elements); elements per 8-byte word. */
static MPI_Datatype red_type(void) { return unit.per_mib > 1 ? MPI_UNSIGNED_CHAR : MPI_INT; }
static int red_per_word(void) { return unit.per_mib > 1 ? 8 : 2; }

static int red_call(const struct check_env *env, const struct large *L, char *buf, int n,
                    const int *counts)
{
    MPI_Comm comm = env->comm;
    MPI_Datatype t = red_type();
    if (!strcmp(L->coll, "reduce"))
        return env->rank ? MPI_Reduce(buf, NULL, n, t, MPI_BXOR, 0, comm)
                         : MPI_Reduce(MPI_IN_PLACE, buf, n, t, MPI_BXOR, 0, comm);
    if (!strcmp(L->coll, "allreduce"))
        return MPI_Allreduce(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
    if (!strcmp(L->coll, "reduce_scatter"))
        return MPI_Reduce_scatter(MPI_IN_PLACE, buf, counts, t, MPI_BXOR, comm);
    if (!strcmp(L->coll, "reduce_scatter_block"))
        return MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, counts[0], t, MPI_BXOR, comm);
    if (!strcmp(L->coll, "scan"))
        return MPI_Scan(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
    return MPI_Exscan(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
}

/* Blocks of the reduce-scatters in words: the first ones one word longer. */
static void rs_blocks(int p, size_t nwords, int block, int *counts, size_t *first)
{
    size_t at = 0;
    for (int r = 0; r < p; r++) {
        size_t w = block ? nwords / p : nwords / p + ((size_t)r < nwords % p);
        counts[r] = (int)(w * (size_t)red_per_word());
        first[r] = at;
        at += w;
    }
}

/* What this rank's buffer must hold afterwards (nwords 0: nothing). */
static struct region red_result(const struct check_env *env, const struct large *L, char *buf,
                                size_t nwords, const size_t *first, const int *counts)
{
    struct region r = {.buf = buf, .nwords = nwords, .layout = XOR, .hi = env->size - 1};
    if (!strcmp(L->coll, "reduce") && env->rank != 0)
        r.nwords = 0;
    else if (!strncmp(L->coll, "reduce_scatter", 14))
        r.base = first[env->rank], r.nwords = (size_t)counts[env->rank] / (size_t)red_per_word();
    else if (!strcmp(L->coll, "scan"))
        r.hi = env->rank;
    else if (!strcmp(L->coll, "exscan"))
        r.hi = env->rank - 1, r.nwords = env->rank ? nwords : 0;
    return r;
}

static void run_reduction(const struct check_env *env, struct large *L, char *buf)
{
    struct check_case c;
    size_t nwords = words(mib), first[3];
    int counts[3];
    rs_blocks(env->size, nwords, !strcmp(L->coll, "reduce_scatter_block"), counts, first);
    L->in_place = 1;
    if (!begin(env, L, &c))
        return;
    struct region input = linear(buf, nwords, (uint64_t)env->rank, 0);
    region_fill(&input);
    measure_start();
    end(env, L, &c, red_call(env, L, buf, (int)(nwords * (size_t)red_per_word()), counts));
    struct region want = red_result(env, L, buf, nwords, first, counts);
    region_check(&want, &c, "result");
    check_end(env, &c);
}

/* ---- the large-count forms: one count past INT_MAX (--unit count) ---- */

#ifdef HAVE_MPI_ALLREDUCE_C
static void run_count_bcast(const struct check_env *env, struct large *L, char *buf)
{
    struct check_case c;
    int root = env->size - 1;
    struct region r = linear(buf, count_bytes / 8, (uint64_t)root, 0);
    if (!begin(env, L, &c))
        return;
    if (env->rank == root)
        region_fill(&r);
    else
        region_poison(&r);
    measure_start();
    end(env, L, &c, MPI_Bcast_c(buf, (MPI_Count)count_bytes, MPI_BYTE, root, env->comm));
    region_check(&r, &c, env->rank == root ? "root buffer" : "received");
    check_end(env, &c);
}

static int count_reduction_call(const struct check_env *env, const struct large *L, char *buf)
{
    MPI_Comm comm = env->comm;
    MPI_Count n = (MPI_Count)count_bytes;
    MPI_Datatype t = MPI_UNSIGNED_CHAR;
    if (!strcmp(L->coll, "reduce"))
        return env->rank ? MPI_Reduce_c(buf, NULL, n, t, MPI_BXOR, 0, comm)
                         : MPI_Reduce_c(MPI_IN_PLACE, buf, n, t, MPI_BXOR, 0, comm);
    if (!strcmp(L->coll, "allreduce"))
        return MPI_Allreduce_c(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
    if (!strcmp(L->coll, "scan"))
        return MPI_Scan_c(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
    return MPI_Exscan_c(MPI_IN_PLACE, buf, n, t, MPI_BXOR, comm);
}

static void run_count_reduction(const struct check_env *env, struct large *L, char *buf)
{
    struct check_case c;
    size_t nwords = count_bytes / 8;
    L->in_place = 1;
    if (!begin(env, L, &c))
        return;
    struct region input = linear(buf, nwords, (uint64_t)env->rank, 0);
    region_fill(&input);
    measure_start();
    end(env, L, &c, count_reduction_call(env, L, buf));
    struct region want = red_result(env, L, buf, nwords, NULL, NULL);
    region_check(&want, &c, "result");
    check_end(env, &c);
}

/* Block r of a rooted or allgather buffer: at r blocks in the root's (and
 * allgather's) buffer, at 0 in a non-root's. */
static struct region count_block(const struct check_env *env, const struct large *L, char *buf,
                                 int r)
{
    int all = env->rank == 0 || !strcmp(L->coll, "allgather");
    return linear(buf + (all ? (size_t)r * count_bytes : 0), count_bytes / 8, (uint64_t)r, 0);
}

static int count_blocks_call(const struct check_env *env, const struct large *L, char *buf)
{
    MPI_Comm comm = env->comm;
    MPI_Count n = (MPI_Count)count_bytes;
    MPI_Datatype t = MPI_BYTE;
    if (!strcmp(L->coll, "allgather"))
        return MPI_Allgather_c(MPI_IN_PLACE, 0, t, buf, n, t, comm);
    if (!strcmp(L->coll, "gather"))
        return env->rank ? MPI_Gather_c(buf, n, t, NULL, 0, t, 0, comm)
                         : MPI_Gather_c(MPI_IN_PLACE, 0, t, buf, n, t, 0, comm);
    return env->rank ? MPI_Scatter_c(NULL, 0, t, buf, n, t, 0, comm)
                     : MPI_Scatter_c(buf, n, t, MPI_IN_PLACE, 0, t, 0, comm);
}

/* Fill what this rank sends, poison what it receives, call, check. */
static void run_count_blocks(const struct check_env *env, struct large *L, char *buf)
{
    struct check_case c;
    int gathers = strcmp(L->coll, "scatter") != 0, all = !strcmp(L->coll, "allgather");
    L->in_place = 1;
    if (!begin(env, L, &c))
        return;
    for (int r = 0; r < env->size; r++) {
        struct region reg = count_block(env, L, buf, r);
        if (env->rank != 0 && !all && r != env->rank)
            continue;
        region_fill(&reg);
        if (gathers ? r != env->rank : env->rank != 0)
            region_poison(&reg);
    }
    measure_start();
    end(env, L, &c, count_blocks_call(env, L, buf));
    for (int r = 0; r < env->size; r++) {
        struct region reg = count_block(env, L, buf, r);
        if (env->rank == 0 || all || r == env->rank)
            region_check(&reg, &c, "block");
    }
    check_end(env, &c);
}
#endif

static int has_count_pass(const char *coll)
{
    static const char *const colls[] = {"bcast", "reduce", "allreduce", "scan", "exscan",
                                        "gather", "scatter", "allgather"};
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
        if (!strcmp(coll, colls[i]))
            return 1;
    return 0;
}

/* Every algorithm of coll with one count of count_bytes elements, the
 * vendor's included: collshim must hand the call to the library's own _c
 * function, whole (a classic one would cut the count to an int). */
static void run_count_collective(const struct check_env *env, const char *coll, const char *only)
{
#ifdef HAVE_MPI_ALLREDUCE_C
    int p = env->size, n = collshim_algorithm_count(coll), blocks = !!strstr(coll, "gather") ||
                                                                    !strcmp(coll, "scatter");
    size_t here = count_bytes;
    struct large L = {coll, NULL, " in one count of bytes, MPI_<Coll>_c", count_bytes, 0, 0};
    if (!strcmp(coll, "allgather")) {
        L.vector = here = (size_t)p * count_bytes;
        L.user_gib = gib((double)L.vector) * p;
    } else if (blocks) { /* the root holds p blocks, the others one */
        here = env->rank ? count_bytes : (size_t)p * count_bytes;
        L.user_gib = gib((double)count_bytes) * (2 * p - 1);
    } else {
        L.user_gib = gib((double)count_bytes) * p;
    }
    char *buf = big_alloc(here);
    for (int i = 0; i < n; i++) {
        L.alg = collshim_algorithm_name(coll, i);
        L.in_place = 0;
        if (!strncmp(L.alg, "inter_", 6) || (only && !check_listed(only, L.alg)))
            continue;
        if (!strcmp(coll, "bcast"))
            run_count_bcast(env, &L, buf);
        else if (blocks)
            run_count_blocks(env, &L, buf);
        else
            run_count_reduction(env, &L, buf);
    }
    free(buf);
#else
    (void)only;
    if (env->rank == 0)
        printf("skip %s in one count past INT_MAX: this MPI has no large-count collectives "
               "(MPI_Bcast_c, ...)\n", coll);
    skipped++;
#endif
}

/* ---- driver ---- */

static int is_reduction(const char *coll)
{
    return strstr(coll, "reduce") || strstr(coll, "scan");
}

/* Collectives whose blocks add up to a total count: run in MPI_BYTE too. */
static int has_byte_pass(const char *coll)
{
    return strcmp(coll, "bcast") && (!is_reduction(coll) || !strncmp(coll, "reduce_scatter", 14));
}

static int is_rooted(const char *coll)
{
    return strstr(coll, "gather") == coll || strstr(coll, "scatter") == coll;
}

/* Buffers of one collective at this size (the same estimate on every
 * rank); run every listed algorithm. */
static void run_collective(const struct check_env *env, const char *coll, const char *only)
{
    int p = env->size, n = collshim_algorithm_count(coll);
    int blk = (int)((mib + p - 1) / p);
    /* blocks of M/(p-1) MiB put the last one past 2^31; in MPI_BYTE a
     * block's count must fit an int, and M/p MiB make the total pass it */
    int rooted_blk = unit.per_mib > 1 ? blk : (int)((mib + p - 2) / (p - 1));
    struct large L = {coll, NULL, NULL, mib * MIB, 0, 0};
    size_t bytes = mib * MIB, swords = (size_t)p * blk + ELEM_WORDS;
    char *buf, *sbuf = NULL;
    if (!strcmp(coll, "bcast")) {
        L.vector = bytes = bcast_mib * MIB;
    } else if (is_rooted(coll)) { /* the root holds p blocks, the others one */
        L.vector = (size_t)rooted_blk * MIB;
        bytes = env->rank ? L.vector : (size_t)p * L.vector;
    } else if (!is_reduction(coll)) { /* allgather(v), alltoall(v,w): p blocks */
        L.vector = bytes = (size_t)p * blk * MIB;
    }
    L.user_gib = gib((double)L.vector) * (is_rooted(coll) ? 2 * p - 1 : p);
    buf = big_alloc(bytes);
    if (!strcmp(coll, "bcast") && env->rank == p - 1)
        region_fill(&(struct region){.buf = buf, .nwords = words(bcast_mib),
                                     .s = (uint64_t)(p - 1)});
    if (!strncmp(coll, "alltoall", 8)) {
        sbuf = alloc_or_die(swords * 8);
        region_fill(&(struct region){.buf = sbuf, .nwords = swords, .s = (uint64_t)env->rank});
    }
    for (int i = 0; i < n; i++) {
        L.alg = collshim_algorithm_name(coll, i);
        L.in_place = 0;
        if (!strcmp(L.alg, "vendor") || !strncmp(L.alg, "inter_", 6) ||
            (only && !check_listed(only, L.alg)))
            continue; /* the inter_* algorithms: intercommunicators only (intercheck.c) */
        if (!strcmp(coll, "bcast"))
            run_bcast(env, &L, buf);
        else if (is_rooted(coll))
            run_rooted(env, &L, buf, rooted_blk);
        else if (!strncmp(coll, "allgather", 9))
            run_allgather(env, &L, buf, blk);
        else if (!strncmp(coll, "alltoall", 8))
            run_alltoall(env, &L, buf, sbuf, blk);
        else
            run_reduction(env, &L, buf);
    }
    free(buf);
    free(sbuf);
    for (int kind = 0; kind < 2 && !strcmp(coll, "bcast") && !only; kind++)
        run_bcast_noncontig(env, kind);
}

static const char *all_colls[] = {
    "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
    "alltoall", "alltoallv", "alltoallw", "reduce", "allreduce", "reduce_scatter",
    "reduce_scatter_block", "scan", "exscan"};

int main(int argc, char **argv)
{
    struct check_env env = check_start(&argc, &argv);
    const char *colls = NULL, *only = NULL, *units = "mib,byte,count";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--coll") && i + 1 < argc) colls = argv[++i];
        else if (!strcmp(argv[i], "--alg") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--bcast-mib") && i + 1 < argc)
            bcast_mib = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count_bytes = strtoul(argv[++i], NULL, 10) / 8 * 8; /* whole words */
        else if (!strcmp(argv[i], "--mem-gib") && i + 1 < argc) budget_gib = atof(argv[++i]);
        else if (!strcmp(argv[i], "--unit") && i + 1 < argc) units = argv[++i];
        else if (!strcmp(argv[i], "-v")) env.verbose = 1;
    }
    if (env.size < 2 || env.size > 3) {
        if (env.rank == 0)
            printf("check_large np=%d: 0 passed, 1 failed (run it at np 2 or 3)\n", env.size);
        MPI_Finalize();
        return 1;
    }
    MPI_Type_contiguous((int)MIB, MPI_BYTE, &elem);
    MPI_Type_commit(&elem);
    MPI_Type_create_resized(elem, 0, 8, &elem_overlap);
    MPI_Type_commit(&elem_overlap);
    for (size_t c = 0; c < sizeof all_colls / sizeof all_colls[0]; c++) {
        if (colls && !check_listed(colls, all_colls[c]))
            continue;
        unit = (struct unit){elem, 1, ""};
        if (check_listed(units, "mib"))
            run_collective(&env, all_colls[c], only);
        unit = (struct unit){MPI_BYTE, (int)MIB, " of MPI_BYTE"};
        if (check_listed(units, "byte") && has_byte_pass(all_colls[c]))
            run_collective(&env, all_colls[c], only);
        unit = (struct unit){MPI_BYTE, (int)MIB, " in one count of bytes"};
        if (check_listed(units, "count") && has_count_pass(all_colls[c]))
            run_count_collective(&env, all_colls[c], only);
    }
    if (env.rank == 0)
        printf("check_large np=%d: %d passed, %d failed (%d skipped)\n", env.size, check_passed,
               check_failed, skipped);
    MPI_Type_free(&elem_overlap);
    MPI_Type_free(&elem);
    check_cleanup();
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
