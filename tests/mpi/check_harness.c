/* check_harness.c - forcing, asserting and counting the matrix's cases. */
#include "tests/mpi/check.h"
#include "tests/mpi/check_call.h"
#include "collshim.h"
#include "tests/mpi/raised.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int check_passed, check_failed, check_skipped;

/* Errors raised on the world's or MPI_COMM_SELF's handler (raised.h): no
 * case of the matrix has one, so any is a defect even when the call
 * returns success. */

struct check_env check_start(int *argc, char ***argv)
{
    struct check_env env = {.comm = MPI_COMM_WORLD};
    MPI_Init(argc, argv);
    MPI_Comm_rank(env.comm, &env.rank);
    MPI_Comm_size(env.comm, &env.size);
    raised_count_start();
    return env;
}

void vendor_on(void) { collshim_bypass(1); }
void vendor_off(void) { collshim_bypass(0); }

void check_begin(const struct check_env *env, struct check_case *c, const char *coll,
                 const char *alg, int expect_alg, const char *fmt, ...)
{
    char rules[128], err[512];
    va_list ap;
    memset(c, 0, sizeof *c);
    c->raised_before = raised_count();
    c->coll = coll;
    c->alg = alg;
    c->expect_alg = expect_alg;
    c->runs = 1;
    va_start(ap, fmt);
    vsnprintf(c->desc, sizeof c->desc, fmt, ap);
    va_end(ap);
    /* An explicit vendor fallback: where alg cannot run, the built-in
     * table must not pick another algorithm instead. */
    snprintf(rules, sizeof rules, "%s @%s; %s @vendor", coll, alg, coll);
    if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS)
        check_fail(c, "collshim_tune(\"%s\") failed: %s", rules, err);
    c->calls_before = collshim_algorithm_calls(coll, expect_alg ? alg : "vendor");
    (void)env;
}

void check_begin_params(const struct check_env *env, struct check_case *c, const char *coll,
                        const char *alg, const char *params, int expect_alg, const char *fmt, ...)
{
    char desc[sizeof c->desc], rules[192], err[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(desc, sizeof desc, fmt, ap);
    va_end(ap);
    check_begin(env, c, coll, alg, expect_alg, "%s %s", desc, params);
    snprintf(rules, sizeof rules, "%s @%s %s", coll, alg, params);
    if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS)
        check_fail(c, "collshim_tune(\"%s\") failed: %s", rules, err);
}

/* Each reason is said once (a case runs every algorithm, so reasons
 * alternate from case to case). */
void check_skip(const struct check_env *env, const char *why)
{
    static const char *said[32];
    int i = 0;
    while (i < 32 && said[i] && said[i] != why)
        i++;
    if (env->rank == 0 && (i == 32 || !said[i]))
        fprintf(stderr, "collcheck: skipping cases: %s\n", why);
    if (i < 32)
        said[i] = why;
    check_skipped++;
}

void check_expect_runs(struct check_case *c, int n) { c->runs = n; }

void check_fail(struct check_case *c, const char *fmt, ...)
{
    va_list ap;
    if (c->failed++)
        return;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
}

/* NBC_NO_ALG_CHECK=1 skips the assertion that the forced algorithm ran: a
 * development aid only (to run the nonblocking and persistent modes against
 * a library whose I-collectives still go to the vendor); no script sets it. */
int check_alg_check_disabled(void)
{
    const char *v = getenv("NBC_NO_ALG_CHECK");
    return v && *v && strcmp(v, "0");
}

static void assert_ran(struct check_case *c)
{
    const char *want = c->expect_alg ? c->alg : "vendor";
    if (check_alg_check_disabled())
        return;
    long long after = collshim_algorithm_calls(c->coll, want);
    if (after != c->calls_before + c->runs)
        check_fail(c, "expected %s/%s to run %d time%s, it ran %lld times (last: %s)", c->coll,
                   want, c->runs, c->runs == 1 ? "" : "s", after - c->calls_before,
                   collshim_last_algorithm());
}

