/* collbench.c - A/B benchmark of collshim's algorithms against the MPI
 * library's own collectives, in one launch (doc/collbench.md).
 *
 *   mpirun -np 8 collbench -c allreduce,reduce_scatter -n 2,3,4,8 -o out.csv
 *   mpirun -np 8 collbench --overlap -c allreduce,bcast -m 4:4m -o ovl.csv
 *   mpirun -np 8 collbench --inter -c allreduce,bcast,allgather -o inter.csv
 *
 * For each collective, communicator size and power-of-two message size,
 * every arm (vendor, auto, each native algorithm, parameter sweeps) is
 * checked against the vendor's result and timed in interleaved, shuffled
 * rounds (bench/timing.h); rank 0 prints a table with the alpha-beta-gamma
 * lower bound of the machine (bench/bound.h) and writes every statistic to
 * the CSV. With --overlap, each arm's nonblocking collective is timed
 * alone, against computation and overlapped with it instead (overlap.h).
 * The machinery lives in the other bench/ files so colltune can share it;
 * this file is only the command line. */
#include "bench/bound.h"
#include "bench/collops.h"
#include "bench/output.h"
#include "bench/overlap.h"
#include "bench/provenance.h"
#include "bench/timing.h"
#include "bench/util.h"
#include "collshim.h"
#include "algorithms/coll.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int print_errors; /* rank 0 says what is wrong with the options */

struct options {
    int colls[COLLOP_COUNT], ncolls;
    const char *arms, *exclude, *csv;
    long long lo, hi;
    int nps[64], nnps;
    int root, quiet;
    int overlap;         /* --overlap: nonblocking collectives against computation */
    int inter;           /* --inter: on an intercommunicator of the two halves */
    double overlap_test; /* --overlap-test: MPI_Test every N us of computation (0: never) */
    double recheck;      /* --recheck: auto over this times the best is measured again (0: never) */
    MPI_Datatype type;
    struct bench_opts bench;
};

/* Long options without a short form. */
enum { OPT_OVERLAP_TEST = 256, OPT_THREAD_MULTIPLE, OPT_INTER, OPT_RECHECK };

static const char usage[] =
    "usage: collbench [options]\n"
    "  -c, --coll LIST      collectives, comma-separated, or all (default allreduce)\n"
    "  -a, --arms LIST      arms: all (default), native, vendor, auto, NAME,\n"
    "                       NAME:seg=16k/64k[:outstanding=2/4] (one arm per value)\n"
    "  -x, --exclude LIST   arms or algorithms to leave out\n"
    "  -m, --sizes LO:HI    power-of-two sizes in bytes, k/m/g suffixes (default 1:1m)\n"
    "  -n, --np LIST        communicator sizes: the first N ranks of the job, comma-\n"
    "                       separated, or all (2..job size); default the job's size\n"
    "  -T, --type NAME      element type of reductions: float (default), double, int\n"
    "  -r, --root N         root of rooted collectives (default 0)\n"
    "  -i, --iters MIN:MAX  timed calls per arm and size (default 20:1000)\n"
    "  -t, --time SEC       seconds of timed calls per arm and size that pick the\n"
    "                       count within MIN:MAX (default 0.02)\n"
    "  -w, --warmup N       warm-up rounds (default 3)\n"
    "  -M, --max-call SEC   an arm whose checked call takes longer is \"slow\" and\n"
    "                       not timed (default 1; 0: no limit)\n"
    "  -s, --seed N         seed of the shuffled order (default 24301)\n"
    "  -o, --csv PATH       write every arm and statistic as CSV\n"
    "  -F, --fence KIND     how each timed call starts: window (all ranks at one\n"
    "                       instant of a synchronized clock; default) or barrier\n"
    "  -q, --quiet          no table on stdout\n"
    "  -O, --overlap        time each arm's nonblocking collective (MPI_I<coll> +\n"
    "                       MPI_Wait), a computation of the same length, and the\n"
    "                       two overlapped; print the overlap (OSU's definition);\n"
    "                       arms default to vendor,auto\n"
    "      --overlap-test N call MPI_Test every N microseconds of the computation\n"
    "                       (default: no MPI call inside it)\n"
    "      --recheck X      where auto is over X times the faster of the vendor and\n"
    "                       the best native arm, time those two again, alone, and\n"
    "                       report the second measurement (default 1.15; 0: never)\n"
    "      --inter          run on an intercommunicator: the first np/2 ranks\n"
    "                       against the other ones (np >= 2); the root is rank -r\n"
    "                       of the first group; native arms are forced with\n"
    "                       \"<coll> inter @NAME\" (name the inter_* algorithms)\n"
    "      --thread-multiple  MPI_Init_thread(MPI_THREAD_MULTIPLE), as the shim's\n"
    "                       progress thread needs; implied by COLLSHIM_PROGRESS_THREAD\n"
    "  -h, --help\n"
    "Sizes follow the OSU micro-benchmarks (doc/collbench.md).\n";

