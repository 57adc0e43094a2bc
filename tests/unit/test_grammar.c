/* test_grammar.c - the tuning-table parser: valid tables, every error with
 * its line and column, range edges, unknown names. */
#include "unit.h"
#include "../../tuning/tuning.h"
#include "../../algorithms/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct tune_table t;
static char err[2048];

static int parse(const char *text)
{
    tune_free(&t); /* the previous table of the same test */
    return tune_parse(text, "test", &t, err, sizeof err);
}

static void teardown(void) { tune_free(&t); }

START_TEST(parses_the_design_example)
{
    ck_assert_int_eq(parse("# header\n"
                           "allreduce  np=2-7   0-2k      @recursive_doubling\n"
                           "allreduce  np=2-7   2k-inf    @vendor\n"
                           "allreduce           1m-inf    @vendor   seg=256k\n"
                           "bcast                         @vendor\n"), 0);
    ck_assert_int_eq(t.n, 4);
    ck_assert_int_eq(t.rules[0].coll, COLL_allreduce);
    ck_assert_int_eq(t.rules[0].np_lo, 2);
    ck_assert_int_eq(t.rules[0].np_hi, 7);
    ck_assert_uint_eq(t.rules[0].bytes_lo, 0);
    ck_assert_uint_eq(t.rules[0].bytes_hi, 2048);
    ck_assert_str_eq(registry_table[t.rules[0].alg].name, "recursive_doubling");
    ck_assert_uint_eq(t.rules[1].bytes_hi, TUNE_BYTES_INF);
    ck_assert_uint_eq(t.rules[2].bytes_lo, 1u << 20);
    ck_assert_uint_eq(t.rules[2].params.seg, 256 * 1024);
    ck_assert_int_eq(t.rules[2].np_lo, 1);
    ck_assert_int_eq(t.rules[2].np_hi, TUNE_NP_INF);
    ck_assert_int_eq(t.rules[3].coll, COLL_bcast);
    ck_assert_int_eq(t.rules[3].line, 5);
}
END_TEST

START_TEST(semicolons_separate_rules_and_fields_any_order)
{
    ck_assert_int_eq(parse("allreduce @vendor 0-1k; bcast np=4 @vendor;;  ;reduce @vendor outstanding=8"), 0);
    ck_assert_int_eq(t.n, 3);
    ck_assert_int_eq(t.rules[1].np_lo, 4);
    ck_assert_int_eq(t.rules[1].np_hi, 4);
    ck_assert_int_eq(t.rules[2].params.outstanding, 8);
    ck_assert_int_eq(parse(""), 0);
    ck_assert_int_eq(t.n, 0);
    ck_assert_int_eq(parse("  # only a comment\n\n"), 0);
    ck_assert_int_eq(parse("allgather np=3-inf 1G-inf @vendor # trailing comment"), 0);
    ck_assert_uint_eq(t.rules[0].bytes_lo, 1ull << 30);
    ck_assert_int_eq(t.rules[0].np_hi, TUNE_NP_INF);
}
END_TEST

START_TEST(suffixes_and_edges)
{
    ck_assert_int_eq(parse("bcast 0-1 @vendor\nbcast 1k-1m @vendor\nbcast 3g-inf @vendor"), 0);
    ck_assert_uint_eq(t.rules[0].bytes_hi, 1);
    ck_assert_uint_eq(t.rules[1].bytes_lo, 1024);
    ck_assert_uint_eq(t.rules[1].bytes_hi, 1 << 20);
    ck_assert_uint_eq(t.rules[2].bytes_lo, 3ull << 30);
}
END_TEST

/* Every error names the source, the line, the column and what was expected. */
static void expect_error(const char *text, const char *where, const char *what)
{
    ck_assert_int_eq(parse(text), -1);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "'%s' does not start with '%s'", err, where);
    ck_assert_msg(strstr(err, what) != NULL, "'%s' does not say '%s'", err, what);
    ck_assert_int_eq(t.n, 0);
}

