/* output.c - the table and the CSV (output.h). */
#include "bench/output.h"
#include "bench/util.h"
#include "collshim.h"

#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum arm_kind k)
{
    return k == ARM_VENDOR ? "vendor" : k == ARM_AUTO ? "auto" : "native";
}

static const char *status_name(enum arm_status s)
{
    return s == ARM_OK ? "ok" : s == ARM_NA ? "n/a" : s == ARM_SLOW ? "slow" : "FAILED";
}

void out_model(FILE *f, const struct bound_model *m)
{
    fprintf(f, "# model: alpha %.3f us, beta %.4f ns/byte (%.1f MB/s), gamma %.4f ns/byte "
               "(%.1f MB/s)\n",
            m->alpha * 1e6, m->beta * 1e9, m->beta > 0 ? 1e-6 / m->beta : 0, m->gamma * 1e9,
            m->gamma > 0 ? 1e-6 / m->gamma : 0);
    char machine[1024];
    if (collshim_machine_model(machine, (int)sizeof machine) == 0)
        fprintf(f,
                "# collshim machine model (seconds; eager_inter in bytes, group_nodes in "
                "nodes): %s\n",
                machine);
}

void out_fence(FILE *f, enum fence_kind kind)
{
    fprintf(f, "# fence: %s; a call's time runs from %s to the last rank's return\n",
            fence_name(kind),
            kind == FENCE_WINDOW ? "one instant of the ranks' synchronized clocks"
                                 : "each rank's exit from the vendor's barrier");
}

const char *out_thread_name(int level)
{
    return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
           : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
           : level == MPI_THREAD_MULTIPLE   ? "MPI_THREAD_MULTIPLE"
                                            : "unknown";
}

void out_threads(FILE *f, int wanted, int provided)
{
    fprintf(f, "# threads: %s provided (%s requested)\n", out_thread_name(provided),
            out_thread_name(wanted));
}

void out_table_begin(FILE *f, const char *coll, int np, const struct bound_model *m,
                     struct table_notes *notes, int narms)
{
    int c = collop_from_name(coll);
    memset(notes, 0, sizeof *notes);
    notes->narms = narms;
    notes->arm = calloc((size_t)narms + 1, sizeof *notes->arm);
    (void)m;
    fprintf(f, "\n# %s np=%d: median time (us) per call; xV = time/vendor, "
               "xB = time/bound\n# bound = %s\n",
            coll, np, bound_formula(c));
    fprintf(f, "%8s %10s %10s %6s  %-24s %10s %6s %6s  %-28s %10s %6s\n", "size", "bound",
            "vendor", "xB", "best native", "time", "xV", "xB", "auto -> algorithm", "time",
            "xV");
}

static const struct arm_result *find_kind(const struct bench_arm *arms, int narms,
                                          const struct arm_result *res, enum arm_kind k)
{
    for (int i = 0; i < narms; i++)
        if (arms[i].kind == k && res[i].status == ARM_OK)
            return &res[i];
    return NULL;
}

static void ratio(char *buf, size_t len, double t, double ref)
{
    if (ref > 0 && t > 0)
        snprintf(buf, len, t / ref < 100 ? "%.2f" : "%.0f", t / ref);
    else
        snprintf(buf, len, "-");
}

static void note_arm(struct table_notes *n, int i, const struct arm_result *r, const char *size)
{
    struct arm_notes *a = n->arm ? &n->arm[i] : NULL;
    int s = (int)r->status;
    if (!a || r->status == ARM_OK)
        return;
    if (!a->why[s])
        a->why[s] = strdup(r->why);
    a->count[s]++;
    size_t old = a->sizes[s] ? strlen(a->sizes[s]) : 0;
    char *grown = realloc(a->sizes[s], old + strlen(size) + 2);
    if (grown) {
        snprintf(grown + old, strlen(size) + 2, "%s%s", old ? " " : "", size);
        a->sizes[s] = grown;
    }
}