static int parse_colls(struct options *o, const char *list)
{
    o->ncolls = 0;
    if (!strcmp(list, "all")) {
        for (int c = 0; c < COLLOP_COUNT; c++)
            o->colls[o->ncolls++] = c;
        return 0;
    }
    char *copy = strdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int c = collop_from_name(t);
        if (c < 0 || o->ncolls == COLLOP_COUNT) {
            if (print_errors)
                fprintf(stderr, "collbench: unknown collective \"%s\"\n", t);
            free(copy);
            return -1;
        }
        o->colls[o->ncolls++] = c;
    }
    free(copy);
    return o->ncolls ? 0 : -1;
}

static int parse_nps(struct options *o, const char *list, int world)
{
    o->nnps = 0;
    if (!strcmp(list, "all")) {
        for (int n = world > 1 ? 2 : 1; n <= world && o->nnps < 64; n++)
            o->nps[o->nnps++] = n;
        return 0;
    }
    char *copy = strdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t && o->nnps < 64; t = strtok_r(NULL, ",", &save)) {
        int n = atoi(t);
        if (n < 1 || n > world) {
            if (print_errors)
                fprintf(stderr, "collbench: np %s is not within 1..%d (the job's size)\n", t, world);
            free(copy);
            return -1;
        }
        o->nps[o->nnps++] = n;
    }
    free(copy);
    return o->nnps ? 0 : -1;
}

static int parse_range(const char *s, long long *lo, long long *hi)
{
    char buf[64];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = '\0';
    *lo = bench_parse_bytes(buf);
    *hi = bench_parse_bytes(colon + 1);
    return *lo < 0 || *hi < *lo ? -1 : 0;
}

static int parse_type(const char *s, MPI_Datatype *t)
{
    *t = !strcmp(s, "float") ? MPI_FLOAT : !strcmp(s, "double") ? MPI_DOUBLE
           : !strcmp(s, "int") ? MPI_INT : MPI_DATATYPE_NULL;
    return *t == MPI_DATATYPE_NULL ? -1 : 0;
}

static int parse_options(struct options *o, int argc, char **argv, int world)
{
    static const struct option longs[] = {
        {"coll", 1, 0, 'c'}, {"arms", 1, 0, 'a'}, {"exclude", 1, 0, 'x'},
        {"sizes", 1, 0, 'm'}, {"np", 1, 0, 'n'}, {"type", 1, 0, 'T'},
        {"root", 1, 0, 'r'}, {"iters", 1, 0, 'i'}, {"time", 1, 0, 't'},
        {"warmup", 1, 0, 'w'}, {"max-call", 1, 0, 'M'}, {"seed", 1, 0, 's'}, {"csv", 1, 0, 'o'},
        {"fence", 1, 0, 'F'}, {"quiet", 0, 0, 'q'}, {"help", 0, 0, 'h'},
        {"overlap", 0, 0, 'O'}, {"overlap-test", 1, 0, OPT_OVERLAP_TEST},
        {"thread-multiple", 0, 0, OPT_THREAD_MULTIPLE}, {"inter", 0, 0, OPT_INTER},
        {"recheck", 1, 0, OPT_RECHECK}, {0, 0, 0, 0}};
    long long a, b;
    int ch, bad = 0;
    memset(o, 0, sizeof *o);
    bench_opts_default(&o->bench);
    o->bench.seed = 24301;
    o->lo = 1, o->hi = 1 << 20;
    o->recheck = 1.15;
    o->type = MPI_FLOAT;
    o->nps[o->nnps++] = world;
    o->colls[o->ncolls++] = collop_from_name("allreduce");
    while (!bad && (ch = getopt_long(argc, argv, "c:a:x:m:n:T:r:i:t:w:M:s:o:F:qOh", longs, NULL)) != -1) {
        switch (ch) {
        case 'c': bad = parse_colls(o, optarg); break;
        case 'a': o->arms = optarg; break;
        case 'x': o->exclude = optarg; break;
        case 'm': bad = parse_range(optarg, &o->lo, &o->hi); break;
        case 'n': bad = parse_nps(o, optarg, world); break;
        case 'T': bad = parse_type(optarg, &o->type); break;
        case 'r': o->root = atoi(optarg); break;
        case 'i':
            bad = sscanf(optarg, "%lld:%lld", &a, &b) != 2 || a < 1 || b < a;
            o->bench.min_reps = (int)a, o->bench.max_reps = (int)b;
            break;
        case 't': o->bench.budget = atof(optarg); break;
        case 'w': o->bench.warmup = atoi(optarg); break;
        case 'M': o->bench.max_call = atof(optarg); break;
        case 's': o->bench.seed = strtoull(optarg, NULL, 0); break;
        case 'o': o->csv = optarg; break;
        case 'F':
            bad = fence_parse(optarg) < 0;
            if (bad && print_errors)
                fprintf(stderr, "collbench: --fence \"%s\": the fences are window and barrier\n",
                        optarg);
            o->bench.fence = bad ? o->bench.fence : (enum fence_kind)fence_parse(optarg);
            break;
        case 'q': o->quiet = 1; break;
        case 'O': o->overlap = 1; break;
        case OPT_OVERLAP_TEST:
            o->overlap_test = atof(optarg);
            bad = o->overlap_test <= 0;
            break;
        case OPT_THREAD_MULTIPLE: break; /* read before MPI_Init (main) */
        case OPT_INTER: o->inter = 1; break;
        case OPT_RECHECK:
            o->recheck = atof(optarg);
            bad = o->recheck < 0 || (o->recheck > 0 && o->recheck < 1);
            break;
        case 'h': return 1;
        default: bad = 1; break;
        }
    }
    if (optind < argc)
        bad = 1;
    if (o->overlap_test > 0 && !o->overlap) {
        if (print_errors)
            fprintf(stderr, "collbench: --overlap-test needs --overlap\n");
        bad = 1;
    }
    if (o->overlap && !o->arms)
        o->arms = "vendor,auto";
    o->bench.auto_rules = getenv("COLLSHIM_TUNE");
    return bad ? -1 : 0;
}

