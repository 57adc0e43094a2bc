/* noalloc.c - repeated collective calls allocate nothing in collshim.
 *
 * Every collective call is a hot path: once a program's calls repeat,
 * collshim must not allocate per call (engine/scratch.h). This
 * program defines malloc, calloc, realloc and free, which every library of
 * the process then calls, forwards them to glibc's allocator, and counts
 * the calls made from collshim's own code (the return address inside
 * libcollshim's executable segments). For every collective, every
 * algorithm (vendor included: the dispatch to it allocates nothing either)
 * and three sizes: two warm-up calls, then CALLS counted calls, which must
 * allocate nothing; the forced algorithm must have run every time. The
 * counter proves it sees collshim's allocations: the warm-ups of a cold
 * start must have made some. Blocking calls, then nonblocking ones
 * (MPI_I<coll> + MPI_Wait: the schedule, its request and its arrays come
 * from the same cache, or are a finished identical call's, reused), then
 * persistent ones (MPI_<Coll>_init once, not counted; each MPI_Start +
 * MPI_Wait is a call). Where the MPI has MPI-4's large-count collectives
 * (HAVE_MPI_ALLREDUCE_C), the three modes again at 8 B through their _c
 * forms (MPI_Bcast_c, MPI_Ibcast_c, MPI_Bcast_init_c): a large-count
 * call's arrays are the caller's too, so it allocates no more. */
#define _GNU_SOURCE
#include "config.h"

#include <link.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/collops.h"
#include "collshim.h"
#include "tests/mpi/expect.h"

enum { CALLS = 5, MAX_SEGMENTS = 8 };

enum mode { BLOCKING, NONBLOCKING, PERSISTENT, MODES };
static const char *const mode_names[MODES] = {"blocking", "nonblocking", "persistent"};
static enum mode mode;
static MPI_Request persistent = MPI_REQUEST_NULL; /* PERSISTENT: the request started */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static uintptr_t seg_lo[MAX_SEGMENTS], seg_hi[MAX_SEGMENTS];
static int nsegs;
static long long from_shim;

