/* tune_run.c - colltune's sweep under a budget and its verification
 * (tune_run.h). */
#include "bench/tune_run.h"
#include "bench/output.h"
#include "bench/util.h"
#include "collshim.h"
#include "algorithms/coll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- plan ---- */

int tune_measurable(int coll, int np, size_t size, int elem)
{
    if (!collop_uses_elements(coll))
        return coll == COLL_barrier || size > 0;
    size_t n = size / (size_t)elem;
    return coll == COLL_reduce_scatter_block ? n >= (size_t)np : n >= 1;
}

/* Bytes the lower bound counts for a case (collops.h, full_bytes). */
static double full_bytes(int coll, int np, size_t size)
{
    if (coll == COLL_barrier)
        return 0;
    return collop_uses_elements(coll) || coll == COLL_bcast ? (double)size : (double)size * np;
}

/* A guess of one call's time, fence included; the sweep calibrates it. */
static double call_estimate(const struct tune_run *r, int coll, int np, size_t size)
{
    return 2 * bound_time(coll, np, full_bytes(coll, np, size), &r->model) +
           bound_time(COLL_barrier, np, 0, &r->model) + 20e-6;
}

static int add_case(struct tune_run *r, int coll, int k, size_t size, int pass)
{
    int na = r->narms[coll], np = r->nps[k];
    struct tune_case *c = &r->cases[r->ncases];
    memset(c, 0, sizeof *c);
    c->coll = coll, c->k = k, c->size = size, c->pass = pass;
    c->t_est = call_estimate(r, coll, np, size);
    c->useful = calloc((size_t)na + 1, sizeof *c->useful);
    c->res = calloc((size_t)na + 1, sizeof *c->res);
    if (!c->useful || !c->res)
        return -1;
    tune_useful_arms(r->sweep[coll], na, (uint64_t)full_bytes(coll, np, size), np, c->useful);
    r->ncases++;
    return 0;
}

int tune_run_plan(struct tune_run *r)
{
    int elem = 1, nsizes = 0, cap;
    size_t sizes[64];
    MPI_Type_size(r->type, &elem);
    for (long long s = r->lo > 0 ? r->lo : 1; s <= r->hi && nsizes < 64; s *= 2)
        sizes[nsizes++] = (size_t)s;
    cap = r->ncolls * r->nnps * (nsizes + 1) + 1;
    if (!(r->cases = calloc((size_t)cap, sizeof *r->cases)))
        return -1;
    for (int i = 0; i < r->ncolls; i++) {
        int coll = r->colls[i];
        for (int k = 0; k < r->nnps; k++) {
            size_t ok[64];
            int n = 0;
            if (coll == COLL_barrier)
                ok[n++] = 0;
            for (int j = 0; coll != COLL_barrier && j < nsizes; j++)
                if (tune_measurable(coll, r->nps[k], sizes[j], elem))
                    ok[n++] = sizes[j];
            for (int j = 0; j < n; j++)
                if (add_case(r, coll, k, ok[j], tune_size_pass(j, n)))
                    return -1;
        }
    }
    return 0;
}

static int count_useful(const struct tune_run *r, const struct tune_case *c)
{
    int n = 0;
    for (int a = 0; a < r->narms[c->coll]; a++)
        n += c->useful[a];
    return n;
}

static double sweep_cost(const struct tune_run *r, const struct tune_case *c, int level)
{
    return tune_point_cost(count_useful(r, c), c->t_est, &tune_levels[level], r->max_reps) +
           c->t_est;
}

static double verify_cost(const struct tune_run *r, const struct tune_case *c, int level)
{
    struct tune_level v = tune_verify_level(&tune_levels[level]);
    return 2 * tune_point_cost(2, c->t_est, &v, r->max_reps);
}

double tune_run_estimate(const struct tune_run *r, int level)
{
    double t = 0;
    for (int i = 0; i < r->ncases; i++) {
        const struct tune_case *c = &r->cases[i];
        int planned = c->state == CASE_PLANNED && c->pass < tune_levels[level].passes;
        if (planned)
            t += sweep_cost(r, c, level);
        if (r->verify && !c->verified && (planned || c->state == CASE_MEASURED))
            t += verify_cost(r, c, level);
    }
    return t;
}

/* ---- budget and progress (decided on rank 0, agreed over comm) ---- */

