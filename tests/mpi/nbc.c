/* nbc.c - nonblocking and persistent collectives the way programs use them:
 *   (a) 16 outstanding nonblocking collectives of mixed kinds on one
 *       communicator, completed by MPI_Waitall in an order that differs
 *       between ranks, one by one with MPI_Wait in reverse order, and by
 *       MPI_Test loops;
 *   (b) MPI_Waitall/any/some and MPI_Testall/any/some over point-to-point
 *       requests (tags 0.., same communicator) mixed with collective ones,
 *       the point-to-point statuses checked (source, tag, count);
 *   (c) blocking collectives issued while nonblocking ones are outstanding;
 *   (d) persistent requests restarted 5 times with new data, MPI_Startall
 *       in an order that differs between ranks (MPI-4 6.13 allows it),
 *       MPI_Request_get_status polling;
 *   (e) outstanding collectives on two communicators at once, posted in an
 *       order that differs between ranks across the two;
 *   (f) MPI_Request_free of inactive persistent requests.
 * Every result is checked against values computed from the inputs. Each
 * case forces algorithms with collshim_tune() (several per collective, by
 * size) and asserts that collshim_algorithm_calls() grew by one per
 * nonblocking or blocking call and per MPI_Start. NBC_NO_ALG_CHECK=1 skips
 * that assertion: a development aid for running against a library whose
 * nonblocking collectives still go to the vendor; no script sets it.
 * With --large-count (an MPI with MPI-4's large-count collectives,
 * HAVE_MPI_ALLREDUCE_C) every collective but barrier is called through its
 * _c form (MPI_I<coll>_c, MPI_<Coll>_init_c, MPI_<Coll>_c).
 * Ends with "nbc: N passed, N failed". */
#include "config.h"
#include "collshim.h"
#include "bench/pcoll.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL (-7777777)
#define MAX_OPS 20
#define TIME_LIMIT 60.0 /* seconds a Test loop may spin */

static int world_rank, world_size;
static MPI_Comm agree_comm; /* verdicts only, through the vendor */
static int passed, failed, no_alg_check;
static int large_count; /* --large-count: the _c forms */

/* ------------------------------------------------------------ the cases */

struct tally {
    const char *coll, *alg;
    long long before;
    int want;
};

struct nbc_case {
    char what[160], why[320];
    int failed;
    struct tally tallies[2 * MAX_OPS];
    int ntallies;
};

static void case_fail(struct nbc_case *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void case_fail(struct nbc_case *c, const char *fmt, ...)
{
    va_list ap;
    if (c->failed++)
        return;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
}

/* An MPI call of the case returned err: recorded, and passed on. */
static int mpi_ok(struct nbc_case *c, int err, const char *call)
{
    if (err != MPI_SUCCESS)
        case_fail(c, "%s returned error %d", call, err);
    return err == MPI_SUCCESS;
}

/* MPI_Waitall with statuses (GCC 12 warns about MPICH's prototype with
 * MPI_STATUSES_IGNORE). */
static void wait_all(struct nbc_case *c, int n, MPI_Request *reqs)
{
    MPI_Status st[2 * MAX_OPS];
    mpi_ok(c, MPI_Waitall(n, reqs, st), "MPI_Waitall");
}

/* The case expects runs more runs of coll's algorithm alg. The counter is
 * read the first time a pair is named, before anything of it ran. */
static void tally_add(struct nbc_case *c, const char *coll, const char *alg, int runs)
{
    for (int i = 0; i < c->ntallies; i++)
        if (!strcmp(c->tallies[i].coll, coll) && !strcmp(c->tallies[i].alg, alg)) {
            c->tallies[i].want += runs;
            return;
        }
    if (c->ntallies == (int)(sizeof c->tallies / sizeof c->tallies[0])) {
        case_fail(c, "too many (collective, algorithm) pairs in one case");
        return;
    }
    c->tallies[c->ntallies++] =
        (struct tally){coll, alg, collshim_algorithm_calls(coll, alg), runs};
}

static void tallies_check(struct nbc_case *c)
{
    for (int i = 0; i < c->ntallies && !no_alg_check; i++) {
        struct tally *t = &c->tallies[i];
        long long ran = collshim_algorithm_calls(t->coll, t->alg) - t->before;
        if (ran != t->want)
            case_fail(c, "%s/%s ran %lld times, expected %d (last algorithm: %s)", t->coll,
                      t->alg, ran, t->want, collshim_last_algorithm());
    }
}

static void case_begin(struct nbc_case *c, const char *rules, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void case_begin(struct nbc_case *c, const char *rules, const char *fmt, ...)
{
    char err[512];
    va_list ap;
    memset(c, 0, sizeof *c);
    va_start(ap, fmt);
    vsnprintf(c->what, sizeof c->what, fmt, ap);
    va_end(ap);
    if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS)
        case_fail(c, "collshim_tune failed: %s", err);
}

/* Assert the tallies, agree over ranks, print, count. */
static void case_end(struct nbc_case *c)
{
    int any = 0, mine, first = world_size;
    tallies_check(c);
    collshim_tune(NULL, NULL, 0);
    mine = c->failed ? world_rank : world_size;
    collshim_bypass(1);
    MPI_Allreduce(&c->failed, &any, 1, MPI_INT, MPI_MAX, agree_comm);
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, agree_comm);
    collshim_bypass(0);
    const char *form = large_count ? " (large-count forms)" : "";
    if (any && world_rank == first)
        printf("FAIL %s%s: rank %d: %s\n", c->what, form, world_rank, c->why);
    else if (!any && world_rank == 0)
        printf("ok   %s%s\n", c->what, form);
    fflush(stdout);
    any ? failed++ : passed++;
}

/* ---------------------------------------------------- forcing by rules */

/* One tuning rule: coll, bytes in [lo, hi) (hi < 0: no limit), @alg params. */
struct rule {
    const char *coll;
    long lo, hi;
    const char *alg, *params;
};

/* The rules as collshim_tune() text, each collective ending in @vendor so
 * that nothing but the named algorithms (or the vendor) can run. */
