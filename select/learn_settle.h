/* learn_settle.h - the settling rule of COLLSHIM_LEARN (doc/learning.md):
 * from the measured rounds of each candidate algorithm of one size class,
 * decide to keep exploring, drop a candidate, or settle on one. Pure
 * arithmetic on numbers every rank of the communicator holds alike (each
 * sample is the slowest rank's time, agreed by an allreduce), so every rank
 * takes the same decision at the same call. No MPI here: unit-tested. */
#ifndef COLLSHIM_LEARN_SETTLE_H
#define COLLSHIM_LEARN_SETTLE_H

#include "algorithms/coll.h"

#define LEARN_MAX_CAND 16   /* candidates per class, vendor included */
#define LEARN_MAX_ROUNDS 8  /* samples kept per candidate */

enum learn_cand_state {
    CAND_LIVE,       /* still measured */
    CAND_DROPPED,    /* slower than the best beyond the noise: no more rounds */
    CAND_FAILED,     /* returned an error on some rank: never chosen */
    CAND_RESTRICTED, /* its restrictions refused a call of the class: never chosen */
};

struct learn_cand {
    int alg;                    /* registry index */
    struct coll_params params;  /* of the rule that proposed it */
    enum learn_cand_state state;
    int nsamples;
    double samples[LEARN_MAX_ROUNDS]; /* seconds per call, slowest rank, one per round */
};

struct learn_rule_cfg {
    int min_rounds;     /* rounds before any settling or fine dropping */
    int max_rounds;     /* settle at the latest after this many (<= LEARN_MAX_ROUNDS) */
    double margin;      /* relative difference taken as beyond the noise (0.05) */
    double drop_factor; /* after one round, drop what is this many times slower (1.5) */
};
extern const struct learn_rule_cfg learn_default_rule;

/* The median (of an even count, the mean of the two middle samples). */
double learn_median(const double *samples, int n);
/* After round `rounds` (1, 2, ...) has measured every live candidate:
 * marks candidates CAND_DROPPED and returns the index to settle on, or -1
 * to run another round. Never returns a candidate that is not live, nor
 * one whose median does not beat the vendor's (index vendor) by the margin:
 * ties and near-ties go to the vendor. */
int learn_settle(struct learn_cand *c, int n, int vendor, int rounds,
                 const struct learn_rule_cfg *cfg);

/* The confirmation that follows a settling on a native algorithm: chosen
 * and vendor measured again, alone, LEARN_CONFIRM_ROUNDS batches each,
 * alternating, batches of at least 2 calls (back to back, as the program
 * makes them, where exploring's largest sizes time one call right after
 * the agreement allreduce). 1: keep the chosen one (its mean is below the
 * vendor's); 0: settle on the vendor (a tie included, or no samples). */
#define LEARN_CONFIRM_ROUNDS 2
int learn_confirm(const struct learn_cand *chosen, const struct learn_cand *vendor);

#endif
