/* unit.h - Check suites of the unit tests (no MPI launch). */
#ifndef COLLSHIM_UNIT_H
#define COLLSHIM_UNIT_H
#include <check.h>
Suite *grammar_suite(void);
Suite *selector_suite(void);
Suite *pattern_suite(void);
Suite *registry_suite(void);
#endif
