/* check_gather.c - matrix of gather(v), scatter(v), allgather(v). (to be written) */
#include "check.h"
void check_gather(const struct check_env *env, const char *coll, const char *alg) { (void)env; (void)coll; (void)alg; }
void check_scatter(const struct check_env *env, const char *coll, const char *alg) { (void)env; (void)coll; (void)alg; }
void check_allgather(const struct check_env *env, const char *coll, const char *alg) { (void)env; (void)coll; (void)alg; }
