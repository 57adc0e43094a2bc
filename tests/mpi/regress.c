/* regress.c - the calls of real programs that once gave wrong data, wrote
 * bytes the vendor leaves alone, or hung (issue "Real programs"), each
 * checked against values computed from its inputs, with guard elements
 * around every buffer, under every algorithm of its collective (forced,
 * and checked to have run where its restrictions allow it).
 *
 *   bottom      MPI_BOTTOM with types of absolute addresses on both sides:
 *               allgather (the program), alltoall, gather and
 *               scatter at the root's own block, alltoallw on one rank,
 *               an in-place allreduce of a user op on a derived type
 *   rs_bytes    in-place reduce_scatter with recvcounts 1, 2, ..., p: the
 *               input past a rank's own block stays as it was
 *   rs_persist  the same with MPI_SIGNED_CHAR and recvcounts 2, 1 on a
 *               communicator in reverse rank order, as a persistent
 *               request started three times (it hung at the second start)
 *   nb_vector   nonblocking gatherv, scatterv, allgatherv, alltoallv and
 *               alltoallw on a dup of MPI_COMM_WORLD, count 0 included,
 *               then Iscatterv: each completed with MPI_Wait
 *   first_persistent  persistent gather, scatter and allgather as the first
 *               collective of a communicator made by MPI_Comm_idup (collshim
 *               has no context for it yet: the vendor runs it; MPICH
 *               4.0.2's own persistent forms of these are wrong), started
 *               three times
 * A hang is ended by an alarm (REGRESS_TIMEOUT seconds, default 120) that
 * names the test; REGRESS_ONLY=prefix runs the tests whose names start so.
 * Ends with "regress: N passed, N failed". */
#include "collshim.h"
#include "bench/pcoll.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GUARD 4
#define SENTINEL (-77)

static int rank, size, passed, failed;
static char current[160];

