/* test_learn.c - the settling rule of COLLSHIM_LEARN (select/learn_settle.c):
 * measured rounds in, the candidate settled on (or "keep exploring") out. */
#include "tests/unit/unit.h"
#include "select/learn_settle.h"

#include <stdint.h>
#include <string.h>

#define VENDOR 1 /* candidate 1 is the vendor in these tests, as in learn.c */

/* Feed round r's sample times[i][r] of every live candidate, then ask the
 * rule, as learn.c does; returns the candidate settled on and its round. */
static int simulate(struct learn_cand *c, int n, const double times[][LEARN_MAX_ROUNDS],
                    int *round)
{
    for (int r = 1; r <= LEARN_MAX_ROUNDS; r++) {
        for (int i = 0; i < n; i++)
            if (c[i].state == CAND_LIVE)
                c[i].samples[c[i].nsamples++] = times[i][r - 1];
        int idx = learn_settle(c, n, VENDOR, r, &learn_default_rule);
        if (idx >= 0) {
            *round = r;
            return idx;
        }
    }
    *round = -1;
    return -1;
}

static void fresh(struct learn_cand *c, int n)
{
    memset(c, 0, (size_t)n * sizeof *c);
    for (int i = 0; i < n; i++)
        c[i].alg = i;
}

static int settle_fresh(struct learn_cand *c, int n, const double times[][LEARN_MAX_ROUNDS],
                        int *round)
{
    fresh(c, n);
    return simulate(c, n, times, round);
}

START_TEST(median_of_odd_and_even_counts)
{
    double s[] = {5, 1, 4, 2};
    ck_assert(learn_median(s, 3) == 4);
    ck_assert(learn_median(s, 4) == 3);
    ck_assert(learn_median(s, 1) == 5);
}
END_TEST

START_TEST(clear_winner_settles_at_the_second_round)
{
    struct learn_cand c[3];
    const double t[3][LEARN_MAX_ROUNDS] = {{10, 11, 10, 10, 10}, {20, 21, 20, 20, 20},
                                            {30, 30, 30, 30, 30}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 3, t, &round), 0);
    ck_assert_int_eq(round, learn_default_rule.min_rounds);
    ck_assert_int_eq(c[2].state, CAND_DROPPED); /* 3x the best after one round */
}
END_TEST

START_TEST(slower_than_the_vendor_is_never_chosen)
{
    struct learn_cand c[2];
    const double t[2][LEARN_MAX_ROUNDS] = {{30, 30, 30, 30, 30}, {20, 20, 20, 20, 20}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 2, t, &round), VENDOR);
    ck_assert_int_eq(c[0].state, CAND_DROPPED);
}
END_TEST

START_TEST(one_lucky_round_does_not_win)
{
    /* candidate 0 is 1.5x the vendor but had one very fast round */
    struct learn_cand c[2];
    const double t[2][LEARN_MAX_ROUNDS] = {{5, 29, 29, 29, 29}, {20, 20, 20, 20, 20}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 2, t, &round), VENDOR);
}
END_TEST

START_TEST(noisy_vendor_rounds_do_not_lose_to_a_slower_candidate)
{
    /* the vendor is 20 with two noisy rounds of 60: its median stays 20 */
    struct learn_cand c[2];
    const double t[2][LEARN_MAX_ROUNDS] = {{24, 24, 24, 24, 24}, {20, 60, 20, 60, 20}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 2, t, &round), VENDOR);
}
END_TEST

START_TEST(within_the_noise_of_the_vendor_is_a_tie_for_the_vendor)
{
    struct learn_cand c[2];
    const double t[2][LEARN_MAX_ROUNDS] = {{19.4, 19.4, 19.4, 19.4, 19.4},
                                           {20, 20, 20, 20, 20}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 2, t, &round), VENDOR);
    ck_assert_int_eq(round, learn_default_rule.max_rounds);
}
END_TEST

START_TEST(exact_ties_go_to_the_vendor)
{
    struct learn_cand c[3];
    const double t[3][LEARN_MAX_ROUNDS] = {{20, 20, 20, 20, 20}, {20, 20, 20, 20, 20},
                                           {20, 20, 20, 20, 20}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 3, t, &round), VENDOR);
}
END_TEST

START_TEST(two_tied_winners_settle_on_one_of_them_at_the_last_round)
{
    struct learn_cand c[3];
    const double t[3][LEARN_MAX_ROUNDS] = {{10, 10, 10, 10, 10}, {20, 20, 20, 20, 20},
                                           {10, 10, 10, 10, 10}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 3, t, &round), 0); /* the lower index of the tie */
    ck_assert_int_eq(round, learn_default_rule.max_rounds);
}
END_TEST

