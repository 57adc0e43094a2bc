/* tune_plan.h - colltune's plan, as pure functions (no MPI): the passes
 * over the sizes, the cut levels a --budget steps through, the cost of a
 * measurement, and which parameter arms are worth timing at a size.
 *
 * Sizes are measured in passes so that a budget running out leaves every
 * collective measured coarsely instead of some finely and some not at all:
 * pass 0 takes every 4th size (x16 apart) and the largest, pass 1 the rest
 * of every 2nd size (then x4 apart), pass 2 the others (x2 apart).
 *
 * Cut levels, from none to the most a budget can cut: fewer repetitions
 * first (noise thresholds widen with them, so the choice falls back to the
 * vendor rather than guessing), then coarser sizes. */
#ifndef COLLTUNE_PLAN_H
#define COLLTUNE_PLAN_H

#include <stdint.h>

#define TUNE_PASSES 3

struct tune_level {
    const char *what;  /* what this level cuts, for the progress lines */
    int warmup;        /* warm-up rounds */
    int min_reps;      /* timed calls per arm at least */
    double arm_time;   /* seconds of timed calls per arm (more reps if fast) */
    int passes;        /* passes over the sizes: 3 = every size, 2 = x4, 1 = x16 */
};
extern const struct tune_level tune_levels[];
extern const int tune_nlevels;

/* The pass (0..TUNE_PASSES-1) of size index i of n. */
int tune_size_pass(int i, int n);

/* The verification compares medians that should be equal where the new
 * table runs the vendor: twice the repetitions, 2.5 times the time. */
struct tune_level tune_verify_level(const struct tune_level *l);

/* Timed calls per arm at a level for calls of t seconds. */
int tune_reps(const struct tune_level *l, double t, int max_reps);
/* Seconds one measurement takes: the reference call, then per arm the
 * check, the warm-up and the timed calls, each t seconds. */
double tune_point_cost(int narms, double t, const struct tune_level *l, int max_reps);

/* The first level whose estimate est[level] fits into `left` seconds; the
 * last level if none does. Levels below the current one `from` must fit
 * into 80% of it, so that a pace that varies does not flip between levels. */
int tune_pick_level(const double *est, int from, double left);

/* A parameter arm in a sweep: arms of one algorithm share a group. */
struct tune_sweep_arm {
    int group;          /* -1: not part of a sweep */
    uint64_t seg;       /* seg= value, 0 if none */
    int window;         /* outstanding= as a window over p-1 peers, 0 if none */
};
/* useful[a] = 0 for sweep arms that would run exactly like another arm of
 * their group at this size: segments of at least `bytes` (one segment;
 * the smallest such is kept) or windows of at least np-1 (all in flight;
 * the smallest such is kept). */
void tune_useful_arms(const struct tune_sweep_arm *arms, int n, uint64_t bytes, int np,
                      int *useful);

#endif
