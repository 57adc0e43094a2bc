/* registry.h - THE table of algorithms (registry.c) and questions about it. */
#ifndef COLLSHIM_REGISTRY_H
#define COLLSHIM_REGISTRY_H

#include "algorithms/coll.h"

#define COLLSHIM_MAX_ALGORITHMS 512

extern const struct algorithm registry_table[];
extern const int registry_count;

/* Index of the algorithm `name` (first len bytes) of coll, or -1. */
int registry_find(enum coll_id coll, const char *name, size_t len);
/* Index of the pseudo-algorithm "vendor" of coll (always present). */
int registry_vendor(enum coll_id coll);
/* 1 when the algorithm's restrictions allow this call; else 0 and, if
 * why is not NULL, a short reason ("needs a commutative op"). */
int registry_can_run(const struct algorithm *alg, const struct coll_key *key,
                     const char **why);
/* Comma-separated names of coll's algorithms into buf. */
void registry_names(enum coll_id coll, char *buf, size_t len);
/* The i-th restriction (i from 0): its flag, word and meaning; 0 past the last. */
int registry_restriction(int i, unsigned *flag, const char **word, const char **meaning);
/* Restriction flags as words ("commutative,pow2") into buf; "none" if 0. */
void registry_restrictions_text(unsigned restrictions, char *buf, size_t len);

/* 1 for the pseudo-algorithm "vendor" of a collective: the MPI library's
 * own collective on the caller's communicator, which the shim runs (its
 * row has no function). */
static inline int registry_is_vendor(const struct algorithm *alg)
{
    return (alg->restrictions & ALG_VENDOR) != 0;
}

#endif