void tune_format_time(double s, char *buf, size_t len)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* Real over estimated seconds of the work done so far, starting from the
 * model's guess as if 20 s of work had gone by at its pace: one case alone
 * (the largest np comes first, its first size is the smallest) must not
 * decide the cuts of the whole run. */
static double pace(const struct tune_run *r)
{
    const double prior = 20.0;
    return (r->real_done + prior) / (r->est_done + prior);
}

static void agree_level(struct tune_run *r, MPI_Comm comm)
{
    collshim_bypass(1);
    MPI_Bcast(&r->level, 1, MPI_INT, 0, comm);
    collshim_bypass(0);
}

static void replan(struct tune_run *r, MPI_Comm comm)
{
    if (r->rank == 0 && r->budget > 0) {
        double est[16], f = pace(r), left = r->budget - (MPI_Wtime() - r->t0);
        char a[32], b[32];
        for (int k = 0; k < tune_nlevels; k++)
            est[k] = f * tune_run_estimate(r, k);
        int level = tune_pick_level(est, r->level, left);
        tune_format_time(est[r->level], a, sizeof a);
        tune_format_time(left, b, sizeof b);
        if (level != r->level)
            fprintf(stderr, "colltune: about %s of work left at this pace, %s of the budget: %s %s\n",
                    a, b,
                    level > r->level ? "cutting" : level ? "ahead, now cutting only" : "ahead, cutting",
                    tune_levels[level].what);
        if (level > r->level && est[level] > left)
            fprintf(stderr, "colltune: even so the rest needs about %.0f s; the budget will be "
                            "exceeded\n", est[level]);
        r->level = level;
    }
    agree_level(r, comm);
    r->max_level = r->level > r->max_level ? r->level : r->max_level;
}

static void progress(const struct tune_run *r, const char *what, int n, double secs)
{
    char el[32], left[32];
    double elapsed = MPI_Wtime() - r->t0, rest = pace(r) * tune_run_estimate(r, r->level);
    if (r->rank != 0)
        return;
    tune_format_time(elapsed, el, sizeof el);
    tune_format_time(rest, left, sizeof left);
    fprintf(stderr, "colltune: [%3d%%] %s: %d size%s in %.1f s; %s elapsed, about %s left\n",
            (int)(100 * elapsed / (elapsed + rest + 1e-9)), what, n, n == 1 ? "" : "s", secs,
            el, left);
}

/* ---- one case ---- */

static void level_opts(const struct tune_run *r, struct bench_opts *o, int verify)
{
    struct tune_level v = tune_verify_level(&tune_levels[r->level]);
    const struct tune_level *l = verify ? &v : &tune_levels[r->level];
    bench_opts_default(o);
    o->warmup = l->warmup;
    o->min_reps = l->min_reps;
    o->max_reps = r->max_reps;
    o->budget = l->arm_time;
    o->max_call = r->max_call;
    o->seed = r->seed;
    o->auto_rules = NULL;
    o->fence = r->fence;
}

/* What the built-in table (and COLLSHIM_TUNING_FILE) runs for this case. */
static void builtin_choice(struct collop *c, char *name, size_t len)
{
    collshim_tune("", NULL, 0);
    collop_prepare(c);
    collop_call(c);
    snprintf(name, len, "%s", collshim_last_algorithm());
}

/* Time arms map[0..n) of the case with options o and keep their results. */
static int time_arms(struct tune_run *r, struct tune_case *tc, struct collop *c, const int *map,
                     int n, const struct bench_opts *o)
{
    struct bench_arm *sub = calloc((size_t)n + 1, sizeof *sub);
    struct arm_result *res = calloc((size_t)n + 1, sizeof *res);
    int err = sub && res ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int j = 0; !err && j < n; j++)
        sub[j] = r->arms[tc->coll][map[j]];
    if (!err)
        err = bench_measure(c, sub, n, o, res);
    if (!err && r->csv)
        out_csv_rows(r->csv, c, sub, n, res,
                     bound_time(tc->coll, c->size, (double)c->full_bytes, &r->model));
    for (int j = 0; !err && j < n; j++)
        tc->res[map[j]] = res[j];
    free(sub);
    free(res);
    return err;
}

