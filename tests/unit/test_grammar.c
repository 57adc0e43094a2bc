/* test_grammar.c - the tuning-table parser: valid tables, every error with
 * its line and column, range edges, unknown names, input quoted escaped,
 * numbers out of range named with their limit. */
#include "tests/unit/unit.h"
#include "tuning/tuning.h"
#include "algorithms/registry.h"

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

/* `inter` and remote=LO-HI make an intercommunicator rule; remote= alone
 * implies inter; rules without either are intracommunicator rules. */
START_TEST(inter_and_remote_fields)
{
    ck_assert_int_eq(parse("allreduce inter @inter_leaders\n"
                           "bcast np=1-2 remote=3-inf 0-1k @inter_leaders\n"
                           "bcast @binomial\n"), 0);
    ck_assert_int_eq(t.rules[0].inter, 1);
    ck_assert_int_eq(t.rules[0].remote_lo, 1);
    ck_assert_int_eq(t.rules[0].remote_hi, TUNE_NP_INF);
    ck_assert_int_eq(t.rules[1].inter, 1);
    ck_assert_int_eq(t.rules[1].np_hi, 2);
    ck_assert_int_eq(t.rules[1].remote_lo, 3);
    ck_assert_int_eq(t.rules[1].remote_hi, TUNE_NP_INF);
    ck_assert_int_eq(t.rules[2].inter, 0);
    char line[256];
    tune_format_rule(&t.rules[1], line, sizeof line);
    ck_assert_msg(strstr(line, "inter np=1-2 remote=3-inf") != NULL, "%s", line);
}
END_TEST

/* Every error names the source, the line, the column and what was expected. */
static void expect_error(const char *text, const char *where, const char *what)
{
    ck_assert_int_eq(parse(text), -1);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "'%s' does not start with '%s'", err, where);
    ck_assert_msg(strstr(err, what) != NULL, "'%s' does not say '%s'", err, what);
    ck_assert_msg(unit_printable(err), "raw control bytes in '%s'", err);
    ck_assert_int_eq(t.n, 0);
}

/* The node fields and the intercommunicator fields in one rule (both
 * branches' keys together): parsed, printed, parsed back alike. */
START_TEST(node_and_inter_fields_together)
{
    char line[256];
    struct tune_table again;
    ck_assert_int_eq(parse("allreduce ppn=2-4 remote=3 inter nodes=2-inf np=2 @inter_leaders\n"), 0);
    tune_format_rule(&t.rules[0], line, sizeof line);
    ck_assert_msg(strstr(line, "inter np=2 nodes=2-inf ppn=2-4 remote=3 ") != NULL, "%s", line);
    ck_assert_int_eq(tune_parse(line, "again", &again, err, sizeof err), 0);
    const struct tune_rule *r = &again.rules[0];
    ck_assert(r->inter && r->np_lo == 2 && r->np_hi == 2 && r->nodes_lo == 2 &&
              r->nodes_hi == TUNE_NP_INF && r->ppn_lo == 2 && r->ppn_hi == 4 &&
              r->remote_lo == 3 && r->remote_hi == 3);
    tune_free(&again);
    expect_error("allreduce inter nodes=2 inter @vendor", "test:1:25:", "inter given twice");
}
END_TEST


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
    expect_error("allreduce remote=2 remote=3 @vendor", "test:1:20:", "remote= given twice");
    expect_error("allreduce inter inter @vendor", "test:1:17:", "inter given twice");
    expect_error("allreduce remote=5-3 @vendor", "test:1:18:", "empty remote range");
    expect_error("allreduce remote=0 @vendor", "test:1:18:", "1..2^31-1");
}
END_TEST

