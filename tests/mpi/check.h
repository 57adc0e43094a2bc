/* check.h - the MPI correctness matrix: shared harness.
 *
 * collcheck runs, for every algorithm of the collectives it is asked for,
 * a matrix of cases; each case forces the algorithm with collshim_tune()
 * (the COLLSHIM_TUNE grammar), runs the collective through the shim
 * (blocking, nonblocking or persistent: check_call.h),
 * asserts that the forced algorithm really ran (or, where its declared
 * restrictions forbid the case, that the selector fell back to the vendor),
 * and compares the result with values computed from the inputs and with
 * the vendor's own collective. */
#ifndef COLLCHECK_H
#define COLLCHECK_H

#include <mpi.h>
#include <stddef.h>

struct check_env {
    MPI_Comm comm;
    int rank, size;
    int quick;          /* smaller matrix (MPICH with more ranks than cores) */
    int max_count;      /* counts above it are left out (0: no limit; check-scale) */
    int verbose;
};

/* MPI_Init, and the environment of MPI_COMM_WORLD with MPI_ERRORS_RETURN. */
struct check_env check_start(int *argc, char ***argv);

/* One case: begin, run the collective, end. */
struct check_case {
    const char *coll, *alg;
    char desc[192];     /* "count=5 inplace=1 kind=minloc root=2" */
    long long calls_before;
    int runs;           /* times the collective is called (check_expect_runs) */
    int expect_alg;     /* 1: alg must run; 0: restrictions forbid, vendor must */
    int failed;
    int raised_before;  /* error handler invocations before the case */
    char why[256];
};

/* Force `alg` for `coll`; the counter is read so check_end can tell what ran. */
void check_begin(const struct check_env *env, struct check_case *c, const char *coll,
                 const char *alg, int expect_alg, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* check_begin with parameters appended to the forced rule, e.g. params
 * "seg=36" forces "bcast @pipeline seg=36"; the description gets them too. */
void check_begin_params(const struct check_env *env, struct check_case *c, const char *coll,
                        const char *alg, const char *params, int expect_alg, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* The case calls the collective n times in a row (n >= 1): check_end then
 * expects n runs of the forced algorithm instead of one. */
void check_expect_runs(struct check_case *c, int n);
/* Record a mismatch (first one wins) on this rank. */
void check_fail(struct check_case *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* 1 when NBC_NO_ALG_CHECK is set: check_end then does not assert which
 * algorithm ran (a development aid, never set by the test scripts). */
int check_alg_check_disabled(void);
/* Agree over ranks, assert what ran, print and count. Returns 1 on pass. */
int check_end(const struct check_env *env, struct check_case *c);

/* Totals of this process (rank 0 prints them). */
extern int check_passed, check_failed, check_skipped;
/* A case not run because the library the build is for is known to hang or
 * fail there: counted; rank 0 says why the first time (every rank must
 * skip the same cases). */
void check_skip(const struct check_env *env, const char *why);

/* The vendor's collective for reference: everything between these goes
 * straight to the MPI library. */
void vendor_on(void);
void vendor_off(void);

/* Bitwise agreement of a buffer over all ranks (via the vendor). */
int same_on_all_ranks(const struct check_env *env, const void *buf, size_t len);

/* 1 when name is one of the comma-separated names of list. */
int check_listed(const char *list, const char *name);

/* The counts every collective is checked with: 0, 1, p-1, p, p+1, large odd. */
int case_counts(const struct check_env *env, int *counts, int max);

/* A strided datatype with nonzero lower bound: one int every 3 ints, the
 * int 4 bytes into the element, lb = 4, extent = 12 (type_strided_int). */
MPI_Datatype type_strided_int(void);
/* Free what the harness created (before MPI_Finalize). */
void check_cleanup(void);
/* NULL, or why this MPI cannot carry type_strided_int (cases skipped). */
const char *strided_type_broken(void);

/* Buffer for n elements of type_strided_int, and access to element i. */
int *strided_alloc(int n);
int *strided_at(int *buf, int i);

/* Checkers, one per collective family; each runs its whole matrix over the
 * algorithms it is given (nalgs of them, in the registry's order): every
 * case runs each algorithm in turn against one vendor reference, computed
 * once per case from inputs of its own (the vendor's collective was most
 * of a matrix's time at scale when each algorithm asked for it again).
 * Return nothing: results go through check_end. */
typedef void (*checker_fn)(const struct check_env *env, const char *coll,
                           const char *const *algs, int nalgs);
/* The checker of a collective, or NULL if none is written yet. */
checker_fn checker_for(const char *coll);

#define CHECKER(name) \
    void name(const struct check_env *env, const char *coll, const char *const *algs, int nalgs)
CHECKER(check_reduction);  /* check_reduction.c */
void check_reduction_cleanup(void); /* frees check_reduction's types and ops */
CHECKER(check_barrier);    /* check_bcast.c */
CHECKER(check_bcast);      /* check_bcast.c */
CHECKER(check_gather);     /* check_gather.c (+v) */
CHECKER(check_scatter);    /* check_gather.c (+v) */
CHECKER(check_allgather);  /* check_gather.c (+v) */
CHECKER(check_alltoall);   /* check_alltoall.c (+v, w) */

#endif