void out_table_row(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                   const struct arm_result *res, double bound, struct table_notes *notes)
{
    char size[32], vb[16], bv[16], bb[16], av[16], autolab[64] = "-", bt[16] = "-",
        at[16] = "-", vt[16] = "-";
    const struct arm_result *v = find_kind(arms, narms, res, ARM_VENDOR);
    const struct arm_result *a = find_kind(arms, narms, res, ARM_AUTO);
    int b = bench_fastest(arms, narms, res, ARM_NATIVE);
    bench_format_bytes(c->size_bytes, size, sizeof size);
    double vmed = v ? v->median : 0, bmed = b >= 0 ? res[b].median : 0;
    if (v)
        snprintf(vt, sizeof vt, "%.2f", vmed * 1e6);
    if (b >= 0)
        snprintf(bt, sizeof bt, "%.2f", bmed * 1e6);
    if (a) {
        snprintf(autolab, sizeof autolab, "%s", a->ran);
        snprintf(at, sizeof at, "%.2f", a->median * 1e6);
    }
    ratio(vb, sizeof vb, vmed, bound);
    ratio(bv, sizeof bv, bmed, vmed);
    ratio(bb, sizeof bb, bmed, bound);
    ratio(av, sizeof av, a ? a->median : 0, vmed);
    fprintf(f, "%8s %10.2f %10s %6s  %-24s %10s %6s %6s  %-28s %10s %6s\n", size, bound * 1e6,
            vt, vb, b >= 0 ? arms[b].label : "-", bt, bv, bb, autolab, at, av);
    for (int i = 0; i < narms; i++)
        note_arm(notes, i, &res[i], size);
    fflush(f);
}

void out_table_end(FILE *f, const struct bench_arm *arms, struct table_notes *n)
{
    for (int i = 0; n->arm && i < n->narms; i++) {
        for (int s = ARM_NA; s <= ARM_SLOW; s++) {
            struct arm_notes *a = &n->arm[i];
            if (a->count[s] && s == ARM_NA)
                fprintf(f, "# not timed: %s n/a at %d size%s: %s\n", arms[i].label, a->count[s],
                        a->count[s] == 1 ? "" : "s", a->why[s]);
            else if (a->count[s])
                fprintf(f, "# not timed: %s %s at %s: %s\n", arms[i].label,
                        status_name((enum arm_status)s), a->sizes[s], a->why[s]);
            free(a->sizes[s]);
            free(a->why[s]);
        }
    }
    free(n->arm);
    fflush(f);
}

void out_csv_header(FILE *f)
{
    fprintf(f, "coll,np,size,key_bytes,full_bytes,arm,kind,alg,params,ran,status,why,reps,"
               "median_us,p10_us,p90_us,min_us,max_us,mean_us,bound_us,x_bound,x_vendor,model_us\n");
}

/* The columns coll..why, shared by the blocking and the overlap CSV. */
static void csv_case_arm(FILE *f, const struct collop *c, const struct bench_arm *arm,
                         const struct arm_result *r)
{
    /* np: every rank of the case (both groups of an intercommunicator) */
    int np = c->icomm != MPI_COMM_NULL ? c->size + c->remote : c->size;
    fprintf(f, "%s,%d,%zu,%llu,%llu,%s,%s,%s,%s,%s,%s,%s,", collop_name(c->coll), np,
            c->size_bytes, (unsigned long long)c->key_bytes, (unsigned long long)c->full_bytes,
            arm->label, kind_name(arm->kind), arm->kind == ARM_NATIVE ? arm->alg : arm->label,
            arm->params, r->ran, status_name(r->status), r->why);
}

/* The machine model's prediction for the algorithm that ran (model_us),
 * empty where it has none. */
static void csv_prediction(FILE *f, const struct collop *c, const struct bench_arm *arm,
                           const struct arm_result *r)
{
    const char *alg = arm->kind == ARM_NATIVE ? arm->alg : arm->kind == ARM_AUTO ? r->ran : NULL;
    double predicted = -1;
    if (alg && !arm->params[0] && c->icomm == MPI_COMM_NULL)
        predicted = collshim_model_predict(c->comm, collop_name(c->coll), alg, c->key_bytes,
                                           collop_has_op(c->coll) ? (long long)c->key_bytes / c->elem
                                                                  : (long long)c->key_bytes);
    if (predicted >= 0)
        fprintf(f, "%.3f\n", predicted * 1e6);
    else
        fprintf(f, "\n");
}

void out_csv_rows(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                  const struct arm_result *res, double bound)
{
    const struct arm_result *v = find_kind(arms, narms, res, ARM_VENDOR);
    for (int i = 0; i < narms; i++) {
        const struct arm_result *r = &res[i];
        int ok = r->status == ARM_OK;
        csv_case_arm(f, c, &arms[i], r);
        fprintf(f, "%d,", r->reps);
        if (ok)
            fprintf(f, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,", r->median * 1e6, r->p10 * 1e6,
                    r->p90 * 1e6, r->min * 1e6, r->max * 1e6, r->mean * 1e6);
        else
            fprintf(f, ",,,,,,");
        fprintf(f, "%.3f,", bound * 1e6);
        if (ok && bound > 0)
            fprintf(f, "%.3f,", r->median / bound);
        else
            fprintf(f, ",");
        if (ok && v && v->median > 0)
            fprintf(f, "%.4f,", r->median / v->median);
        else
            fprintf(f, ",");
        csv_prediction(f, c, &arms[i], r);
    }
    fflush(f);
}

