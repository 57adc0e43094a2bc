/* intercheck.c - the intercommunicator collectives, natively.
 *
 * Intercommunicators from MPI_Intercomm_create over MPI_COMM_WORLD split
 * in two: the first a ranks against the rest for every a (so group sizes
 * (1,n-1) ... (n-1,1), the halves among them) and the even ranks against
 * the odd ones. On each, every intercommunicator algorithm of every
 * collective is forced with collshim_tune() ("<coll> inter @<alg>") and
 * run blocking, nonblocking and persistent (started twice), with zero and
 * non-zero counts, counts that differ between the groups, roots at either
 * end of either group, a derived datatype with gaps for the data
 * movements, MPI_SUM and a user-defined non-commutative op (composition of
 * affine maps) for the reductions. Every result is compared with values
 * computed from the inputs and with the vendor's own result for the same
 * call (collshim_bypass), buffers compared whole so that untouched parts
 * must stay untouched, and each case asserts that the forced algorithm
 * ran (collshim_algorithm_calls) on every rank.
 * Ends with "intercheck: N passed, N failed". */
#include "collshim.h"
#include "bench/pcoll.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SENTINEL (-7777777)
#define MAXN 4096 /* ints per buffer */
#define MOD 1009

enum mode { M_BLOCKING, M_NONBLOCKING, M_PERSISTENT };
static const char *mode_names[] = {"blocking", "nonblocking", "persistent"};

static int world_rank, world_size, passed, failed;
static const char *only_coll; /* INTERCHECK_COLL: one collective (debugging aid) */

/* One intercommunicator and this rank's place in it. */
struct ic {
    MPI_Comm comm;
    int g;    /* 0: the group holding world rank 0, 1: the other */
    int r, p; /* local rank and size */
    int q;    /* remote size */
    char name[64];
};

/* One run: the buffers of the shim's call and of the vendor's. */
struct run {
    int send[MAXN], recv[MAXN], vrecv[MAXN], expect[MAXN];
    int counts[64], displs[64], rcounts[64], rdispls[64];
    MPI_Datatype types[64], rtypes[64];
    int ok;
    char why[256];
};
static struct run R;

static MPI_Datatype gap_int; /* one int in 8 bytes: element i at int 2i */
static MPI_Datatype pair;    /* two ints: an affine map x -> a x + b */
static MPI_Op compose;       /* non-commutative: in o inout */

/* ------------------------------------------------------------ values */

static int val(int g, int r, int i) { return (g + 1) * 100000 + r * 1000 + i; }
/* alltoall: element i of the block from (g, r) to remote rank j */
static int val3(int g, int r, int j, int i) { return (g + 1) * 1000000 + r * 10000 + j * 100 + i; }

static void compose_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *x = in, *y = inout;
    (void)type;
    for (int k = 0; k < *len; k++) { /* (a,b) o (c,d) = (ac, ad + b) */
        int a = x[2 * k], b = x[2 * k + 1], c = y[2 * k], d = y[2 * k + 1];
        y[2 * k] = (a * c) % MOD;
        y[2 * k + 1] = (a * d + b) % MOD;
    }
}

static void affine(int g, int r, int i, int out[2])
{
    out[0] = (3 + g * 5 + r * 7 + i) % MOD;
    out[1] = (11 + g * 13 + r * 17 + 2 * i) % MOD;
}

/* ------------------------------------------------------------ calls */

static int wait_nb(int err, MPI_Request *req)
{
    return err ? err : MPI_Wait(req, MPI_STATUS_IGNORE);
}

static int run_persistent(int err, MPI_Request *req)
{
    for (int k = 0; k < 2 && !err; k++)
        if (!(err = MPI_Start(req)))
            err = MPI_Wait(req, MPI_STATUS_IGNORE);
    if (*req != MPI_REQUEST_NULL)
        MPI_Request_free(req);
    return err;
}

