/* collfuzz.c - the differential fuzzer's driver (fuzz.h, doc/testing.md).
 *
 *   collfuzz [--seed S|random] [--cases A:B] [--seconds T] [--coll NAME]
 *            [--alg NAME] [--form F] [--timeout T] [--quiet] [--show]
 *
 * For each case: draw it, run it through the MPI library alone (collshim
 * bypassed: the reference), keep every byte of its buffers, then run it
 * through "auto" (collshim's own choice) and each algorithm of the
 * collective forced in turn, in the case's form, and compare every byte.
 * A forced algorithm counts only where it really ran (collshim's call
 * counter); where its restrictions forbid the call the vendor runs and the
 * case is not counted for it. A failure prints one line to reproduce it.
 * A case that takes longer than --timeout seconds is a hang: its line is
 * printed and the job ends. The last line is "collfuzz: N passed, M failed". */
#include "tests/fuzz/fuzz.h"
#include "collshim.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct options {
    uint64_t seed;
    long first, last; /* cases [first, last) */
    double seconds;   /* 0: no time limit */
    const char *coll, *alg;
    int form; /* -1: the case's own */
    int timeout, quiet, show;
};

/* ---- communicators ---- */

#define POOL_MAX 8
static struct fcomm pool[POOL_MAX];
static int npool, world_rank, world_size;
struct options;

static struct fcomm intra(MPI_Comm comm, const char *name)
{
    struct fcomm f = {.comm = comm, .name = name, .world_rank = world_rank};
    MPI_Comm_rank(comm, &f.rank);
    MPI_Comm_size(comm, &f.size);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    return f;
}

/* An intercommunicator between the two groups of local (made by color,
 * group 0 led by world rank lead0, group 1 by lead1). */
static struct fcomm inter(MPI_Comm local, int group, int lead0, int lead1, const char *name)
{
    MPI_Comm comm;
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group ? lead0 : lead1, 77, &comm);
    MPI_Comm_free(&local);
    struct fcomm f = intra(comm, name);
    f.inter = 1;
    f.group = group;
    MPI_Comm_remote_size(comm, &f.remote_size);
    return f;
}

/* The pool, entry by entry; an entry is made again (collectively) when a
 * vendor failure may have left messages behind on it. MPI_COMM_WORLD and
 * MPI_COMM_SELF cannot be: they are left out from then on. */
enum {
    P_WORLD,
    P_DUP,
    P_SELF,
    P_HALVES,
    P_REVERSED,
    P_ODD_EVEN,
    P_INTER_HALVES,
    P_INTER_ODD_EVEN,
    P_COUNT
};
static int left_out[P_COUNT];
static MPI_Comm control; /* the fuzzer's own agreements */

static struct fcomm pool_entry(int i)
{
    MPI_Comm c;
    int h = (world_size + 1) / 2;
    switch (i) {
    case P_WORLD: return intra(MPI_COMM_WORLD, "world");
    case P_DUP: MPI_Comm_dup(MPI_COMM_WORLD, &c); return intra(c, "dup");
    case P_SELF: return intra(MPI_COMM_SELF, "self");
    case P_HALVES:
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < h, world_rank, &c);
        return intra(c, "halves");
    case P_REVERSED:
        MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &c);
        return intra(c, "reversed");
    case P_ODD_EVEN:
        MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &c);
        return intra(c, "odd_even");
    case P_INTER_HALVES:
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < h, world_rank, &c);
        return inter(c, world_rank >= h, 0, h, "inter_halves");
    default:
        MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &c);
        return inter(c, world_rank % 2, 0, 1, "inter_odd_even");
    }
}

static void pool_make(void)
{
    MPI_Comm_dup(MPI_COMM_WORLD, &control);
    npool = world_size < 2 ? P_INTER_HALVES : P_COUNT;
    for (int i = 0; i < npool; i++)
        pool[i] = pool_entry(i);
}

static void entry_free(int i)
{
    if (pool[i].comm != MPI_COMM_WORLD && pool[i].comm != MPI_COMM_SELF)
        MPI_Comm_free(&pool[i].comm);
}

static void pool_free(void)
{
    for (int i = 0; i < npool; i++)
        entry_free(i);
    MPI_Comm_free(&control);
}

/* After a vendor failure the old communicator is kept, not freed: Open MPI
 * gives a freed communicator's context id to the next one made, which
 * would then match the messages the failure left behind. */
static void pool_renew_entry(int i, int polluted)
{
    if (pool[i].comm == MPI_COMM_WORLD || pool[i].comm == MPI_COMM_SELF) {
        left_out[i] = 1;
        return;
    }
    if (!polluted)
        entry_free(i);
    pool[i] = pool_entry(i);
}

