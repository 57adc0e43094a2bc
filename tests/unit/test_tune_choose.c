/* test_tune_choose.c - colltune's choice, ranges and plan (bench/tune_choose.h,
 * bench/tune_plan.h) without MPI: the noise rule, the vendor safety margin,
 * ties kept by the neighbour and the built-in, size and np ranges, the
 * rules parsing with the shim's own parser and selecting what was chosen,
 * the passes, cut levels and useful sweep arms. */
#include "tests/unit/unit.h"
#include "bench/tune_choose.h"
#include "bench/tune_plan.h"
#include "tuning/tuning.h"
#include "algorithms/registry.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Arms of the examples: vendor, two natives, one with a parameter. */
static const struct tune_arm arms[] = {
    {"vendor", ""}, {"recursive_doubling", ""}, {"ring", "seg=64k"}};
#define NARMS 3

/* A tight measurement: median m, spread +-1%, 100 repetitions. */
static struct tune_stat tight(double m)
{
    return (struct tune_stat){1, 100, m, m * 0.99, m * 1.01};
}

/* A series at np with per-size medians of the three arms (0: not timed). */
struct example {
    uint64_t keys[8];
    struct tune_stat stat[8 * NARMS];
    const char *builtin[8];
    struct tune_series s;
};

static void example(struct example *e, int np, int n, const uint64_t *keys, const double *med)
{
    memset(e, 0, sizeof *e);
    for (int i = 0; i < n; i++) {
        e->keys[i] = keys[i];
        for (int a = 0; a < NARMS; a++)
            e->stat[i * NARMS + a] = med[i * NARMS + a] > 0 ? tight(med[i * NARMS + a])
                                                            : (struct tune_stat){0};
    }
    e->s = (struct tune_series){np, NARMS, arms, n, e->keys, e->stat, e->builtin, 0, 0};
}

static struct tune_choose_opts opts(void)
{
    struct tune_choose_opts o;
    tune_choose_opts_default(&o);
    return o;
}

START_TEST(threshold_is_the_larger_of_min_gain_and_noise)
{
    struct tune_choose_opts o = opts();
    struct tune_stat a = tight(100), b = tight(100);
    ck_assert(tune_threshold(&a, &b, &o) == o.min_gain);
    /* spread 100..300 over 4 reps: se = 0.489 * 200 / 2 each, z = 2 */
    a = (struct tune_stat){1, 4, 200, 100, 300};
    b = a;
    double want = 2 * sqrt(2.0) * 0.489 * 100 / 200;
    ck_assert(fabs(tune_threshold(&a, &b, &o) - want) < 1e-9);
    /* 10% faster is not "faster" under 34% noise, but is when tight */
    a.median = 180;
    ck_assert(!tune_faster(&a, &b, &o));
    struct tune_stat x = tight(90), y = tight(100);
    ck_assert(tune_faster(&x, &y, &o));
    ck_assert(!tune_faster(&y, &x, &o));
    x = tight(98); /* 2% < 3% */
    ck_assert(!tune_faster(&x, &y, &o));
    x.ok = 0;
    y = tight(200);
    ck_assert(!tune_faster(&x, &y, &o));
}
END_TEST

START_TEST(more_arms_need_a_larger_margin)
{
    ck_assert(tune_bonferroni_z(2.0, 1) == 2.0);
    ck_assert(fabs(tune_bonferroni_z(2.0, 5) - 2.608) < 0.01);
    ck_assert(fabs(tune_bonferroni_z(1.6449, 10) - 2.5758) < 0.01);
    /* 10% faster with se 3% each: passes z = 2 (threshold 8.5%), not z = 2.6 with
     * five natives timed (11%) */
    struct tune_choose_opts o = opts();
    struct example e;
    int choice[1];
    uint64_t keys[] = {8};
    double med[] = {100, 90, 0};
    example(&e, 4, 1, keys, med);
    e.stat[0] = (struct tune_stat){1, 100, 100, 100 - 30.67, 100 + 30.67};
    e.stat[1] = (struct tune_stat){1, 100, 90, 90 - 30.67, 90 + 30.67};
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    struct tune_arm many[6] = {{"vendor", ""}, {"recursive_doubling", ""}, {"ring", ""},
                               {"rabenseifner", ""}, {"reduce_bcast", ""}, {"ring", "seg=16k"}};
    struct tune_stat st[6];
    for (int a = 0; a < 6; a++)
        st[a] = (struct tune_stat){1, 100, 200, 200 - 30.67, 200 + 30.67};
    st[0] = e.stat[0], st[1] = e.stat[1];
    struct tune_series s6 = {4, 6, many, 1, keys, st, NULL, 0, 0};
    tune_choose(&s6, &o, choice);
    ck_assert_int_eq(choice[0], 0);
}
END_TEST

