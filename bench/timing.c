/* timing.c - arms, validation and interleaved timing (timing.h). */
#include "bench/timing.h"
#include "bench/overlap.h"
#include "bench/util.h"
#include "collshim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 4
#define MAX_VALUES 16

void bench_opts_default(struct bench_opts *o)
{
    o->warmup = 3;
    o->min_reps = 20;
    o->max_reps = 1000;
    o->budget = 0.02;
    o->max_call = 1.0;
    o->seed = 0x5eed;
    o->auto_rules = NULL;
    o->fence = FENCE_WINDOW;
}

/* ---- arms ---- */

struct arm_list {
    struct bench_arm *v;
    int n, cap;
    const char *exclude;
};

/* Whether `name` is an item of the comma-separated list. */
static int in_list(const char *list, const char *name)
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

static int add_arm(struct arm_list *l, enum arm_kind kind, const char *label, const char *alg,
                   const char *params)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].label, label))
            return 0;
    if (in_list(l->exclude, label) || (alg && in_list(l->exclude, alg)))
        return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        struct bench_arm *grown = realloc(l->v, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        l->v = grown;
        l->cap = cap;
    }
    struct bench_arm *a = &l->v[l->n++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    snprintf(a->label, sizeof a->label, "%s", label);
    snprintf(a->alg, sizeof a->alg, "%s", alg ? alg : "");
    snprintf(a->params, sizeof a->params, "%s", params ? params : "");
    return 0;
}

static int arms_inter; /* bench_arms_inter() */

void bench_arms_inter(int on) { arms_inter = on != 0; }

/* Every native algorithm of the communicator kind being measured: the
 * inter_* ones on intercommunicators, the others elsewhere. */
static int add_natives(struct arm_list *l, const char *coll)
{
    int n = collshim_algorithm_count(coll);
    for (int i = 0; i < n; i++) {
        const char *name = collshim_algorithm_name(coll, i);
        if (!name || !strcmp(name, "vendor") || (strncmp(name, "inter_", 6) == 0) != arms_inter)
            continue;
        if (add_arm(l, ARM_NATIVE, name, name, ""))
            return -1;
    }
    return 0;
}

/* One parameter of an arm spec: "seg=16k/64k" -> key "seg", 2 values. */
struct param_part {
    char key[32];
    char values[MAX_VALUES][32];
    int nvalues;
};

static int parse_part(const char *text, size_t len, struct param_part *p, char *err,
                      size_t errlen)
{
    const char *eq = memchr(text, '=', len);
    memset(p, 0, sizeof *p);
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof p->key) {
        snprintf(err, errlen, "arm parameter \"%.*s\": expected KEY=VALUE[/VALUE...]",
                 (int)len, text);
        return -1;
    }
    memcpy(p->key, text, (size_t)(eq - text));
    for (const char *v = eq + 1, *end = text + len; v <= end && p->nvalues < MAX_VALUES;) {
        const char *slash = memchr(v, '/', (size_t)(end - v));
        size_t vl = (size_t)((slash ? slash : end) - v);
        if (vl == 0 || vl >= sizeof p->values[0]) {
            snprintf(err, errlen, "arm parameter \"%.*s\": empty or long value", (int)len, text);
            return -1;
        }
        memcpy(p->values[p->nvalues++], v, vl);
        v += vl + 1;
    }
    return 0;
}

/* Every combination of the parts' values becomes one arm. */
static int expand(struct arm_list *l, const char *name, const struct param_part *parts,
                  int nparts, int k, const char *label, const char *params)
{
    if (k == nparts)
        return add_arm(l, ARM_NATIVE, label, name, params);
    for (int i = 0; i < parts[k].nvalues; i++) {
        char lab[96], par[64];
        snprintf(lab, sizeof lab, "%s:%s=%s", label, parts[k].key, parts[k].values[i]);
        snprintf(par, sizeof par, "%s%s%s=%s", params, *params ? " " : "", parts[k].key,
                 parts[k].values[i]);
        if (expand(l, name, parts, nparts, k + 1, lab, par))
            return -1;
    }
    return 0;
}

/* Check a native arm's name and parameters with the shim's own parser. */
static int check_rule(const char *coll, const struct bench_arm *a, char *err, size_t errlen)
{
    char rule[256];
    snprintf(rule, sizeof rule, "%s @%s %s", coll, a->alg, a->params);
    int rc = collshim_tune(rule, err, (int)errlen);
    collshim_tune(NULL, NULL, 0);
    return rc == MPI_SUCCESS ? 0 : -1;
}