/* A fresh dup now and then: contexts made and freed while cases run. */
static void pool_renew(long number)
{
    if (number % 64 == 63)
        pool_renew_entry(P_DUP, 0);
}

/* The entry case number runs on (every rank draws the same). */
static int pool_pick(const struct options *o, long number)
{
    struct rng pick = rng_for(o->seed, (uint64_t)number, 1);
    int i = rng_below(&pick, npool);
    return left_out[i] ? P_DUP : i;
}

/* ---- hangs ---- */

static char running[512]; /* what the case in progress is, for the alarm */

static void say_running(const char *head)
{
    ssize_t ignored = write(2, head, strlen(head));
    ignored = write(2, running, strlen(running));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

static void on_alarm(int sig)
{
    (void)sig;
    say_running("collfuzz: HANG (no progress within --timeout): ");
    _exit(124);
}

/* A crash says which case it was in, then dies of the signal. */
static void on_crash(int sig)
{
    say_running("collfuzz: CRASH: ");
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- one run of an algorithm ---- */

struct run_state {
    const struct fcase *c;
    const struct fcomm *fc;
    struct prepared *p;
    const char *alg;
    char rules[160];
    int mismatch;
    char first[400];
};

static int check_bytes(void *arg)
{
    struct run_state *s = arg;
    const char *which, *where;
    long offset;
    int expected, got;
    if (s->mismatch || !compare(s->p, &which, &where, &offset, &expected, &got))
        return 0; /* the first mismatch is the one reported */
    snprintf(s->first, sizeof s->first, "%s byte %+ld (%s) is 0x%02x, the vendor's 0x%02x", which,
             offset, where, got, expected);
    s->mismatch = 1;
    return 1;
}

static const char *error_name(int err)
{
    static char name[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, name, &len);
    for (char *c = name; *c; c++) /* MPICH's error stack, on one line */
        if (*c == '\n')
            *c = ' ';
    return name;
}

/* Force alg (NULL: auto), with segment and window sizes now and then;
 * the rules go to rules. Where alg cannot run the built-in table chooses
 * (a native algorithm: it names no vendor), and the result is checked all
 * the same. */
static int force(const char *coll, const char *alg, int inter, struct rng *r, char rules[160])
{
    static const int segs[] = {8, 24, 100, 1000, 4096};
    char err[256];
    snprintf(rules, 160, "the built-in table");
    if (!alg)
        return collshim_tune(NULL, err, sizeof err);
    int n = snprintf(rules, 160, "%s%s @%s", coll, inter ? " inter" : "", alg);
    if (rng_chance(r, 40))
        n += snprintf(rules + n, 160 - (size_t)n, " seg=%d", segs[rng_below(r, 5)]);
    if (rng_chance(r, 40))
        n += snprintf(rules + n, 160 - (size_t)n, " outstanding=%d", 1 + rng_below(r, 3));
    if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS) {
        fprintf(stderr, "collfuzz: collshim_tune(\"%s\"): %s\n", rules, err);
        return 1;
    }
    return 0;
}

struct totals {
    long passed, failed, not_run, vendor_failed;
    long ran[F_COLL_COUNT][64];
};

/* The line that runs the failing case alone: the launcher (with its own
 * option for the number of ranks, COLLFUZZ_LAUNCHER) and the node layout
 * it ran under. */
static void report_failure(const struct options *o, const struct run_state *s, const char *why)
{
    const char *launcher = getenv("COLLFUZZ_LAUNCHER"), *nodes = getenv("COLLSHIM_NODES");
    fprintf(stderr,
            "collfuzz: FAIL case %ld alg %s rank %d (world %d) of %s: %s [%s]: %s\n"
            "collfuzz:   reproduce: %s%s%s%s %d collfuzz --seed %llu --cases %ld:%ld --alg %s\n",
            s->c->number, s->alg, s->fc->rank, world_rank, s->fc->name, s->c->what, s->rules, why,
            nodes ? "COLLSHIM_NODES=" : "", nodes ? nodes : "", nodes ? " " : "",
            launcher ? launcher : "mpiexec -n", world_size, (unsigned long long)o->seed,
            s->c->number, s->c->number + 1, s->alg);
}

static void run_algorithm(const struct options *o, const struct fcase *c, const struct fcomm *fc,
                          struct prepared *p, const char *alg, int index, struct totals *t)
{
    const char *coll = fuzz_coll_names[c->coll];
    struct rng r = rng_for(o->seed, (uint64_t)c->number, 500 + (uint64_t)index);
    struct run_state s = {c, fc, p, alg ? alg : "auto", "", 0, ""};
    long long before = alg ? collshim_algorithm_calls(coll, alg) : 0;
    if (force(coll, alg, fc->inter, &r, s.rules)) {
        t->failed++;
        return;
    }
    snprintf(running, sizeof running, "case %ld alg %s rank %d of %s: %s [%s] (seed %llu)",
             c->number, s.alg, fc->rank, fc->name, c->what, s.rules, (unsigned long long)o->seed);
    restore(p);
    int err = run_call(c, fc, p, c->form, check_bytes, &s, 2);
    int ran = !alg || collshim_algorithm_calls(coll, alg) > before;
    if (err) {
        char why[MPI_MAX_ERROR_STRING + 64];
        snprintf(why, sizeof why, "returned %s where the vendor completed the call",
                 error_name(err));
        report_failure(o, &s, why);
        t->failed++;
    } else if (s.mismatch) {
        char why[sizeof s.first + 96];
        snprintf(why, sizeof why, "%s%s", s.first,
                 ran ? "" : " (the forced algorithm did not run: the vendor or the table's choice did)");
        report_failure(o, &s, why);
        t->failed++;
    } else if (ran) {
        t->passed++;
    } else {
        t->not_run++; /* right, but by the algorithm the table chose instead */
    }
    if (ran && alg && index < 64)
        t->ran[c->coll][index]++;
}

/* ---- one case ---- */

/* The reference: the vendor's blocking call. Only that: Open MPI 4.1.4's
 * nonblocking and persistent collectives (libnbc) hang or crash on some
 * of the derived types drawn here, and a hang would end the run. */
static int reference(const struct fcase *c, const struct fcomm *fc, struct prepared *p)
{
    int err;
    collshim_bypass(1);
    restore(p);
    err = run_call(c, fc, p, FORM_BLOCKING, NULL, NULL, 1);
    keep_expected(p);
    collshim_bypass(0);
    return err;
}

/* The vendor failed the call on some rank: no reference, the case is
 * skipped everywhere (said once per collective and error). */
static int vendor_failed(const struct options *o, const struct fcase *c, const struct fcomm *fc,
                         int err, struct totals *t)
{
    static int said[F_COLL_COUNT][MPI_ERR_LASTCODE > 128 ? 128 : MPI_ERR_LASTCODE + 1];
    int cls = MPI_SUCCESS, any;
    if (err)
        MPI_Error_class(err, &cls);
    any = cls != MPI_SUCCESS;
    collshim_bypass(1);
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, control);
    collshim_bypass(0);
    if (!any)
        return 0;
    t->vendor_failed++;
    if (cls && cls < 128 && !said[c->coll][cls]++ && !o->quiet)
        fprintf(stderr,
                "collfuzz: case %ld rank %d: the vendor fails %s: %s (skipped; said "
                "once per collective and error)\n",
                c->number, fc->rank, c->what, error_name(err));
    return 1;
}