START_TEST(vendor_unless_clearly_faster)
{
    struct tune_choose_opts o = opts();
    struct example e;
    int choice[4];
    uint64_t keys[] = {8, 16, 32, 64};
    double med[] = {100, 98, 0,    /* 2%: not enough */
                    100, 80, 0,    /* 20%: recursive_doubling */
                    100, 0, 96.5,  /* ring 3.5%, above 3% and 2 se */
                    100, 99, 99.5};
    example(&e, 4, 4, keys, med);
    ck_assert_int_eq(tune_vendor_arm(&e.s), 0);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 0);
    ck_assert_int_eq(choice[1], 1);
    ck_assert_int_eq(choice[2], 2);
    ck_assert_int_eq(choice[3], 0);
    o.min_gain = 0.05; /* ring's 3.5% no longer counts */
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[2], 0);
}
END_TEST

START_TEST(noise_keeps_the_vendor)
{
    struct tune_choose_opts o = opts();
    struct example e;
    int choice[1];
    uint64_t keys[] = {8};
    double med[] = {100, 80, 0};
    example(&e, 4, 1, keys, med);
    /* 20% faster, but spread 50..250 over 5 reps: se ~ 44 us each */
    e.stat[1] = (struct tune_stat){1, 5, 80, 50, 250};
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 0);
}
END_TEST

/* Noisy stats: median m, spread m * (1 +- w), n repetitions. */
static struct tune_stat noisy(double m, double w, int n)
{
    return (struct tune_stat){1, n, m, m * (1 - w), m * (1 + w)};
}

START_TEST(unresolved_arms_are_the_close_calls)
{
    struct tune_choose_opts o = opts();
    int out[3] = {-1, -1, -1};
    /* vendor 100 +-30%, 10 reps: natives at 90 and 85 are within the
     * noise, 99 is within min_gain, 120 is slower: the two, fastest first */
    struct tune_stat s[5] = {noisy(100, .3, 10), noisy(90, .3, 10), noisy(99, .3, 10),
                             noisy(85, .3, 10), noisy(120, .3, 10)};
    ck_assert_int_eq(tune_unresolved(s, 5, 0, &o, 3, out), 2);
    ck_assert_int_eq(out[0], 3);
    ck_assert_int_eq(out[1], 1);
    /* at most max, the fastest kept */
    ck_assert_int_eq(tune_unresolved(s, 5, 0, &o, 1, out), 1);
    ck_assert_int_eq(out[0], 3);
    /* a native already clearly faster: nothing to resolve */
    s[4] = tight(50);
    s[0] = tight(100);
    ck_assert_int_eq(tune_unresolved(s, 5, 0, &o, 3, out), 0);
    /* an untimed vendor: nothing to compare with */
    s[0].ok = 0;
    ck_assert_int_eq(tune_unresolved(s, 5, 0, &o, 3, out), 0);
}
END_TEST

START_TEST(unresolved_uses_the_choice_threshold)
{
    struct tune_choose_opts o = opts();
    int out[4], choice[1];
    uint64_t keys[] = {8};
    double med[] = {100, 90, 0};
    struct example e;
    example(&e, 4, 1, keys, med);
    /* 10% gain: clearly faster alone at 100 reps +-5%, so chosen and not
     * unresolved; at 10 reps +-30% not chosen, and unresolved */
    e.stat[0] = noisy(100, .05, 100), e.stat[1] = noisy(90, .05, 100);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(tune_unresolved(e.stat, NARMS, 0, &o, 4, out), 0);
    e.stat[0] = noisy(100, .3, 10), e.stat[1] = noisy(90, .3, 10);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 0);
    ck_assert_int_eq(tune_unresolved(e.stat, NARMS, 0, &o, 4, out), 1);
    ck_assert_int_eq(out[0], 1);
}
END_TEST