static int add_spec_item(struct arm_list *l, const char *coll, const char *item, size_t len,
                         char *err, size_t errlen)
{
    char name[64];
    struct param_part parts[MAX_PARTS];
    int nparts = 0;
    const char *colon = memchr(item, ':', len), *end = item + len;
    size_t nl = (size_t)((colon ? colon : end) - item);
    if (nl == 0 || nl >= sizeof name) {
        snprintf(err, errlen, "arm \"%.*s\": bad name", (int)len, item);
        return -1;
    }
    memcpy(name, item, nl);
    name[nl] = '\0';
    if (!colon && !strcmp(name, "all"))
        return add_arm(l, ARM_VENDOR, "vendor", NULL, NULL) ||
               add_arm(l, ARM_AUTO, "auto", NULL, NULL) || add_natives(l, coll);
    if (!colon && !strcmp(name, "native"))
        return add_natives(l, coll);
    if (!colon && (!strcmp(name, "vendor") || !strcmp(name, "auto")))
        return add_arm(l, name[0] == 'v' ? ARM_VENDOR : ARM_AUTO, name, NULL, NULL);
    if (collshim_algorithm_calls(coll, name) < 0) {
        snprintf(err, errlen, "%s has no algorithm \"%s\" (see COLLSHIM_LIST=1)", coll, name);
        return -1;
    }
    for (const char *p = colon; p && p < end; nparts++) {
        const char *next = memchr(p + 1, ':', (size_t)(end - p - 1));
        if (nparts == MAX_PARTS) {
            snprintf(err, errlen, "arm \"%.*s\": too many parameters", (int)len, item);
            return -1;
        }
        if (parse_part(p + 1, (size_t)((next ? next : end) - p - 1), &parts[nparts], err, errlen))
            return -1;
        p = next;
    }
    int first = l->n;
    if (expand(l, name, parts, nparts, 0, name, ""))
        return -1;
    for (int i = first; i < l->n; i++)
        if (check_rule(coll, &l->v[i], err, errlen))
            return -1;
    return 0;
}

int bench_arms_parse(const char *coll, const char *spec, const char *exclude,
                     struct bench_arm **arms, int *narms, char *err, size_t errlen)
{
    struct arm_list l = {.exclude = exclude};
    for (const char *p = spec && *spec ? spec : "all"; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len && add_spec_item(&l, coll, p, len, err, errlen)) {
            free(l.v);
            return -1;
        }
        p = comma ? comma + 1 : NULL;
    }
    *arms = l.v;
    *narms = l.n;
    return 0;
}

/* ---- one call of an arm ---- */

/* The rules the last arm_select() installed (a copy; NULL: unknown), so
 * that an arm whose rules are already in place does not parse them again
 * before each call: parsing a long table (20 us for 180 rules) before the
 * fence staggers the ranks' start into the timed call by as much on a
 * loaded machine (colltune's verification, doc/colltune.md). */
static char *installed;

static void forget_installed(void)
{
    free(installed);
    installed = NULL;
}

static void install(const char *rules)
{
    const char *r = rules ? rules : "";
    if (installed && !strcmp(installed, r))
        return;
    if (collshim_tune(r, NULL, 0) != MPI_SUCCESS)
        collshim_tune(NULL, NULL, 0); /* a malformed COLLSHIM_TUNE is ignored, as at start */
    forget_installed();
    installed = strdup(r);
}

/* The vendor arm bypasses the shim: it leaves the rules as they are. */
static void arm_select(const struct collop *c, const struct bench_arm *arm,
                       const struct bench_opts *o)
{
    char rule[256];
    if (arm->kind == ARM_NATIVE) {
        snprintf(rule, sizeof rule, "%s%s @%s %s", collop_name(c->coll),
                 c->icomm != MPI_COMM_NULL ? " inter" : "", arm->alg, arm->params);
        install(rule);
    } else if (arm->kind == ARM_AUTO) {
        install(arm->rules ? arm->rules : o->auto_rules);
    }
}

/* A timed call whose start some rank missed: not counted. */
#define LATE_CALL INFINITY

/* Select the arm, start at the fence, time the call; LATE_CALL if this rank
 * missed the start. */
static double timed_call(const struct collop *c, const struct bench_arm *arm,
                         const struct bench_opts *o, const struct fence *f, int *err)
{
    double t0, t;
    int late;
    arm_select(c, arm, o);
    t0 = fence_start(f, c->comm, &late);
    collshim_bypass(arm->kind == ARM_VENDOR);
    *err = arm->form == FORM_BLOCKING ? collop_call(c) : overlap_run(c, arm);
    t = MPI_Wtime() - t0;
    collshim_bypass(0);
    return late ? LATE_CALL : t;
}