int check_end(const struct check_env *env, struct check_case *c)
{
    int mine[2], least[2] = {0, 0};
    assert_ran(c);
    int raised = raised_count() - c->raised_before;
    if (raised)
        check_fail(c, "an error handler was invoked %d time%s (last: class %d)", raised,
                   raised == 1 ? "" : "s", raised_last_class());
    /* One allreduce (MIN) answers both: whether any rank failed (-1 then)
     * and the first rank that did. */
    mine[0] = c->failed ? -1 : 0;
    mine[1] = c->failed ? env->rank : env->size;
    vendor_on();
    MPI_Allreduce(mine, least, 2, MPI_INT, MPI_MIN, env->comm);
    vendor_off();
    int any_failed = least[0] < 0, first = least[1];
    collshim_tune(NULL, NULL, 0);
    if (any_failed && env->rank == first)
        fprintf(stderr, "FAIL %s/%s np=%d %s %s: rank %d: %s\n", c->coll, c->alg, env->size,
                check_mode_name(), c->desc, env->rank, c->why);
    else if (!any_failed && env->verbose && env->rank == 0)
        fprintf(stderr, "ok   %s/%s np=%d %s %s%s\n", c->coll, c->alg, env->size,
                check_mode_name(), c->desc, c->expect_alg ? "" : " (restricted: vendor ran)");
    if (any_failed)
        check_failed++;
    else
        check_passed++;
    return !any_failed;
}

static unsigned long long fnv1a(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

int same_on_all_ranks(const struct check_env *env, const void *buf, size_t len)
{
    unsigned long long h = fnv1a(buf, len), lo, hi;
    vendor_on();
    MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, env->comm);
    MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, env->comm);
    vendor_off();
    return lo == hi;
}

int check_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

int case_counts(const struct check_env *env, int *counts, int max)
{
    int p = env->size, n = 0;
    int all[] = {0, 1, p - 1, p, p + 1, env->quick ? 4099 : 100003};
    for (size_t i = 0; i < sizeof all / sizeof all[0] && n < max; i++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= counts[j] == all[i];
        if (!dup && all[i] >= 0 && (!env->max_count || all[i] <= env->max_count))
            counts[n++] = all[i];
    }
    return n;
}

static MPI_Datatype strided_type = MPI_DATATYPE_NULL;

void check_cleanup(void)
{
    check_reduction_cleanup();
    if (strided_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&strided_type);
}

MPI_Datatype type_strided_int(void)
{
    MPI_Datatype type = strided_type;
    if (type == MPI_DATATYPE_NULL) {
        MPI_Datatype one;
        MPI_Aint disp = 8;
        MPI_Type_create_hindexed_block(1, 1, &disp, MPI_INT, &one);
        MPI_Type_create_resized(one, 4, 12, &type);
        MPI_Type_commit(&type);
        MPI_Type_free(&one);
        strided_type = type;
    }
    return type;
}

/* Whether this MPI's own point-to-point places type_strided_int right:
 * SimGrid's SMPI 3.32 lays out a resized type with a nonzero lower bound at
 * the wrong stride (found with a plain MPI_Send/MPI_Recv, no collshim), so
 * there the cases of that type are skipped, said once. Probed once per rank
 * with a send to itself. */
const char *strided_type_broken(void)
{
    static int probed, broken;
    if (!probed) {
        int out[8] = {0, 0, 1, 0, 0, 2, 0, 0}, in[8] = {0};
        PMPI_Sendrecv(out, 2, type_strided_int(), 0, 0, in, 2, type_strided_int(), 0, 0,
                      MPI_COMM_SELF, MPI_STATUS_IGNORE);
        broken = in[2] != 1 || in[5] != 2;
        probed = 1;
    }
    return broken ? "this MPI's point-to-point misplaces the elements of a resized type with "
                    "a nonzero lower bound (type_strided_int; SimGrid SMPI 3.32)"
                  : NULL;
}

int *strided_alloc(int n)
{
    return calloc((size_t)(n > 0 ? n : 1) * 3 + 2, sizeof(int));
}

int *strided_at(int *buf, int i) { return (int *)((char *)buf + 8 + 12 * (size_t)i); }
