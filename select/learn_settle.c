/* learn_settle.c - the settling rule (learn_settle.h, doc/learning.md). */
#include "select/learn_settle.h"

#include <string.h>

const struct learn_rule_cfg learn_default_rule = {
    .min_rounds = 2, .max_rounds = 5, .margin = 0.05, .drop_factor = 1.5};

/* The middle sample; of an even count the lower (side < 0), the upper
 * (side > 0) or the mean (side 0) of the two middle ones. */
static double middle(const double *samples, int n, int side)
{
    double s[LEARN_MAX_ROUNDS];
    if (n <= 0)
        return 0;
    if (n > LEARN_MAX_ROUNDS)
        n = LEARN_MAX_ROUNDS;
    memcpy(s, samples, (size_t)n * sizeof *s);
    for (int i = 1; i < n; i++) /* insertion sort: at most 8 numbers */
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    if (n % 2)
        return s[n / 2];
    return side < 0 ? s[n / 2 - 1] : side > 0 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

double learn_median(const double *samples, int n) { return middle(samples, n, 0); }

static double smallest(const struct learn_cand *c)
{
    double m = c->samples[0];
    for (int i = 1; i < c->nsamples && i < LEARN_MAX_ROUNDS; i++)
        m = c->samples[i] < m ? c->samples[i] : m;
    return m;
}

static double median_of(const struct learn_cand *c) { return learn_median(c->samples, c->nsamples); }
/* Beating another candidate is judged conservatively: the winner's upper
 * median against the other's lower one (the same as the median for an odd
 * number of rounds), so one lucky round of two does not win. */
static double upper_median(const struct learn_cand *c) { return middle(c->samples, c->nsamples, 1); }
static double lower_median(const struct learn_cand *c) { return middle(c->samples, c->nsamples, -1); }

/* The live candidate of smallest median; an exact tie goes to the vendor,
 * then to the lower index. */
static int best_live(const struct learn_cand *c, int n, int vendor)
{
    int best = vendor;
    for (int i = 0; i < n; i++)
        if (c[i].state == CAND_LIVE && c[i].nsamples > 0 && median_of(&c[i]) < median_of(&c[best]))
            best = i;
    return best;
}

/* Drop what is clearly slower than the best: after one round, by
 * drop_factor; from min_rounds on, when even its fastest round is beyond
 * the margin of the best's median. The vendor stays: it is the reference. */
static void drop_slow(struct learn_cand *c, int n, int vendor, int best, int rounds,
                      const struct learn_rule_cfg *cfg)
{
    double mb = median_of(&c[best]);
    for (int i = 0; i < n; i++) {
        if (i == vendor || i == best || c[i].state != CAND_LIVE || c[i].nsamples == 0)
            continue;
        double lo = smallest(&c[i]);
        if (lo > mb * cfg->drop_factor || (rounds >= cfg->min_rounds && lo > mb * (1 + cfg->margin)))
            c[i].state = CAND_DROPPED;
    }
}

/* 1 when every other live candidate is beyond the margin of best. */
static int clear_winner(const struct learn_cand *c, int n, int best, double margin)
{
    double limit = upper_median(&c[best]) * (1 + margin);
    for (int i = 0; i < n; i++)
        if (i != best && c[i].state == CAND_LIVE && c[i].nsamples > 0 && lower_median(&c[i]) <= limit)
            return 0;
    return 1;
}

int learn_settle(struct learn_cand *c, int n, int vendor, int rounds,
                 const struct learn_rule_cfg *cfg)
{
    if (vendor < 0 || vendor >= n || c[vendor].nsamples == 0)
        return -1;
    int best = best_live(c, n, vendor);
    drop_slow(c, n, vendor, best, rounds, cfg);
    if (rounds < cfg->min_rounds)
        return -1;
    int last = rounds >= cfg->max_rounds;
    double mb = upper_median(&c[best]), mv = lower_median(&c[vendor]);
    if (best != vendor && mb * (1 + cfg->margin) >= mv) /* not beyond the noise of the vendor */
        return last ? vendor : -1;
    if (last || clear_winner(c, n, best, cfg->margin))
        return best;
    return -1;
}

static double mean(const struct learn_cand *c)
{
    double sum = 0;
    for (int i = 0; i < c->nsamples; i++)
        sum += c->samples[i];
    return c->nsamples ? sum / c->nsamples : 0;
}

int learn_confirm(const struct learn_cand *chosen, const struct learn_cand *vendor)
{
    if (chosen->state != CAND_LIVE || !chosen->nsamples || !vendor->nsamples)
        return 0;
    return mean(chosen) < mean(vendor);
}
