/* badargs.c - bad and borderline arguments, the same program with and
 * without the shim: NULL buffers, uncommitted types, aliased buffers and
 * buffers that are not significant at a rank.
 *
 * Where the vendor survives a case on every rank, the test runs it under
 * the vendor first (collshim_bypass) and asserts the shim gives each rank
 * the same error class, or completes with the same data. Where the vendor
 * crashes (Open MPI dereferences NULL buffers) the shim must return
 * MPI_ERR_BUFFER on every rank, as MPICH does. Only cases in which every
 * rank fails, or none does, are run: a rank that fails alone leaves the
 * others waiting under the vendor too.
 *   badargs          all cases (MPI_ERRORS_RETURN)
 *   badargs nonblocking | persistent   the same through MPI_I<coll> resp.
 *                    <coll>_init + MPI_Start
 *   badargs [mode] large-count   the same through the large-count forms
 *                    (MPI_<Coll>_c, MPI_I<coll>_c, MPI_<Coll>_init_c; an MPI
 *                    with them, HAVE_MPI_ALLREDUCE_C), and negative
 *                    MPI_Counts beyond an int's range where the vendor
 *                    survives them (errors.c has those it does not)
 *   badargs fatal    one NULL-buffer bcast under MPI_ERRORS_ARE_FATAL:
 *                    the abort message must name MPI_Bcast
 *   badargs fatal-large-count   the same with MPI_Bcast_c
 * Ends with "badargs: N passed, N failed". */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collshim.h"
#include "tests/mpi/expect.h"
#include "bench/pcoll.h"
#include "tests/mpi/raised.h"

#define N 4      /* elements per block */
#define MAXP 16

static int rank, size, is_mpich;

static int error_class(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* What a call sees: buffers, types, counts; NULL where a case says so. */
struct call {
    const char *coll;
    void *s, *r;
    MPI_Datatype st, rt;
    MPI_Op op;
    int count, root;
    int counts[MAXP], displs[MAXP], wdispls[MAXP];
    MPI_Datatype sts[MAXP], rts[MAXP];
    long long large;         /* large-count forms: the count where nonzero (beyond an int) */
    long long lcounts[MAXP]; /* ... and counts[i] where nonzero */
};

/* badargs [nonblocking|persistent]: every call below as MPI_I<coll> +
 * MPI_Wait, or <coll>_init + MPI_Start + MPI_Wait + MPI_Request_free. An
 * argument error comes from the call that starts or initialises. */
enum mode { BLOCKING, NONBLOCKING, PERSISTENT };
static enum mode mode;
static int large_count; /* the calls through their large-count (_c) forms */

static int complete(int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS)
        return rc;
    if (mode == PERSISTENT && (rc = MPI_Start(req)) != MPI_SUCCESS)
        return rc;
    rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    if (mode == PERSISTENT)
        MPI_Request_free(req);
    return rc;
}