static void rules_text(const struct rule *rules, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (const struct rule *r = rules; r->coll && at < len; r++) {
        char hi[32] = "inf";
        if (r->hi >= 0)
            snprintf(hi, sizeof hi, "%ld", r->hi);
        at += snprintf(out + at, len - at, "%s %ld-%s @%s %s; ", r->coll, r->lo, hi, r->alg,
                       r->params ? r->params : "");
    }
    for (const struct rule *r = rules; r->coll && at < len; r++)
        if (r == rules || strcmp(r->coll, r[-1].coll))
            at += snprintf(out + at, len - at, "%s @vendor; ", r->coll);
}

/* ---------------------------------------------------- the collectives */

enum kind { K_ALLREDUCE, K_BCAST, K_ALLGATHER, K_ALLTOALL, K_BARRIER, K_RSB, K_SCAN, K_EXSCAN,
            K_REDUCE, K_GATHER, K_SCATTER, K_COUNT };

static const char *const coll_names[K_COUNT] = {
    "allreduce", "bcast", "allgather", "alltoall", "barrier", "reduce_scatter_block",
    "scan", "exscan", "reduce", "gather", "scatter"};

enum how { NONBLOCKING, PERSISTENT, BLOCKING };

/* One collective call: MPI_INT blocks of n elements, sums. */
struct op {
    enum kind kind;
    int n, root, seed;
    int me, p;          /* rank and size in comm */
    MPI_Comm comm;
    int *in, *out;
    MPI_Request req;
    const char *alg;    /* what the case's rules select for it */
};

/* Element i of rank r's input under seed; seeds stay below 1000 so sums
 * over 8 ranks stay far below 2^31. */
static int val(int seed, int r, int i) { return seed * 100003 + r * 1009 + i; }

static int sum_ranks(int seed, int lo, int hi, int i)
{
    unsigned s = 0;
    for (int r = lo; r <= hi; r++)
        s += (unsigned)val(seed, r, i);
    return (int)s;
}

static int in_len(const struct op *o)
{
    switch (o->kind) {
    case K_ALLTOALL: case K_RSB: case K_SCATTER: return o->n * o->p;
    case K_BCAST: case K_BARRIER: return 0;
    default: return o->n;
    }
}

static int out_len(const struct op *o)
{
    switch (o->kind) {
    case K_ALLGATHER: case K_ALLTOALL: case K_GATHER: return o->n * o->p;
    case K_BARRIER: return 0;
    default: return o->n;
    }
}

/* Bytes the selector keys on (README, "Message size"). */
static long op_bytes(const struct op *o)
{
    switch (o->kind) {
    case K_BARRIER: return 0;
    case K_RSB: case K_ALLGATHER: case K_ALLTOALL: case K_GATHER: case K_SCATTER:
        return 4L * o->n * o->p;
    default: return 4L * o->n;
    }
}

/* The inputs of seed; outputs to sentinels (bcast: the root's values). */
static void op_fill(struct op *o, int seed)
{
    o->seed = seed;
    for (int i = 0; i < in_len(o); i++)
        o->in[i] = val(seed, o->me, i);
    for (int i = 0; i < out_len(o); i++)
        o->out[i] = o->kind == K_BCAST && o->me == o->root ? val(seed, o->root, i) : SENTINEL;
}

/* The algorithm the rules select for o, "vendor" where its restrictions
 * forbid the call or no rule names one. */
static const char *selected(const struct rule *rules, const struct op *o)
{
    const char *coll = coll_names[o->kind];
    long bytes = op_bytes(o);
    for (const struct rule *r = rules; r->coll; r++)
        if (!strcmp(r->coll, coll) && bytes >= r->lo && (r->hi < 0 || bytes < r->hi))
            return collshim_algorithm_can_run(coll, r->alg, o->p, o->n, 1, 1, 0) == 1
                       ? r->alg : "vendor";
    return "vendor";
}

static void op_setup(struct op *o, const struct rule *rules, enum kind k, int n, int root,
                     MPI_Comm comm, int seed)
{
    memset(o, 0, sizeof *o);
    o->kind = k;
    o->n = n;
    o->root = root;
    o->comm = comm;
    o->req = MPI_REQUEST_NULL;
    MPI_Comm_rank(comm, &o->me);
    MPI_Comm_size(comm, &o->p);
    o->in = malloc(sizeof(int) * (size_t)(in_len(o) + 1));
    o->out = malloc(sizeof(int) * (size_t)(out_len(o) + 1));
    o->alg = selected(rules, o);
    op_fill(o, seed);
}

static void op_free(struct op *o)
{
    free(o->in);
    free(o->out);
}

/* One switch for the three ways of calling: MPI_<Coll>, MPI_I<coll> or the
 * persistent init (the request in o->req). */
