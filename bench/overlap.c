/* overlap.c - nonblocking collectives against computation (overlap.h). */
#include "bench/overlap.h"
#include "bench/util.h"
#include "collshim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES 64
#define RATE_MIN_SECONDS 1e-3 /* the first estimate of this rank's speed */
#define CALIBRATION_TRIES 4
#define CALIBRATION_TOLERANCE 0.05

static double lanes[LANES];

/* The computation: per unit a multiply-add on each of 64 doubles that stay
 * in the cache (tens of nanoseconds), so that it competes with the
 * collective for the processor, not for memory bandwidth. */
static void compute(long long units)
{
    for (long long k = 0; k < units; k++)
        for (int i = 0; i < LANES; i++)
            lanes[i] = lanes[i] * 0.999 + 0.001;
    __asm__ volatile("" : : "r"(lanes) : "memory"); /* the result counts: keep the loop */
}

/* Units per second of this rank alone, measured once: the starting point
 * of every calibration. */
static double units_per_second(void)
{
    static double rate;
    long long n = 256;
    while (rate == 0) {
        double t0 = MPI_Wtime();
        compute(n);
        double t = MPI_Wtime() - t0;
        if (t >= RATE_MIN_SECONDS)
            rate = (double)n / t;
        n *= 2;
    }
    return rate;
}

/* The computation in pieces of `every` units with MPI_Test of *req
 * between them, until the request is complete (then plain computation). */
static int compute_testing(long long units, long long every, MPI_Request *req)
{
    int err = MPI_SUCCESS, done = 0;
    while (units > 0) {
        long long piece = every > 0 && every < units ? every : units;
        compute(piece);
        units -= piece;
        if (units > 0 && !done && !err)
            err = MPI_Test(req, &done, MPI_STATUS_IGNORE);
    }
    return err;
}

int overlap_run(const struct collop *c, const struct bench_arm *arm)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int err;
    if (arm->form == FORM_CPU) {
        compute(arm->work);
        return MPI_SUCCESS;
    }
    err = collop_start(c, &req);
    if (!err && arm->form == FORM_OVERLAP)
        err = compute_testing(arm->work, arm->test_every, &req);
    if (!err)
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    return err;
}

/* Seconds from the vendor's barrier until every rank has computed `units`
 * (this rank's share), on every rank. */
static int time_computation(MPI_Comm comm, long long units, double *t)
{
    int err = bench_vendor_barrier(comm);
    double t0 = MPI_Wtime();
    compute(units);
    *t = MPI_Wtime() - t0;
    collshim_bypass(1);
    if (!err)
        err = MPI_Allreduce(MPI_IN_PLACE, t, 1, MPI_DOUBLE, MPI_MAX, comm);
    collshim_bypass(0);
    return err;
}

/* This rank's units such that all ranks computing at once take about
 * `target` seconds until the slowest is done: each trial rescales every
 * rank's work by target over the time measured, until within 5%. Ranks
 * that share a core (8 ranks on 2 cores on the virtual cluster) get less
 * work each than they would alone. Collective. */
static int calibrate(MPI_Comm comm, double target, long long *work)
{
    double units = target * units_per_second(), t = 0;
    int err = MPI_SUCCESS;
    for (int i = 0; i < CALIBRATION_TRIES && !err; i++) {
        err = time_computation(comm, units < 1 ? 1 : llround(units), &t);
        if (err || t <= 0)
            break;
        units *= target / t;
        if (fabs(t - target) <= CALIBRATION_TOLERANCE * target)
            break;
    }
    *work = units < 1 ? 1 : llround(units);
    return err;
}

/* An arm of the given form with this rank's work. */
static struct bench_arm arm_form(const struct bench_arm *arm, enum arm_form form,
                                 long long work, long long test_every)
{
    struct bench_arm a = *arm;
    a.form = form;
    a.work = work;
    a.test_every = test_every;
    return a;
}

static void mark_untimed(struct overlap_result *r)
{
    const char *why = "t_pure not timed";
    r->cpu.status = r->ovl.status = ARM_NA;
    snprintf(r->cpu.why, sizeof r->cpu.why, "%s", why);
    snprintf(r->ovl.why, sizeof r->ovl.why, "%s", why);
}

/* Phase 2: calibrate the computation of every arm timed in phase 1 and
 * time it alone and overlapped, all arms in the same rounds. forms and
 * out have room for 2 narms entries. */
static int time_overlaps(struct collop *c, const struct bench_arm *arms, int narms,
                         const struct bench_opts *o, double test_us,
                         struct overlap_result *res, struct bench_arm *forms,
                         struct arm_result *out, int *owner)
{
    struct bench_opts calm = *o;
    int n = 0, err = MPI_SUCCESS;
    for (int i = 0; i < narms && !err; i++) {
        const struct arm_result *p = &res[i].pure;
        long long work = 0, every = 0;
        if (p->status != ARM_OK) {
            mark_untimed(&res[i]);
            continue;
        }
        err = calibrate(c->comm, p->median, &work);
        if (test_us > 0)
            every = llround((double)work * test_us * 1e-6 / p->median);
        forms[n] = arm_form(&arms[i], FORM_CPU, work, 0);
        forms[n + 1] = arm_form(&arms[i], FORM_OVERLAP, work, every < 1 && test_us > 0 ? 1 : every);
        owner[n / 2] = i;
        n += 2;
    }
    /* The arms passed --max-call in phase 1; t_ovl may reach t_pure + t_cpu. */
    calm.max_call = 0;
    if (!err && n)
        err = bench_measure(c, forms, n, &calm, out);
    for (int k = 0; !err && k < n / 2; k++) {
        struct overlap_result *r = &res[owner[k]];
        r->cpu = out[2 * k];
        r->ovl = out[2 * k + 1];
        double hidden = 1 - (r->ovl.median - r->cpu.median) / r->pure.median;
        r->overlap = fmax(0, fmin(100, 100 * hidden));
    }
    return err;
}

int overlap_measure(struct collop *c, const struct bench_arm *arms, int narms,
                    const struct bench_opts *o, double test_us, struct overlap_result *res)
{
    struct bench_arm *forms = calloc(2 * (size_t)narms + 1, sizeof *forms);
    struct arm_result *out = calloc(2 * (size_t)narms + 1, sizeof *out);
    int *owner = calloc((size_t)narms + 1, sizeof *owner);
    int err = forms && out && owner ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    memset(res, 0, (size_t)narms * sizeof *res);
    for (int i = 0; !err && i < narms; i++)
        forms[i] = arm_form(&arms[i], FORM_PURE, 0, 0);
    if (!err)
        err = bench_measure(c, forms, narms, o, out);
    for (int i = 0; !err && i < narms; i++)
        res[i].pure = out[i];
    if (!err)
        err = time_overlaps(c, arms, narms, o, test_us, res, forms, out, owner);
    free(forms);
    free(out);
    free(owner);
    return err;
}

const struct arm_result *overlap_status(const struct overlap_result *r)
{
    return r->pure.status != ARM_OK ? &r->pure : r->ovl.status != ARM_OK ? &r->ovl : &r->cpu;
}