static void on_alarm(int sig)
{
    (void)sig;
    static const char head[] = "FAIL hang in ";
    ssize_t ignored = write(2, head, sizeof head - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(3);
}

/* ---- buffers with guards ---- */

static int *guarded(int n, int fill)
{
    int *whole = malloc(sizeof(int) * (size_t)(n + 2 * GUARD));
    for (int i = 0; i < n + 2 * GUARD; i++)
        whole[i] = i < GUARD || i >= n + GUARD ? SENTINEL : fill;
    return whole + GUARD;
}

static int guards_ok(const int *buf, int n)
{
    for (int i = 1; i <= GUARD; i++)
        if (buf[-i] != SENTINEL || buf[n - 1 + i] != SENTINEL)
            return 0;
    return 1;
}

static void release(int *buf) { free(buf - GUARD); }

/* ---- forcing ---- */

static void force(const char *coll, const char *alg)
{
    char rules[128], err[256];
    snprintf(rules, sizeof rules, "%s @%s", coll, alg);
    if (collshim_tune(alg ? rules : NULL, err, sizeof err) != MPI_SUCCESS) {
        fprintf(stderr, "collshim_tune(%s): %s\n", rules, err);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* Count one check; agree over the world so every rank counts alike. */
static void record(const char *what, const char *alg, int ok, long long before, const char *coll)
{
    int all = ok;
    collshim_bypass(1);
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    collshim_bypass(0);
    long long ran = collshim_algorithm_calls(coll, alg) - before;
    if (!ok)
        printf("FAIL rank %d: %s, %s %s\n", rank, what, coll, alg);
    if (rank == 0) {
        if (all)
            passed++;
        else
            failed++;
        if (all && ran <= 0 && collshim_algorithm_can_run(coll, alg, size, 1 << 20, 1, 1, 0) == 1 &&
            strcmp(alg, "vendor") && strncmp(alg, "inter_", 6))
            printf("note: %s %s did not run in %s (the table chose another)\n", coll, alg, what);
    }
}

/* Run test(alg) under every algorithm of coll, each forced. */
static void each_algorithm(const char *coll, const char *what, int (*test)(void))
{
    const char *only = getenv("REGRESS_ONLY"); /* a prefix of the tests' names */
    if (only && strncmp(what, only, strlen(only)))
        return;
    for (int i = 0; i < collshim_algorithm_count(coll); i++) {
        const char *alg = collshim_algorithm_name(coll, i);
        long long before = collshim_algorithm_calls(coll, alg);
        snprintf(current, sizeof current, "%s, %s %s", what, coll, alg);
        force(coll, alg);
        alarm(atoi(getenv("REGRESS_TIMEOUT") ? getenv("REGRESS_TIMEOUT") : "120"));
        int ok = test();
        alarm(0);
        record(what, alg, ok, before, coll);
    }
    force(coll, NULL);
}

/* ---- 1. MPI_BOTTOM ---- */

/* One int at an absolute address (the send side), and p ints typed by a
 * resized struct of absolute addresses (block i at rb + i). */
static MPI_Datatype absolute_int(void *at, int resized)
{
    int one = 1;
    MPI_Aint a;
    MPI_Datatype base = MPI_INT, t, r;
    MPI_Get_address(at, &a);
    MPI_Type_create_struct(1, &one, &a, &base, &t);
    if (!resized) {
        MPI_Type_commit(&t);
        return t;
    }
    MPI_Type_create_resized(t, a, sizeof(int), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    return r;
}

static int bottom_allgather(void)
{
    int sv = 100 + rank, *rb = guarded(size, -1), ok = 1;
    MPI_Datatype ts = absolute_int(&sv, 0), tr = absolute_int(rb, 1);
    MPI_Allgather(MPI_BOTTOM, 1, ts, MPI_BOTTOM, 1, tr, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        ok &= rb[i] == 100 + i;
    ok &= guards_ok(rb, size);
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
    release(rb);
    return ok;
}

static int bottom_alltoall(void)
{
    int *sb = guarded(size, 0), *rb = guarded(size, -1), ok = 1;
    for (int i = 0; i < size; i++)
        sb[i] = 1000 * rank + i;
    MPI_Datatype ts = absolute_int(sb, 1), tr = absolute_int(rb, 1);
    MPI_Alltoall(MPI_BOTTOM, 1, ts, MPI_BOTTOM, 1, tr, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        ok &= rb[i] == 1000 * i + rank;
    ok &= guards_ok(rb, size) && guards_ok(sb, size);
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
    release(sb);
    release(rb);
    return ok;
}

/* The root's own block, root 0: gather and scatter with MPI_BOTTOM on
 * both sides at the root. */
static int bottom_gather(void)
{
    int sv = 100 + rank, *rb = guarded(size, -1), ok = 1;
    MPI_Datatype ts = absolute_int(&sv, 0), tr = absolute_int(rb, 1);
    MPI_Gather(MPI_BOTTOM, 1, ts, MPI_BOTTOM, 1, tr, 0, MPI_COMM_WORLD);
    for (int i = 0; i < size && rank == 0; i++)
        ok &= rb[i] == 100 + i;
    ok &= guards_ok(rb, size);
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
    release(rb);
    return ok;
}

static int bottom_scatter(void)
{
    int *sb = guarded(size, 0), rv = -1, ok;
    for (int i = 0; i < size; i++)
        sb[i] = 100 + i;
    MPI_Datatype ts = absolute_int(sb, 1), tr = absolute_int(&rv, 0);
    MPI_Scatter(MPI_BOTTOM, 1, ts, MPI_BOTTOM, 1, tr, 0, MPI_COMM_WORLD);
    ok = rv == 100 + rank && guards_ok(sb, size);
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
    release(sb);
    return ok;
}

/* alltoallw on MPI_COMM_SELF: one block each way, both MPI_BOTTOM. */
static int bottom_alltoallw_self(void)
{
    int sv = 7 + rank, *rb = guarded(1, -1), zero = 0, one = 1, ok;
    MPI_Datatype ts = absolute_int(&sv, 0), tr = absolute_int(rb, 0);
    MPI_Alltoallw(MPI_BOTTOM, &one, &zero, &ts, MPI_BOTTOM, &one, &zero, &tr, MPI_COMM_SELF);
    ok = rb[0] == 7 + rank && guards_ok(rb, 1);
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
    release(rb);
    return ok;
}

/* A user op over a type with a gap (2 of 3 ints), in place, the recvbuf
 * as MPI_BOTTOM: the ring's block 0 sat at address NULL, and its rank
 * took that for "nothing to reduce". */
static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Type_get_extent(*type, &lb, &extent);
    MPI_Type_get_true_extent(*type, &true_lb, &true_extent);
    for (int i = 0; i < *len; i++)
        for (int j = 0; j < 2; j++) {
            char *o = (char *)inout + true_lb + i * extent + 2 * (MPI_Aint)sizeof(int) * j;
            const char *n = (const char *)in + true_lb + i * extent + 2 * (MPI_Aint)sizeof(int) * j;
            *(int *)o += *(const int *)n;
        }
}

static int bottom_allreduce(void)
{
    enum { N = 37 };
    int *buf = guarded(3 * N, 5), ok = 1;
    MPI_Datatype pair, t;
    MPI_Op op;
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 3 * sizeof(int), &t);
    MPI_Type_free(&pair);
    MPI_Type_commit(&t);
    MPI_Op_create(add_pairs, 1, &op);
    for (int i = 0; i < 3 * N; i++)
        buf[i] = i % 3 == 1 ? -9 : rank + i;
    MPI_Datatype use = t;
    void *at = buf;
    { /* absolute: the same layout from MPI_BOTTOM */
        int one = 1;
        MPI_Aint a;
        MPI_Get_address(buf, &a);
        MPI_Datatype s;
        MPI_Type_create_struct(1, &one, &a, &t, &s);
        MPI_Type_create_resized(s, a, 3 * sizeof(int), &use);
        MPI_Type_free(&s);
        MPI_Type_commit(&use);
        at = MPI_BOTTOM;
    }
    MPI_Allreduce(MPI_IN_PLACE, at, N, use, op, MPI_COMM_WORLD);
    for (int i = 0; i < 3 * N; i++)
        ok &= buf[i] == (i % 3 == 1 ? -9 : size * (size - 1) / 2 + size * i);
    ok &= guards_ok(buf, 3 * N);
    MPI_Type_free(&use);
    MPI_Type_free(&t);
    MPI_Op_free(&op);
    release(buf);
    return ok;
}

/* ---- 2. in-place reduce_scatter: the bytes past the own block ---- */

static int rs_bytes(void)
{
    int counts[64], total = 0, before = 0, ok = 1;
    for (int i = 0; i < size; i++) {
        counts[i] = i + 1;
        before += i < rank ? counts[i] : 0;
        total += counts[i];
    }
    int *buf = guarded(total, 0);
    for (int i = 0; i < total; i++)
        buf[i] = rank * 100 + i;
    MPI_Reduce_scatter(MPI_IN_PLACE, buf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < total; i++) {
        int mine = i < counts[rank], j = before + i;
        ok &= buf[i] == (mine ? 100 * size * (size - 1) / 2 + size * j : rank * 100 + i);
    }
    ok &= guards_ok(buf, total);
    release(buf);
    return ok;
}

/* ---- 3. a persistent in-place reduce_scatter, in reverse rank order ---- */

static MPI_Comm reversed;

static int rs_persist(void)
{
    int r, p, ok = 1;
    MPI_Comm_rank(reversed, &r);
    MPI_Comm_size(reversed, &p);
    int counts[64], total = 0, before = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = i % 2 ? 1 : 2;
        before += i < r ? counts[i] : 0;
        total += counts[i];
    }
    signed char *whole = malloc((size_t)total + 2 * GUARD), *buf = whole + GUARD;
    MPI_Request req;
    memset(whole, 0x55, (size_t)total + 2 * GUARD);
    PERSISTENT_INIT(Reduce_scatter)
    (MPI_IN_PLACE, buf, counts, MPI_SIGNED_CHAR, MPI_SUM, reversed, MPI_INFO_NULL, &req);
    for (int start = 0; start < 3; start++) {
        for (int i = 0; i < total; i++)
            buf[i] = (signed char)(r + i + start);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < total; i++) {
            int j = before + i, sum = p * (p - 1) / 2 + p * (j + start);
            ok &= buf[i] == (signed char)(i < counts[r] ? sum : r + i + start);
        }
    }
    for (int i = 0; i < GUARD; i++)
        ok &= whole[i] == 0x55 && buf[total + i] == 0x55;
    MPI_Request_free(&req);
    free(whole);
    return ok;
}

/* ---- 4. nonblocking v-collectives on a dup, then Iscatterv ---- */

static MPI_Comm world_dup;

static int nb_vector(void)
{
    int n = size * size, ok = 1;
    int *s = guarded(n, 0), *r = guarded(n, -1), counts[64], displs[64], bdispls[64];
    MPI_Datatype types[64];
    MPI_Request q;
    for (int root = 0; root < size; root++)
        for (int count = 0; count < size; count++) {
            for (int i = 0; i < size; i++) {
                counts[i] = count;
                displs[i] = i * size;
                bdispls[i] = i * size * (int)sizeof(int);
                types[i] = MPI_INT;
            }
            for (int i = 0; i < n; i++)
                s[i] = 100 * root + i, r[i] = -1;
            MPI_Igatherv(s, count, MPI_INT, r, counts, displs, MPI_INT, root, world_dup, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            MPI_Iallgatherv(s, count, MPI_INT, r, counts, displs, MPI_INT, world_dup, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            MPI_Ialltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, world_dup, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            MPI_Ialltoallw(s, counts, bdispls, types, r, counts, bdispls, types, world_dup, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++)
                r[i] = -1;
            MPI_Iscatterv(s, counts, displs, MPI_INT, r, count, MPI_INT, root, world_dup, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            for (int i = 0; i < count; i++) /* the root's block for this rank */
                ok &= r[i] == 100 * root + rank * size + i;
            for (int i = count; i < n; i++)
                ok &= r[i] == -1;
        }
    ok &= guards_ok(s, n) && guards_ok(r, n);
    release(s);
    release(r);
    return ok;
}

/* ---- 5. a persistent collective as a communicator's first ---- */

enum first_kind { FIRST_GATHER, FIRST_SCATTER, FIRST_ALLGATHER, FIRST_KINDS };
static const char *const first_names[FIRST_KINDS] = {"gather", "scatter", "allgather"};

/* Element i of the result at rank r of p, at start `start`: every rank
 * sends 15 ints, 1000 * start + 100 * its rank + position; root 0. */
static int first_expected(enum first_kind kind, int r, int i, int start)
{
    const int n = 15;
    if (kind == FIRST_SCATTER)
        return i < n ? 1000 * start + r * n + i : -1;
    if (kind == FIRST_GATHER && r != 0)
        return -1;
    return 1000 * start + 100 * (i / n) + i % n;
}

static int first_persistent_on(MPI_Comm comm, enum first_kind kind)
{
    const int n = 15;
    int r, p, ok = 1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *s = guarded(n * p, 0), *d = guarded(n * p, -1);
    MPI_Request req;
    if (kind == FIRST_GATHER)
        PERSISTENT_INIT(Gather)(s, n, MPI_INT, d, n, MPI_INT, 0, comm, MPI_INFO_NULL, &req);
    else if (kind == FIRST_SCATTER)
        PERSISTENT_INIT(Scatter)(s, n, MPI_INT, d, n, MPI_INT, 0, comm, MPI_INFO_NULL, &req);
    else
        PERSISTENT_INIT(Allgather)(s, n, MPI_INT, d, n, MPI_INT, comm, MPI_INFO_NULL, &req);
    for (int start = 0; start < 3; start++) {
        for (int i = 0; i < n * p; i++) {
            s[i] = kind == FIRST_SCATTER ? 1000 * start + i : 1000 * start + 100 * r + i;
            d[i] = -1;
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < n * p; i++)
            ok &= d[i] == first_expected(kind, r, i, start);
    }
    ok &= guards_ok(s, n * p) && guards_ok(d, n * p);
    MPI_Request_free(&req);
    release(s);
    release(d);
    return ok;
}

/* Each kind on a new MPI_Comm_idup of MPI_COMM_WORLD and of MPI_COMM_SELF. */
static void first_persistent(void)
{
    const char *only = getenv("REGRESS_ONLY");
    if (only && strncmp("first_persistent", only, strlen(only)))
        return;
    for (int kind = 0; kind < FIRST_KINDS; kind++)
        for (int self = 0; self < 2; self++) {
            MPI_Comm comm;
            MPI_Request made;
            MPI_Comm_idup(self ? MPI_COMM_SELF : MPI_COMM_WORLD, &comm, &made);
            MPI_Wait(&made, MPI_STATUS_IGNORE);
            snprintf(current, sizeof current, "first_persistent: %s on a new idup of %s",
                     first_names[kind], self ? "MPI_COMM_SELF" : "MPI_COMM_WORLD");
            long long before = collshim_algorithm_calls(first_names[kind], "vendor");
            alarm(atoi(getenv("REGRESS_TIMEOUT") ? getenv("REGRESS_TIMEOUT") : "120"));
            int ok = first_persistent_on(comm, (enum first_kind)kind);
            alarm(0);
            record(current, "vendor", ok, before, first_names[kind]);
            MPI_Comm_free(&comm);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    signal(SIGALRM, on_alarm);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    MPI_Comm_dup(MPI_COMM_WORLD, &world_dup);
    each_algorithm("allgather", "bottom: allgather", bottom_allgather);
    each_algorithm("alltoall", "bottom: alltoall", bottom_alltoall);
    each_algorithm("gather", "bottom: gather at the root's own block", bottom_gather);
    each_algorithm("scatter", "bottom: scatter at the root's own block", bottom_scatter);
    each_algorithm("alltoallw", "bottom: alltoallw on MPI_COMM_SELF", bottom_alltoallw_self);
    each_algorithm("allreduce", "bottom: in-place allreduce, user op", bottom_allreduce);
    each_algorithm("reduce_scatter", "rs_bytes: in-place reduce_scatter", rs_bytes);
    each_algorithm("reduce_scatter", "rs_persist: persistent in-place reduce_scatter", rs_persist);
    each_algorithm("scatterv", "nb_vector: nonblocking v-collectives on a dup", nb_vector);
    first_persistent();
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&world_dup);
    if (rank == 0)
        printf("regress: %d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