static int run_case(const struct options *o, long number, struct totals *t)
{
    int entry = pool_pick(o, number);
    const struct fcomm *fc = &pool[entry];
    struct fcase c;
    struct prepared p;
    plan_case(&c, fc, o->seed, number, o->form);
    if (o->coll && strcmp(o->coll, fuzz_coll_names[c.coll]))
        return 0;
    snprintf(running, sizeof running, "case %ld (vendor) rank %d of %s: %s (seed %llu)", number,
             fc->rank, fc->name, c.what, (unsigned long long)o->seed);
    int err = prepare(&p, &c, fc);
    if (!err && o->show)
        show_arguments(&c, fc, &p);
    if (!err)
        err = reference(&c, fc, &p);
    if (vendor_failed(o, &c, fc, err, t)) {
        release_prepared(&p);
        pool_renew_entry(entry, 1);
        return 0;
    }
    const char *coll = fuzz_coll_names[c.coll];
    int nalgs = collshim_algorithm_count(coll);
    if (!o->alg || !strcmp(o->alg, "auto"))
        run_algorithm(o, &c, fc, &p, NULL, -1, t);
    for (int i = 0; i < nalgs; i++) {
        const char *alg = collshim_algorithm_name(coll, i);
        if ((!o->alg || !strcmp(o->alg, alg)) && !vendor_form_unsafe(&c, fc, alg))
            run_algorithm(o, &c, fc, &p, alg, i, t);
    }
    collshim_tune(NULL, NULL, 0);
    release_prepared(&p);
    return 0;
}