/* Time the useful arms of the case; the others are n/a. */
static int measure_arms(struct tune_run *r, struct tune_case *tc, struct collop *c)
{
    int na = r->narms[tc->coll], nsub = 0, err;
    int *map = calloc((size_t)na + 1, sizeof *map);
    struct bench_opts o;
    if (!map)
        return MPI_ERR_NO_MEM;
    tune_useful_arms(r->sweep[tc->coll], na, c->full_bytes, c->size, tc->useful);
    for (int a = 0; a < na; a++) {
        tc->res[a].status = ARM_NA;
        snprintf(tc->res[a].why, sizeof tc->res[a].why, "runs like another arm of its sweep");
        if (tc->useful[a])
            map[nsub++] = a;
    }
    level_opts(r, &o, 0);
    err = time_arms(r, tc, c, map, nsub, &o);
    free(map);
    return err;
}

/* ---- a second look ---- */

/* Arms a second look times: the vendor and the close calls. */
#define LOOK_ARMS 4
/* Repetitions and time per arm over the sweep's level, and the most
 * seconds a second look may take (the vendor's median times its calls). */
#define LOOK_REPS 3
#define LOOK_MAX_SECONDS 3.0

static void case_stats(const struct tune_run *r, const struct tune_case *tc, struct tune_stat *st)
{
    for (int a = 0; a < r->narms[tc->coll]; a++) {
        const struct arm_result *x = &tc->res[a];
        st[a] = (struct tune_stat){x->status == ARM_OK, x->reps, x->median, x->p10, x->p90};
    }
}

/* Time the vendor and arms pick[0..n) again, longer, and keep the new
 * results: an independent sample, so the arm that looked best in the first
 * one is not favoured by the luck that made it look best. */
static int look_again(struct tune_run *r, struct tune_case *tc, struct collop *c, const int *pick,
                      int n)
{
    struct bench_opts o;
    level_opts(r, &o, 0);
    o.min_reps *= LOOK_REPS;
    o.budget *= LOOK_REPS;
    return time_arms(r, tc, c, pick, n, &o);
}

/* Where no native arm beat the vendor clearly but some came close (within
 * the noise, beyond min_gain), measure those and the vendor again with
 * LOOK_REPS times the repetitions, if that fits in LOOK_MAX_SECONDS. */