START_TEST(ties_keep_the_neighbour_then_the_builtin)
{
    struct tune_choose_opts o = opts();
    struct example e;
    int choice[3];
    uint64_t keys[] = {8, 16, 32};
    double med[] = {100, 50, 60,   /* recursive_doubling clearly */
                    100, 51, 50,   /* ring 2% better: within noise, keep neighbour */
                    100, 70, 50};  /* ring clearly better: switch */
    example(&e, 4, 3, keys, med);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 1);
    ck_assert_int_eq(choice[2], 2);
    /* no neighbour at the first size: the built-in's choice among the tied */
    double med2[] = {100, 51, 50, 100, 51, 50, 100, 51, 50};
    example(&e, 4, 3, keys, med2);
    e.builtin[0] = "recursive_doubling";
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[2], 1);
    e.builtin[0] = NULL; /* nobody to prefer: the fastest */
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 2);
    /* the neighbour is not kept where it lost its margin over the vendor */
    double med3[] = {100, 50, 0, 100, 99, 97.5};
    example(&e, 4, 2, keys, med3);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 0);
}
END_TEST

START_TEST(equal_keys_are_one_decision)
{
    struct tune_choose_opts o = opts();
    struct example e;
    int choice[3];
    uint64_t keys[] = {0, 0, 0}; /* a v collective: the shim keys 0 */
    double med[] = {100, 80, 90, 100, 80, 90, 100, 80, 90};
    example(&e, 4, 3, keys, med);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 1);
    ck_assert_int_eq(choice[2], 1);
    /* recursive_doubling loses clearly at one size: only ring qualifies */
    e.stat[2 * NARMS + 1] = tight(130);
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[0], 2);
    ck_assert_int_eq(choice[2], 2);
    /* and if ring is not timed at one of them, the vendor */
    e.stat[1 * NARMS + 2].ok = 0;
    tune_choose(&e.s, &o, choice);
    ck_assert_int_eq(choice[1], 0);
}
END_TEST

START_TEST(boundaries_are_round_and_between)
{
    ck_assert_uint_eq(tune_boundary(4096, 8192), 6144);
    ck_assert_uint_eq(tune_boundary(4096, 16384), 8192);
    ck_assert_uint_eq(tune_boundary(12, 24), 16);
    ck_assert_uint_eq(tune_boundary(1, 2), 2);
    ck_assert_uint_eq(tune_boundary(7, 8), 8);
    ck_assert_uint_eq(tune_boundary(0, 8), 8);
    for (uint64_t a = 1; a < 5000; a = a * 3 / 2 + 1)
        for (uint64_t b = a + 1; b < 20000; b = b * 5 / 4 + 1) {
            uint64_t x = tune_boundary(a, b);
            unit_expect(x > a && x <= b, "boundary(%lu, %lu) = %lu", (unsigned long)a,
                        (unsigned long)b, (unsigned long)x);
        }
}
END_TEST

START_TEST(merge_covers_everything)
{
    struct tune_range r[8];
    struct example e;
    uint64_t keys[] = {4, 8, 16, 32, 64};
    double med[] = {100, 0, 0, 100, 0, 0, 0, 0, 0, 100, 0, 0, 100, 0, 0};
    example(&e, 4, 5, keys, med);
    int choice[] = {0, 1, -1, 1, 0};
    ck_assert_int_eq(tune_merge(&e.s, choice, r), 3);
    ck_assert_uint_eq(r[0].lo, 0);
    ck_assert_uint_eq(r[0].hi, 6);
    ck_assert_int_eq(r[1].arm, 1);
    ck_assert_uint_eq(r[1].lo, 6);
    ck_assert_uint_eq(r[1].hi, 48);
    ck_assert_uint_eq(r[2].lo, 48);
    ck_assert_uint_eq(r[2].hi, TUNE_CHOOSE_INF);
}
END_TEST

