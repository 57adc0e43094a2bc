/* unit_main.c - runs every Check suite; ends with "unit: N passed, N failed". */
#include "tests/unit/unit.h"

#include <stdio.h>
#include <stdlib.h>

int unit_printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
            return 0;
    return 1;
}

Suite *unit_suite(const char *name, const char *tcase, void (*teardown)(void),
                  const TTest *const *tests)
{
    Suite *s = suite_create(name);
    TCase *tc = tcase_create(tcase);
    if (teardown)
        tcase_add_checked_fixture(tc, NULL, teardown);
    for (; *tests; tests++)
        tcase_add_test(tc, *tests);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(grammar_suite());
    srunner_add_suite(sr, tune_input_suite());
    srunner_add_suite(sr, grammar_fuzz_suite());
    srunner_add_suite(sr, selector_suite());
    srunner_add_suite(sr, pattern_suite());
    srunner_add_suite(sr, registry_suite());
    srunner_add_suite(sr, bcast_pattern_suite());
    srunner_add_suite(sr, reduce_tree_pattern_suite());
    srunner_add_suite(sr, allgather_pattern_suite());
    srunner_add_suite(sr, alltoall_pattern_suite());
    srunner_add_suite(sr, tune_choose_suite());
    srunner_add_suite(sr, model_suite());
    srunner_add_suite(sr, op_kernels_suite());
    srunner_add_suite(sr, node_suite());
    srunner_add_suite(sr, learn_suite());
    srunner_run_all(sr, CK_NORMAL);
    int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("unit: %d passed, %d failed\n", run - failed, failed);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
