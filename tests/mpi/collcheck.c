/* collcheck.c - the MPI correctness matrix driver.
 *
 *   mpirun -np N collcheck [--coll c1,c2] [--alg n1,n2] [--quick] [--max-count N] [-v]
 *                          [--mode blocking|nonblocking|persistent] [--large-count]
 *
 * Runs every native algorithm of the chosen collectives (all by default)
 * through its checker, calling the collective under test as MPI_<Coll>
 * (blocking, the default), MPI_I<coll> + MPI_Wait (nonblocking) or a
 * persistent request started twice (persistent; check_call.h), with
 * --large-count through the collective's MPI-4 large-count form
 * (MPI_<Coll>_c, MPI_I<coll>_c, MPI_<Coll>_init_c; every collective but
 * barrier, which has none; an MPI without them is an error), then rank 0
 * prints "collcheck np=N: P passed, F failed, S skipped" ("collcheck np=N
 * MODE: ..." in the other modes and forms; skipped: cases where the MPI
 * library is known to hang, said when skipped). Every line rank 0 prints (FAIL, ok,
 * skipping, the summary) goes to stderr, unbuffered and in order: two
 * streams forwarded apart by mpirun could interleave mid-line. Exit
 * status 1 if anything failed. */
#include "tests/mpi/check.h"
#include "tests/mpi/check_call.h"
#include "collshim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *coll;
    checker_fn fn;
} checkers[] = {
    {"barrier", check_barrier},
    {"bcast", check_bcast},
    {"gather", check_gather},
    {"gatherv", check_gather},
    {"scatter", check_scatter},
    {"scatterv", check_scatter},
    {"allgather", check_allgather},
    {"allgatherv", check_allgather},
    {"alltoall", check_alltoall},
    {"alltoallv", check_alltoall},
    {"alltoallw", check_alltoall},
    {"reduce", check_reduction},
    {"allreduce", check_reduction},
    {"reduce_scatter", check_reduction},
    {"reduce_scatter_block", check_reduction},
    {"scan", check_reduction},
    {"exscan", check_reduction},
};

checker_fn checker_for(const char *coll)
{
    for (size_t i = 0; i < sizeof checkers / sizeof checkers[0]; i++)
        if (!strcmp(checkers[i].coll, coll))
            return checkers[i].fn;
    return NULL;
}

static const char *all_colls[] = {
    "barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather",
    "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce", "allreduce",
    "reduce_scatter", "reduce_scatter_block", "scan", "exscan"};

static void check_collective(const struct check_env *env, const char *coll, const char *only)
{
    checker_fn fn = checker_for(coll);
    int n = collshim_algorithm_count(coll), nalgs = 0;
    const char **algs = malloc((size_t)(n > 0 ? n : 1) * sizeof *algs);
    for (int i = 0; algs && i < n; i++) {
        const char *alg = collshim_algorithm_name(coll, i);
        /* the inter_* algorithms run intercommunicators only: intercheck.c */
        if (!strcmp(alg, "vendor") || !strncmp(alg, "inter_", 6) ||
            (check_large_count && !strcmp(coll, "barrier")) || /* no _c form */
            (only && !check_listed(only, alg)))
            continue;
        algs[nalgs++] = alg;
    }
    if (!algs || (!fn && nalgs)) {
        if (env->rank == 0)
            fprintf(stderr, "FAIL %s: %s\n", coll,
                    algs ? "no checker for this collective" : "out of memory");
        check_failed++;
    } else if (nalgs) {
        fn(env, coll, algs, nalgs);
    }
    free(algs);
}

int main(int argc, char **argv)
{
    struct check_env env = check_start(&argc, &argv);
    const char *colls = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--coll") && i + 1 < argc) colls = argv[++i];
        else if (!strcmp(argv[i], "--alg") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--quick")) env.quick = 1;
        else if (!strcmp(argv[i], "--max-count") && i + 1 < argc) env.max_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-v")) env.verbose = 1;
        else if (!strcmp(argv[i], "--mode") && i + 1 < argc && check_mode_set(argv[++i])) {
            if (env.rank == 0)
                fprintf(stderr, "collcheck: unknown mode '%s' (blocking, nonblocking, "
                        "persistent)\n", argv[i]);
            MPI_Finalize();
            return 2;
        } else if (!strcmp(argv[i], "--large-count") && check_large_count_set()) {
            if (env.rank == 0)
                fprintf(stderr, "collcheck: this MPI has no large-count collectives "
                        "(MPI_Allreduce_c, ...)\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (check_alg_check_disabled() && env.rank == 0)
        fprintf(stderr, "collcheck: NBC_NO_ALG_CHECK is set: which algorithm ran is NOT "
                "checked (development aid)\n");
    for (size_t c = 0; c < sizeof all_colls / sizeof all_colls[0]; c++)
        if (!colls || check_listed(colls, all_colls[c]))
            check_collective(&env, all_colls[c], only);
    if (env.rank == 0)
        fprintf(stderr, "collcheck np=%d%s%s: %d passed, %d failed, %d skipped\n", env.size,
               check_mode == MODE_BLOCKING && !check_large_count ? "" : " ",
               check_mode == MODE_BLOCKING && !check_large_count ? "" : check_mode_name(),
               check_passed, check_failed, check_skipped);
    check_cleanup();
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