START_TEST(np_spans_cover_the_sizes_between)
{
    int lo[8], hi[8];
    int a[] = {2, 3, 4, 6, 8};
    tune_np_spans(a, 5, lo, hi);
    int want_lo[] = {2, 3, 4, 5, 7}, want_hi[] = {2, 3, 4, 6, 16};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(lo[i], want_lo[i]);
        ck_assert_int_eq(hi[i], want_hi[i]);
    }
    int b[] = {2, 4, 8, 16};
    tune_np_spans(b, 4, lo, hi);
    ck_assert_int_eq(hi[0], 2);
    ck_assert_int_eq(lo[1], 3);
    ck_assert_int_eq(hi[1], 5);
    ck_assert_int_eq(hi[2], 11);
    ck_assert_int_eq(lo[3], 12);
    ck_assert_int_eq(hi[3], 32);
}
END_TEST

/* Never extrapolated: the largest measured size reaches twice itself, no
 * further, and the written rules say so (np=7-16, not np=7-inf). */
START_TEST(np_spans_stop_at_twice_the_largest)
{
    int lo[2], hi[2], one[] = {1024}, huge[] = {1 << 30};
    tune_np_spans(one, 1, lo, hi);
    ck_assert_int_eq(lo[0], 1024);
    ck_assert_int_eq(hi[0], 2048);
    tune_np_spans(huge, 1, lo, hi);
    ck_assert_int_eq(hi[0], INT_MAX);
}
END_TEST

static const char *pick(const struct tune_table *t, int np, uint64_t bytes)
{
    const struct tune_table *tables[] = {t};
    struct coll_key k = {.coll = COLL_allreduce, .np = np, .bytes = bytes, .count = (int)(bytes / 4),
                         .commutative = 1, .predefined_op = 1};
    struct tune_choice c = tune_select(tables, 1, &k);
    return registry_table[c.alg].name;
}

/* Rules measured on one node say nodes=1, on several nodes of K ranks
 * nodes=2-inf ppn=K; series of the same choices on different layouts are
 * not merged into one np range. */
/* The rule of t that a call at (np, bytes) takes, NULL if none matches. */
static const struct tune_rule *rule_at(const struct tune_table *t, int np, uint64_t bytes)
{
    const struct tune_table *tables[] = {t};
    struct coll_key k = {.coll = COLL_allreduce, .np = np, .bytes = bytes, .count = (int)(bytes / 4),
                         .commutative = 1, .predefined_op = 1};
    return tune_select(tables, 1, &k).rule;
}

START_TEST(rules_carry_the_measured_layout)
{
    struct tune_choose_opts o = opts();
    struct example e[2];
    struct tune_series s[2];
    struct bench_text text = {0};
    uint64_t keys[] = {1024, 2048, 4096, 8192};
    double small_rd[] = {100, 50, 90, 100, 50, 90, 100, 90, 50, 100, 90, 50};
    example(&e[0], 4, 4, keys, small_rd);
    example(&e[1], 8, 4, keys, small_rd);
    e[0].s.nodes = 1, e[0].s.ppn = 4;
    e[1].s.nodes = 4, e[1].s.ppn = 2;
    for (int i = 0; i < 2; i++)
        s[i] = e[i].s;
    ck_assert_int_eq(tune_rules("allreduce", s, 2, &o, &text), 4);
    ck_assert_msg(strstr(text.s, "np=4-5 nodes=1 ") != NULL, "%s", text.s);
    ck_assert_msg(strstr(text.s, "np=6-16 nodes=2-inf ppn=2 ") != NULL, "%s", text.s);
    struct tune_table t;
    char err[1024];
    ck_assert_int_eq(tune_parse(text.s, "colltune", &t, err, sizeof err), 0);
    ck_assert_int_eq(t.rules[0].nodes_hi, 1);
    ck_assert_int_eq(t.rules[3].ppn_lo, 2);
    tune_free(&t);
    free(text.s);
}
END_TEST

