/* tune_run.h - colltune's measurements: the sweep of every arm over the
 * cases (collective, communicator size, size) in passes under a budget,
 * with progress on rank 0, and the verification of the written table
 * (auto with it against the vendor and against the built-in table).
 * Timing and checking are collbench's (timing.h). */
#ifndef COLLTUNE_RUN_H
#define COLLTUNE_RUN_H

#include "bench/bound.h"
#include "bench/collops.h"
#include "bench/timing.h"
#include "bench/tune_choose.h"
#include "bench/tune_plan.h"

#include <stdio.h>

#define TUNE_MAX_NPS 64

enum case_state { CASE_PLANNED, CASE_MEASURED, CASE_SKIPPED };

/* One (collective, communicator size, size) of the sweep. */
struct tune_case {
    int coll, k, pass;       /* k: index into tune_run.nps */
    size_t size;             /* collbench's (OSU) size */
    double t_est;            /* estimated seconds of one call */
    enum case_state state;
    int level;               /* the cut level it was measured at */
    uint64_t key_bytes;
    char builtin[64];        /* what the built-in table runs here */
    int *useful;             /* per arm: timed here (tune_useful_arms) */
    struct arm_result *res;  /* per arm of the collective */
    int verified;
    int demoted;             /* the verification found its native choice slower: vendor */
    double first_ratio;      /* > 0: re-measured; the first new/vendor ratio */
    struct arm_result vres[4]; /* vendor, new table; built-in table, vendor */
};

struct tune_run {
    /* what to measure (set by the front end) */
    int colls[COLLOP_COUNT], ncolls;
    int nps[TUNE_MAX_NPS], nnps;     /* ascending */
    MPI_Comm comms[TUNE_MAX_NPS];    /* first nps[k] ranks; MPI_COMM_NULL elsewhere */
    int nodes[TUNE_MAX_NPS], ppn[TUNE_MAX_NPS]; /* their layouts (0: unknown) */
    long long lo, hi;                /* sizes, powers of two */
    MPI_Datatype type;
    int root, rank, max_reps;
    double budget;                   /* seconds for everything; 0: no limit */
    double max_call;
    uint64_t seed;
    struct bench_arm *arms[COLLOP_COUNT];
    struct tune_sweep_arm *sweep[COLLOP_COUNT];
    int narms[COLLOP_COUNT];
    struct bound_model model;
    int verify;                      /* run the verification */
    double min_gain;                 /* of the choice (tune_choose_opts) */
    enum fence_kind fence;           /* how timed calls start (fence.h) */
    FILE *csv;                       /* rank 0: every arm of every case (output.h), or NULL */
    /* state */
    struct tune_case *cases;
    int ncases, level, max_level;    /* cut level now, and the most it was */
    double t0;                       /* MPI_Wtime at the start */
    double est_done, real_done;      /* estimated and real seconds of finished work */
    int looks, looks_won;            /* second looks, and those that found a clear native win */
    int demoted;                     /* cases the repair gave back to the vendor */
};

/* Whether `size` of coll can be measured at np ranks (one element at least). */
int tune_measurable(int coll, int np, size_t size, int elem);
/* Build the cases (every collective, np, power-of-two size). */
int tune_run_plan(struct tune_run *r);
/* Estimated seconds of what is left at cut level `level`, sweep and
 * verification, before calibration. */
double tune_run_estimate(const struct tune_run *r, int level);
/* The sweep itself; collective over MPI_COMM_WORLD. */
int tune_run_sweep(struct tune_run *r);
/* The series of one collective (ascending np) for tune_rules; the arrays
 * belong to the caller (tune_run_free_series). */
int tune_run_series(const struct tune_run *r, int coll, struct tune_series **series);
void tune_run_free_series(struct tune_series *series, int n);
/* Time vendor, auto with `rules` and auto with the built-in table at every
 * measured case; rank 0 prints the blocks and the summary to out (and the
 * summary as comments to also, if not NULL). Collective over the world. */
int tune_run_verify(struct tune_run *r, const char *rules, FILE *out, FILE *also);
/* The repair after a verification: cases where auto with the new table
 * ran a native algorithm more than 5% slower than the vendor are demoted
 * (the choice sees only the vendor there). Decided on rank 0, agreed over
 * the world; returns how many were newly demoted. */
int tune_run_demote(struct tune_run *r);
/* Mark unverified every case of the (collective, np) whose rules differ
 * between the two tables, so tune_run_verify measures them again. */
void tune_run_unverify_changed(struct tune_run *r, const char *before, const char *after);
/* "12:34" */
void tune_format_time(double seconds, char *buf, size_t len);

#endif