static void count_if_shim(const void *ret)
{
    for (int i = 0; i < nsegs; i++)
        if ((uintptr_t)ret >= seg_lo[i] && (uintptr_t)ret < seg_hi[i])
            __atomic_add_fetch(&from_shim, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t n)
{
    count_if_shim(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    count_if_shim(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    count_if_shim(__builtin_return_address(0));
    return __libc_realloc(p, n);
}

void free(void *p) { __libc_free(p); }

/* The executable segments of libcollshim in this process. */
static int find_shim(struct dl_phdr_info *info, size_t sz, void *found)
{
    (void)sz;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libcollshim"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum && nsegs < MAX_SEGMENTS; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            seg_lo[nsegs] = info->dlpi_addr + ph->p_vaddr;
            seg_hi[nsegs] = seg_lo[nsegs] + ph->p_memsz;
            nsegs++;
        }
    }
    *(int *)found = 1;
    return 1;
}

/* The job's largest count (through the vendor: not counted, not shim). */
static long long job_max(long long mine)
{
    long long most = mine;
    collshim_bypass(1);
    MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    collshim_bypass(0);
    return most;
}

static void call(const struct collop *c)
{
    MPI_Request req;
    if (mode == BLOCKING) {
        collop_call(c);
    } else if (mode == NONBLOCKING) {
        if (collop_start(c, &req) == MPI_SUCCESS)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (persistent != MPI_REQUEST_NULL && MPI_Start(&persistent) == MPI_SUCCESS) {
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
    }
}

/* One (collective, algorithm, size): 1 when it ran, forced, CALLS + 2
 * times on every rank; *allocs gets the job's most counted allocations. */
static int run_case(struct collop *c, const char *coll, const char *alg, long long *allocs)
{
    char rule[128];
    snprintf(rule, sizeof rule, "%s @%s", coll, alg);
    if (collshim_tune(rule, NULL, 0) != MPI_SUCCESS)
        return 0;
    long long ran0 = collshim_algorithm_calls(coll, alg);
    collop_prepare(c);
    if (mode == PERSISTENT)
        collop_init(c, &persistent);
    call(c);
    call(c);
    long long before = __atomic_load_n(&from_shim, __ATOMIC_RELAXED);
    for (int i = 0; i < CALLS; i++)
        call(c);
    *allocs = job_max(__atomic_load_n(&from_shim, __ATOMIC_RELAXED) - before);
    long long ran = collshim_algorithm_calls(coll, alg) - ran0;
    if (persistent != MPI_REQUEST_NULL)
        MPI_Request_free(&persistent);
    collshim_tune(NULL, NULL, 0);
    return job_max(ran != CALLS + 2) == 0;
}

/* Every algorithm of coll at one size; returns the algorithms that ran.
 * One its declared restrictions allow must run; one they exclude may not
 * (another runs instead, and is not judged here). */
static int check_coll_size(int rank, int size, int coll, size_t bytes, int large)
{
    const char *name = collop_name(coll);
    struct collop c;
    int ran_any = 0;
    if (collop_setup(&c, coll, MPI_COMM_WORLD, bytes, MPI_FLOAT, 0))
        return 0;
    if (large && (!strcmp(name, "barrier") || collop_large_count(&c))) { /* no _c form */
        collop_free(&c);
        return 0;
    }
    for (int i = 0; i < collshim_algorithm_count(name); i++) {
        const char *alg = collshim_algorithm_name(name, i);
        char what[200];
        long long allocs = 0;
        int can = collshim_algorithm_can_run(name, alg, size, c.count, 1, 1, 0) == 1;
        int ran = run_case(&c, name, alg, &allocs);
        char mode_name[32];
        snprintf(mode_name, sizeof mode_name, "%s%s", mode_names[mode],
                 large ? " large-count" : "");
        snprintf(what, sizeof what, "%s/%s %s %zu B: ran, forced, %d times", name, alg, mode_name,
                 bytes, CALLS + 2);
        if (can || ran)
            expect(rank, ran, what);
        if (!ran)
            continue;
        ran_any++;
        snprintf(what, sizeof what, "%s/%s %s %zu B: %d calls allocate nothing in collshim (%lld)",
                 name, alg, mode_name, bytes, CALLS, allocs);
        expect(rank, allocs == 0, what);
    }
    collop_free(&c);
    return ran_any;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {8, 4096, 262144};
    int rank, size, found = 0, ran = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dl_iterate_phdr(find_shim, &found);
    expect(rank, found && nsegs > 0, "libcollshim's code found in this process");
    long long cold = __atomic_load_n(&from_shim, __ATOMIC_RELAXED);
    const char *only = getenv("NOALLOC_COLL"); /* a debugging aid: one collective */
    for (mode = BLOCKING; mode < MODES; mode++)
        for (int coll = 0; coll < COLLOP_COUNT; coll++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
                if (!only || !strcmp(only, collop_name(coll)))
                    ran += check_coll_size(rank, size, coll, sizes[s], 0);
#ifdef HAVE_MPI_ALLREDUCE_C
    for (mode = BLOCKING; mode < MODES; mode++)
        for (int coll = 0; coll < COLLOP_COUNT; coll++)
            if (!only || !strcmp(only, collop_name(coll)))
                ran += check_coll_size(rank, size, coll, 8, 1);
#endif
    expect(rank, ran > 0, "forced algorithms ran");
    /* The counter must see collshim's allocations: the first calls of a
     * cold start (contexts, first temporaries) made some. */
    expect(rank, job_max(__atomic_load_n(&from_shim, __ATOMIC_RELAXED) - cold) > 0,
           "the counter saw collshim allocate on the first calls");
    int status = expect_finish(rank, "noalloc");
    MPI_Finalize();
    return status;
}