START_TEST(rules_parse_and_select_the_choice)
{
    struct tune_choose_opts o = opts();
    struct example e[3];
    struct tune_series s[3];
    struct bench_text text = {0};
    struct tune_table t;
    char err[1024];
    uint64_t keys[] = {1024, 2048, 4096, 8192};
    double small_rd[] = {100, 50, 90, 100, 50, 90, 100, 90, 50, 100, 90, 50};
    double all_vendor[] = {100, 110, 120, 100, 110, 120, 100, 110, 120, 100, 110, 120};
    example(&e[0], 2, 4, keys, small_rd);
    example(&e[1], 4, 4, keys, small_rd);   /* same rules as np=2: one np range */
    example(&e[2], 8, 4, keys, all_vendor);
    for (int i = 0; i < 3; i++)
        s[i] = e[i].s;
    ck_assert_int_eq(tune_rules("allreduce", s, 3, &o, &text), 3);
    ck_assert_ptr_nonnull(strstr(text.s, "np=2-5"));
    ck_assert_ptr_nonnull(strstr(text.s, "np=6-16"));
    ck_assert_ptr_null(strstr(text.s, "np=6-inf"));
    ck_assert_ptr_nonnull(strstr(text.s, "@ring seg=64k"));
    ck_assert_int_eq(tune_parse(text.s, "colltune", &t, err, sizeof err), 0);
    ck_assert_int_eq(t.n, 3);
    ck_assert_str_eq(pick(&t, 2, 1024), "recursive_doubling");
    ck_assert_str_eq(pick(&t, 5, 2047), "recursive_doubling");
    ck_assert_str_eq(pick(&t, 3, 4096), "ring");
    ck_assert_int_eq((int)t.rules[1].params.seg, 65536);
    ck_assert_str_eq(pick(&t, 3, 1u << 30), "ring");
    ck_assert_str_eq(pick(&t, 6, 1024), "vendor");
    ck_assert_str_eq(pick(&t, 16, 4096), "vendor");
    ck_assert_ptr_nonnull(rule_at(&t, 16, 4096)); /* np 16: the table's own rule */
    ck_assert_ptr_null(rule_at(&t, 17, 4096));             /* beyond 2 x 8: no rule, next table */
    ck_assert_ptr_null(rule_at(&t, 1024, 1024));
    tune_free(&t);
    free(text.s);
}
END_TEST

START_TEST(rules_for_one_collective_and_np)
{
    const char *table = "# header; with a semicolon\n"
                        "allreduce np=2-3 0-1k @recursive_doubling\n"
                        "allreduce np=4-inf @ring seg=64k\n"
                        "bcast np=2-inf @vendor\n"
                        "allreduce @vendor # no np=\n"
                        "allreduce np=4 @vendor; allreduce np=3 1k-inf @vendor\n";
    char *sub = tune_rules_for(table, "allreduce", 3);
    ck_assert_str_eq(sub, "allreduce np=2-3 0-1k @recursive_doubling\n"
                          "allreduce @vendor # no np=\n"
                          " allreduce np=3 1k-inf @vendor\n");
    free(sub);
    sub = tune_rules_for(table, "allreduce", 64);
    ck_assert_str_eq(sub, "allreduce np=4-inf @ring seg=64k\nallreduce @vendor # no np=\n");
    free(sub);
    sub = tune_rules_for(table, "gather", 4);
    ck_assert_str_eq(sub, "");
    free(sub);
}
END_TEST

START_TEST(passes_thin_the_sizes)
{
    int n = 19, count[TUNE_PASSES] = {0};
    for (int i = 0; i < n; i++)
        count[tune_size_pass(i, n)]++;
    ck_assert_int_eq(tune_size_pass(0, n), 0);
    ck_assert_int_eq(tune_size_pass(4, n), 0);
    ck_assert_int_eq(tune_size_pass(18, n), 0); /* the largest always */
    ck_assert_int_eq(tune_size_pass(2, n), 1);
    ck_assert_int_eq(tune_size_pass(3, n), 2);
    ck_assert_int_eq(count[0], 6);
    ck_assert_int_eq(count[1], 4);
    ck_assert_int_eq(count[2], 9);
}
END_TEST