static int second_look(struct tune_run *r, struct tune_case *tc, struct collop *c)
{
    int na = r->narms[tc->coll], v = -1, pick[LOOK_ARMS], n;
    struct tune_stat *st = calloc((size_t)na + 1, sizeof *st);
    struct tune_choose_opts co;
    tune_choose_opts_default(&co);
    co.min_gain = r->min_gain;
    for (int a = 0; a < na; a++)
        v = r->arms[tc->coll][a].kind == ARM_VENDOR ? a : v;
    if (!st || v < 0) {
        free(st);
        return st ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    case_stats(r, tc, st);
    n = tune_unresolved(st, na, v, &co, LOOK_ARMS - 1, pick + 1);
    pick[0] = v;
    int reps = LOOK_REPS * tune_levels[r->level].min_reps;
    int err = MPI_SUCCESS;
    if (n > 0 && (n + 1) * reps * st[v].median <= LOOK_MAX_SECONDS) {
        err = look_again(r, tc, c, pick, n + 1);
        case_stats(r, tc, st);
        r->looks++;
        r->looks_won += !err && tune_native_wins(st, na, v, &co);
    }
    free(st);
    return err;
}

static void measure_case(struct tune_run *r, struct tune_case *tc, MPI_Comm comm)
{
    struct collop c;
    int np = r->nps[tc->k];
    double t0 = MPI_Wtime();
    int err = collop_setup(&c, tc->coll, comm, tc->size, r->type, r->root % np);
    if (!err)
        err = measure_arms(r, tc, &c);
    if (!err)
        err = second_look(r, tc, &c);
    if (!err) {
        builtin_choice(&c, tc->builtin, sizeof tc->builtin);
        tc->key_bytes = c.key_bytes;
    } else if (err != 1 && r->rank == 0) {
        fprintf(stderr, "colltune: %s np=%d size %zu: the vendor's reference call failed (%d); "
                        "not tuned\n", collop_name(tc->coll), np, tc->size, err);
    }
    collop_free(&c);
    tc->state = err ? CASE_SKIPPED : CASE_MEASURED;
    tc->level = r->level;
    r->est_done += sweep_cost(r, tc, r->level);
    r->real_done += MPI_Wtime() - t0;
}

/* Every planned case of (coll, k) in this pass; returns how many ran. */
static int sweep_block(struct tune_run *r, int coll, int k, int pass)
{
    int n = 0;
    for (int i = 0; i < r->ncases; i++) {
        struct tune_case *tc = &r->cases[i];
        if (tc->coll == coll && tc->k == k && tc->pass == pass && tc->state == CASE_PLANNED &&
            pass < tune_levels[r->level].passes) {
            measure_case(r, tc, r->comms[k]);
            replan(r, r->comms[k]);
            n++;
        }
    }
    return n;
}

int tune_run_sweep(struct tune_run *r)
{
    char what[96];
    for (int pass = 0; pass < TUNE_PASSES; pass++) {
        for (int k = r->nnps - 1; k >= 0 && pass < tune_levels[r->level].passes; k--) {
            for (int i = 0; r->comms[k] != MPI_COMM_NULL && i < r->ncolls; i++) {
                if (pass >= tune_levels[r->level].passes)
                    break;
                double t0 = MPI_Wtime();
                int n = sweep_block(r, r->colls[i], k, pass);
                snprintf(what, sizeof what, "pass %d of %d, %s np=%d", pass + 1,
                         tune_levels[r->level].passes, collop_name(r->colls[i]), r->nps[k]);
                if (n)
                    progress(r, what, n, MPI_Wtime() - t0);
            }
            bench_quiet_barrier(MPI_COMM_WORLD);
            replan(r, MPI_COMM_WORLD);
        }
    }
    return MPI_SUCCESS;
}

/* ---- series for the choice ---- */

static int fill_series(const struct tune_run *r, int coll, int k, struct tune_series *s)
{
    int na = r->narms[coll], n = 0;
    for (int i = 0; i < r->ncases; i++)
        n += r->cases[i].coll == coll && r->cases[i].k == k && r->cases[i].state == CASE_MEASURED;
    struct tune_arm *arms = calloc((size_t)na + 1, sizeof *arms);
    uint64_t *keys = calloc((size_t)n + 1, sizeof *keys);
    struct tune_stat *stat = calloc((size_t)n * na + 1, sizeof *stat);
    const char **builtin = calloc((size_t)n + 1, sizeof *builtin);
    *s = (struct tune_series){.np = r->nps[k], .nodes = r->nodes[k], .ppn = r->ppn[k], .narms = na, .arms = arms, .nsizes = n,
                              .key_bytes = keys, .stat = stat, .builtin = builtin};
    if (!arms || !keys || !stat || !builtin)
        return -1;
    for (int a = 0; a < na; a++) {
        const struct bench_arm *b = &r->arms[coll][a];
        snprintf(arms[a].alg, sizeof arms[a].alg, "%s", b->kind == ARM_VENDOR ? "vendor" : b->alg);
        snprintf(arms[a].params, sizeof arms[a].params, "%s", b->params);
    }
    for (int i = 0, j = 0; i < r->ncases; i++) {
        const struct tune_case *c = &r->cases[i];
        if (c->coll != coll || c->k != k || c->state != CASE_MEASURED)
            continue;
        keys[j] = c->key_bytes;
        builtin[j] = c->builtin;
        case_stats(r, c, &stat[(size_t)j * na]);
        for (int a = 0; c->demoted && a < na; a++)
            stat[(size_t)j * na + a].ok &= r->arms[coll][a].kind == ARM_VENDOR;
        j++;
    }
    return n;
}

int tune_run_series(const struct tune_run *r, int coll, struct tune_series **series)
{
    int n = 0;
    struct tune_series *s = calloc((size_t)r->nnps + 1, sizeof *s);
    if (!(*series = s))
        return -1;
    for (int k = 0; k < r->nnps; k++) {
        int got = fill_series(r, coll, k, &s[n]);
        if (got > 0)
            n++;
        else
            tune_run_free_series(&s[n], 1), memset(&s[n], 0, sizeof s[n]);
    }
    return n;
}

void tune_run_free_series(struct tune_series *series, int n)
{
    for (int i = 0; series && i < n; i++) {
        free((void *)series[i].arms);
        free((void *)series[i].key_bytes);
        free((void *)series[i].stat);
        free((void *)series[i].builtin);
    }
}

/* ---- verification ---- */

/* The verification times two pairs, each arm against the vendor: in a pair
 * the auto arm's rules are installed once (timing.c), so no table is parsed
 * between timed calls. vres[] holds the pairs side by side. */
enum { V_VENDOR, V_NEW, V_BUILTIN, V_VENDOR2 };

static void verify_arms(struct bench_arm *arms, const char *rules)
{
    memset(arms, 0, 4 * sizeof *arms);
    for (int a = V_VENDOR; a <= V_VENDOR2; a += V_VENDOR2 - V_VENDOR) {
        arms[a].kind = ARM_VENDOR;
        snprintf(arms[a].label, sizeof arms[a].label, "vendor");
    }
    arms[V_NEW].kind = ARM_AUTO;
    snprintf(arms[V_NEW].label, sizeof arms[V_NEW].label, "new");
    arms[V_NEW].rules = rules;
    arms[V_BUILTIN].kind = ARM_AUTO;
    snprintf(arms[V_BUILTIN].label, sizeof arms[V_BUILTIN].label, "built-in");
    arms[V_BUILTIN].rules = "";
}

/* An arm's time over the vendor's of its pair; -1 if either was not timed. */
static double vratio(const struct tune_case *c, int arm)
{
    const struct arm_result *v = &c->vres[arm == V_BUILTIN ? V_VENDOR2 : V_VENDOR];
    const struct arm_result *x = &c->vres[arm];
    if (!c->verified || v->status != ARM_OK || x->status != ARM_OK || v->median <= 0)
        return -1;
    return x->median / v->median;
}

/* Two standard errors of a ratio of medians over the vendor's median. */
static double vnoise(const struct tune_case *c, int arm)
{
    const struct arm_result *x = &c->vres[arm];
    const struct arm_result *v = &c->vres[arm == V_BUILTIN ? V_VENDOR2 : V_VENDOR];
    struct tune_choose_opts o = {0, 2};
    struct tune_stat a = {1, x->reps, x->median, x->p10, x->p90};
    struct tune_stat b = {1, v->reps, v->median, v->p10, v->p90};
    return vratio(c, arm) < 0 ? 0 : tune_threshold(&a, &b, &o);
}

static void verify_row(FILE *f, const struct tune_case *c)
{
    char size[32], cell[3][16];
    bench_format_bytes(c->size, size, sizeof size);
    for (int a = 0; a < 3; a++) {
        if (c->vres[a].status == ARM_OK)
            snprintf(cell[a], sizeof cell[a], "%.2f", c->vres[a].median * 1e6);
        else
            snprintf(cell[a], sizeof cell[a], "%s", c->vres[a].status == ARM_FAILED ? "FAILED" : "-");
    }
    char runs[96];
    snprintf(runs, sizeof runs, "%s", c->vres[V_NEW].ran);
    if (c->first_ratio > 0)
        snprintf(runs + strlen(runs), sizeof runs - strlen(runs), " (again; 1st %.2f)",
                 c->first_ratio);
    fprintf(f, "%8s %11s %11s %6.2f %5.2f  %-28s %11s %6.2f  %s\n", size, cell[V_VENDOR],
            cell[V_NEW], vratio(c, V_NEW), vnoise(c, V_NEW), runs, cell[V_BUILTIN],
            vratio(c, V_BUILTIN), c->vres[V_BUILTIN].ran);
}

/* Time one case. Where the new table looks more than 5% slower than the
 * vendor, measure it once more with 4 times the repetitions and keep that,
 * whatever it says (the first ratio is shown): medians of a few dozen calls
 * with a p10..p90 spread of 30% (small messages on the virtual cluster)
 * differ by 5% by chance alone. Rank-invariant: the statistics are of the
 * maximum over ranks of each call. */
static int verify_case(struct tune_run *r, struct tune_case *tc, const struct bench_arm *arms)
{
    struct collop c;
    struct bench_opts o;
    int np = r->nps[tc->k];
    int err = collop_setup(&c, tc->coll, r->comms[tc->k], tc->size, r->type, r->root % np);
    level_opts(r, &o, 1);
    if (!err)
        err = bench_measure(&c, &arms[V_BUILTIN], 2, &o, &tc->vres[V_BUILTIN]);
    if (!err)
        err = bench_measure(&c, arms, 2, &o, tc->vres);
    tc->verified = !err;
    r->est_done += verify_cost(r, tc, r->level);
    if (!err && vratio(tc, V_NEW) > 1.05) {
        tc->first_ratio = vratio(tc, V_NEW);
        o.min_reps *= 4;
        o.budget *= 4;
        err = bench_measure(&c, arms, 2, &o, tc->vres);
        tc->verified = !err;
        r->est_done += 2 * verify_cost(r, tc, r->level);
    }
    double bound = bound_time(tc->coll, np, (double)c.full_bytes, &r->model);
    /* Each pair's vendor row stands beside its auto row (vendor, new;
     * built-in, vendor): collbench-plot finds the verification's vendor so. */
    if (!err && r->csv) {
        out_csv_rows(r->csv, &c, arms, 2, tc->vres, bound);
        out_csv_rows(r->csv, &c, &arms[V_BUILTIN], 2, &tc->vres[V_BUILTIN], bound);
    }
    collop_free(&c);
    return err;
}

/* The new table's arm runs with only the rules that can match (coll, np):
 * the whole table, parsed before every call, costs 20 us per call here and
 * staggers the ranks' start into the timed call by as much on the virtual
 * cluster (+10% at small sizes); the selection is the same. */
static int to_verify(const struct tune_case *tc, int coll, int k)
{
    return tc->coll == coll && tc->k == k && tc->state == CASE_MEASURED && !tc->verified;
}

static void verify_block(struct tune_run *r, int coll, int k, const char *rules, FILE *out)
{
    int n = 0, np = r->nps[k];
    struct bench_arm arms[4];
    char *sub = tune_rules_for(rules, collop_name(coll), np), what[96];
    double t0 = MPI_Wtime();
    verify_arms(arms, sub ? sub : rules);
    for (int i = 0; i < r->ncases; i++)
        n += to_verify(&r->cases[i], coll, k);
    if (r->rank == 0 && out && n)
        fprintf(out, "\n# %s np=%d: median us per call; new = auto with the "
                     "new table, built-in = auto with the built-in table, each timed in a pair "
                     "with the vendor; xV = time/vendor of its pair, +- = 2 standard errors of "
                     "xV\n%8s %11s %11s %6s %5s  %-28s %11s %6s  %s\n",
                collop_name(coll), np, "size", "vendor", "new", "xV", "+-", "new runs",
                "built-in", "xV", "built-in runs");
    for (int i = 0; n && i < r->ncases; i++) {
        struct tune_case *tc = &r->cases[i];
        if (!to_verify(tc, coll, k))
            continue;
        double t1 = MPI_Wtime();
        if (!verify_case(r, tc, arms) && r->rank == 0 && out)
            verify_row(out, tc);
        r->real_done += MPI_Wtime() - t1;
        replan(r, r->comms[k]);
    }
    if (out)
        fflush(out);
    snprintf(what, sizeof what, "verify %s np=%d", collop_name(coll), np);
    if (n)
        progress(r, what, n, MPI_Wtime() - t0);
    free(sub);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and worst of the ratios of one arm over a collective's cases. */
static int ratio_stats(const struct tune_run *r, int coll, int k, int arm, double *median,
                       double *worst, const struct tune_case **at, int *over, int *sure)
{
    int n = 0;
    double *v = calloc((size_t)r->ncases + 1, sizeof *v);
    *worst = 0, *at = NULL, *over = 0, *sure = 0;
    for (int i = 0; v && i < r->ncases; i++) {
        int mine = r->cases[i].coll == coll && (k < 0 || r->cases[i].k == k);
        double x = mine ? vratio(&r->cases[i], arm) : -1;
        if (x < 0)
            continue;
        v[n++] = x;
        *over += x > 1.05;
        *sure += x - vnoise(&r->cases[i], arm) > 1.05;
        if (x > *worst)
            *worst = x, *at = &r->cases[i];
    }
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_double);
    *median = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
    free(v);
    return n;
}

static void summary(const struct tune_run *r, FILE *f, const char *prefix)
{
    int total = 0, total_over = 0, total_sure = 0, again = 0, top = r->nnps - 1;
    fprintf(f, "#\n%sverification: time of auto over the vendor's, median and worst over the "
               "measured sizes and np;\n%s>5%%: cases slower than the vendor by more than 5%%, "
               "sure: by more than 5%% plus 2 standard errors\n%s%-21s %5s  %-30s %4s %4s  "
               "%-8s  %s\n",
            prefix, prefix, prefix, "collective", "cases", "new table: median worst (at)", ">5%",
            "sure", "np=max", "built-in: median worst (at)");
    for (int i = 0; i < r->ncolls; i++) {
        double med[3], worst[3];
        const struct tune_case *at[3];
        int over[3], sure[3], n = 0;
        char cell[2][64], sz[32];
        for (int j = 0; j < 2; j++) {
            n = ratio_stats(r, r->colls[i], -1, j ? V_BUILTIN : V_NEW, &med[j], &worst[j], &at[j],
                            &over[j], &sure[j]);
            if (at[j])
                bench_format_bytes(at[j]->size, sz, sizeof sz);
            snprintf(cell[j], sizeof cell[j], n ? "%.2f  %.2f (np=%d %s)" : "-", med[j],
                     worst[j], at[j] ? r->nps[at[j]->k] : 0, at[j] ? sz : "");
        }
        if (!n)
            continue;
        ratio_stats(r, r->colls[i], top, V_NEW, &med[2], &worst[2], &at[2], &over[2], &sure[2]);
        fprintf(f, "%s%-21s %5d  %-30s %4d %4d  %-8.2f  %s\n", prefix, collop_name(r->colls[i]), n,
                cell[0], over[0], sure[0], med[2], cell[1]);
        total += n, total_over += over[0], total_sure += sure[0];
    }
    for (int i = 0; i < r->ncases; i++)
        again += r->cases[i].verified && r->cases[i].first_ratio > 0;
    fprintf(f, "%snp=max: median of the new table's ratio at np=%d\n%sauto with the new table is "
               "slower than the vendor by more than 5%% at %d of %d measured cases (%d beyond the "
               "noise); %d measured again after a first ratio above 1.05\n",
            prefix, r->nps[top], prefix, total_over, total, total_sure, again);
}

int tune_run_demote(struct tune_run *r)
{
    /* Test hook: COLLTUNE_TEST_DEMOTE=1 demotes every native choice. */
    int n = 0, all = getenv("COLLTUNE_TEST_DEMOTE") != NULL;
    int *flag = calloc((size_t)r->ncases + 1, sizeof *flag);
    if (!flag)
        return 0;
    for (int i = 0; r->rank == 0 && i < r->ncases; i++) {
        const struct tune_case *tc = &r->cases[i];
        flag[i] = !tc->demoted && tc->verified && (all || vratio(tc, V_NEW) > 1.05) &&
                  strcmp(tc->vres[V_NEW].ran, "vendor");
    }
    collshim_bypass(1);
    MPI_Bcast(flag, r->ncases, MPI_INT, 0, MPI_COMM_WORLD);
    collshim_bypass(0);
    for (int i = 0; i < r->ncases; i++)
        r->cases[i].demoted |= flag[i], n += flag[i];
    r->demoted += n;
    free(flag);
    return n;
}

void tune_run_unverify_changed(struct tune_run *r, const char *before, const char *after)
{
    for (int k = 0; k < r->nnps; k++) {
        for (int i = 0; i < r->ncolls; i++) {
            const char *name = collop_name(r->colls[i]);
            char *x = tune_rules_for(before, name, r->nps[k]);
            char *y = tune_rules_for(after, name, r->nps[k]);
            int same = x && y && !strcmp(x, y);
            for (int j = 0; !same && j < r->ncases; j++) {
                struct tune_case *tc = &r->cases[j];
                if (tc->coll == r->colls[i] && tc->k == k)
                    tc->verified = 0, tc->first_ratio = 0;
            }
            free(x);
            free(y);
        }
    }
}

int tune_run_verify(struct tune_run *r, const char *rules, FILE *out, FILE *also)
{
    for (int k = r->nnps - 1; k >= 0; k--) {
        for (int i = 0; r->comms[k] != MPI_COMM_NULL && i < r->ncolls; i++)
            verify_block(r, r->colls[i], k, rules, out);
        bench_quiet_barrier(MPI_COMM_WORLD);
        replan(r, MPI_COMM_WORLD);
    }
    collshim_tune(NULL, NULL, 0);
    if (r->rank == 0) {
        if (out)
            summary(r, out, "# ");
        if (also)
            summary(r, also, "# ");
    }
    return MPI_SUCCESS;
}