/* Input is quoted with unprintable bytes as \xHH, whatever the field. */
START_TEST(control_bytes_are_escaped_in_every_message)
{
    expect_error("bcast @\x1b[31mred", "test:1:8:", "unknown algorithm '\\x1b[31mred' for bcast");
    expect_error("b\x1b[0mx\x07 @vendor", "test:1:1:", "unknown collective 'b\\x1b[0mx\\x07'");
    expect_error("bcast 5\x01-9 @vendor", "test:1:8:", "expected '-', k, m or g, found '\\x01'");
    expect_error("bcast s\x9bg=5 @vendor", "test:1:7:", "unknown parameter 's\\x9bg'");
    expect_error("bcast seg=\x1b @vendor", "test:1:11:", "after 'seg=', found '\\x1b'");
    expect_error("bcast np=\x1b @vendor", "test:1:10:", "expected a number, found '\\x1b'");
    expect_error("bcast a\\b @vendor", "test:1:7:", "found 'a\\\\b'");
    ck_assert_int_eq(tune_parse("bcast @x", "src\x1b[2J", &t, err, sizeof err), -1);
    ck_assert_str_eq(t.source, "src\\x1b[2J");
    const char *want = "src\\x1b[2J:1:8: unknown algorithm 'x'";
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
}
END_TEST

/* Each numeric field, by its digits and by suffix multiplication. */
START_TEST(overflows_are_named_with_their_limit)
{
    const char *bytes = "is out of range: byte counts must lie in 0..2^64-1";
    const char *np = "is out of range: communicator sizes must lie in 1..2^31-1";
    expect_error("bcast 99999999999999999999k-inf @vendor", "test:1:7:",
                 "'99999999999999999999k' is out of range: byte counts must lie in 0..2^64-1");
    expect_error("bcast 0-18446744073709551616 @vendor", "test:1:9:", bytes);
    expect_error("bcast 17179869184g-inf @vendor", "test:1:7:", bytes);
    expect_error("bcast 0-18014398509481984k @vendor", "test:1:9:", bytes);
    expect_error("bcast np=99999999999999999999 @vendor", "test:1:10:", np);
    expect_error("bcast np=2-2147483648 @vendor", "test:1:12:", np);
    expect_error("bcast np=2g @vendor", "test:1:10:", np);
    expect_error("bcast @vendor seg=99999999999999999999", "test:1:19:",
                 "'seg=99999999999999999999' is out of range: seg must be at least 1 byte and at most 2^64-1");
    expect_error("bcast @vendor seg=17179869184g", "test:1:19:", "at most 2^64-1");
    expect_error("bcast @vendor outstanding=99999999999999999999", "test:1:27:",
                 "outstanding must lie in 1..1000000");
    expect_error("bcast @vendor outstanding=1m", "test:1:27:", "'outstanding=1m' is out of range");
    /* The largest values that fit are accepted. */
    ck_assert_msg(parse("bcast np=1-2147483647 0-17179869183g @vendor seg=18446744073709551615 "
                        "outstanding=1000000") == 0, "%s", err);
    ck_assert_int_eq(t.rules[0].np_hi, 2147483647);
    ck_assert_uint_eq(t.rules[0].bytes_hi, 17179869183ull << 30);
    ck_assert_uint_eq(t.rules[0].params.seg, UINT64_MAX);
    ck_assert_int_eq(t.rules[0].params.outstanding, 1000000);
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
        ck_assert_int_eq(again.rules[0].inter, t.rules[i].inter);
        ck_assert_int_eq(again.rules[0].remote_lo, t.rules[i].remote_lo);
        ck_assert_int_eq(again.rules[0].remote_hi, t.rules[i].remote_hi);
        tune_free(&again);
    }
}
END_TEST

Suite *grammar_suite(void)
{
    return unit_suite("grammar", "parse", teardown,
                      UNIT_TESTS(parses_the_design_example,
                                 semicolons_separate_rules_and_fields_any_order,
                                 suffixes_and_edges, inter_and_remote_fields,
                                 node_and_inter_fields_together, errors_name_line_and_column,
                                 control_bytes_are_escaped_in_every_message,
                                 overflows_are_named_with_their_limit, a_file_error_names_the_path,
                                 builtin_table_parses_and_round_trips));
}