START_TEST(failed_and_restricted_candidates_are_never_chosen)
{
    struct learn_cand c[4];
    const double t[4][LEARN_MAX_ROUNDS] = {{1, 1, 1, 1, 1}, {20, 20, 20, 20, 20},
                                           {1, 1, 1, 1, 1}, {15, 15, 15, 15, 15}};
    int round;
    fresh(c, 4);
    c[0].state = CAND_FAILED;     /* an error on some rank */
    c[2].state = CAND_RESTRICTED; /* its restrictions refused a call of the class */
    c[0].samples[0] = c[2].samples[0] = 1;
    c[0].nsamples = c[2].nsamples = 1;
    ck_assert_int_eq(simulate(c, 4, t, &round), 3);
    fresh(c, 4);
    c[0].state = c[2].state = c[3].state = CAND_FAILED;
    ck_assert_int_eq(simulate(c, 4, t, &round), VENDOR); /* only the vendor left */
}
END_TEST

START_TEST(the_vendor_is_never_dropped)
{
    struct learn_cand c[2];
    const double t[2][LEARN_MAX_ROUNDS] = {{1, 1, 1, 1, 1}, {100, 100, 100, 100, 100}};
    int round;
    ck_assert_int_eq(settle_fresh(c, 2, t, &round), 0);
    ck_assert_int_eq(c[VENDOR].state, CAND_LIVE);
}
END_TEST

/* Any measurements: what is chosen is the vendor, or beats the vendor's
 * median by the margin (never slower than the vendor). */
START_TEST(never_settles_on_what_is_not_faster_than_the_vendor)
{
    uint64_t x = 88172645463325252ull;
    for (int trial = 0; trial < 20000; trial++) {
        struct learn_cand c[LEARN_MAX_CAND];
        double t[LEARN_MAX_CAND][LEARN_MAX_ROUNDS];
        int n = 2 + trial % (LEARN_MAX_CAND - 1), round;
        fresh(c, n);
        for (int i = 0; i < n; i++)
            for (int r = 0; r < LEARN_MAX_ROUNDS; r++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                t[i][r] = 10 + (double)(x % 2000) / 100; /* 10..30, any noise */
            }
        int idx = simulate(c, n, t, &round);
        unit_expect(idx >= 0, "trial %d: never settled", trial);
        double mv = learn_median(c[VENDOR].samples, c[VENDOR].nsamples);
        double mi = learn_median(c[idx].samples, c[idx].nsamples);
        unit_expect(idx == VENDOR || mi * (1 + learn_default_rule.margin) < mv,
                    "trial %d: settled on %d, median %g against the vendor's %g", trial, idx, mi,
                    mv);
        unit_expect(c[idx].state == CAND_LIVE, "trial %d: settled on a dropped candidate", trial);
    }
}
END_TEST

/* The confirmation keeps the chosen one only when its mean is below the
 * vendor's; a tie, no samples, or a chosen one that failed go to the vendor. */
START_TEST(confirmation_keeps_only_what_stays_faster)
{
    struct learn_cand chosen = {.state = CAND_LIVE, .nsamples = 2, .samples = {1.0, 1.2}};
    struct learn_cand vendor = {.state = CAND_LIVE, .nsamples = 2, .samples = {1.5, 1.4}};
    ck_assert_int_eq(learn_confirm(&chosen, &vendor), 1);
    chosen.samples[1] = 2.0; /* mean 1.5 against 1.45: slower */
    ck_assert_int_eq(learn_confirm(&chosen, &vendor), 0);
    chosen.samples[1] = 1.9; /* mean 1.45: a tie */
    ck_assert_int_eq(learn_confirm(&chosen, &vendor), 0);
    chosen.samples[1] = 1.0;
    chosen.state = CAND_FAILED;
    ck_assert_int_eq(learn_confirm(&chosen, &vendor), 0);
    chosen.state = CAND_LIVE;
    vendor.nsamples = 0;
    ck_assert_int_eq(learn_confirm(&chosen, &vendor), 0);
}
END_TEST

Suite *learn_suite(void)
{
    return unit_suite("learn", "settle", NULL,
                      UNIT_TESTS(median_of_odd_and_even_counts,
                                 clear_winner_settles_at_the_second_round,
                                 slower_than_the_vendor_is_never_chosen,
                                 one_lucky_round_does_not_win,
                                 noisy_vendor_rounds_do_not_lose_to_a_slower_candidate,
                                 within_the_noise_of_the_vendor_is_a_tie_for_the_vendor,
                                 exact_ties_go_to_the_vendor,
                                 two_tied_winners_settle_on_one_of_them_at_the_last_round,
                                 failed_and_restricted_candidates_are_never_chosen,
                                 the_vendor_is_never_dropped,
                                 never_settles_on_what_is_not_faster_than_the_vendor,
                                 confirmation_keeps_only_what_stays_faster));
}
