/* check_alltoall.c - matrix of alltoall, alltoallv, alltoallw. (to be written) */
#include "check.h"
void check_alltoall(const struct check_env *env, const char *coll, const char *alg) { (void)env; (void)coll; (void)alg; }
