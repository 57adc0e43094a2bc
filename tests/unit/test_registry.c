/* test_registry.c - sanity of THE table of algorithms. */
#include "tests/unit/unit.h"
#include "algorithms/registry.h"

#include <string.h>

START_TEST(every_collective_has_vendor_first)
{
    for (int c = 0; c < COLL_COUNT; c++) {
        int v = registry_vendor((enum coll_id)c);
        ck_assert_int_eq(registry_table[v].coll, c);
        ck_assert_str_eq(registry_table[v].name, "vendor");
        ck_assert_int_eq(registry_find((enum coll_id)c, "vendor", 6), v);
    }
}
END_TEST

START_TEST(rows_are_complete_and_unique)
{
    ck_assert_int_le(registry_count, COLLSHIM_MAX_ALGORITHMS);
    for (int i = 0; i < registry_count; i++) {
        const struct algorithm *a = &registry_table[i];
        ck_assert_msg(registry_is_vendor(a) ? !a->run : a->run != NULL,
                      "%s/%s: a function exactly when not the vendor's", coll_name(a->coll),
                      a->name);
        ck_assert_msg(strncmp(a->cost, "Cost = ", 7) == 0, "%s/%s: cost must start 'Cost = '",
                      coll_name(a->coll), a->name);
        ck_assert_msg(strlen(a->summary) > 10, "%s/%s: summary", coll_name(a->coll), a->name);
        for (const char *p = a->name; *p; p++)
            ck_assert_msg((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_',
                          "%s: names are lower_case", a->name);
        for (int j = 0; j < i; j++)
            ck_assert_msg(!(registry_table[j].coll == a->coll && !strcmp(registry_table[j].name, a->name)),
                          "%s/%s registered twice", coll_name(a->coll), a->name);
    }
}
END_TEST

START_TEST(collective_names_round_trip)
{
    for (int c = 0; c < COLL_COUNT; c++) {
        const char *n = coll_name((enum coll_id)c);
        ck_assert_int_eq(coll_from_name(n, strlen(n)), c);
    }
    ck_assert_int_eq(coll_from_name("allreduc", 8), -1);
    ck_assert_int_eq(coll_from_name("allreducex", 10), -1);
}
END_TEST

START_TEST(names_and_restrictions_text)
{
    char buf[256];
    registry_names(COLL_allreduce, buf, sizeof buf);
    ck_assert(strncmp(buf, "vendor, ", 8) == 0);
    registry_restrictions_text(0, buf, sizeof buf);
    ck_assert_str_eq(buf, "none");
    registry_restrictions_text(ALG_NEEDS_COMMUTATIVE | ALG_NEEDS_POW2, buf, sizeof buf);
    ck_assert_str_eq(buf, "commutative,pow2");
}
END_TEST

/* ALG_TAKES_SEG (learning tries seg= values of these) marks exactly the
 * rows whose cost or summary speaks of segments of seg bytes. */
START_TEST(segmented_rows_are_flagged)
{
    int flagged = 0;
    for (int i = 0; i < registry_count; i++) {
        const struct algorithm *a = &registry_table[i];
        int says_seg = strstr(a->cost, "seg") || strstr(a->summary, "seg");
        int flag = (a->restrictions & ALG_TAKES_SEG) != 0;
        ck_assert_msg(says_seg == flag, "%s/%s: ALG_TAKES_SEG %d, cost/summary mention seg %d",
                      coll_name(a->coll), a->name, flag, says_seg);
        flagged += flag;
        char buf[256];
        registry_restrictions_text(a->restrictions, buf, sizeof buf);
        ck_assert_msg(!strstr(buf, "seg"), "a parameter is not a restriction: %s", buf);
    }
    ck_assert_int_ge(flagged, 9);
}
END_TEST

Suite *registry_suite(void)
{
    return unit_suite("registry", "table", NULL,
                      UNIT_TESTS(every_collective_has_vendor_first, rows_are_complete_and_unique,
                                 collective_names_round_trip, names_and_restrictions_text,
                                 segmented_rows_are_flagged));
}