/* Everything one rank needs to run the blocks. */
struct run {
    struct options *o;
    MPI_Comm inter; /* --inter: the intercommunicator of the block's ranks */
    struct bound_model model;
    struct bench_arm *arms[COLLOP_COUNT];
    int narms[COLLOP_COUNT];
    FILE *table, *csv; /* rank 0 of the job only; NULL elsewhere */
    int thread_wanted, thread_level; /* MPI_Init_thread's required and provided */
};

/* --recheck: where auto is over o->recheck times the faster of the vendor
 * and the best native arm, the two are timed again, alone, and the second
 * measurement replaces the first (its `why` keeps the first median). A
 * slow size is then a loss only if it is slow twice (the rule for
 * regret against the best arm, which is the least of several noisy ones). */
static int recheck_case(struct run *r, struct collop *c, struct arm_result *res)
{
    const struct bench_arm *arms = r->arms[c->coll];
    int n = r->narms[c->coll], pick[2], err;
    int automatic = bench_fastest(arms, n, res, ARM_AUTO);
    int vendor = bench_fastest(arms, n, res, ARM_VENDOR);
    int native = bench_fastest(arms, n, res, ARM_NATIVE);
    int best = vendor < 0 || (native >= 0 && res[native].median < res[vendor].median) ? native
                                                                                     : vendor;
    if (r->o->recheck <= 0 || automatic < 0 || best < 0 ||
        res[automatic].median <= r->o->recheck * res[best].median)
        return 0;
    struct bench_arm again[2] = {arms[automatic], arms[best]};
    struct arm_result second[2];
    memset(second, 0, sizeof second);
    pick[0] = automatic, pick[1] = best;
    if ((err = bench_measure(c, again, 2, &r->o->bench, second)))
        return err;
    for (int i = 0; i < 2; i++)
        if (second[i].status == ARM_OK) {
            double first = res[pick[i]].median;
            res[pick[i]] = second[i];
            snprintf(res[pick[i]].why, sizeof res[pick[i]].why,
                     "timed again (auto over %.2fx the best): first median %.1f us",
                     r->o->recheck, first * 1e6);
        }
    return 0;
}

