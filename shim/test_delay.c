/* test_delay.c - the testing aid COLLSHIM_TEST_DELAY=coll:alg:us[@after][,...]:
 * each blocking run of that algorithm first busy-waits us microseconds (a
 * known slow candidate for the tests of learning). */
#include "shim/shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int test_delay_on;
static unsigned test_delay_us[COLLSHIM_MAX_ALGORITHMS];
static unsigned test_delay_after[COLLSHIM_MAX_ALGORITHMS];
static unsigned test_delay_runs[COLLSHIM_MAX_ALGORITHMS];

static void set_delay(int alg, unsigned long us, unsigned long after)
{
    test_delay_us[alg] = (unsigned)us;
    test_delay_after[alg] = (unsigned)after;
    test_delay_on |= us > 0;
}

/* One item; 0 or -1 when malformed. alg "*": every algorithm of coll (the
 * vendor included); "@after": only from the algorithm's after+1-th run. */
static int parse_delay(const char *item, size_t len)
{
    const char *c1 = memchr(item, ':', len), *c2;
    if (!c1 || !(c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item))))
        return -1;
    int coll = coll_from_name(item, (size_t)(c1 - item)), every = c2 - c1 == 2 && c1[1] == '*';
    int alg = coll < 0 || every ? -1 : registry_find((enum coll_id)coll, c1 + 1, (size_t)(c2 - c1 - 1));
    char *end;
    unsigned long us = strtoul(c2 + 1, &end, 10), after = 0;
    if (end == c2 + 1 || us > 10000000)
        return -1;
    if (end < item + len && *end == '@') {
        const char *num = end + 1;
        after = strtoul(num, &end, 10);
        if (end == num || after > 1000000000)
            return -1;
    }
    if (end != item + len || coll < 0 || (alg < 0 && !every))
        return -1;
    for (int i = 0; i < registry_count; i++)
        if (every ? registry_table[i].coll == (enum coll_id)coll : i == alg)
            set_delay(i, us, after);
    return 0;
}

void test_delay_configure(const char *spec, int world_rank)
{
    for (const char *p = spec; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (parse_delay(p, len) && world_rank == 0)
            fprintf(stderr, "collshim: COLLSHIM_TEST_DELAY: '%.*s' is not collective:algorithm:"
                            "microseconds[@runs] (algorithm or *, at most 10000000 us); it is "
                            "ignored\n", (int)len, p);
        p = comma ? comma + 1 : NULL;
    }
}

/* A busy wait, not a sleep: on a loaded machine a rank that sleeps comes
 * back with the scheduler's favour and can beat the vendor's busy polling,
 * which is not what a test of a slow algorithm wants. */
void test_delay(int alg)
{
    unsigned us = test_delay_us[alg];
    struct timespec t0, now;
    if (!us || __atomic_fetch_add(&test_delay_runs[alg], 1, __ATOMIC_RELAXED) < test_delay_after[alg])
        return;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while ((now.tv_sec - t0.tv_sec) * 1000000 + (now.tv_nsec - t0.tv_nsec) / 1000 < us);
}