/* The call in the test's mode: CALL(Bcast, bcast, args without the comm). */
#define CALL(Coll, coll, ...)                                                        \
    (mode == BLOCKING      ? MPI_##Coll(__VA_ARGS__, comm)                            \
     : mode == NONBLOCKING ? complete(MPI_I##coll(__VA_ARGS__, comm, &req), &req)     \
                           : complete(PERSISTENT_INIT(Coll)(__VA_ARGS__, comm, MPI_INFO_NULL, \
                                                            &req), &req))

#ifdef HAVE_MPI_ALLREDUCE_C
/* The same in the large-count forms: counts as MPI_Count (k->large and
 * k->lcounts where set, else the int ones), displacements as MPI_Aint. */
#define CALL_C(Coll, coll, ...)                                                      \
    (mode == BLOCKING      ? MPI_##Coll##_c(__VA_ARGS__, comm)                        \
     : mode == NONBLOCKING ? complete(MPI_I##coll##_c(__VA_ARGS__, comm, &req), &req) \
                           : complete(MPI_##Coll##_init_c(__VA_ARGS__, comm, MPI_INFO_NULL, \
                                                          &req), &req))

static int run_call_large(struct call *k, MPI_Comm comm)
{
    const char *c = k->coll;
    MPI_Count n = k->large ? k->large : k->count, cs[MAXP];
    MPI_Aint ds[MAXP], ws[MAXP];
    MPI_Request req = MPI_REQUEST_NULL;
    for (int i = 0; i < MAXP; i++) {
        cs[i] = k->lcounts[i] ? k->lcounts[i] : k->counts[i];
        ds[i] = k->displs[i], ws[i] = k->wdispls[i];
    }
    if (!strcmp(c, "bcast")) return CALL_C(Bcast, bcast, k->r, n, k->rt, k->root);
    if (!strcmp(c, "gather"))
        return CALL_C(Gather, gather, k->s, n, k->st, k->r, n, k->rt, k->root);
    if (!strcmp(c, "gatherv"))
        return CALL_C(Gatherv, gatherv, k->s, n, k->st, k->r, cs, ds, k->rt, k->root);
    if (!strcmp(c, "scatter"))
        return CALL_C(Scatter, scatter, k->s, n, k->st, k->r, n, k->rt, k->root);
    if (!strcmp(c, "scatterv"))
        return CALL_C(Scatterv, scatterv, k->s, cs, ds, k->st, k->r, n, k->rt, k->root);
    if (!strcmp(c, "allgather"))
        return CALL_C(Allgather, allgather, k->s, n, k->st, k->r, n, k->rt);
    if (!strcmp(c, "allgatherv"))
        return CALL_C(Allgatherv, allgatherv, k->s, n, k->st, k->r, cs, ds, k->rt);
    if (!strcmp(c, "alltoall"))
        return CALL_C(Alltoall, alltoall, k->s, n, k->st, k->r, n, k->rt);
    if (!strcmp(c, "alltoallv"))
        return CALL_C(Alltoallv, alltoallv, k->s, cs, ds, k->st, k->r, cs, ds, k->rt);
    if (!strcmp(c, "alltoallw"))
        return CALL_C(Alltoallw, alltoallw, k->s, cs, ws, k->sts, k->r, cs, ws, k->rts);
    if (!strcmp(c, "reduce"))
        return CALL_C(Reduce, reduce, k->s, k->r, n, k->st, k->op, k->root);
    if (!strcmp(c, "allreduce")) return CALL_C(Allreduce, allreduce, k->s, k->r, n, k->st, k->op);
    if (!strcmp(c, "reduce_scatter"))
        return CALL_C(Reduce_scatter, reduce_scatter, k->s, k->r, cs, k->st, k->op);
    if (!strcmp(c, "reduce_scatter_block"))
        return CALL_C(Reduce_scatter_block, reduce_scatter_block, k->s, k->r, n, k->st, k->op);
    if (!strcmp(c, "scan")) return CALL_C(Scan, scan, k->s, k->r, n, k->st, k->op);
    return CALL_C(Exscan, exscan, k->s, k->r, n, k->st, k->op);
}
#endif

static int run_call(struct call *k, MPI_Comm comm)
{
    const char *c = k->coll;
    int n = k->count;
    MPI_Request req = MPI_REQUEST_NULL;
#ifdef HAVE_MPI_ALLREDUCE_C
    if (large_count)
        return run_call_large(k, comm);
#endif
    if (!strcmp(c, "bcast")) return CALL(Bcast, bcast, k->r, n, k->rt, k->root);
    if (!strcmp(c, "gather")) return CALL(Gather, gather, k->s, n, k->st, k->r, n, k->rt, k->root);
    if (!strcmp(c, "gatherv"))
        return CALL(Gatherv, gatherv, k->s, n, k->st, k->r, k->counts, k->displs, k->rt, k->root);
    if (!strcmp(c, "scatter"))
        return CALL(Scatter, scatter, k->s, n, k->st, k->r, n, k->rt, k->root);
    if (!strcmp(c, "scatterv"))
        return CALL(Scatterv, scatterv, k->s, k->counts, k->displs, k->st, k->r, n, k->rt,
                    k->root);
    if (!strcmp(c, "allgather")) return CALL(Allgather, allgather, k->s, n, k->st, k->r, n, k->rt);
    if (!strcmp(c, "allgatherv"))
        return CALL(Allgatherv, allgatherv, k->s, n, k->st, k->r, k->counts, k->displs, k->rt);
    if (!strcmp(c, "alltoall")) return CALL(Alltoall, alltoall, k->s, n, k->st, k->r, n, k->rt);
    if (!strcmp(c, "alltoallv"))
        return CALL(Alltoallv, alltoallv, k->s, k->counts, k->displs, k->st, k->r, k->counts,
                    k->displs, k->rt);
    if (!strcmp(c, "alltoallw"))
        return CALL(Alltoallw, alltoallw, k->s, k->counts, k->wdispls, k->sts, k->r, k->counts,
                    k->wdispls, k->rts);
    if (!strcmp(c, "reduce")) return CALL(Reduce, reduce, k->s, k->r, n, k->st, k->op, k->root);
    if (!strcmp(c, "allreduce")) return CALL(Allreduce, allreduce, k->s, k->r, n, k->st, k->op);
    if (!strcmp(c, "reduce_scatter"))
        return CALL(Reduce_scatter, reduce_scatter, k->s, k->r, k->counts, k->st, k->op);
    if (!strcmp(c, "reduce_scatter_block"))
        return CALL(Reduce_scatter_block, reduce_scatter_block, k->s, k->r, n, k->st, k->op);
    if (!strcmp(c, "scan")) return CALL(Scan, scan, k->s, k->r, n, k->st, k->op);
    return CALL(Exscan, exscan, k->s, k->r, n, k->st, k->op);
}

/* A dup of MPI_COMM_WORLD returning errors; its first collective is a
 * blocking one, which gives it a context (a nonblocking call on a
 * communicator without one goes to the vendor). */
static MPI_Comm fresh_comm(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Barrier(comm);
    return comm;
}

static const char *colls[] = {"bcast", "gather", "gatherv", "scatter", "scatterv",
                              "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
                              "reduce", "allreduce", "reduce_scatter", "reduce_scatter_block",
                              "scan", "exscan"};
#define NCOLLS (int)(sizeof colls / sizeof colls[0])

static int is_reduction(const char *c)
{
    return strstr(c, "reduce") || strstr(c, "scan");
}

static int sendbuf_unused(const char *c) { return !strcmp(c, "bcast"); }

/* A well-formed call of coll on fresh buffers (send: rank-dependent data). */
static void make_call(struct call *k, const char *coll, int *sbuf, int *rbuf)
{
    memset(k, 0, sizeof *k);
    k->coll = coll;
    k->s = sbuf;
    k->r = rbuf;
    k->st = k->rt = MPI_INT;
    k->op = MPI_SUM;
    k->count = N;
    k->root = size > 1 ? 1 : 0;
    for (int i = 0; i < size; i++) {
        k->counts[i] = N;
        k->displs[i] = i * N;
        k->wdispls[i] = i * N * (int)sizeof(int);
        k->sts[i] = k->rts[i] = MPI_INT;
    }
    for (int i = 0; i < N * MAXP; i++) {
        sbuf[i] = rank * 100 + i;
        rbuf[i] = -7;
    }
}

/* Inputs afresh: sendbuf holds rank-dependent data; recvbuf holds the
 * input too where the root reduces in place, else a -7 guard. */
static void refill(const struct call *k, int *sbuf, int *rbuf)
{
    for (int i = 0; i < N * MAXP; i++) {
        sbuf[i] = rank * 100 + i;
        rbuf[i] = k->s == MPI_IN_PLACE ? sbuf[i] : -7;
    }
}

/* Run k under the vendor and under the shim, each on a fresh dup of
 * MPI_COMM_WORLD; both classes and receive buffers (if both completed). */
static void vendor_and_shim(struct call *k, int *sbuf, int *rbuf, int *vclass, int *sclass,
                            int *same_data)
{
    int saved[N * MAXP];
    MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
    refill(k, sbuf, rbuf);
    collshim_bypass(1);
    *vclass = error_class(run_call(k, c1));
    collshim_bypass(0);
    memcpy(saved, k->r == (void *)sbuf ? sbuf : rbuf, sizeof saved);
    refill(k, sbuf, rbuf);
    *sclass = error_class(run_call(k, c2));
    /* a reduction's result is its first N elements; in place, the rest of
     * the buffer may serve the algorithm as scratch */
    size_t len = is_reduction(k->coll) ? N * sizeof(int) : sizeof saved;
    *same_data = !memcmp(saved, k->r == (void *)sbuf ? sbuf : rbuf, len);
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
}

/* ---- NULL buffers that hold data, on every rank ---- */

static void null_buffers(void)
{
    int sbuf[N * MAXP], rbuf[N * MAXP];
    char what[160];
    for (int i = 0; i < NCOLLS; i++) {
        for (int side = 0; side < 2; side++) {
            struct call k;
            const char *c = colls[i];
            if (side == 0 && sendbuf_unused(c))
                continue;
            if (side == 1 && (!strcmp(c, "gather") || !strcmp(c, "gatherv") ||
                              !strcmp(c, "reduce") || !strcmp(c, "exscan")))
                continue; /* significant at the root (rank 0 for exscan) only */
            if (side == 0 && (!strcmp(c, "scatter") || !strcmp(c, "scatterv")))
                continue; /* significant at the root only */
            make_call(&k, c, sbuf, rbuf);
            *(side ? &k.r : &k.s) = NULL;
            MPI_Comm comm = fresh_comm();
            int got = error_class(run_call(&k, comm));
            MPI_Comm_free(&comm);
            snprintf(what, sizeof what, "%s with a NULL %s buffer on every rank: MPI_ERR_BUFFER",
                     c, side ? "receive" : "send");
            expect(rank, got == MPI_ERR_BUFFER, what);
        }
    }
}

/* ---- buffers that are not significant: NULL or aliased, must complete ---- */

/* After a run: the receive buffer holds what the vendor's left there
 * (want), so a non-root's buffer that is not significant stays as it was;
 * aliased to sendbuf at a non-root, the input stays. */
static int outcome_ok(const struct call *k, const int *sbuf, const int *rbuf, const int *want)
{
    if (memcmp(rbuf, want, N * MAXP * sizeof(int)))
        return 0;
    for (int i = 0; rank != k->root && k->r == (void *)sbuf && i < N * MAXP; i++)
        if (sbuf[i] != rank * 100 + i)
            return 0;
    return 1;
}

/* Every algorithm of k->coll forced in turn: k completes with the vendor's
 * result and writes nothing that is not significant; each algorithm runs,
 * or the vendor where its restrictions forbid the call (node-aware ones on
 * a layout of one node: badargs.sh runs np=3 as 2 nodes too). */
static void every_algorithm(struct call *k, int *sbuf, int *rbuf, const char *what)
{
    char rules[160], line[240];
    int nalg = collshim_algorithm_count(k->coll), bad = 0, ran = 0, want[N * MAXP];
    int nintra = nalg, raised_before = raised_count();
    MPI_Comm comm = fresh_comm();
    refill(k, sbuf, rbuf);
    collshim_bypass(1);
    bad |= run_call(k, comm) != MPI_SUCCESS;
    collshim_bypass(0);
    memcpy(want, rbuf, sizeof want);
    for (int a = 0; a < nalg; a++) {
        const char *alg = collshim_algorithm_name(k->coll, a);
        if (!strncmp(alg, "inter_", 6)) { /* intercommunicators only: intercheck.c */
            nintra--;
            continue;
        }
        int can = collshim_algorithm_can_run(k->coll, alg, size, k->count, 1, 1, 0) == 1;
        const char *expected = can ? alg : "vendor";
        snprintf(rules, sizeof rules, "%s @%s; %s @vendor", k->coll, alg, k->coll);
        collshim_tune(rules, NULL, 0);
        long long before = collshim_algorithm_calls(k->coll, expected);
        refill(k, sbuf, rbuf);
        bad |= run_call(k, comm) != MPI_SUCCESS;
        bad |= !outcome_ok(k, sbuf, rbuf, want);
        ran += collshim_algorithm_calls(k->coll, expected) > before;
    }
    collshim_tune(NULL, NULL, 0);
    MPI_Comm_free(&comm);
    snprintf(line, sizeof line, "%s: right under each of the %d algorithms, every one ran "
             "(the vendor where restricted), no error raised", what, nintra);
    expect(rank, !bad && ran == nintra && raised_count() == raised_before, line);
}

/* The non-roots' receive side of gather(v) and send side of scatter(v)
 * as MPI_DATATYPE_NULL with NULL buffers: neither vendor looks at them. */
static void not_significant_types(void)
{
    int sbuf[N * MAXP], rbuf[N * MAXP];
    const char *rooted[] = {"gather", "gatherv", "scatter", "scatterv"};
    struct call k;
    for (int i = 0; i < 4; i++) {
        char what[120];
        int gathers = rooted[i][0] == 'g';
        make_call(&k, rooted[i], sbuf, rbuf);
        if (rank != k.root && gathers)
            k.r = NULL, k.rt = MPI_DATATYPE_NULL;
        else if (rank != k.root)
            k.s = NULL, k.st = MPI_DATATYPE_NULL;
        snprintf(what, sizeof what, "%s with the non-roots' %s type MPI_DATATYPE_NULL",
                 rooted[i], gathers ? "receive" : "send");
        every_algorithm(&k, sbuf, rbuf, what);
    }
}

static void not_significant(void)
{
    int sbuf[N * MAXP], rbuf[N * MAXP];
    struct call k;
    /* OSU's osu_reduce: in place at the root, the same buffer at the others */
    make_call(&k, "reduce", sbuf, rbuf);
    if (rank == k.root) {
        memcpy(rbuf, sbuf, sizeof rbuf);
        k.s = MPI_IN_PLACE;
    } else {
        k.r = sbuf;
    }
    every_algorithm(&k, sbuf, rbuf, "reduce, sendbuf == recvbuf at the non-roots (osu_reduce)");
    const char *rooted[] = {"reduce", "gather", "gatherv"};
    for (int i = 0; i < 3; i++) {
        char what[120];
        make_call(&k, rooted[i], sbuf, rbuf);
        snprintf(what, sizeof what, "%s never writes the non-roots' recvbuf", rooted[i]);
        every_algorithm(&k, sbuf, rbuf, what);
        make_call(&k, rooted[i], sbuf, rbuf);
        if (rank != k.root)
            k.r = NULL;
        snprintf(what, sizeof what, "%s with recvbuf NULL at the non-roots", rooted[i]);
        every_algorithm(&k, sbuf, rbuf, what);
    }
    const char *scatters[] = {"scatter", "scatterv"};
    for (int i = 0; i < 2; i++) {
        char what[120];
        make_call(&k, scatters[i], sbuf, rbuf);
        if (rank != k.root)
            k.s = NULL;
        snprintf(what, sizeof what, "%s with sendbuf NULL at the non-roots", scatters[i]);
        every_algorithm(&k, sbuf, rbuf, what);
    }
    not_significant_types();
}

/* ---- aliased buffers and uncommitted types: as the vendor ---- */

/* The vendor's error class on every rank; where it completes, its data
 * too, unless the result is undefined (aliased data movement). */
static void as_vendor(struct call *k, int *sbuf, int *rbuf, const char *what)
{
    char line[200];
    int v, s, same, defined = !(k->r == k->s && !is_reduction(k->coll));
    vendor_and_shim(k, sbuf, rbuf, &v, &s, &same);
    snprintf(line, sizeof line, "%s: the vendor's outcome on every rank (vendor class %d%s)",
             what, v, v || !defined ? "" : ", same data");
    if (v != s || (v == MPI_SUCCESS && defined && !same))
        printf("  rank %d: vendor class %d, collshim class %d, same data %d\n", rank, v, s, same);
    expect(rank, v == s && (v != MPI_SUCCESS || same || !defined), line);
}

static void aliased(void)
{
    int sbuf[N * MAXP], rbuf[N * MAXP];
    char what[160];
    for (int i = 0; i < NCOLLS; i++) {
        struct call k;
        const char *c = colls[i];
        if (sendbuf_unused(c) || !strcmp(c, "reduce") || !strcmp(c, "gather") ||
            !strcmp(c, "gatherv") || !strcmp(c, "scatter") || !strcmp(c, "scatterv") ||
            (!is_mpich && !strcmp(c, "allreduce")) || (is_mpich && !is_reduction(c) &&
                                                       strcmp(c, "alltoall") && strcmp(c, "alltoallv")))
            continue; /* cases where one rank fails alone under the vendor */
        make_call(&k, c, sbuf, rbuf);
        k.r = k.s;
        snprintf(what, sizeof what, "%s with sendbuf == recvbuf on every rank", c);
        as_vendor(&k, sbuf, rbuf, what);
    }
    struct call k;
    make_call(&k, "allreduce", sbuf, rbuf);
    k.r = k.s;
    k.count = 2;
    as_vendor(&k, sbuf, rbuf, "allreduce of 2 elements with sendbuf == recvbuf");
}

static void pair_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < 2 * *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void uncommitted(void)
{
    int sbuf[N * MAXP], rbuf[N * MAXP];
    MPI_Datatype u, v;
    MPI_Op sum;
    char what[160];
    MPI_Type_contiguous(1, MPI_INT, &u); /* never committed */
    const char *send_side[] = {"bcast", "gather", "gatherv", "allgather", "allgatherv",
                               "alltoall", "alltoallv", "alltoallw"};
    for (size_t i = 0; i < sizeof send_side / sizeof *send_side; i++) {
        struct call k;
        make_call(&k, send_side[i], sbuf, rbuf);
        k.st = k.sts[0] = u;
        if (!strcmp(send_side[i], "bcast"))
            k.rt = u;
        snprintf(what, sizeof what, "%s with an uncommitted %s type on every rank", send_side[i],
                 strcmp(send_side[i], "bcast") ? "send" : "buffer");
        as_vendor(&k, sbuf, rbuf, what);
    }
    /* Open MPI lets these through and completes: so must the shim */
    const char *recv_side[] = {"gather", "allgather", "scatter"};
    for (size_t i = 0; !is_mpich && i < sizeof recv_side / sizeof *recv_side; i++) {
        struct call k;
        make_call(&k, recv_side[i], sbuf, rbuf);
        k.rt = u;
        snprintf(what, sizeof what, "%s with an uncommitted receive type on every rank",
                 recv_side[i]);
        as_vendor(&k, sbuf, rbuf, what);
    }
    /* a user op on an uncommitted type */
    MPI_Type_contiguous(2, MPI_INT, &v);
    MPI_Op_create(pair_sum, 1, &sum);
    const char *reductions[] = {"allreduce", "scan", "reduce_scatter_block"};
    for (int i = 0; i < 3; i++) {
        struct call k;
        make_call(&k, reductions[i], sbuf, rbuf);
        k.st = v;
        k.op = sum;
        k.count = 1;
        snprintf(what, sizeof what, "%s, user op on an uncommitted type on every rank",
                 reductions[i]);
        as_vendor(&k, sbuf, rbuf, what);
    }
    MPI_Op_free(&sum);
    MPI_Type_free(&u);
    MPI_Type_free(&v);
}

/* ---- the large-count forms: negative counts beyond an int's range ---- */

/* On every rank, a count of -2^40 (of the collective, or the last rank's
 * entry of its count arrays), which an int could not even hold: the
 * vendor's class (MPICH 4.0.2: MPI_ERR_COUNT) on every rank. Only the
 * collectives whose vendor survives it; errors.c has the others. */
static void negative_large_counts(void)
{
    static const char *const scalar[] = {"bcast", "gather", "scatter", "allgather", "alltoall"};
    static const char *const arrays[] = {"allgatherv", "alltoallv", "alltoallw",
                                         "reduce_scatter"};
    const long long beyond = -(1LL << 40);
    int sbuf[N * MAXP], rbuf[N * MAXP];
    char what[160];
    struct call k;
    for (size_t i = 0; i < sizeof scalar / sizeof *scalar; i++) {
        make_call(&k, scalar[i], sbuf, rbuf);
        k.large = beyond;
        snprintf(what, sizeof what, "%s_c with a count of -2^40 on every rank", scalar[i]);
        as_vendor(&k, sbuf, rbuf, what);
    }
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
        make_call(&k, arrays[i], sbuf, rbuf);
        k.lcounts[size - 1] = beyond;
        snprintf(what, sizeof what, "%s_c with the last count -2^40 on every rank", arrays[i]);
        as_vendor(&k, sbuf, rbuf, what);
    }
}

/* MPI_ERRORS_ARE_FATAL, the default: a NULL-buffer bcast stops the job. */
static int fatal(int large)
{
#ifdef HAVE_MPI_ALLREDUCE_C
    if (large)
        MPI_Bcast_c(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD);
#endif
    if (!large)
        MPI_Bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    is_mpich = !strcmp(collshim_flavour(), "mpich");
    if (argc > 1 && !strncmp(argv[1], "fatal", 5))
        return fatal(!strcmp(argv[1], "fatal-large-count"));
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "nonblocking"))
            mode = NONBLOCKING;
        else if (!strcmp(argv[i], "persistent"))
            mode = PERSISTENT;
        else if (!strcmp(argv[i], "large-count"))
            large_count = 1;
    }
#ifndef HAVE_MPI_ALLREDUCE_C
    if (large_count) {
        if (rank == 0)
            printf("badargs: this MPI has no large-count collectives (MPI_Allreduce_c, ...)\n");
        MPI_Finalize();
        return 2;
    }
#endif
    raised_count_start(); /* none may come from a call that completes */
    null_buffers();
    not_significant();
    aliased();
    uncommitted();
    if (large_count)
        negative_large_counts();
    MPI_Finalize();
    return expect_finish(rank, "badargs");
}