START_TEST(errors_name_line_and_column)
{
    expect_error("allreduce @vendor\nallreduse @vendor", "test:2:1:", "unknown collective 'allreduse'");
    expect_error("allreduce @vendor\nallreduce @nosuch", "test:2:12:", "unknown algorithm 'nosuch' for allreduce; known: vendor, recursive_doubling");
    expect_error("allreduce 0-2x @vendor", "test:1:14:", "expected");
    expect_error("allreduce 2k-1k @vendor", "test:1:11:", "empty byte range");
    expect_error("allreduce 1k-1k @vendor", "test:1:11:", "empty byte range");
    expect_error("allreduce 5 @vendor", "test:1:12:", "upper bound");
    expect_error("allreduce np=0 @vendor", "test:1:14:", "1..2^31-1");
    expect_error("allreduce np=5-3 @vendor", "test:1:14:", "empty np range");
    expect_error("allreduce np=x @vendor", "test:1:14:", "expected a number");
    expect_error("allreduce 0-1k", "test:1:15:", "expected @algorithm");
    expect_error("allreduce @vendor @vendor", "test:1:19:", "a second");
    expect_error("allreduce @vendor seg=0", "test:1:23:", "seg must be at least 1");
    expect_error("allreduce @vendor seg=", "test:1:23:", "expected a number");
    expect_error("allreduce @vendor colour=3", "test:1:19:", "unknown parameter 'colour'");
    expect_error("allreduce @", "test:1:12:", "expected an algorithm name");
    expect_error("allreduce @vendor; bcast junk @vendor", "test:1:26:", "expected np=");
    expect_error("allreduce 0-99999999999999999999 @vendor", "test:1:13:", "out of range");
    expect_error("allreduce 0-1k 2k-3k @vendor", "test:1:16:", "one byte range");
    expect_error("allreduce np=2 np=3 @vendor", "test:1:16:", "np= given twice");
}
END_TEST

START_TEST(a_file_error_names_the_path)
{
    char path[] = "/tmp/collshim-unit-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "# made by a test\nbcast @vendor\nbcast np=2-1 @vendor\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), -1);
    char want[128];
    snprintf(want, sizeof want, "%s:3:10:", path);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
    unlink(path);
    ck_assert_int_eq(tune_parse_file("/nonexistent/table", &t, err, sizeof err), -1);
    ck_assert(strstr(err, "/nonexistent/table: cannot open") != NULL);
}
END_TEST

START_TEST(builtin_table_parses_and_round_trips)
{
    char line[256];
    struct tune_table again;
    ck_assert_msg(parse(tune_builtin_table) == 0, "%s", err);
    ck_assert_int_gt(t.n, 0);
    for (int i = 0; i < t.n; i++) {
        tune_format_rule(&t.rules[i], line, sizeof line);
        ck_assert_msg(tune_parse(line, "again", &again, err, sizeof err) == 0, "%s: %s", line, err);
        ck_assert_int_eq(again.n, 1);
        ck_assert_int_eq(again.rules[0].alg, t.rules[i].alg);
        ck_assert_int_eq(again.rules[0].np_lo, t.rules[i].np_lo);
        ck_assert_int_eq(again.rules[0].np_hi, t.rules[i].np_hi);
        ck_assert_uint_eq(again.rules[0].bytes_lo, t.rules[i].bytes_lo);
        ck_assert_uint_eq(again.rules[0].bytes_hi, t.rules[i].bytes_hi);
        ck_assert_uint_eq(again.rules[0].params.seg, t.rules[i].params.seg);
        tune_free(&again);
    }
}
END_TEST

Suite *grammar_suite(void)
{
    Suite *s = suite_create("grammar");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, parses_the_design_example);
    tcase_add_test(tc, semicolons_separate_rules_and_fields_any_order);
    tcase_add_test(tc, suffixes_and_edges);
    tcase_add_test(tc, errors_name_line_and_column);
    tcase_add_test(tc, a_file_error_names_the_path);
    tcase_add_test(tc, builtin_table_parses_and_round_trips);
    suite_add_tcase(s, tc);
    return s;
}