START_TEST(levels_cut_in_order)
{
    ck_assert_int_ge(tune_nlevels, 3);
    for (int k = 1; k < tune_nlevels; k++) {
        ck_assert_int_le(tune_levels[k].min_reps, tune_levels[k - 1].min_reps);
        ck_assert_int_le(tune_levels[k].passes, tune_levels[k - 1].passes);
        ck_assert(tune_levels[k].arm_time <= tune_levels[k - 1].arm_time);
    }
    const struct tune_level *l = &tune_levels[0];
    ck_assert_int_eq(tune_reps(l, 1.0, 1000), l->min_reps);
    ck_assert_int_eq(tune_reps(l, 1e-9, 1000), 1000);
    /* colltune --max-reps (3 on SMPI) caps the level's minimum too */
    ck_assert_int_eq(tune_reps(l, 1.0, 3), 3);
    ck_assert_int_eq(tune_reps(l, 1e-9, 3), 3);
    ck_assert(tune_point_cost(4, 0.01, l, 1000) ==
              (1 + 4 * (1 + l->warmup + tune_reps(l, 0.01, 1000))) * 0.01);
    double est[16];
    for (int k = 0; k < tune_nlevels; k++)
        est[k] = 100.0 / (k + 1);
    ck_assert_int_eq(tune_pick_level(est, 0, 1000), 0);
    ck_assert_int_eq(tune_pick_level(est, 0, 40), 2);
    ck_assert_int_eq(tune_pick_level(est, 3, 1000), 0); /* back when there is time */
    ck_assert_int_eq(tune_pick_level(est, 3, 30), 3);   /* 33 fits 30 s, not 80% of it */
    ck_assert_int_eq(tune_pick_level(est, 3, 42), 2);
    ck_assert_int_eq(tune_pick_level(est, 0, 1), tune_nlevels - 1);
}
END_TEST

START_TEST(sweep_arms_that_run_alike_are_skipped)
{
    /* pipeline seg=16k/64k/256k (group 1), scattered window 2/4/8 (group 4) */
    struct tune_sweep_arm a[] = {{-1, 0, 0}, {1, 16384, 0}, {1, 65536, 0}, {1, 262144, 0},
                                 {4, 0, 2}, {4, 0, 4}, {4, 0, 8}};
    int u[7];
    tune_useful_arms(a, 7, 8192, 8, u);      /* one segment each: keep 16k */
    ck_assert(u[0] && u[1] && !u[2] && !u[3]);
    ck_assert(u[4] && u[5] && u[6]);         /* 7 peers: every window differs */
    tune_useful_arms(a, 7, 100000, 4, u);    /* 16k, 64k cut it; 256k one segment */
    ck_assert(u[1] && u[2] && u[3]);
    ck_assert(u[4] && u[5] && !u[6]);        /* 3 peers: 4 and 8 are all in flight */
    tune_useful_arms(a, 7, 1 << 20, 2, u);
    ck_assert(u[1] && u[2] && u[3] && u[4] && !u[5] && !u[6]);
    /* windows 2/4/8/1024: 1024 is "all at once" at 64 ranks, and the 8
     * stands for it at 8 */
    struct tune_sweep_arm w[] = {{-1, 0, 0}, {1, 0, 2}, {1, 0, 4}, {1, 0, 8}, {1, 0, 1024}};
    int v[5];
    tune_useful_arms(w, 5, 4096, 64, v);
    ck_assert(v[1] && v[2] && v[3] && v[4]);
    tune_useful_arms(w, 5, 4096, 8, v);
    ck_assert(v[1] && v[2] && v[3] && !v[4]);
    tune_useful_arms(w, 5, 4096, 2000, v);   /* beyond 1025 ranks 1024 is a window */
    ck_assert(v[1] && v[2] && v[3] && v[4]);
}
END_TEST

Suite *tune_choose_suite(void)
{
    return unit_suite("tune_choose", "colltune", NULL,
                      UNIT_TESTS(threshold_is_the_larger_of_min_gain_and_noise,
                                 more_arms_need_a_larger_margin, vendor_unless_clearly_faster,
                                 noise_keeps_the_vendor, unresolved_arms_are_the_close_calls,
                                 unresolved_uses_the_choice_threshold,
                                 ties_keep_the_neighbour_then_the_builtin,
                                 equal_keys_are_one_decision, boundaries_are_round_and_between,
                                 merge_covers_everything, np_spans_cover_the_sizes_between,
                                 np_spans_stop_at_twice_the_largest,
                                 rules_parse_and_select_the_choice,
                                 rules_for_one_collective_and_np, passes_thin_the_sizes,
                                 rules_carry_the_measured_layout, levels_cut_in_order,
                                 sweep_arms_that_run_alike_are_skipped));
}