/* The blocking collective: every arm timed, one row of the table. */
static int blocking_case(struct run *r, struct collop *c, struct arm_result *res,
                         struct table_notes *notes)
{
    int err = bench_measure(c, r->arms[c->coll], r->narms[c->coll], &r->o->bench, res);
    if (err == 0)
        err = recheck_case(r, c, res);
    if (err == 0) {
        double bound = bound_time(c->coll, c->size, (double)c->full_bytes, &r->model);
        if (r->table)
            out_table_row(r->table, c, r->arms[c->coll], r->narms[c->coll], res, bound, notes);
        if (r->csv)
            out_csv_rows(r->csv, c, r->arms[c->coll], r->narms[c->coll], res, bound);
    }
    return err;
}

/* --overlap: every arm's nonblocking collective, alone and overlapped, a
 * row per arm. */
static int overlap_case(struct run *r, struct collop *c)
{
    int n = r->narms[c->coll];
    struct overlap_result *res = calloc((size_t)n + 1, sizeof *res);
    int err = res ? overlap_measure(c, r->arms[c->coll], n, &r->o->bench, r->o->overlap_test, res)
                  : MPI_ERR_NO_MEM;
    if (err == 0 && r->table)
        out_overlap_rows(r->table, c, r->arms[c->coll], n, res);
    if (err == 0 && r->csv)
        out_overlap_csv_rows(r->csv, c, r->arms[c->coll], n, res);
    free(res);
    return err;
}

static void run_size(struct run *r, int coll, MPI_Comm comm, size_t size,
                     struct arm_result *res, struct table_notes *notes)
{
    struct collop c;
    int np, err;
    MPI_Comm_size(comm, &np);
    if (r->inter != MPI_COMM_NULL)
        err = collop_setup_inter(&c, coll, comm, r->inter, size, r->o->type,
                                 r->o->root % (np / 2));
    else
        err = collop_setup(&c, coll, comm, size, r->o->type, r->o->root % np);
    if (err == 0)
        err = r->o->overlap ? overlap_case(r, &c) : blocking_case(r, &c, res, notes);
    if (err != 0 && err != 1 && r->table) {
        fprintf(r->table, "# %s np=%d size=%zu: the vendor's reference call%s failed (%d)\n",
                collop_name(coll), np, size, r->o->overlap ? " or a calibration" : "", err);
    }
    collop_free(&c);
}

/* One collective on one communicator: every size. */
static void run_block(struct run *r, int coll, MPI_Comm comm)
{
    int np, narms = r->narms[coll];
    struct table_notes notes;
    struct arm_result *res = calloc((size_t)narms + 1, sizeof *res);
    MPI_Comm_size(comm, &np);
    memset(&notes, 0, sizeof notes);
    if (r->table && r->o->overlap)
        out_overlap_begin(r->table, coll, np, r->o->overlap_test);
    else if (r->table)
        out_table_begin(r->table, collop_name(coll), np, &r->model, &notes, narms);
    if (coll == COLL_barrier)
        run_size(r, coll, comm, 0, res, &notes);
    else
        for (long long s = r->o->lo > 0 ? r->o->lo : 1; s <= r->o->hi; s *= 2)
            run_size(r, coll, comm, (size_t)s, res, &notes);
    if (r->table && !r->o->overlap)
        out_table_end(r->table, r->arms[coll], &notes);
    free(res);
}

static int parse_all_arms(struct run *r, int rank)
{
    char err[512];
    for (int i = 0; i < r->o->ncolls; i++) {
        int c = r->o->colls[i];
        if (bench_arms_parse(collop_name(c), r->o->arms, r->o->exclude, &r->arms[c],
                             &r->narms[c], err, sizeof err)) {
            if (rank == 0)
                fprintf(stderr, "collbench: %s\n", err);
            return -1;
        }
    }
    return 0;
}

static void open_outputs(struct run *r, int rank, int argc, char **argv)
{
    char *prov = bench_provenance(MPI_COMM_WORLD, "collbench", argc, argv);
    if (rank != 0)
        return;
    r->table = r->o->quiet ? NULL : stdout;
    if (r->o->csv && !(r->csv = fopen(r->o->csv, "w")))
        perror(r->o->csv);
    FILE *outs[2] = {r->table, r->csv};
    for (int i = 0; i < 2; i++) {
        if (!outs[i])
            continue;
        fputs(prov ? prov : "", outs[i]);
        out_model(outs[i], &r->model);
        out_fence(outs[i], r->o->bench.fence);
        out_threads(outs[i], r->thread_wanted, r->thread_level);
        if (r->o->overlap)
            out_overlap_setup(outs[i], r->o->overlap_test);
    }
    if (r->csv && r->o->overlap)
        out_overlap_csv_header(r->csv);
    else if (r->csv)
        out_csv_header(r->csv);
    for (int i = 0; i < 2; i++)
        if (outs[i])
            fflush(outs[i]); /* a pipe to mpirun: show the header before a long run */
    free(prov);
}

