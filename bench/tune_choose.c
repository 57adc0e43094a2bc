/* tune_choose.c - colltune's choice, ranges and rules (tune_choose.h). */
#include "bench/tune_choose.h"
#include "bench/util.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tune_choose_opts_default(struct tune_choose_opts *o)
{
    o->min_gain = 0.03;
    o->z = 2.0;
}

/* ---- noise ---- */

/* Standard error of a median from its p10..p90 spread (normal noise). */
static double median_se(const struct tune_stat *s)
{
    double spread = s->p90 > s->p10 ? s->p90 - s->p10 : 0;
    return 0.489 * spread / sqrt(s->reps > 1 ? (double)s->reps : 1.0);
}

double tune_threshold(const struct tune_stat *a, const struct tune_stat *b,
                      const struct tune_choose_opts *o)
{
    double sa = median_se(a), sb = median_se(b);
    double noise = b->median > 0 ? o->z * sqrt(sa * sa + sb * sb) / b->median : INFINITY;
    return noise > o->min_gain ? noise : o->min_gain;
}

int tune_faster(const struct tune_stat *a, const struct tune_stat *b,
                const struct tune_choose_opts *o)
{
    if (!a->ok || !b->ok || b->median <= 0)
        return 0;
    return (b->median - a->median) / b->median > tune_threshold(a, b, o);
}

