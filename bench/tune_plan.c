/* tune_plan.c - passes, cut levels, costs, useful arms (tune_plan.h). */
#include "bench/tune_plan.h"

#include <stddef.h>

const struct tune_level tune_levels[] = {
    {"nothing", 2, 20, 0.100, 3},
    {"repetitions to 15 per arm", 1, 15, 0.050, 3},
    {"repetitions to 10 per arm", 1, 10, 0.020, 3},
    {"repetitions to 7 per arm", 1, 7, 0.010, 3},
    {"repetitions to 5 per arm", 1, 5, 0.005, 3},
    {"repetitions to 5 per arm and sizes to x4 apart", 1, 5, 0.005, 2},
    {"repetitions to 5 per arm and sizes to x16 apart", 1, 5, 0.005, 1},
};
const int tune_nlevels = (int)(sizeof tune_levels / sizeof tune_levels[0]);

int tune_size_pass(int i, int n)
{
    if (i % 4 == 0 || i == n - 1)
        return 0;
    return i % 2 == 0 ? 1 : 2;
}

int tune_reps(const struct tune_level *l, double t, int max_reps)
{
    double want = t > 0 ? l->arm_time / t : max_reps;
    if (want < l->min_reps)
        want = l->min_reps;
    return want > max_reps ? max_reps : (int)want; /* max_reps caps min_reps too */
}

struct tune_level tune_verify_level(const struct tune_level *l)
{
    struct tune_level v = *l;
    v.min_reps = 2 * l->min_reps;
    v.arm_time = 2.5 * l->arm_time;
    return v;
}

double tune_point_cost(int narms, double t, const struct tune_level *l, int max_reps)
{
    return (1.0 + narms * (1.0 + l->warmup + tune_reps(l, t, max_reps))) * t;
}

int tune_pick_level(const double *est, int from, double left)
{
    for (int k = 0; k < tune_nlevels; k++)
        if (est[k] <= (k < from ? 0.8 * left : left))
            return k;
    return tune_nlevels - 1;
}

/* Whether value v is needed among the values of its group's arms at this
 * size: below the limit, or the smallest at or above it. */
static int needed(const struct tune_sweep_arm *arms, int n, int a, uint64_t v, uint64_t limit,
                  int by_seg)
{
    uint64_t smallest = UINT64_MAX;
    if (v < limit)
        return 1;
    for (int b = 0; b < n; b++) {
        if (arms[b].group != arms[a].group)
            continue;
        /* compare only arms that agree on the other parameter */
        if (by_seg ? arms[b].window != arms[a].window : arms[b].seg != arms[a].seg)
            continue;
        uint64_t w = by_seg ? arms[b].seg : (uint64_t)arms[b].window;
        if (w >= limit && w < smallest)
            smallest = w;
    }
    return v == smallest;
}

void tune_useful_arms(const struct tune_sweep_arm *arms, int n, uint64_t bytes, int np,
                      int *useful)
{
    for (int a = 0; a < n; a++) {
        useful[a] = 1;
        if (arms[a].group < 0)
            continue;
        if (arms[a].seg && !needed(arms, n, a, arms[a].seg, bytes, 1))
            useful[a] = 0;
        if (arms[a].window && !needed(arms, n, a, (uint64_t)arms[a].window,
                                      (uint64_t)(np > 1 ? np - 1 : 1), 0))
            useful[a] = 0;
    }
}