static void agree_max(int *v, int n, MPI_Comm comm)
{
    collshim_bypass(1);
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_MAX, comm);
    collshim_bypass(0);
}

/* Test hook: COLLBENCH_TEST_CORRUPT=LABEL spoils that arm's output in the
 * check, so tests can see a wrong result reported as FAILED. */
static void test_corrupt(struct collop *c, const struct bench_arm *arm)
{
    const char *victim = getenv("COLLBENCH_TEST_CORRUPT");
    if (victim && !strcmp(victim, arm->label) && c->recvlen)
        c->recvbuf[c->recvlen - 1] ^= 0x5a;
}

/* Calls the shim counted: of the forced algorithm, and of every algorithm
 * of the collective (the vendor's included), which moves when the shim saw
 * the call at all. */
struct call_counts {
    long long alg, all;
};

static void count_calls(const char *coll, const struct bench_arm *arm, struct call_counts *n)
{
    int algs = collshim_algorithm_count(coll);
    n->alg = arm->kind == ARM_NATIVE ? collshim_algorithm_calls(coll, arm->alg) : 0;
    n->all = 0;
    for (int i = 0; i < algs; i++)
        n->all += collshim_algorithm_calls(coll, collshim_algorithm_name(coll, i));
}

/* What the checked call ran: the vendor's collective (bypassed), the
 * forced algorithm, the shim's choice, nothing (a computation alone), or
 * the library's collective untouched: a call the shim did not intercept. */
static const char *ran_name(const struct bench_arm *arm, const struct call_counts *before,
                            const struct call_counts *after)
{
    if (arm->form == FORM_CPU)
        return "computation";
    if (arm->kind == ARM_VENDOR)
        return "vendor";
    if (after->all == before->all)
        return "unintercepted";
    if (arm->kind == ARM_NATIVE && after->alg == before->alg + 1)
        return arm->alg;
    return collshim_last_algorithm();
}

/* Run the arm once on fresh buffers: did it run, and is it right? */
static void check_arm(struct collop *c, const struct bench_arm *arm,
                      const struct bench_opts *o, const struct fence *f, struct arm_result *r)
{
    struct call_counts before, after;
    int err, flags[4], coll_runs = arm->form != FORM_CPU;
    double t;
    memset(r, 0, sizeof *r);
    collop_prepare(c);
    count_calls(collop_name(c->coll), arm, &before);
    t = timed_call(c, arm, o, f, &err);
    count_calls(collop_name(c->coll), arm, &after);
    test_corrupt(c, arm);
    snprintf(r->ran, sizeof r->ran, "%s", ran_name(arm, &before, &after));
    flags[0] = err != MPI_SUCCESS;
    flags[1] = coll_runs && !err && !collop_matches(c);
    flags[2] = coll_runs && arm->kind == ARM_NATIVE && after.alg != before.alg + 1;
    flags[3] = o->max_call > 0 && isfinite(t) && t > o->max_call;
    agree_max(flags, 4, c->comm);
    if (flags[0] || flags[1]) {
        r->status = ARM_FAILED;
        snprintf(r->why, sizeof r->why, "%s", flags[0] ? "returned an error"
                                                     : "result differs from the vendor's");
    } else if (flags[2] && after.all == before.all) {
        r->status = ARM_NA;
        snprintf(r->why, sizeof r->why, "the shim did not intercept the call");
    } else if (flags[2]) {
        r->status = ARM_NA;
        snprintf(r->why, sizeof r->why, "restrictions forbid this case (%s ran)", r->ran);
    } else if (flags[3]) {
        r->status = ARM_SLOW;
        snprintf(r->why, sizeof r->why, "checked call took over %g s (--max-call)", o->max_call);
    }
}

/* ---- interleaved rounds ---- */

/* One warm-up round of every arm; whether some rank started a call late. */
static int warm_round(const struct collop *c, const struct bench_arm *arms, const int *ok,
                      int nok, const struct bench_opts *o, const struct fence *f, uint64_t *rng)
{
    int err, late = 0, order[nok > 0 ? nok : 1];
    for (int i = 0; i < nok; i++)
        order[i] = ok[i];
    bench_shuffle(order, nok, rng);
    for (int i = 0; i < nok; i++)
        late |= isinf(timed_call(c, &arms[order[i]], o, f, &err));
    agree_max(&late, 1, c->comm);
    return late;
}

/* Rounds that fit the budget, from the warm-up rounds' time (max over
 * ranks). A round with a late start doubles the fence's lead. */
