/* unit.h - Check suites of the unit tests (no MPI launch). */
#ifndef COLLSHIM_UNIT_H
#define COLLSHIM_UNIT_H
#include <check.h>
/* ck_assert_msg without Check's mark point on success (a pipe write per
 * call): for invariants checked millions of times in loops. */
#define unit_expect(cond, ...)                                                 \
    do {                                                                       \
        if (!(cond))                                                           \
            ck_abort_msg(__VA_ARGS__);                                         \
    } while (0)
/* A suite `name` of one test case `tcase` that runs each test of the
 * NULL-ended list (UNIT_TESTS), with `teardown` (or NULL) after each. */
Suite *unit_suite(const char *name, const char *tcase, void (*teardown)(void),
                  const TTest *const *tests);
#define UNIT_TESTS(...) ((const TTest *const[]){__VA_ARGS__, NULL})
/* Whether s holds only printable ASCII (messages quoting input). */
int unit_printable(const char *s);
Suite *grammar_suite(void);
Suite *selector_suite(void);
Suite *pattern_suite(void);
Suite *registry_suite(void);
Suite *bcast_pattern_suite(void);
Suite *reduce_tree_pattern_suite(void);
Suite *allgather_pattern_suite(void);
Suite *alltoall_pattern_suite(void);
Suite *tune_choose_suite(void);
Suite *tune_input_suite(void);
Suite *grammar_fuzz_suite(void);
Suite *op_kernels_suite(void);
Suite *node_suite(void);
Suite *learn_suite(void);
Suite *model_suite(void);
#endif
