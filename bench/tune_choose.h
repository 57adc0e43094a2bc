/* tune_choose.h - colltune's decisions as pure functions (no MPI): which
 * arm to take at each measured size, size ranges and communicator-size
 * ranges, and the rules in the tuning grammar (doc/colltune.md).
 *
 * The choice at one size, among the arms timed there:
 *   - a native arm is eligible only if it is clearly faster than the
 *     vendor: its gain (vendor - arm) / vendor exceeds the threshold below,
 *     with z raised for the m native arms compared at once (Bonferroni:
 *     the one-sided tail of z divided by m, so that one of m arms as fast
 *     as the vendor passes by chance no more often than one arm would);
 *     the vendor itself is always eligible;
 *   - the fastest eligible arm by median is the best; arms whose median the
 *     best does not clearly beat are tied with it;
 *   - among the tied arms, the previous (smaller) size's choice is kept,
 *     else the built-in table's choice is taken, else the best.
 * Threshold of "a is clearly faster than b": the relative gain must exceed
 *     max(min_gain, z * sqrt(se_a^2 + se_b^2) / median_b)
 * with se = 0.49 (p90 - p10) / sqrt(reps), the standard error of a median
 * whose spread p10..p90 is 2.56 standard deviations (normal noise; the
 * median's error is 1.25 sigma / sqrt(n)).
 * Sizes with the same selection bytes (the v and w collectives, which the
 * shim always keys 0) are one decision: an arm must be within the
 * threshold of the vendor at each of them and faster in geometric mean.
 *
 * Ranges: runs of sizes with one choice merge; a boundary between measured
 * sizes a < b lies at the "round" number (2^k or 3 * 2^k) nearest their
 * geometric mean in (a, b]; the first range starts at 0, the last runs to
 * inf. Communicator sizes n_1 < n_2 < ... cover [n_j, floor(sqrt(n_j
 * n_(j+1)))], the largest n_k up to TUNE_NP_REACH n_k, never further:
 * what was measured at 8 ranks says nothing of 1024 (a linear algorithm
 * that wins at 8 passes every byte through one rank there), so larger
 * communicators fall through to the next table (COLLSHIM_TUNING_FILE,
 * then the built-in one); adjacent communicator sizes whose ranges agree
 * share one np= range. */
#ifndef COLLTUNE_CHOOSE_H
#define COLLTUNE_CHOOSE_H

#include "bench/util.h"

#include <stddef.h>
#include <stdint.h>

#define TUNE_CHOOSE_INF UINT64_MAX

struct tune_arm {
    char alg[64];    /* "vendor" or a native algorithm's name */
    char params[64]; /* in the grammar: "seg=64k outstanding=4", "" */
};

struct tune_stat {
    int ok;          /* timed at this size (not n/a, FAILED, slow, skipped) */
    int reps;
    double median, p10, p90;
};

/* One collective on one communicator size: every arm at every size. */
struct tune_series {
    int np;
    int narms;
    const struct tune_arm *arms;
    int nsizes;
    const uint64_t *key_bytes;     /* ascending selection bytes per size */
    const struct tune_stat *stat;  /* stat[size * narms + arm] */
    const char *const *builtin;    /* per size: the built-in's algorithm, or NULL */
    int nodes, ppn;                /* the measured communicator's layout; 0: unknown */
};

struct tune_choose_opts {
    double min_gain; /* smallest gain that may change a choice (0.03) */
    double z;        /* standard errors a gain must exceed (2) */
};
void tune_choose_opts_default(struct tune_choose_opts *o);

/* The relative gain a must have over b to count, and whether it has it. */
double tune_threshold(const struct tune_stat *a, const struct tune_stat *b,
                      const struct tune_choose_opts *o);
int tune_faster(const struct tune_stat *a, const struct tune_stat *b,
                const struct tune_choose_opts *o);

/* z whose one-sided normal tail is that of z divided by m (z for m <= 1). */
double tune_bonferroni_z(double z, int m);

/* Whether some native arm at one size (stat[arm], the vendor at index v)
 * is clearly faster than the vendor, z raised for the native arms timed:
 * what makes it eligible in tune_choose. */
int tune_native_wins(const struct tune_stat *stat, int narms, int v,
                     const struct tune_choose_opts *o);

/* A second look at one size (stat[arm], the vendor at index v): when no
 * native arm is clearly faster than the vendor, the native arms whose
 * median is below the vendor's by more than min_gain but within the noise
 * the choice asks (z raised for the native arms timed) are unresolved:
 * a longer, independent measurement can tell. Writes the `max` of them
 * with the smallest medians to out, fastest first, and returns how many;
 * 0 when a native arm already wins clearly, or none comes close. */
int tune_unresolved(const struct tune_stat *stat, int narms, int v,
                    const struct tune_choose_opts *o, int max, int *out);

/* Index of the vendor arm, -1 if none. */
int tune_vendor_arm(const struct tune_series *s);
/* choice[i]: the arm for size i (the same for sizes of equal key), -1 where
 * no arm was timed. */
void tune_choose(const struct tune_series *s, const struct tune_choose_opts *o, int *choice);

struct tune_range {
    uint64_t lo, hi; /* [lo, hi) selection bytes; hi TUNE_CHOOSE_INF */
    int arm;
};
/* A boundary in (below, above] between two measured sizes. */
uint64_t tune_boundary(uint64_t below, uint64_t above);
/* Merge the choices into ranges (out: at most nsizes); returns their count. */
int tune_merge(const struct tune_series *s, const int *choice, struct tune_range *out);
/* How far the rules of the largest measured communicator size reach. */
#define TUNE_NP_REACH 2
/* TUNE_NP_REACH * largest, at most INT_MAX. */
int tune_np_reach(int largest);
/* np ranges of n ascending communicator sizes; hi of the last is
 * tune_np_reach(nps[n - 1]). */
void tune_np_spans(const int *nps, int n, int *lo, int *hi);

/* The rules of collective `coll` from its series (ascending np): choose,
 * merge, span and write them into t. Returns the number of rules. */
int tune_rules(const char *coll, const struct tune_series *series, int nseries,
               const struct tune_choose_opts *o, struct bench_text *t);

/* The lines of `rules` that can match collective `coll` at np ranks (the
 * collective named and np within the rule's np=, or no np=), in order:
 * what the selector walks for that (coll, np), at a fraction of the cost
 * of parsing the whole table. Malloc'ed. */
char *tune_rules_for(const char *rules, const char *coll, int np);

#endif