#define CALL(how, Coll, icoll, ...)                                                     \
    ((how) == BLOCKING     ? MPI_##Coll(__VA_ARGS__)                                    \
     : (how) == PERSISTENT ? PERSISTENT_INIT(Coll)(__VA_ARGS__, MPI_INFO_NULL, &o->req) \
                           : MPI_I##icoll(__VA_ARGS__, &o->req))

#ifdef HAVE_MPI_ALLREDUCE_C
/* The same through the large-count forms (barrier has none). */
#define CALL_C(how, Coll, icoll, ...)                                                   \
    ((how) == BLOCKING     ? MPI_##Coll##_c(__VA_ARGS__)                                \
     : (how) == PERSISTENT ? MPI_##Coll##_init_c(__VA_ARGS__, MPI_INFO_NULL, &o->req)   \
                           : MPI_I##icoll##_c(__VA_ARGS__, &o->req))

static int op_call_large(struct op *o, enum how how)
{
    MPI_Count n = o->n;
    int r = o->root;
    MPI_Comm c = o->comm;
    int *in = o->in, *out = o->out;
    switch (o->kind) {
    case K_ALLREDUCE: return CALL_C(how, Allreduce, allreduce, in, out, n, MPI_INT, MPI_SUM, c);
    case K_BCAST: return CALL_C(how, Bcast, bcast, out, n, MPI_INT, r, c);
    case K_ALLGATHER:
        return CALL_C(how, Allgather, allgather, in, n, MPI_INT, out, n, MPI_INT, c);
    case K_ALLTOALL: return CALL_C(how, Alltoall, alltoall, in, n, MPI_INT, out, n, MPI_INT, c);
    case K_RSB:
        return CALL_C(how, Reduce_scatter_block, reduce_scatter_block, in, out, n, MPI_INT,
                      MPI_SUM, c);
    case K_SCAN: return CALL_C(how, Scan, scan, in, out, n, MPI_INT, MPI_SUM, c);
    case K_EXSCAN: return CALL_C(how, Exscan, exscan, in, out, n, MPI_INT, MPI_SUM, c);
    case K_REDUCE: return CALL_C(how, Reduce, reduce, in, out, n, MPI_INT, MPI_SUM, r, c);
    case K_GATHER: return CALL_C(how, Gather, gather, in, n, MPI_INT, out, n, MPI_INT, r, c);
    case K_SCATTER: return CALL_C(how, Scatter, scatter, in, n, MPI_INT, out, n, MPI_INT, r, c);
    default: return MPI_ERR_OTHER;
    }
}
#endif

static int op_call(struct op *o, enum how how)
{
    int n = o->n, r = o->root;
#ifdef HAVE_MPI_ALLREDUCE_C
    if (large_count && o->kind != K_BARRIER)
        return op_call_large(o, how);
#endif
    MPI_Comm c = o->comm;
    int *in = o->in, *out = o->out;
    switch (o->kind) {
    case K_ALLREDUCE: return CALL(how, Allreduce, allreduce, in, out, n, MPI_INT, MPI_SUM, c);
    case K_BCAST: return CALL(how, Bcast, bcast, out, n, MPI_INT, r, c);
    case K_ALLGATHER:
        return CALL(how, Allgather, allgather, in, n, MPI_INT, out, n, MPI_INT, c);
    case K_ALLTOALL: return CALL(how, Alltoall, alltoall, in, n, MPI_INT, out, n, MPI_INT, c);
    case K_BARRIER: return CALL(how, Barrier, barrier, c);
    case K_RSB:
        return CALL(how, Reduce_scatter_block, reduce_scatter_block, in, out, n, MPI_INT,
                    MPI_SUM, c);
    case K_SCAN: return CALL(how, Scan, scan, in, out, n, MPI_INT, MPI_SUM, c);
    case K_EXSCAN: return CALL(how, Exscan, exscan, in, out, n, MPI_INT, MPI_SUM, c);
    case K_REDUCE: return CALL(how, Reduce, reduce, in, out, n, MPI_INT, MPI_SUM, r, c);
    case K_GATHER: return CALL(how, Gather, gather, in, n, MPI_INT, out, n, MPI_INT, r, c);
    case K_SCATTER: return CALL(how, Scatter, scatter, in, n, MPI_INT, out, n, MPI_INT, r, c);
    default: return MPI_ERR_OTHER;
    }
}

/* Post (nonblocking) or run (blocking) o; a run of its algorithm is due. */
static void op_issue(struct nbc_case *c, struct op *o, enum how how)
{
    char call[64];
    tally_add(c, coll_names[o->kind], o->alg, 1);
    snprintf(call, sizeof call, "%s%s", how == BLOCKING ? "MPI_" : "MPI_I", coll_names[o->kind]);
    mpi_ok(c, op_call(o, how), call);
}

/* A persistent request for o; its runs are counted at each start. */
static void op_init(struct nbc_case *c, struct op *o)
{
    tally_add(c, coll_names[o->kind], o->alg, 0);
    mpi_ok(c, op_call(o, PERSISTENT), "persistent init");
}

static void op_start(struct nbc_case *c, struct op *o)
{
    tally_add(c, coll_names[o->kind], o->alg, 1);
    mpi_ok(c, MPI_Start(&o->req), "MPI_Start");
}

static int want(const struct op *o, int i)
{
    int s = o->seed, n = o->n;
    switch (o->kind) {
    case K_ALLREDUCE: case K_REDUCE: return sum_ranks(s, 0, o->p - 1, i);
    case K_BCAST: return val(s, o->root, i);
    case K_ALLGATHER: case K_GATHER: return val(s, i / n, i % n);
    case K_ALLTOALL: return val(s, i / n, o->me * n + i % n);
    case K_RSB: return sum_ranks(s, 0, o->p - 1, o->me * n + i);
    case K_SCAN: return sum_ranks(s, 0, o->me, i);
    case K_EXSCAN: return sum_ranks(s, 0, o->me - 1, i);
    case K_SCATTER: return val(s, o->root, o->me * n + i);
    default: return 0;
    }
}

/* Whether this rank's output is defined by the standard. */
static int has_result(const struct op *o)
{
    if (o->kind == K_REDUCE || o->kind == K_GATHER)
        return o->me == o->root;
    if (o->kind == K_EXSCAN)
        return o->me > 0;
    return o->kind != K_BARRIER;
}

static void op_check(struct nbc_case *c, const struct op *o, const char *when)
{
    for (int i = 0; has_result(o) && i < out_len(o); i++)
        if (o->out[i] != want(o, i)) {
            case_fail(c, "%s%s n=%d seed=%d (%s): element %d is %d, expected %d", when,
                      coll_names[o->kind], o->n, o->seed, o->alg, i, o->out[i], want(o, i));
            return;
        }
}

static void ops_check(struct nbc_case *c, const struct op *ops, int n, const char *when)
{
    for (int i = 0; i < n; i++)
        op_check(c, &ops[i], when);
}

/* A permutation of 0..n-1 that depends on salt (the rank, a round). */
static void shuffle(int *perm, int n, unsigned salt)
{
    unsigned x = salt * 2654435761u + 12345u;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        x = x * 1103515245u + 12345u;
        int j = (int)((x >> 8) % (unsigned)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* ------------------------------------------- (a) many outstanding ops */

static const struct rule rules_a[] = {
    {"allreduce", 0, 256, "recursive_doubling", NULL},
    {"allreduce", 256, -1, "ring", "seg=512"},
    {"bcast", 0, 256, "binomial", NULL},
    {"bcast", 256, -1, "pipeline", "seg=100"},
    {"allgather", 0, -1, "bruck", NULL},
    {"alltoall", 0, -1, "pairwise", NULL},
    {"barrier", 0, -1, "dissemination", NULL},
    {"reduce_scatter_block", 0, -1, "recursive_halving", NULL},
    {"scan", 0, -1, "recursive_doubling", NULL},
    {"exscan", 0, -1, "linear", NULL},
    {"reduce", 0, -1, "binomial", NULL},
    {"gather", 0, -1, "binomial", NULL},
    {"scatter", 0, -1, "linear", NULL},
    {NULL, 0, 0, NULL, NULL}};

/* 16 collectives of 11 kinds, two sizes of allreduce and bcast (so two
 * algorithms each), roots spread over the ranks. */
static int setup_mixed(struct op *ops, const struct rule *rules, MPI_Comm comm, int seed)
{
    static const struct { enum kind k; int n, root; } list[] = {
        {K_ALLREDUCE, 7, 0}, {K_BCAST, 300, -1}, {K_ALLGATHER, 5, 0}, {K_ALLTOALL, 3, 0},
        {K_BARRIER, 0, 0}, {K_RSB, 4, 0}, {K_ALLREDUCE, 700, 0}, {K_SCAN, 9, 0},
        {K_BCAST, 11, 0}, {K_EXSCAN, 6, 0}, {K_REDUCE, 13, -1}, {K_GATHER, 4, 1},
        {K_SCATTER, 5, -1}, {K_BARRIER, 0, 0}, {K_ALLREDUCE, 1, 0}, {K_ALLGATHER, 50, 0}};
    int p;
    MPI_Comm_size(comm, &p);
    int n = (int)(sizeof list / sizeof list[0]);
    for (int i = 0; i < n; i++) {
        int root = list[i].root < 0 ? p - 1 : list[i].root % p;
        op_setup(&ops[i], rules, list[i].k, list[i].n, root, comm, seed + i);
    }
    return n;
}

enum completion { BY_WAITALL_SHUFFLED, BY_WAIT_REVERSED, BY_TEST_LOOP };

static const char *const completion_names[] = {
    "MPI_Waitall, requests in a different order on each rank",
    "MPI_Wait one by one in reverse order", "MPI_Test loops (rotating order)"};

static void wait_shuffled(struct nbc_case *c, struct op *ops, int n)
{
    MPI_Request reqs[MAX_OPS];
    int perm[MAX_OPS];
    shuffle(perm, n, (unsigned)world_rank + 7u);
    for (int i = 0; i < n; i++)
        reqs[i] = ops[perm[i]].req;
    wait_all(c, n, reqs);
    for (int i = 0; i < n; i++)
        ops[perm[i]].req = reqs[i];
}

/* Loops end on completion, an MPI error or the time limit, never on an
 * earlier failure of the case: a rank that stopped early would leave the
 * others waiting. */
static void test_loop(struct nbc_case *c, struct op *ops, int n)
{
    int left = n, ok = 1;
    double t0 = MPI_Wtime();
    for (int spin = 0; left > 0 && ok; spin++) {
        for (int k = 0; k < n && ok; k++) {
            struct op *o = &ops[(k + spin + world_rank) % n];
            int flag = 0;
            if (o->req == MPI_REQUEST_NULL)
                continue;
            ok = mpi_ok(c, MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE), "MPI_Test");
            left -= flag;
        }
        if (ok && left > 0 && MPI_Wtime() - t0 > TIME_LIMIT) {
            case_fail(c, "%d requests still incomplete after %.0f s of MPI_Test", left,
                      TIME_LIMIT);
            ok = 0;
        }
    }
}

static void complete(struct nbc_case *c, struct op *ops, int n, enum completion how)
{
    if (how == BY_WAITALL_SHUFFLED)
        wait_shuffled(c, ops, n);
    else if (how == BY_WAIT_REVERSED)
        for (int i = n - 1; i >= 0; i--)
            mpi_ok(c, MPI_Wait(&ops[i].req, MPI_STATUS_IGNORE), "MPI_Wait");
    else
        test_loop(c, ops, n);
    for (int i = 0; i < n; i++)
        if (ops[i].req != MPI_REQUEST_NULL)
            case_fail(c, "request %d is not MPI_REQUEST_NULL after completion", i);
}

static void case_many_outstanding(enum completion how)
{
    struct nbc_case c;
    struct op ops[MAX_OPS];
    char rules[2048];
    rules_text(rules_a, rules, sizeof rules);
    case_begin(&c, rules, "(a) 16 outstanding nonblocking collectives of 11 kinds, by %s",
               completion_names[how]);
    int n = setup_mixed(ops, rules_a, MPI_COMM_WORLD, 10 + 20 * (int)how);
    for (int i = 0; i < n; i++)
        op_issue(&c, &ops[i], NONBLOCKING);
    complete(&c, ops, n, how);
    ops_check(&c, ops, n, "");
    case_end(&c);
    for (int i = 0; i < n; i++)
        op_free(&ops[i]);
}

/* ------------------------------- (b) point-to-point and collective mix */

enum multi { M_WAITALL, M_WAITANY, M_WAITSOME, M_TESTALL, M_TESTANY, M_TESTSOME, M_COUNT };

static const char *const multi_names[M_COUNT] = {
    "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Testall", "MPI_Testany",
    "MPI_Testsome"};

static const struct rule rules_b[] = {
    {"allreduce", 0, -1, "rabenseifner", NULL},
    {"bcast", 0, -1, "scatter_allgather", NULL},
    {"alltoall", 0, -1, "scattered", "outstanding=2"},
    {"barrier", 0, -1, "tree", NULL},
    {NULL, 0, 0, NULL, NULL}};

#define NTAGS 4
#define NREQ (3 * NTAGS)

/* Requests in posting order: per tag t a collective, a receive with tag t
 * from the left neighbour, a send with tag t to the right one. */
struct mix {
    struct op ops[NTAGS];
    int rbuf[NTAGS][8], sbuf[NTAGS][8];
    MPI_Request reqs[NREQ];
    MPI_Status st[NREQ];
    int done[NREQ];
};

static void mix_post(struct nbc_case *c, struct mix *m)
{
    static const enum kind kinds[NTAGS] = {K_ALLREDUCE, K_BCAST, K_ALLTOALL, K_BARRIER};
    int left = (world_rank + world_size - 1) % world_size, right = (world_rank + 1) % world_size;
    for (int t = 0; t < NTAGS; t++) {
        op_setup(&m->ops[t], rules_b, kinds[t], 40 + t, t % world_size, MPI_COMM_WORLD, 90 + t);
        op_issue(c, &m->ops[t], NONBLOCKING);
        m->reqs[3 * t] = m->ops[t].req;
        for (int i = 0; i < 8; i++) {
            m->rbuf[t][i] = SENTINEL;
            m->sbuf[t][i] = val(100 + t, world_rank, i);
        }
        mpi_ok(c, MPI_Irecv(m->rbuf[t], 8, MPI_INT, left, t, MPI_COMM_WORLD, &m->reqs[3 * t + 1]),
               "MPI_Irecv");
        mpi_ok(c, MPI_Isend(m->sbuf[t], t + 1, MPI_INT, right, t, MPI_COMM_WORLD,
                            &m->reqs[3 * t + 2]), "MPI_Isend");
    }
}

static void mix_record(struct mix *m, int idx, const MPI_Status *st)
{
    if (idx >= 0 && idx < NREQ) {
        m->done[idx]++;
        m->st[idx] = *st;
    }
}

static void mix_all(struct nbc_case *c, struct mix *m, int test)
{
    int flag = 0, ok = 1;
    double t0 = MPI_Wtime();
    while (!flag && ok) {
        if (!test) {
            ok = mpi_ok(c, MPI_Waitall(NREQ, m->reqs, m->st), "MPI_Waitall");
            flag = ok;
        } else {
            ok = mpi_ok(c, MPI_Testall(NREQ, m->reqs, &flag, m->st), "MPI_Testall");
            if (ok && !flag && MPI_Wtime() - t0 > TIME_LIMIT) {
                case_fail(c, "MPI_Testall still false after %.0f s", TIME_LIMIT);
                ok = 0;
            }
        }
    }
    for (int i = 0; flag && i < NREQ; i++)
        m->done[i]++;
}

/* Waitany/Testany until they answer MPI_UNDEFINED (all inactive). */
static void mix_any(struct nbc_case *c, struct mix *m, int test)
{
    double t0 = MPI_Wtime();
    for (int calls = 0;; calls++) {
        int idx = MPI_UNDEFINED, flag = 1;
        MPI_Status st;
        int err = test ? MPI_Testany(NREQ, m->reqs, &idx, &flag, &st)
                       : MPI_Waitany(NREQ, m->reqs, &idx, &st);
        if (!mpi_ok(c, err, multi_names[test ? M_TESTANY : M_WAITANY]))
            return;
        if (flag && idx == MPI_UNDEFINED)
            return;
        if (flag)
            mix_record(m, idx, &st);
        if (calls > NREQ && (!test || MPI_Wtime() - t0 > TIME_LIMIT)) {
            case_fail(c, "%s never answered MPI_UNDEFINED", multi_names[test ? M_TESTANY : M_WAITANY]);
            return;
        }
    }
}

/* Waitsome/Testsome until outcount is MPI_UNDEFINED. */
static void mix_some(struct nbc_case *c, struct mix *m, int test)
{
    double t0 = MPI_Wtime();
    for (int calls = 0;; calls++) {
        int out = 0, idx[NREQ];
        MPI_Status st[NREQ];
        int err = test ? MPI_Testsome(NREQ, m->reqs, &out, idx, st)
                       : MPI_Waitsome(NREQ, m->reqs, &out, idx, st);
        if (!mpi_ok(c, err, multi_names[test ? M_TESTSOME : M_WAITSOME]))
            return;
        if (out == MPI_UNDEFINED)
            return;
        if (!test && out == 0)
            case_fail(c, "MPI_Waitsome returned no request");
        for (int k = 0; k < out; k++)
            mix_record(m, idx[k], &st[k]);
        if ((!test && calls > NREQ) || MPI_Wtime() - t0 > TIME_LIMIT) {
            case_fail(c, "%s never answered MPI_UNDEFINED", multi_names[test ? M_TESTSOME : M_WAITSOME]);
            return;
        }
    }
}

/* Every request completed once; receives from the left neighbour with
 * their tag, count and data; collective results. */
static void mix_check(struct nbc_case *c, struct mix *m)
{
    int left = (world_rank + world_size - 1) % world_size;
    for (int i = 0; i < NREQ; i++) {
        if (m->done[i] != 1)
            case_fail(c, "request %d completed %d times", i, m->done[i]);
        if (m->reqs[i] != MPI_REQUEST_NULL)
            case_fail(c, "request %d is not MPI_REQUEST_NULL after completion", i);
    }
    for (int t = 0; t < NTAGS && !c->failed; t++) {
        MPI_Status *st = &m->st[3 * t + 1];
        int count = -1;
        MPI_Get_count(st, MPI_INT, &count);
        if (st->MPI_SOURCE != left || st->MPI_TAG != t || count != t + 1)
            case_fail(c, "receive with tag %d: status source %d tag %d count %d, expected %d %d %d",
                      t, st->MPI_SOURCE, st->MPI_TAG, count, left, t, t + 1);
        for (int i = 0; i < 8; i++)
            if (m->rbuf[t][i] != (i <= t ? val(100 + t, left, i) : SENTINEL))
                case_fail(c, "receive with tag %d: element %d is %d", t, i, m->rbuf[t][i]);
        m->ops[t].req = MPI_REQUEST_NULL;
        op_check(c, &m->ops[t], "");
    }
}

static void case_mixed_p2p(enum multi how)
{
    struct nbc_case c;
    struct mix m;
    char rules[1024];
    memset(&m, 0, sizeof m);
    rules_text(rules_b, rules, sizeof rules);
    case_begin(&c, rules, "(b) %s over %d point-to-point requests (tags 0-%d) and %d "
               "nonblocking collectives", multi_names[how], 2 * NTAGS, NTAGS - 1, NTAGS);
    mix_post(&c, &m);
    if (how == M_WAITALL || how == M_TESTALL)
        mix_all(&c, &m, how == M_TESTALL);
    else if (how == M_WAITANY || how == M_TESTANY)
        mix_any(&c, &m, how == M_TESTANY);
    else
        mix_some(&c, &m, how == M_TESTSOME);
    mix_check(&c, &m);
    case_end(&c);
    for (int t = 0; t < NTAGS; t++)
        op_free(&m.ops[t]);
}

/* ------------------------ (c) blocking collectives amid nonblocking ones */

static const struct rule rules_c[] = {
    {"allreduce", 0, 256, "recursive_doubling", NULL},
    {"allreduce", 256, -1, "ring", "seg=256"},
    {"bcast", 0, 256, "binomial", NULL},
    {"bcast", 256, -1, "binary_pipeline", "seg=64"},
    {"alltoall", 0, -1, "bruck", NULL},
    {"barrier", 0, -1, "recursive_doubling", NULL},
    {"gather", 0, -1, "linear", NULL},
    {"scan", 0, -1, "linear", "seg=16"},
    {NULL, 0, 0, NULL, NULL}};

static void case_blocking_amid(void)
{
    static const struct { enum kind k; int n, root; enum how how; } list[] = {
        {K_ALLREDUCE, 500, 0, NONBLOCKING}, {K_BCAST, 200, -1, NONBLOCKING},
        {K_BARRIER, 0, 0, NONBLOCKING},     {K_ALLTOALL, 6, 0, NONBLOCKING},
        {K_ALLREDUCE, 10, 0, BLOCKING},     {K_BCAST, 12, 0, BLOCKING},
        {K_BARRIER, 0, 0, BLOCKING},        {K_GATHER, 5, -1, BLOCKING},
        {K_SCAN, 33, 0, NONBLOCKING},       {K_ALLREDUCE, 400, 0, BLOCKING}};
    int n = (int)(sizeof list / sizeof list[0]), pending[MAX_OPS], np = 0;
    struct nbc_case c;
    struct op ops[MAX_OPS];
    MPI_Request reqs[MAX_OPS];
    char rules[1024];
    rules_text(rules_c, rules, sizeof rules);
    case_begin(&c, rules, "(c) blocking collectives while nonblocking ones are outstanding");
    for (int i = 0; i < n; i++) {
        int root = list[i].root < 0 ? world_size - 1 : list[i].root;
        op_setup(&ops[i], rules_c, list[i].k, list[i].n, root, MPI_COMM_WORLD, 150 + i);
        op_issue(&c, &ops[i], list[i].how);
        if (list[i].how == NONBLOCKING)
            pending[np++] = i;
        else
            op_check(&c, &ops[i], "blocking, while others are outstanding: ");
    }
    for (int k = 0; k < np; k++)
        reqs[k] = ops[pending[np - 1 - k]].req;
    wait_all(&c, np, reqs);
    ops_check(&c, ops, n, "");
    case_end(&c);
    for (int i = 0; i < n; i++)
        op_free(&ops[i]);
}

/* ----------------------------------------------- (d) persistent requests */

static const struct rule rules_d[] = {
    {"allreduce", 0, 256, "reduce_bcast", NULL},
    {"allreduce", 256, -1, "ring", "seg=256"},
    {"bcast", 0, 256, "linear", NULL},
    {"bcast", 256, -1, "pipeline", "seg=64"},
    {"allgather", 0, -1, "ring", NULL},
    {"alltoall", 0, -1, "scattered", "outstanding=3"},
    {"barrier", 0, -1, "dissemination", NULL},
    {"reduce_scatter_block", 0, -1, "pairwise", NULL},
    {"scan", 0, -1, "linear", NULL},
    {"exscan", 0, -1, "recursive_doubling", NULL},
    {"gather", 0, -1, "linear", NULL},
    {"reduce", 0, -1, "pipeline", "seg=32"},
    {NULL, 0, 0, NULL, NULL}};

static int setup_persistent(struct nbc_case *c, struct op *ops, MPI_Comm comm)
{
    static const struct { enum kind k; int n, root; } list[] = {
        {K_ALLREDUCE, 600, 0}, {K_BCAST, 250, -1}, {K_SCAN, 20, 0}, {K_GATHER, 3, -1},
        {K_ALLTOALL, 4, 0},    {K_BARRIER, 0, 0},  {K_ALLREDUCE, 3, 0}, {K_BCAST, 9, 0},
        {K_ALLGATHER, 6, 0},   {K_RSB, 5, 0},      {K_EXSCAN, 8, 0}, {K_REDUCE, 70, -1}};
    int p, n = (int)(sizeof list / sizeof list[0]);
    MPI_Comm_size(comm, &p);
    for (int i = 0; i < n; i++) {
        op_setup(&ops[i], rules_d, list[i].k, list[i].n, list[i].root < 0 ? p - 1 : list[i].root,
                 comm, 200 + i);
        op_init(c, &ops[i]);
    }
    return n;
}

static void free_requests(struct nbc_case *c, struct op *ops, int n)
{
    for (int i = 0; i < n; i++) {
        mpi_ok(c, MPI_Request_free(&ops[i].req), "MPI_Request_free");
        if (ops[i].req != MPI_REQUEST_NULL)
            case_fail(c, "MPI_Request_free left request %d", i);
        op_free(&ops[i]);
    }
}

/* Each request started 5 times, new inputs before each start, results
 * checked after each completion (waited in reverse order). */
static void case_persistent_restart(void)
{
    struct nbc_case c;
    struct op ops[MAX_OPS];
    char rules[2048], when[64];
    rules_text(rules_d, rules, sizeof rules);
    case_begin(&c, rules, "(d) 12 persistent collectives, each started 5 times with new data");
    int n = setup_persistent(&c, ops, MPI_COMM_WORLD);
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < n; i++) {
            op_fill(&ops[i], 220 + 12 * round + i);
            op_start(&c, &ops[i]);
        }
        for (int i = n - 1; i >= 0; i--) {
            mpi_ok(&c, MPI_Wait(&ops[i].req, MPI_STATUS_IGNORE), "MPI_Wait");
            if (ops[i].req == MPI_REQUEST_NULL)
                case_fail(&c, "MPI_Wait freed persistent request %d", i);
        }
        snprintf(when, sizeof when, "start %d: ", round + 1);
        ops_check(&c, ops, n, when);
    }
    free_requests(&c, ops, n);
    case_end(&c);
}

/* MPI_Startall over all requests, in an order that differs between ranks
 * and rounds, then MPI_Waitall. */
static void case_startall(void)
{
    struct nbc_case c;
    struct op ops[MAX_OPS];
    MPI_Request reqs[MAX_OPS];
    int perm[MAX_OPS];
    char rules[2048], when[64];
    rules_text(rules_d, rules, sizeof rules);
    case_begin(&c, rules, "(d) MPI_Startall over 12 persistent collectives, in a different "
               "order on each rank, 3 rounds");
    int n = setup_persistent(&c, ops, MPI_COMM_WORLD);
    for (int round = 0; round < 3; round++) {
        shuffle(perm, n, (unsigned)(world_rank * 31 + round));
        for (int i = 0; i < n; i++) {
            op_fill(&ops[perm[i]], 300 + 12 * round + perm[i]);
            tally_add(&c, coll_names[ops[perm[i]].kind], ops[perm[i]].alg, 1);
            reqs[i] = ops[perm[i]].req;
        }
        mpi_ok(&c, MPI_Startall(n, reqs), "MPI_Startall");
        wait_all(&c, n, reqs);
        for (int i = 0; i < n; i++)
            if (reqs[i] != ops[perm[i]].req)
                case_fail(&c, "MPI_Waitall changed persistent request %d", perm[i]);
        snprintf(when, sizeof when, "round %d: ", round + 1);
        ops_check(&c, ops, n, when);
    }
    free_requests(&c, ops, n);
    case_end(&c);
}

/* Poll until o's request completes; then its result must be there. */
static void poll_status(struct nbc_case *c, struct op *o)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    for (int ok = 1; !flag && ok;) {
        ok = mpi_ok(c, MPI_Request_get_status(o->req, &flag, MPI_STATUS_IGNORE),
                    "MPI_Request_get_status");
        if (ok && !flag && MPI_Wtime() - t0 > TIME_LIMIT) {
            case_fail(c, "MPI_Request_get_status still false after %.0f s", TIME_LIMIT);
            ok = 0;
        }
    }
    if (o->req == MPI_REQUEST_NULL)
        case_fail(c, "MPI_Request_get_status freed the request");
    op_check(c, o, "after MPI_Request_get_status said complete: ");
}