/* ---- collbench --overlap ---- */

void out_overlap_setup(FILE *f, double test_us)
{
    fprintf(f, "# overlap: MPI_I<coll> + MPI_Wait (t_pure), a computation calibrated to about "
               "t_pure (t_cpu), both (t_ovl); ");
    if (test_us > 0)
        fprintf(f, "MPI_Test every %g us of computation in t_ovl\n", test_us);
    else
        fprintf(f, "no MPI call inside the computation\n");
}

void out_overlap_begin(FILE *f, int coll, int np, double test_us)
{
    const char *name = collop_name(coll);
    fprintf(f, "\n# %s np=%d overlap: MPI_I%s alone (t_pure), computation alone (t_cpu), "
               "overlapped (t_ovl); median time (us) per call, slowest rank\n",
            name, np, name);
    fprintf(f, "# ovl%% = max(0, min(100, 100 (1 - (t_ovl - t_cpu) / t_pure))) (OSU); "
               "xV = t_ovl / vendor's t_ovl%s\n",
            test_us > 0 ? "; MPI_Test inside the computation" : "");
    fprintf(f, "%8s  %-20s %-22s %10s %10s %10s %6s %6s\n", "size", "arm", "ran", "t_pure",
            "t_cpu", "t_ovl", "ovl%", "xV");
}

/* The vendor's t_ovl in this case, 0 if it was not timed. */
static double vendor_ovl(const struct bench_arm *arms, int narms,
                         const struct overlap_result *res)
{
    for (int i = 0; i < narms; i++)
        if (arms[i].kind == ARM_VENDOR && overlap_status(&res[i])->status == ARM_OK)
            return res[i].ovl.median;
    return 0;
}

void out_overlap_rows(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                      const struct overlap_result *res)
{
    char size[32], xv[16];
    double v = vendor_ovl(arms, narms, res);
    bench_format_bytes(c->size_bytes, size, sizeof size);
    for (int i = 0; i < narms; i++) {
        const struct overlap_result *r = &res[i];
        const struct arm_result *s = overlap_status(r);
        fprintf(f, "%8s  %-20s %-22s", size, arms[i].label, r->pure.ran);
        if (s->status != ARM_OK) {
            fprintf(f, " %s: %s\n", status_name(s->status), s->why);
            continue;
        }
        ratio(xv, sizeof xv, r->ovl.median, v);
        fprintf(f, " %10.2f %10.2f %10.2f %6.1f %6s\n", r->pure.median * 1e6,
                r->cpu.median * 1e6, r->ovl.median * 1e6, r->overlap, xv);
    }
    fflush(f);
}

void out_overlap_csv_header(FILE *f)
{
    fprintf(f, "coll,np,size,key_bytes,full_bytes,arm,kind,alg,params,ran,status,why,"
               "pure_reps,pure_us,pure_p10_us,pure_p90_us,cpu_reps,cpu_us,ovl_reps,ovl_us,"
               "ovl_p10_us,ovl_p90_us,overlap_pct,ovl_x_vendor\n");
}

void out_overlap_csv_rows(FILE *f, const struct collop *c, const struct bench_arm *arms,
                          int narms, const struct overlap_result *res)
{
    double v = vendor_ovl(arms, narms, res);
    for (int i = 0; i < narms; i++) {
        const struct overlap_result *r = &res[i];
        const struct arm_result *s = overlap_status(r);
        struct arm_result row = *s;
        snprintf(row.ran, sizeof row.ran, "%s", r->pure.ran);
        csv_case_arm(f, c, &arms[i], &row);
        if (s->status != ARM_OK) {
            fprintf(f, "%d,,,,,,,,,,,\n", r->pure.reps);
            continue;
        }
        fprintf(f, "%d,%.3f,%.3f,%.3f,%d,%.3f,%d,%.3f,%.3f,%.3f,%.2f,", r->pure.reps,
                r->pure.median * 1e6, r->pure.p10 * 1e6, r->pure.p90 * 1e6, r->cpu.reps,
                r->cpu.median * 1e6, r->ovl.reps, r->ovl.median * 1e6, r->ovl.p10 * 1e6,
                r->ovl.p90 * 1e6, r->overlap);
        if (v > 0)
            fprintf(f, "%.4f\n", r->ovl.median / v);
        else
            fprintf(f, "\n");
    }
    fflush(f);
}