/* ---- options, the loop, the summary ---- */

static void usage(void)
{
    fprintf(stderr, "usage: collfuzz [--seed S|random] [--cases A:B] [--seconds T] "
                    "[--coll NAME] [--alg NAME] [--form blocking|nonblocking|persistent]\n"
                    "                [--timeout SECONDS] [--quiet] [--show]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static struct options parse(int argc, char **argv)
{
    struct options o = {.seed = 1, .first = 0, .last = 200, .form = -1, .timeout = 300};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "--show")) {
            *(argv[i][2] == 'q' ? &o.quiet : &o.show) = 1;
            continue;
        }
        if (!v)
            usage();
        if (!strcmp(argv[i], "--seed"))
            o.seed = strcmp(v, "random") ? strtoull(v, NULL, 0)
                                         : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
        else if (!strcmp(argv[i], "--cases")) {
            if (sscanf(v, "%ld:%ld", &o.first, &o.last) != 2)
                usage();
        } else if (!strcmp(argv[i], "--seconds")) {
            o.seconds = atof(v);
            o.last = o.seconds > 0 ? 1L << 40 : o.last;
        } else if (!strcmp(argv[i], "--coll"))
            o.coll = v;
        else if (!strcmp(argv[i], "--alg"))
            o.alg = v;
        else if (!strcmp(argv[i], "--form")) {
            for (o.form = 0; o.form < FORM_COUNT && strcmp(v, form_name(o.form)); o.form++)
                ;
            if (o.form == FORM_COUNT)
                usage();
        } else if (!strcmp(argv[i], "--timeout"))
            o.timeout = atoi(v);
        else
            usage();
        i++;
    }
    /* every rank takes rank 0's seed (random: each drew its own) */
    MPI_Bcast(&o.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return o;
}

/* Says which algorithms never ran in this launch (those that need nodes
 * or an intercommunicator, or a size this launch lacks; or forcing that
 * failed). */
static void say_never_ran(const struct totals *t)
{
    for (int c = 0; c < F_COLL_COUNT; c++)
        for (int i = 0; i < collshim_algorithm_count(fuzz_coll_names[c]) && i < 64; i++) {
            long ran = t->ran[c][i];
            MPI_Allreduce(MPI_IN_PLACE, &ran, 1, MPI_LONG, MPI_SUM, control);
            if (ran == 0 && world_rank == 0)
                fprintf(stderr, "collfuzz: %s %s never ran\n", fuzz_coll_names[c],
                        collshim_algorithm_name(fuzz_coll_names[c], i));
        }
}

int main(int argc, char **argv)
{
    struct totals t = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    struct options o = parse(argc, argv);
    double start = MPI_Wtime();
    signal(SIGALRM, on_alarm);
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash);
    if (ops_init())
        MPI_Abort(MPI_COMM_WORLD, 2);
    pool_make();
    if (world_rank == 0 && !o.quiet)
        fprintf(stderr, "collfuzz: seed %llu, cases %ld:%ld, %d ranks, %s\n",
                (unsigned long long)o.seed, o.first, o.last, world_size, collshim_flavour());
    long cases = 0;
    for (long n = o.first; n < o.last; n++, cases++) {
        alarm((unsigned)o.timeout);
        run_case(&o, n, &t);
        alarm(0);
        pool_renew(n);
        /* in step: every rank ends the case, then all agree whether to go on */
        long state[2] = {t.failed, o.seconds > 0 && MPI_Wtime() - start > o.seconds};
        collshim_bypass(1);
        MPI_Allreduce(MPI_IN_PLACE, state, 2, MPI_LONG, MPI_MAX, control);
        collshim_bypass(0);
        if (state[1] || state[0] >= 20)
            break;
    }
    long sums[4] = {t.passed, t.failed, t.not_run, t.vendor_failed};
    collshim_bypass(1);
    MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_LONG, MPI_SUM, control);
    if (!o.alg && !o.coll && cases >= 100)
        say_never_ran(&t);
    collshim_bypass(0);
    pool_free();
    ops_free();
    if (world_rank == 0)
        fprintf(stderr,
                "collfuzz: %ld cases in %.0f s (seed %llu); %ld runs where the forced "
                "algorithm could not run; %ld cases the vendor failed\n"
                "collfuzz: %ld passed, %ld failed\n",
                cases, MPI_Wtime() - start, (unsigned long long)o.seed, sums[2],
                sums[3] / world_size, sums[0], sums[1]);
    MPI_Finalize();
    return sums[1] ? 1 : 0;
}