/* A persistent and two nonblocking requests polled with
 * MPI_Request_get_status, then waited; the inactive persistent request
 * answers get_status and MPI_Test with flag = 1 and starts again. */
static void case_get_status(void)
{
    struct nbc_case c;
    struct op ops[3];
    char rules[2048];
    rules_text(rules_d, rules, sizeof rules);
    case_begin(&c, rules, "(d) MPI_Request_get_status polling of persistent and nonblocking "
               "requests");
    op_setup(&ops[0], rules_d, K_ALLREDUCE, 640, 0, MPI_COMM_WORLD, 330);
    op_setup(&ops[1], rules_d, K_BCAST, 300, world_size / 2, MPI_COMM_WORLD, 331);
    op_setup(&ops[2], rules_d, K_ALLGATHER, 7, 0, MPI_COMM_WORLD, 332);
    op_init(&c, &ops[0]);
    op_start(&c, &ops[0]);
    op_issue(&c, &ops[1], NONBLOCKING);
    op_issue(&c, &ops[2], NONBLOCKING);
    for (int i = 2; i >= 0; i--)
        poll_status(&c, &ops[i]);
    for (int i = 0; i < 3; i++)
        mpi_ok(&c, MPI_Wait(&ops[i].req, MPI_STATUS_IGNORE), "MPI_Wait");
    if (ops[0].req == MPI_REQUEST_NULL || ops[1].req != MPI_REQUEST_NULL ||
        ops[2].req != MPI_REQUEST_NULL)
        case_fail(&c, "after MPI_Wait: the persistent request must stay, the others be null");
    int flag = 0, tflag = 0;
    mpi_ok(&c, MPI_Request_get_status(ops[0].req, &flag, MPI_STATUS_IGNORE),
           "MPI_Request_get_status (inactive)");
    mpi_ok(&c, MPI_Test(&ops[0].req, &tflag, MPI_STATUS_IGNORE), "MPI_Test (inactive)");
    if (!flag || !tflag || ops[0].req == MPI_REQUEST_NULL)
        case_fail(&c, "inactive persistent request: get_status flag %d, MPI_Test flag %d", flag,
                  tflag);
    op_fill(&ops[0], 333);
    op_start(&c, &ops[0]);
    mpi_ok(&c, MPI_Wait(&ops[0].req, MPI_STATUS_IGNORE), "MPI_Wait");
    op_check(&c, &ops[0], "restarted: ");
    free_requests(&c, ops, 1);
    op_free(&ops[1]);
    op_free(&ops[2]);
    case_end(&c);
}