/* The call in the mode; the vendor's (bypass) is always blocking. */
#define CALL(mode, Up, low, ...)                                                       \
    ((mode) == M_BLOCKING      ? MPI_##Up(__VA_ARGS__)                                  \
     : (mode) == M_NONBLOCKING ? wait_nb(MPI_I##low(__VA_ARGS__, &req), &req)           \
                               : run_persistent(PERSISTENT_INIT(Up)(__VA_ARGS__, MPI_INFO_NULL, &req), &req))

static void fail(const char *fmt, const char *what, int a, int b, int c)
{
    if (!R.ok)
        return;
    R.ok = 0;
    snprintf(R.why, sizeof R.why, fmt, what, a, b, c);
}

/* recv (n ints) equals expect and the vendor's vrecv. */
static void compare(int n)
{
    for (int i = 0; i < n; i++) {
        if (R.recv[i] != R.expect[i])
            fail("%s: int %d is %d, expected %d", "result", i, R.recv[i], R.expect[i]);
        if (R.recv[i] != R.vrecv[i])
            fail("%s: int %d is %d, the vendor has %d", "vendor", i, R.recv[i], R.vrecv[i]);
    }
}

static void clear(void)
{
    for (int i = 0; i < MAXN; i++)
        R.recv[i] = R.vrecv[i] = R.expect[i] = SENTINEL;
    R.ok = 1;
    R.why[0] = '\0';
}

/* The root argument of a rooted call, root at local rank rr of group rg. */
static int root_arg(const struct ic *c, int rg, int rr)
{
    if (c->g != rg)
        return rr;
    return c->r == rr ? MPI_ROOT : MPI_PROC_NULL;
}

/* ------------------------------------------------------------ cases */

/* Element i of a buffer of stride s ints. */
#define AT(buf, s, i) ((buf)[(size_t)(s) * (size_t)(i)])

static int case_bcast(const struct ic *c, int mode, int n, int s, int rg, int rr)
{
    MPI_Request req;
    MPI_Datatype t = s == 1 ? MPI_INT : gap_int;
    int root = root_arg(c, rg, rr), err;
    int *buf[2] = {R.recv, R.vrecv};
    for (int v = 0; v < 2; v++)
        for (int i = 0; root == MPI_ROOT && i < n; i++)
            AT(buf[v], s, i) = val(rg, rr, i);
    for (int i = 0; root != MPI_PROC_NULL && i < n; i++)
        AT(R.expect, s, i) = val(rg, rr, i);
    err = CALL(mode, Bcast, bcast, R.recv, n, t, root, c->comm);
    collshim_bypass(1);
    err |= MPI_Bcast(R.vrecv, n, t, root, c->comm);
    collshim_bypass(0);
    compare(s * n + 2);
    return err;
}

/* The root's blocks of gather(v) / scatter(v): counts and displacements
 * (v: counts differ by rank, blocks in reverse rank order one element
 * apart) and block j filled with val(g, j, i) in buf. */
static void root_blocks(const struct ic *c, int n, int s, int v, int *buf, int g)
{
    int total = 0;
    for (int j = c->q - 1; j >= 0; j--) {
        R.counts[j] = v ? (j + n) % 3 : n;
        R.displs[j] = total;
        total += R.counts[j] + v;
    }
    for (int j = 0; j < c->q; j++)
        for (int i = 0; i < R.counts[j]; i++)
            AT(buf, s, (v ? R.displs[j] : j * n) + i) = val(g, j, i);
}

static int case_gather(const struct ic *c, int mode, int n, int s, int rg, int rr, int v)
{
    MPI_Request req;
    MPI_Datatype t = s == 1 ? MPI_INT : gap_int;
    int root = root_arg(c, rg, rr), err;
    int mine = v ? (c->r + n) % 3 : n; /* gatherv: counts differ by rank */
    for (int i = 0; i < mine; i++)
        AT(R.send, s, i) = val(c->g, c->r, i);
    if (root == MPI_ROOT)
        root_blocks(c, n, s, v, R.expect, 1 - c->g);
    if (v)
        err = CALL(mode, Gatherv, gatherv, R.send, mine, t, R.recv, R.counts, R.displs, t, root,
                   c->comm);
    else
        err = CALL(mode, Gather, gather, R.send, n, t, R.recv, n, t, root, c->comm);
    collshim_bypass(1);
    if (v)
        err |= MPI_Gatherv(R.send, mine, t, R.vrecv, R.counts, R.displs, t, root, c->comm);
    else
        err |= MPI_Gather(R.send, n, t, R.vrecv, n, t, root, c->comm);
    collshim_bypass(0);
    compare(s * (c->q * (n + 3)) + 2);
    return err;
}

static int case_scatter(const struct ic *c, int mode, int n, int s, int rg, int rr, int v)
{
    MPI_Request req;
    MPI_Datatype t = s == 1 ? MPI_INT : gap_int;
    int root = root_arg(c, rg, rr), err;
    int mine = v ? (c->r + n) % 3 : n;
    if (root == MPI_ROOT)
        root_blocks(c, n, s, v, R.send, c->g);
    for (int i = 0; root >= 0 && i < mine; i++)
        AT(R.expect, s, i) = val(rg, c->r, i);
    if (v)
        err = CALL(mode, Scatterv, scatterv, R.send, R.counts, R.displs, t, R.recv, mine, t,
                   root, c->comm);
    else
        err = CALL(mode, Scatter, scatter, R.send, n, t, R.recv, n, t, root, c->comm);
    collshim_bypass(1);
    if (v)
        err |= MPI_Scatterv(R.send, R.counts, R.displs, t, R.vrecv, mine, t, root, c->comm);
    else
        err |= MPI_Scatter(R.send, n, t, R.vrecv, n, t, root, c->comm);
    collshim_bypass(0);
    compare(s * (n + 3) + 2);
    return err;
}

/* allgather(v): the groups send different counts (n + g). */
static int case_allgather(const struct ic *c, int mode, int n, int s, int v)
{
    MPI_Request req;
    MPI_Datatype t = s == 1 ? MPI_INT : gap_int;
    int err, o = 1 - c->g, total = 0;
    int mine = v ? (c->r + n + c->g) % 3 : n + c->g, theirs = n + o;
    for (int i = 0; i < mine; i++)
        AT(R.send, s, i) = val(c->g, c->r, i);
    for (int j = 0; j < c->q; j++) {
        R.counts[j] = v ? (j + n + o) % 3 : theirs;
        R.displs[j] = v ? total : j * theirs;
        total += R.counts[j] + v;
        for (int i = 0; i < R.counts[j]; i++)
            AT(R.expect, s, R.displs[j] + i) = val(o, j, i);
    }
    if (v)
        err = CALL(mode, Allgatherv, allgatherv, R.send, mine, t, R.recv, R.counts, R.displs, t,
                   c->comm);
    else
        err = CALL(mode, Allgather, allgather, R.send, mine, t, R.recv, theirs, t, c->comm);
    collshim_bypass(1);
    if (v)
        err |= MPI_Allgatherv(R.send, mine, t, R.vrecv, R.counts, R.displs, t, c->comm);
    else
        err |= MPI_Allgather(R.send, mine, t, R.vrecv, theirs, t, c->comm);
    collshim_bypass(0);
    compare(s * (c->q * (n + 4)) + 2);
    return err;
}

/* alltoall(v,w): block counts depend on both ranks and the group. */
static int a2a_count(int v, int g, int sender, int receiver, int n)
{
    return v ? (sender + receiver + n + g) % 3 : n + g;
}

static int case_alltoall(const struct ic *c, int mode, int n, int s, int v)
{
    MPI_Request req;
    MPI_Datatype t = s == 1 ? MPI_INT : gap_int;
    int err, o = 1 - c->g, stotal = 0, rtotal = 0, ext = 4 * s;
    for (int j = 0; j < c->q; j++) {
        R.counts[j] = a2a_count(v, c->g, c->r, j, n);
        R.displs[j] = v ? stotal : j * R.counts[j];
        stotal += R.counts[j] + (v != 0);
        for (int i = 0; i < R.counts[j]; i++)
            AT(R.send, s, R.displs[j] + i) = val3(c->g, c->r, j, i);
        R.rcounts[j] = a2a_count(v, o, j, c->r, n);
        R.rdispls[j] = v ? rtotal : j * R.rcounts[j];
        rtotal += R.rcounts[j] + (v != 0);
        for (int i = 0; i < R.rcounts[j]; i++)
            AT(R.expect, s, R.rdispls[j] + i) = val3(o, j, c->r, i);
    }
    if (v == 2) { /* alltoallw: displacements in bytes, a type per block */
        for (int j = 0; j < c->q; j++) {
            R.types[j] = R.rtypes[j] = t;
            R.displs[j] *= ext;
            R.rdispls[j] *= ext;
        }
        err = CALL(mode, Alltoallw, alltoallw, R.send, R.counts, R.displs, R.types, R.recv,
                   R.rcounts, R.rdispls, R.rtypes, c->comm);
        collshim_bypass(1);
        err |= MPI_Alltoallw(R.send, R.counts, R.displs, R.types, R.vrecv, R.rcounts, R.rdispls,
                             R.rtypes, c->comm);
    } else if (v) {
        err = CALL(mode, Alltoallv, alltoallv, R.send, R.counts, R.displs, t, R.recv, R.rcounts,
                   R.rdispls, t, c->comm);
        collshim_bypass(1);
        err |= MPI_Alltoallv(R.send, R.counts, R.displs, t, R.vrecv, R.rcounts, R.rdispls, t,
                             c->comm);
    } else {
        err = CALL(mode, Alltoall, alltoall, R.send, n + c->g, t, R.recv, n + o, t, c->comm);
        collshim_bypass(1);
        err |= MPI_Alltoall(R.send, n + c->g, t, R.vrecv, n + o, t, c->comm);
    }
    collshim_bypass(0);
    compare(s * (c->q * (n + 4)) + 2);
    return err;
}

/* The reduction over the q ranks of group g of element i, into out. */
static void reduced(int g, int q, int i, int noncomm, int *out)
{
    if (!noncomm) {
        out[0] = 0;
        for (int j = 0; j < q; j++)
            out[0] += val(g, j, i);
        return;
    }
    int acc[2], x[2], k = 1;
    affine(g, q - 1, i, acc);
    for (int j = q - 2; j >= 0; j--) { /* v_j o (v_j+1 o ...) */
        affine(g, j, i, x);
        compose_fn(x, acc, &k, NULL);
    }
    out[0] = acc[0];
    out[1] = acc[1];
}

static void fill_reduction(const struct ic *c, int n, int noncomm)
{
    for (int i = 0; i < n; i++) {
        if (noncomm)
            affine(c->g, c->r, i, &R.send[2 * i]);
        else
            R.send[i] = val(c->g, c->r, i);
    }
}

/* reduce (rooted) and allreduce. */
static int case_reduce(const struct ic *c, int mode, int n, int noncomm, int rooted, int rg,
                       int rr)
{
    MPI_Request req;
    MPI_Datatype t = noncomm ? pair : MPI_INT;
    MPI_Op op = noncomm ? compose : MPI_SUM;
    int w = noncomm ? 2 : 1, err, root = rooted ? root_arg(c, rg, rr) : 0;
    fill_reduction(c, n, noncomm);
    for (int i = 0; (!rooted || root == MPI_ROOT) && i < n; i++)
        reduced(1 - c->g, c->q, i, noncomm, &R.expect[w * i]);
    if (rooted)
        err = CALL(mode, Reduce, reduce, R.send, R.recv, n, t, op, root, c->comm);
    else
        err = CALL(mode, Allreduce, allreduce, R.send, R.recv, n, t, op, c->comm);
    collshim_bypass(1);
    if (rooted)
        err |= MPI_Reduce(R.send, R.vrecv, n, t, op, root, c->comm);
    else
        err |= MPI_Allreduce(R.send, R.vrecv, n, t, op, c->comm);
    collshim_bypass(0);
    compare(w * n + 2);
    return err;
}

/* reduce_scatter(_block): the other group's reduction, scattered here. */
static int case_reduce_scatter(const struct ic *c, int mode, int n, int noncomm, int block)
{
    MPI_Request req;
    MPI_Datatype t = noncomm ? pair : MPI_INT;
    MPI_Op op = noncomm ? compose : MPI_SUM;
    int w = noncomm ? 2 : 1, err, total, off = 0;
    /* both groups reduce vectors of the same length: n * p * q elements */
    total = n * c->p * c->q;
    for (int r = 0; r < c->p; r++) {
        R.counts[r] = block ? n * c->q : total / c->p + (r < total % c->p);
        if (!block && r % 2) /* uneven blocks: move one element along */
            R.counts[r] += R.counts[r - 1] > 0, R.counts[r - 1] -= R.counts[r - 1] > 0;
    }
    for (int r = 0; r < c->r; r++)
        off += R.counts[r];
    fill_reduction(c, total, noncomm);
    for (int i = 0; i < R.counts[c->r]; i++)
        reduced(1 - c->g, c->q, off + i, noncomm, &R.expect[w * i]);
    if (block)
        err = CALL(mode, Reduce_scatter_block, reduce_scatter_block, R.send, R.recv, n * c->q, t,
                   op, c->comm);
    else
        err = CALL(mode, Reduce_scatter, reduce_scatter, R.send, R.recv, R.counts, t, op,
                   c->comm);
    collshim_bypass(1);
    if (block)
        err |= MPI_Reduce_scatter_block(R.send, R.vrecv, n * c->q, t, op, c->comm);
    else
        err |= MPI_Reduce_scatter(R.send, R.vrecv, R.counts, t, op, c->comm);
    collshim_bypass(0);
    compare(w * R.counts[c->r] + 2);
    return err;
}

/* The last rank of group 1 enters 100 ms after the others: no rank of
 * group 0 may leave before it entered. Both instants are read from
 * CLOCK_MONOTONIC, one clock for every process of the machine the test
 * runs on, so the check holds however the scheduler staggers the ranks. */
static double monotonic_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int case_barrier(const struct ic *c, int mode)
{
    MPI_Request req;
    int late = c->g == 1 && c->r == c->p - 1;
    double entered = 0, last_entry = 0;
    collshim_bypass(1);
    MPI_Barrier(MPI_COMM_WORLD);
    collshim_bypass(0);
    if (late) {
        usleep(100000);
        entered = monotonic_now();
    }
    int err = CALL(mode, Barrier, barrier, c->comm);
    double left = monotonic_now();
    collshim_bypass(1);
    MPI_Allreduce(&entered, &last_entry, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    err |= MPI_Barrier(c->comm);
    collshim_bypass(0);
    if (c->g == 0 && left < last_entry)
        fail("%s: left %.1f ms before the other group's last rank entered (%d, %d)", "barrier",
             (last_entry - left) * 1e3, 0, 0);
    return err;
}

/* ------------------------------------------------------------ driver */

/* Every rank's verdict agreed through the vendor; rank 0 prints. */
static void verdict(const struct ic *c, const char *coll, const char *alg, int mode,
                    const char *params, long long ran)
{
    int ok = R.ok && ran > 0, all;
    if (ran <= 0 && R.ok)
        snprintf(R.why, sizeof R.why, "@%s did not run (%lld calls)", alg, ran);
    if (!ok)
        fprintf(stderr, "world rank %d: %s %s @%s %s %s: %s\n", world_rank, c->name, coll, alg,
                mode_names[mode], params, R.why);
    collshim_bypass(1);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    collshim_bypass(0);
    if (all)
        passed++;
    else
        failed++;
    if (world_rank == 0 && !all)
        printf("FAIL %s %s @%s %s %s\n", c->name, coll, alg, mode_names[mode], params);
}

static const int counts_to_try[] = {0, 1, 5, 37};

/* Run one collective's cases with alg forced. */
static void run_cases(const struct ic *c, const char *coll, const char *alg, int mode)
{
    char params[96];
    int ncounts = (int)(sizeof counts_to_try / sizeof counts_to_try[0]);
    for (int k = 0; k < ncounts; k++)
        for (int x = 0; x < 4; x++) { /* x: stride/op and root position */
            int n = counts_to_try[k], s = 1 + (x & 1), rg = (x >> 1) & 1;
            int rr = (x & 1) ? 0 : (rg == c->g ? c->p : c->q) - 1; /* first or last */
            long long before = collshim_algorithm_calls(coll, alg);
            int err = 0;
            clear();
            snprintf(params, sizeof params, "n=%d stride/noncomm=%d root=%d:%d", n, s, rg, rr);
            if (!strcmp(coll, "barrier")) {
                if (k || x)
                    continue;
                err = case_barrier(c, mode);
            } else if (!strcmp(coll, "bcast"))
                err = case_bcast(c, mode, n, s, rg, rr);
            else if (!strcmp(coll, "gather") || !strcmp(coll, "gatherv"))
                err = case_gather(c, mode, n, s, rg, rr, coll[6] == 'v');
            else if (!strcmp(coll, "scatter") || !strcmp(coll, "scatterv"))
                err = case_scatter(c, mode, n, s, rg, rr, coll[7] == 'v');
            else if (!strcmp(coll, "allgather") || !strcmp(coll, "allgatherv")) {
                if (x >= 2)
                    continue;
                err = case_allgather(c, mode, n, s, coll[9] == 'v');
            } else if (!strncmp(coll, "alltoall", 8)) {
                if (x >= 2)
                    continue;
                err = case_alltoall(c, mode, n, s, coll[8] == 'v' ? 1 : coll[8] == 'w' ? 2 : 0);
            } else if (!strcmp(coll, "reduce"))
                err = case_reduce(c, mode, n, s - 1, 1, rg, rr);
            else if (!strcmp(coll, "allreduce")) {
                if (x >= 2)
                    continue;
                err = case_reduce(c, mode, n, s - 1, 0, 0, 0);
            } else {
                if (x >= 2 || n > 5)
                    continue;
                err = case_reduce_scatter(c, mode, n, s - 1, !strcmp(coll, "reduce_scatter_block"));
            }
            if (err && R.ok) {
                R.ok = 0;
                snprintf(R.why, sizeof R.why, "MPI error %d", err);
            }
            verdict(c, coll, alg, mode, params, collshim_algorithm_calls(coll, alg) - before);
        }
}

static const char *colls[] = {"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv",
                              "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
                              "reduce", "allreduce", "reduce_scatter", "reduce_scatter_block"};

static void run_comm(const struct ic *c)
{
    char rules[128], err[256];
    for (size_t k = 0; k < sizeof colls / sizeof colls[0]; k++) {
        if (only_coll && strcmp(only_coll, colls[k]))
            continue;
        for (int i = 0; i < collshim_algorithm_count(colls[k]); i++) {
            const char *alg = collshim_algorithm_name(colls[k], i);
            if (strncmp(alg, "inter_", 6))
                continue;
            /* a window smaller than the groups, so that it bounds something */
            snprintf(rules, sizeof rules, "%s inter @%s%s", colls[k], alg,
                     strstr(alg, "throttled") ? " outstanding=2" : "");
            if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS) {
                fprintf(stderr, "collshim_tune(%s): %s\n", rules, err);
                failed++;
                continue;
            }
            for (int mode = 0; mode < 3; mode++)
                run_cases(c, colls[k], alg, mode);
        }
    }
    collshim_tune(NULL, NULL, 0);
}

/* World split: group 0 holds world rank 0; in_first(rank) says which. */
static void make_ic(struct ic *c, int first, int interleaved)
{
    MPI_Comm half;
    int g = interleaved ? world_rank % 2 : world_rank >= first;
    int other_leader = interleaved ? 1 - g : (g ? 0 : first);
    MPI_Comm_split(MPI_COMM_WORLD, g, world_rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, other_leader, 99, &c->comm);
    MPI_Comm_free(&half);
    c->g = g;
    MPI_Comm_rank(c->comm, &c->r);
    MPI_Comm_size(c->comm, &c->p);
    MPI_Comm_remote_size(c->comm, &c->q);
    snprintf(c->name, sizeof c->name, "%s(%d,%d)", interleaved ? "even/odd" : "first/rest",
             g ? c->q : c->p, g ? c->p : c->q);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    only_coll = getenv("INTERCHECK_COLL");
    MPI_Type_create_resized(MPI_INT, 0, 8, &gap_int);
    MPI_Type_commit(&gap_int);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(compose_fn, 0, &compose);
    if (world_size < 2) {
        if (world_rank == 0)
            printf("intercheck: needs 2 ranks or more\nintercheck: 0 passed, 0 failed\n");
        MPI_Finalize();
        return 0;
    }
    for (int first = 1; first <= world_size; first++) {
        struct ic c;
        int interleaved = first == world_size; /* the last round: even/odd ranks */
        if (interleaved && world_size < 3)
            continue;
        make_ic(&c, first, interleaved);
        run_comm(&c);
        if (world_rank == 0)
            printf("== %s done (%d cases so far, %d bad)\n", c.name, passed + failed, failed);
        MPI_Comm_free(&c.comm);
    }
    MPI_Op_free(&compose);
    MPI_Type_free(&gap_int);
    MPI_Type_free(&pair);
    if (world_rank == 0)
        printf("intercheck: %d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed != 0;
}