static int warm_up(const struct collop *c, const struct bench_arm *arms, const int *ok,
                   int nok, const struct bench_opts *o, struct fence *f, uint64_t *rng)
{
    int warm = o->warmup > 0 ? o->warmup : 1;
    double t0 = MPI_Wtime(), round;
    for (int w = 0; w < warm; w++)
        if (warm_round(c, arms, ok, nok, o, f, rng))
            fence_widen(f);
    round = (MPI_Wtime() - t0) / warm;
    collshim_bypass(1);
    MPI_Allreduce(MPI_IN_PLACE, &round, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    collshim_bypass(0);
    double want = round > 0 ? o->budget * nok / round : o->max_reps;
    if (want < o->min_reps)
        want = o->min_reps;
    return want > o->max_reps ? o->max_reps : (int)want; /* max_reps caps min_reps too */
}

/* Statistics of the counted calls (late starts, infinite, sort last). */
static void fill_stats(struct arm_result *r, double *t, int reps)
{
    double sum = 0;
    bench_sort(t, reps);
    while (reps > 0 && isinf(t[reps - 1]))
        reps--;
    r->reps = reps;
    if (reps == 0) {
        r->status = ARM_SLOW;
        snprintf(r->why, sizeof r->why, "every timed call started late (fence)");
        return;
    }
    for (int i = 0; i < reps; i++)
        sum += t[i];
    r->min = t[0];
    r->max = t[reps - 1];
    r->mean = sum / reps;
    r->median = bench_percentile(t, reps, 0.5);
    r->p10 = bench_percentile(t, reps, 0.1);
    r->p90 = bench_percentile(t, reps, 0.9);
}

/* Time the arms ok[0..nok-1]; times[i*reps+r] is arm ok[i]'s r-th call. */
static int timed_rounds(const struct collop *c, const struct bench_arm *arms, const int *ok,
                        int nok, int reps, const struct bench_opts *o, const struct fence *f,
                        uint64_t *rng, double *times, int *errs)
{
    int order[nok];
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < nok; i++)
            order[i] = i;
        bench_shuffle(order, nok, rng);
        for (int k = 0; k < nok; k++) {
            int i = order[k], err;
            times[(size_t)i * reps + r] = timed_call(c, &arms[ok[i]], o, f, &err);
            errs[i] |= err != MPI_SUCCESS;
        }
    }
    collshim_bypass(1);
    int rc = MPI_Allreduce(MPI_IN_PLACE, times, nok * reps, MPI_DOUBLE, MPI_MAX, c->comm);
    collshim_bypass(0);
    agree_max(errs, nok, c->comm);
    return rc;
}

int bench_measure(struct collop *c, const struct bench_arm *arms, int narms,
                  const struct bench_opts *o, struct arm_result *res)
{
    int err = collop_reference(c), nok = 0;
    struct fence f;
    forget_installed();
    agree_max(&err, 1, c->comm);
    if (!err)
        err = fence_setup(&f, o->fence, c->comm);
    if (err)
        return err;
    int *ok = malloc((size_t)(narms + 1) * sizeof *ok);
    int *errs = calloc((size_t)(narms + 1), sizeof *errs);
    uint64_t rng = o->seed ^ (c->size_bytes * 0x9e3779b97f4a7c15ull) ^ (uint64_t)c->coll;
    if (!ok || !errs) {
        free(ok);
        free(errs);
        return MPI_ERR_NO_MEM;
    }
    for (int a = 0; a < narms; a++) {
        check_arm(c, &arms[a], o, &f, &res[a]);
        if (res[a].status == ARM_OK)
            ok[nok++] = a;
    }
    int reps = nok ? warm_up(c, arms, ok, nok, o, &f, &rng) : 0;
    double *times = nok ? malloc((size_t)nok * reps * sizeof *times) : NULL;
    if (nok && times)
        err = timed_rounds(c, arms, ok, nok, reps, o, &f, &rng, times, errs);
    else if (nok)
        err = MPI_ERR_NO_MEM;
    for (int i = 0; !err && i < nok; i++) {
        struct arm_result *r = &res[ok[i]];
        fill_stats(r, times + (size_t)i * reps, reps);
        if (errs[i]) {
            r->status = ARM_FAILED;
            snprintf(r->why, sizeof r->why, "returned an error while timed");
        }
    }
    free(times);
    free(errs);
    free(ok);
    collshim_tune(o->auto_rules, NULL, 0);
    forget_installed();
    return err;
}

int bench_fastest(const struct bench_arm *arms, int narms, const struct arm_result *res,
                  enum arm_kind kind)
{
    int found = -1;
    for (int i = 0; i < narms; i++)
        if (arms[i].kind == kind && res[i].status == ARM_OK &&
            (found < 0 || res[i].median < res[found].median))
            found = i;
    return found;
}