/* ------------------------------------------------ (e) two communicators */

static const struct rule rules_e[] = {
    {"allreduce", 0, 256, "recursive_doubling", NULL},
    {"allreduce", 256, -1, "ring", "seg=128"},
    {"bcast", 0, 256, "binomial", NULL},
    {"bcast", 256, -1, "scatter_rdb_allgather", NULL},
    {"alltoall", 0, -1, "pairwise", NULL},
    {"barrier", 0, -1, "dissemination", NULL},
    {NULL, 0, 0, NULL, NULL}};

/* A duplicate of MPI_COMM_WORLD and one with the ranks reversed, each with
 * 5 outstanding collectives; the two communicators' calls interleave in a
 * different order on even and odd ranks (the standard orders calls per
 * communicator only). */
static void case_two_comms(void)
{
    static const struct { enum kind k; int n, root; } list[] = {
        {K_ALLREDUCE, 300, 0}, {K_BCAST, 5, -1}, {K_ALLTOALL, 3, 0}, {K_ALLREDUCE, 2, 0},
        {K_BCAST, 100, 1}};
    int per = (int)(sizeof list / sizeof list[0]), perm[2 * MAX_OPS];
    struct nbc_case c;
    struct op ops[2][MAX_OPS];
    MPI_Request reqs[2 * MAX_OPS];
    MPI_Comm comms[2];
    char rules[1024];
    rules_text(rules_e, rules, sizeof rules);
    /* Fresh communicators whose first collectives are nonblocking: they got
     * their contexts when they were made (shim/constructors.c), so the
     * interleaved calls below run natively from the first. */
    int made = MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    int split = MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - 1 - world_rank, &comms[1]);
    case_begin(&c, rules, "(e) outstanding collectives on two communicators (a duplicate and a "
               "reversed split), interleaved differently on even and odd ranks");
    mpi_ok(&c, made, "MPI_Comm_dup");
    mpi_ok(&c, split, "MPI_Comm_split");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < per; i++)
            op_setup(&ops[k][i], rules_e, list[i].k, list[i].n,
                     list[i].root < 0 ? world_size - 1 : list[i].root % world_size, comms[k],
                     340 + 10 * k + i);
    for (int i = 0; i < per; i++)
        for (int j = 0; j < 2; j++) {
            int k = world_rank % 2 ? 1 - j : j;
            op_issue(&c, &ops[k][i], NONBLOCKING);
        }
    shuffle(perm, 2 * per, (unsigned)world_rank + 99u);
    for (int i = 0; i < 2 * per; i++)
        reqs[i] = ops[perm[i] / per][perm[i] % per].req;
    wait_all(&c, 2 * per, reqs);
    for (int k = 0; k < 2; k++) {
        ops_check(&c, ops[k], per, k ? "reversed communicator: " : "duplicate: ");
        for (int i = 0; i < per; i++)
            op_free(&ops[k][i]);
        MPI_Comm_free(&comms[k]);
    }
    case_end(&c);
}