double tune_bonferroni_z(double z, int m)
{
    double alpha = 0.5 * erfc(z / sqrt(2.0)) / (m > 1 ? m : 1), lo = 0, hi = 40;
    if (m <= 1)
        return z;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (0.5 * erfc(mid / sqrt(2.0)) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

int tune_vendor_arm(const struct tune_series *s)
{
    for (int a = 0; a < s->narms; a++)
        if (!strcmp(s->arms[a].alg, "vendor"))
            return a;
    return -1;
}

/* ---- the choice over a group of sizes of equal selection bytes ---- */

struct group {
    const struct tune_series *s;
    int i0, i1; /* sizes [i0, i1) */
    const struct tune_choose_opts *o;
    struct tune_choose_opts vs_vendor; /* z raised for the arms compared */
};

static const struct tune_stat *stat_at(const struct group *g, int i, int arm)
{
    return &g->s->stat[(size_t)i * g->s->narms + arm];
}

static int ok_all(const struct group *g, int arm)
{
    for (int i = g->i0; arm >= 0 && i < g->i1; i++)
        if (!stat_at(g, i, arm)->ok || stat_at(g, i, arm)->median <= 0)
            return 0;
    return arm >= 0;
}

/* Whether a beats b in the group: gain 1 - geomean(a/b) over the largest
 * threshold of its sizes (one size: exactly tune_faster). */
static int group_faster(const struct group *g, int a, int b)
{
    double logsum = 0, thr = 0;
    if (!ok_all(g, a) || !ok_all(g, b))
        return 0;
    for (int i = g->i0; i < g->i1; i++) {
        double t = tune_threshold(stat_at(g, i, a), stat_at(g, i, b), g->o);
        logsum += log(stat_at(g, i, a)->median / stat_at(g, i, b)->median);
        thr = t > thr ? t : thr;
    }
    return 1 - exp(logsum / (g->i1 - g->i0)) > thr;
}

/* A native arm must beat the vendor overall and lose clearly nowhere. */
static int eligible(const struct group *g, int a, int v)
{
    if (!ok_all(g, a))
        return 0;
    if (a == v || !ok_all(g, v))
        return 1;
    for (int i = g->i0; i < g->i1; i++)
        if (tune_faster(stat_at(g, i, v), stat_at(g, i, a), g->o))
            return 0;
    struct group strict = *g;
    strict.o = &g->vs_vendor;
    return group_faster(&strict, a, v);
}

/* Geometric mean of a's time over the reference arm's (or over 1 s). */
static double score(const struct group *g, int a, int ref)
{
    double logsum = 0;
    for (int i = g->i0; i < g->i1; i++)
        logsum += log(stat_at(g, i, a)->median / (ref >= 0 ? stat_at(g, i, ref)->median : 1.0));
    return logsum / (g->i1 - g->i0);
}

static int choose_group(const struct group *g, int prev)
{
    const struct tune_series *s = g->s;
    int v = tune_vendor_arm(s), ref = ok_all(g, v) ? v : -1, best = -1, pick = -1;
    double best_score = 0;
    const char *builtin = s->builtin ? s->builtin[g->i0] : NULL;
    for (int a = 0; a < s->narms; a++) {
        if (!eligible(g, a, v))
            continue;
        double sc = score(g, a, ref);
        if (best < 0 || sc < best_score)
            best = a, best_score = sc;
    }
    if (best < 0)
        return -1;
    if (prev >= 0 && eligible(g, prev, v) && !group_faster(g, best, prev))
        return prev;
    for (int a = 0; builtin && a < s->narms; a++)
        if (!strcmp(s->arms[a].alg, builtin) && eligible(g, a, v) && !group_faster(g, best, a) &&
            (pick < 0 || score(g, a, ref) < score(g, pick, ref)))
            pick = a;
    return pick >= 0 ? pick : best;
}

void tune_choose(const struct tune_series *s, const struct tune_choose_opts *o, int *choice)
{
    int prev = -1;
    for (int i = 0; i < s->nsizes;) {
        int j = i + 1;
        while (j < s->nsizes && s->key_bytes[j] == s->key_bytes[i])
            j++;
        struct group g = {s, i, j, o, *o};
        int natives = 0;
        for (int a = 0; a < s->narms; a++)
            natives += a != tune_vendor_arm(s) && ok_all(&g, a);
        g.vs_vendor.z = tune_bonferroni_z(o->z, natives);
        int c = choose_group(&g, prev);
        for (int k = i; k < j; k++)
            choice[k] = c;
        if (c >= 0)
            prev = c;
        i = j;
    }
}

/* ---- a second look ---- */

/* The options of "clearly faster than the vendor" at one size. */
static struct tune_choose_opts versus_vendor(const struct tune_stat *stat, int narms, int v,
                                             const struct tune_choose_opts *o)
{
    struct tune_choose_opts strict = *o;
    int natives = 0;
    for (int a = 0; a < narms; a++)
        natives += a != v && stat[a].ok;
    strict.z = tune_bonferroni_z(o->z, natives);
    return strict;
}

int tune_native_wins(const struct tune_stat *stat, int narms, int v,
                     const struct tune_choose_opts *o)
{
    struct tune_choose_opts strict = versus_vendor(stat, narms, v, o);
    for (int a = 0; v >= 0 && a < narms; a++)
        if (a != v && tune_faster(&stat[a], &stat[v], &strict))
            return 1;
    return 0;
}

int tune_unresolved(const struct tune_stat *stat, int narms, int v,
                    const struct tune_choose_opts *o, int max, int *out)
{
    int n = 0;
    if (v < 0 || max < 1 || !stat[v].ok || stat[v].median <= 0 ||
        tune_native_wins(stat, narms, v, o))
        return 0;
    for (int a = 0; a < narms; a++) {
        if (a == v || !stat[a].ok ||
            (stat[v].median - stat[a].median) / stat[v].median <= o->min_gain)
            continue;
        int i = n < max ? n++ : max; /* max: full, replaces the slowest if faster */
        if (i == max && stat[out[max - 1]].median <= stat[a].median)
            continue;
        for (i = i < max ? i : max - 1; i > 0 && stat[out[i - 1]].median > stat[a].median; i--)
            out[i] = out[i - 1];
        out[i] = a;
    }
    return n;
}

/* ---- ranges ---- */

uint64_t tune_boundary(uint64_t below, uint64_t above)
{
    uint64_t best = above;
    if (below == 0 || below + 1 >= above)
        return above;
    double g = sqrt((double)below * (double)above), bestd = fabs(log((double)above / g));
    for (int k = 1; k < 63; k++) {
        uint64_t cand[2] = {1ull << k, 3ull << (k - 1)};
        for (int j = 0; j < 2; j++) {
            double d = fabs(log((double)cand[j] / g));
            if (cand[j] > below && cand[j] <= above && d < bestd - 1e-12)
                best = cand[j], bestd = d;
        }
    }
    return best;
}

int tune_merge(const struct tune_series *s, const int *choice, struct tune_range *out)
{
    int n = 0;
    uint64_t last = 0;
    for (int i = 0; i < s->nsizes; i++) {
        if (choice[i] < 0)
            continue;
        if (n > 0 && out[n - 1].arm == choice[i]) {
            last = s->key_bytes[i];
            continue;
        }
        out[n].lo = n ? tune_boundary(last, s->key_bytes[i]) : 0;
        if (n)
            out[n - 1].hi = out[n].lo;
        out[n].hi = TUNE_CHOOSE_INF;
        out[n++].arm = choice[i];
        last = s->key_bytes[i];
    }
    return n;
}

int tune_np_reach(int largest)
{
    return largest > INT_MAX / TUNE_NP_REACH ? INT_MAX : largest * TUNE_NP_REACH;
}

void tune_np_spans(const int *nps, int n, int *lo, int *hi)
{
    for (int j = 0; j < n; j++) {
        lo[j] = j ? hi[j - 1] + 1 : nps[0];
        if (j == n - 1) {
            hi[j] = tune_np_reach(nps[j]);
            continue;
        }
        int mid = (int)floor(sqrt((double)nps[j] * nps[j + 1]) + 1e-9);
        hi[j] = mid >= nps[j + 1] ? nps[j + 1] - 1 : mid < nps[j] ? nps[j] : mid;
    }
}

/* The ranges of one communicator size, ready to compare and print. */
struct np_rules {
    int lo, hi, n;
    int nodes, ppn; /* the measured layout (0: unknown) */
    const struct tune_arm *arms;
    struct tune_range *r;
};

/* The layout fields of rules measured on nodes x ppn ranks: one node
 * measured says nodes=1 (flat choices, compared where every message stays
 * in a node, must not decide for several nodes); several nodes of K ranks
 * say nodes=2-inf ppn=K (the np= span gives the size). Unknown: none. */
static const char *layout_field(const struct np_rules *nr, char *buf, size_t len)
{
    if (nr->nodes <= 0)
        return "";
    if (nr->nodes == 1)
        return "nodes=1";
    snprintf(buf, len, "nodes=2-inf ppn=%d", nr->ppn);
    return buf;
}

static int same_rules(const struct np_rules *x, const struct np_rules *y)
{
    char lx[48], ly[48];
    if (x->n != y->n || x->n == 0 ||
        strcmp(layout_field(x, lx, sizeof lx), layout_field(y, ly, sizeof ly)))
        return 0;
    for (int i = 0; i < x->n; i++) {
        const struct tune_arm *a = &x->arms[x->r[i].arm], *b = &y->arms[y->r[i].arm];
        if (x->r[i].lo != y->r[i].lo || x->r[i].hi != y->r[i].hi || strcmp(a->alg, b->alg) ||
            strcmp(a->params, b->params))
            return 0;
    }
    return 1;
}

static void put_rules(struct bench_text *t, const char *coll, const struct np_rules *nr)
{
    char np[96], lo[32], hi[32], range[72], layout[48];
    const char *lf = layout_field(nr, layout, sizeof layout);
    if (nr->hi == INT_MAX)
        snprintf(np, sizeof np, "np=%d-inf%s%s", nr->lo, *lf ? " " : "", lf);
    else if (nr->lo == nr->hi)
        snprintf(np, sizeof np, "np=%d%s%s", nr->lo, *lf ? " " : "", lf);
    else
        snprintf(np, sizeof np, "np=%d-%d%s%s", nr->lo, nr->hi, *lf ? " " : "", lf);
    for (int i = 0; i < nr->n; i++) {
        const struct tune_range *r = &nr->r[i];
        const struct tune_arm *a = &nr->arms[r->arm];
        bench_format_bytes(r->lo, lo, sizeof lo);
        if (r->hi == TUNE_CHOOSE_INF)
            snprintf(hi, sizeof hi, "inf");
        else
            bench_format_bytes(r->hi, hi, sizeof hi);
        if (r->lo == 0 && r->hi == TUNE_CHOOSE_INF)
            range[0] = '\0';
        else
            snprintf(range, sizeof range, "%s-%s", lo, hi);
        bench_text_put(t, "%-21s %-10s %-12s @%s%s%s\n", coll, np, range, a->alg,
                      a->params[0] ? " " : "", a->params);
    }
}

int tune_rules(const char *coll, const struct tune_series *series, int nseries,
               const struct tune_choose_opts *o, struct bench_text *t)
{
    struct np_rules *nr = calloc((size_t)nseries + 1, sizeof *nr);
    int *nps = calloc((size_t)nseries + 1, sizeof *nps), *lo = calloc((size_t)nseries + 1, sizeof *lo),
        *hi = calloc((size_t)nseries + 1, sizeof *hi), rules = 0;
    for (int j = 0; nr && nps && lo && hi && j < nseries; j++) {
        const struct tune_series *s = &series[j];
        int *choice = calloc((size_t)s->nsizes + 1, sizeof *choice);
        nr[j].r = calloc((size_t)s->nsizes + 1, sizeof *nr[j].r);
        nr[j].arms = s->arms;
        nr[j].nodes = s->nodes;
        nr[j].ppn = s->ppn;
        nps[j] = s->np;
        if (choice && nr[j].r) {
            tune_choose(s, o, choice);
            nr[j].n = tune_merge(s, choice, nr[j].r);
        }
        free(choice);
    }
    if (nr && nps && lo && hi) {
        tune_np_spans(nps, nseries, lo, hi);
        for (int j = 0; j < nseries; j++)
            nr[j].lo = lo[j], nr[j].hi = hi[j];
        for (int j = 0; j < nseries; j++) {
            while (j + 1 < nseries && same_rules(&nr[j], &nr[j + 1]))
                nr[j + 1].lo = nr[j].lo, j++;
            put_rules(t, coll, &nr[j]);
            rules += nr[j].n;
        }
    }
    for (int j = 0; nr && j < nseries; j++)
        free(nr[j].r);
    free(nr);
    free(nps);
    free(lo);
    free(hi);
    return rules;
}

/* Whether one rule line is for coll at np. */
static int line_matches(const char *line, size_t len, const char *coll, int np)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *tok = strtok_r(buf, " \t\r", &save);
    if (!tok || strcmp(tok, coll))
        return 0;
    while ((tok = strtok_r(NULL, " \t\r", &save)))
        if (!strncmp(tok, "np=", 3)) {
            char *end;
            long lo = strtol(tok + 3, &end, 10), hi = lo;
            if (*end == '-')
                hi = !strcmp(end + 1, "inf") ? INT_MAX : strtol(end + 1, NULL, 10);
            return np >= lo && np <= hi;
        }
    return 1;
}

char *tune_rules_for(const char *rules, const char *coll, int np)
{
    struct bench_text t = {0};
    bench_text_put(&t, "%s", "");
    for (const char *p = rules; p && *p;) {
        size_t len = strcspn(p, "\n;");
        if (line_matches(p, len, coll, np))
            bench_text_put(&t, "%.*s\n", (int)len, p);
        p += len;
        p += *p != '\0';
    }
    return t.s;
}