/* "# layout np=N: nodes=.. ppn=.." of the communicator measured, as the
 * shim keys it (nodes= and ppn= rules); collective over comm. */
static void print_layout(const struct run *r, MPI_Comm comm, int np)
{
    int nodes, ppn, equal, block;
    if (collshim_node_shape(comm, &nodes, &ppn, &equal, &block))
        nodes = ppn = equal = block = 0;
    if (r->table)
        fprintf(r->table, "\n# layout np=%d: nodes=%d ppn=%d%s%s%s\n", np, nodes, ppn,
                nodes && !equal ? " unequal" : "", nodes && !block ? " interleaved" : "",
                nodes ? "" : " (collshim does not run this communicator)");
}

/* --inter: the first np/2 ranks of sub against the others, in order. */
static void make_inter(struct run *r, MPI_Comm sub, int np)
{
    MPI_Comm half;
    int rank, first;
    r->inter = MPI_COMM_NULL;
    if (np < 2)
        return;
    MPI_Comm_rank(sub, &rank);
    first = rank < np / 2;
    MPI_Comm_split(sub, first, rank, &half);
    MPI_Intercomm_create(half, 0, sub, first ? np / 2 : 0, 17, &r->inter);
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(r->inter, MPI_ERRORS_RETURN);
}

static void run_all(struct run *r, int rank)
{
    for (int k = 0; k < r->o->nnps; k++) {
        int np = r->o->nps[k];
        MPI_Comm sub = MPI_COMM_NULL;
        MPI_Comm_split(MPI_COMM_WORLD, rank < np ? 0 : MPI_UNDEFINED, rank, &sub);
        if (sub != MPI_COMM_NULL) {
            MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN);
            print_layout(r, sub, np);
            if (r->o->inter)
                make_inter(r, sub, np);
            for (int i = 0; i < r->o->ncolls && (!r->o->inter || np >= 2); i++)
                run_block(r, r->o->colls[i], sub);
            if (r->inter != MPI_COMM_NULL)
                MPI_Comm_free(&r->inter);
            MPI_Comm_free(&sub);
        }
        bench_quiet_barrier(MPI_COMM_WORLD);
    }
}

/* MPI_THREAD_MULTIPLE when asked for (--thread-multiple) or when the shim
 * will start its progress thread, which needs it (COLLSHIM_PROGRESS_THREAD
 * set and not 0); otherwise MPI_THREAD_SINGLE, as MPI_Init. Read before
 * MPI_Init, so from argv and the environment. */
static int thread_level_wanted(int argc, char **argv)
{
    const char *progress = getenv("COLLSHIM_PROGRESS_THREAD");
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--thread-multiple"))
            return MPI_THREAD_MULTIPLE;
    return progress && *progress && strcmp(progress, "0") ? MPI_THREAD_MULTIPLE
                                                          : MPI_THREAD_SINGLE;
}

/* Rank 0 says when the MPI gives less than was asked for. */
static void init_threads(struct run *r, int *argc, char ***argv)
{
    int rank;
    r->thread_wanted = thread_level_wanted(*argc, *argv);
    MPI_Init_thread(argc, argv, r->thread_wanted, &r->thread_level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && r->thread_level < r->thread_wanted)
        fprintf(stderr, "collbench: MPI_THREAD_MULTIPLE requested, the MPI provides only %s: "
                        "the shim's progress thread cannot run\n",
                out_thread_name(r->thread_level));
}

int main(int argc, char **argv)
{
    struct options o;
    struct run r = {.o = &o, .inter = MPI_COMM_NULL};
    int rank, world, rc;
    init_threads(&r, &argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    print_errors = rank == 0;
    rc = parse_options(&o, argc, argv, world);
    bench_arms_inter(o.inter);
    if (rc == 0)
        rc = parse_all_arms(&r, rank);
    if (rc != 0) {
        if (rank == 0)
            fputs(usage, rc > 0 ? stdout : stderr);
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }
    if (o.root < 0)
        o.root = 0;
    if (o.bench.warmup < 1)
        o.bench.warmup = 1;
    bound_measure(MPI_COMM_WORLD, o.type, &r.model);
    open_outputs(&r, rank, argc, argv);
    run_all(&r, rank);
    if (r.csv)
        fclose(r.csv);
    for (int c = 0; c < COLLOP_COUNT; c++)
        free(r.arms[c]);
    MPI_Finalize();
    return 0;
}