/* ------------------------------------------------ (f) freeing requests */

static const struct rule rules_f[] = {
    {"allreduce", 0, -1, "linear", NULL},
    {"bcast", 0, -1, "binomial", NULL},
    {NULL, 0, 0, NULL, NULL}};

static void expect_freed(struct nbc_case *c, struct op *o, const char *what)
{
    int err = MPI_Request_free(&o->req);
    if (err != MPI_SUCCESS || o->req != MPI_REQUEST_NULL)
        case_fail(c, "MPI_Request_free of %s: error %d, request %s", what, err,
                  o->req == MPI_REQUEST_NULL ? "null" : "left");
}

/* Inactive persistent requests freed: never started; started and waited;
 * started and completed by MPI_Test. Then one whose operation
 * MPI_Request_get_status saw complete but that was never waited: still
 * active by MPI-4 6.13 (only a completion call inactivates it), so freeing
 * it is erroneous there, but Open MPI 4.1.4 and MPICH 4.0.2 both free it
 * with MPI_SUCCESS, and collshim must not do worse than either. Afterwards
 * the communicator still works. */
static void case_request_free(void)
{
    struct nbc_case c;
    struct op ops[5];
    char rules[512];
    int flag = 0;
    rules_text(rules_f, rules, sizeof rules);
    case_begin(&c, rules, "(f) MPI_Request_free of inactive persistent requests (never "
               "started, waited, tested) and of one completed but not waited");
    for (int i = 0; i < 4; i++) {
        op_setup(&ops[i], rules_f, i % 2 ? K_BCAST : K_ALLREDUCE, 20 + i, 0, MPI_COMM_WORLD,
                 360 + i);
        op_init(&c, &ops[i]);
    }
    expect_freed(&c, &ops[0], "a request never started");
    op_start(&c, &ops[1]);
    mpi_ok(&c, MPI_Wait(&ops[1].req, MPI_STATUS_IGNORE), "MPI_Wait");
    expect_freed(&c, &ops[1], "a request started and waited");
    op_start(&c, &ops[2]);
    for (double t0 = MPI_Wtime(); !flag && MPI_Wtime() - t0 < TIME_LIMIT;)
        mpi_ok(&c, MPI_Test(&ops[2].req, &flag, MPI_STATUS_IGNORE), "MPI_Test");
    expect_freed(&c, &ops[2], "a request completed by MPI_Test");
    op_start(&c, &ops[3]);
    poll_status(&c, &ops[3]);
    expect_freed(&c, &ops[3], "a request completed (MPI_Request_get_status) but not waited");
    op_setup(&ops[4], rules_f, K_ALLREDUCE, 30, 0, MPI_COMM_WORLD, 365);
    op_issue(&c, &ops[4], BLOCKING);
    for (int i = 1; i < 5; i++)
        op_check(&c, &ops[i], i == 4 ? "after the frees: " : "");
    for (int i = 0; i < 5; i++)
        op_free(&ops[i]);
    case_end(&c);
}

