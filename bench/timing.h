/* timing.h - arms and fair timing of one (collective, communicator, size).
 *
 * An arm is one way to run the collective:
 *   vendor            the MPI library's own collective, reached through the
 *                     shim's forwarding (collshim_bypass)
 *   auto              the shim's selection with the tables loaded (the
 *                     COLLSHIM_TUNE rules of the environment, the file, the
 *                     built-in defaults)
 *   NAME[:P=V[/V..]]  native algorithm NAME forced with collshim_tune(), with
 *                     parameters (seg=64k, outstanding=4); "/" sweeps a
 *                     parameter as one arm per value: ring:seg=16k/64k/256k
 *
 * bench_measure() checks each arm's result against the vendor's first (an
 * arm with a wrong result or an error is FAILED and never timed; a forced
 * algorithm whose restrictions forbid the case, so that something else ran,
 * is N/A; one whose checked call took longer than max_call seconds on some
 * rank is SLOW and not timed either, so one pathological arm cannot hold up
 * a whole sweep), then times the arms in interleaved rounds: each round runs every
 * arm once in an order shuffled the same way on all ranks, each call
 * started by a fence that belongs to no arm (fence.h: by default all ranks
 * at one instant of a synchronized clock, or after the vendor's barrier);
 * a call's time runs from its start to its end, the maximum over ranks.
 * Warm-up rounds come first and set the number of rounds; calls that a
 * rank started late (window fence) are not counted. */
#ifndef COLLBENCH_TIMING_H
#define COLLBENCH_TIMING_H

#include "bench/collops.h"
#include "bench/fence.h"

#include <stdint.h>

enum arm_kind { ARM_VENDOR, ARM_AUTO, ARM_NATIVE };

/* What a timed call of an arm runs: the blocking collective (collbench,
 * colltune), or for collbench --overlap (overlap.h) its nonblocking form
 * completed by MPI_Wait (pure), a computation alone (cpu), or the
 * nonblocking collective with the computation between start and MPI_Wait
 * (overlap). A cpu arm runs no collective: its check compares nothing. */
enum arm_form { FORM_BLOCKING, FORM_PURE, FORM_CPU, FORM_OVERLAP };

struct bench_arm {
    enum arm_kind kind;
    char label[96];   /* "vendor", "auto", "ring", "ring:seg=64k" */
    char alg[64];     /* native: the algorithm's name */
    char params[64];  /* native: "seg=64k outstanding=4" in the tuning grammar */
    const char *rules; /* auto: rules for collshim_tune() instead of bench_opts.auto_rules
                          when not NULL ("" = the tables alone); colltune's A/B of tables */
    enum arm_form form;    /* FORM_BLOCKING (0) but in collbench --overlap */
    long long work;        /* cpu, overlap: units of computation of this rank (overlap.h) */
    long long test_every;  /* overlap: units between two MPI_Test of the request; 0: none */
};

/* Arms for collective `coll` from a comma-separated spec: "all" (vendor,
 * auto and every native algorithm the library lists), "native" (every
 * native algorithm), "vendor", "auto", or NAME[:P=V[/V..]]. Names listed in
 * `exclude` (comma-separated labels or names, may be NULL) are left out.
 * Returns 0 and a malloc'ed array, or -1 with a message in err. */
int bench_arms_parse(const char *coll, const char *spec, const char *exclude,
                     struct bench_arm **arms, int *narms, char *err, size_t errlen);
/* "all" and "native" name the intercommunicator algorithms (inter_*) when
 * on (collbench --inter), the others when off (the default). */
void bench_arms_inter(int on);

enum arm_status { ARM_OK, ARM_NA, ARM_FAILED, ARM_SLOW };

struct arm_result {
    enum arm_status status;
    char ran[64];     /* the algorithm that ran in the check (auto: chosen);
                         "unintercepted" when the shim never saw the call */
    char why[96];     /* N/A or FAILED: why */
    int reps;
    double median, p10, p90, min, max, mean; /* seconds, max over ranks */
};

struct bench_opts {
    int warmup;        /* warm-up rounds (each arm once per round) */
    int min_reps, max_reps;
    double budget;     /* seconds of timed calls per arm, to pick the rounds */
    double max_call;   /* seconds; a checked call slower than this: SLOW (0: no limit) */
    uint64_t seed;     /* shuffles; must be the same on every rank */
    const char *auto_rules; /* COLLSHIM_TUNE of the environment, for "auto" */
    enum fence_kind fence;  /* how each timed call starts (window) */
};
void bench_opts_default(struct bench_opts *o);

/* The timed arm of `kind` with the least median (the fastest native arm
 * for ARM_NATIVE), or -1. */
int bench_fastest(const struct bench_arm *arms, int narms, const struct arm_result *res,
                  enum arm_kind kind);

/* Check and time every arm on case c; res has narms entries. Collective
 * over c->comm. Returns MPI_SUCCESS or the error of the reference call. */
int bench_measure(struct collop *c, const struct bench_arm *arms, int narms,
                  const struct bench_opts *o, struct arm_result *res);

#endif