int main(int argc, char **argv)
{
    const char *v = getenv("NBC_NO_ALG_CHECK");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &agree_comm);
    no_alg_check = v && *v && strcmp(v, "0");
    large_count = argc > 1 && !strcmp(argv[1], "--large-count");
#ifndef HAVE_MPI_ALLREDUCE_C
    if (large_count) {
        if (world_rank == 0)
            printf("nbc: this MPI has no large-count collectives (MPI_Allreduce_c, ...)\n");
        MPI_Finalize();
        return 2;
    }
#endif
    if (no_alg_check && world_rank == 0)
        printf("nbc: NBC_NO_ALG_CHECK is set: which algorithm ran is NOT checked "
               "(development aid)\n");
    for (int how = BY_WAITALL_SHUFFLED; how <= BY_TEST_LOOP; how++)
        case_many_outstanding((enum completion)how);
    for (int how = 0; how < M_COUNT; how++)
        case_mixed_p2p((enum multi)how);
    case_blocking_amid();
    case_persistent_restart();
    case_startall();
    case_get_status();
    case_two_comms();
    case_request_free();
    /* Before MPI_Finalize: once a rank exits with failures, mpirun may
     * kill the others. */
    if (world_rank == 0)
        printf("nbc: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    MPI_Comm_free(&agree_comm);
    MPI_Finalize();
    return failed != 0;
}
