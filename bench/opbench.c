/* opbench.c - collshim's reduction kernels against the MPI library's
 * MPI_Reduce_local, per (op, type) and message size, in one process.
 *
 *   opbench [-o SUM,MAX] [-t int,double,float,char,int8] [-s 8,4096,1048576]
 *           [-n samples]
 *
 * For each (op, type, bytes): the median over samples of the time per call
 * of the kernel called directly, of buf_reduce() (the kernel found through
 * the (op, type) cache, as the algorithms call it) and of
 * PMPI_Reduce_local, and the ratio vendor / buf_reduce (> 1: ours is
 * faster); first, what the shim adds per reduction call to find the
 * kernel (op_entry_get) and to check the pair (op_check), once cached. A sample times a batch of calls long enough (about 50 us) for
 * the clock; every variant runs on the same buffers. Run it alone on the
 * machine: timings of a loaded machine mean nothing. Not installed. */
#include "engine/buf.h"
#include "ops/op_kernels.h"
#include "shim/op_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct { const char *name; MPI_Op op; } ops[] = {
    {"SUM", MPI_SUM}, {"PROD", MPI_PROD}, {"MAX", MPI_MAX}, {"MIN", MPI_MIN},
    {"LAND", MPI_LAND}, {"LOR", MPI_LOR}, {"LXOR", MPI_LXOR}, {"BAND", MPI_BAND},
    {"BOR", MPI_BOR}, {"BXOR", MPI_BXOR}, {"MAXLOC", MPI_MAXLOC}, {"MINLOC", MPI_MINLOC},
};
static const struct { const char *name; MPI_Datatype type; } types[] = {
    {"char", MPI_CHAR}, {"schar", MPI_SIGNED_CHAR}, {"uchar", MPI_UNSIGNED_CHAR},
    {"int8", MPI_INT8_T}, {"uint8", MPI_UINT8_T}, {"short", MPI_SHORT},
    {"int16", MPI_INT16_T}, {"int", MPI_INT}, {"unsigned", MPI_UNSIGNED},
    {"long", MPI_LONG}, {"int64", MPI_INT64_T}, {"uint64", MPI_UINT64_T},
    {"float", MPI_FLOAT}, {"double", MPI_DOUBLE}, {"long_double", MPI_LONG_DOUBLE},
    {"c_bool", MPI_C_BOOL}, {"float_complex", MPI_C_FLOAT_COMPLEX},
    {"double_complex", MPI_C_DOUBLE_COMPLEX}, {"integer", MPI_INTEGER},
    {"real", MPI_REAL}, {"double_int", MPI_DOUBLE_INT}, {"2int", MPI_2INT},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])
#define NTYPES (int)(sizeof types / sizeof types[0])

struct options {
    char ops[256], types[256];
    size_t sizes[16];
    int nsizes, samples;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 1 when name is an element of the comma-separated list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

enum variant { KERNEL, BUF_REDUCE, VENDOR };

static void run_batch(enum variant v, op_kernel_fn fn, const void *in, void *inout, int count,
                      MPI_Datatype type, MPI_Op op, long reps)
{
    static const struct coll_args now = {0}; /* no schedule: reduce at once */
    for (long r = 0; r < reps; r++) {
        if (v == KERNEL)
            fn(in, inout, (size_t)count);
        else if (v == BUF_REDUCE)
            buf_reduce(&now, in, inout, count, type, op);
        else
            PMPI_Reduce_local(in, inout, count, type, op);
    }
}

/* Median seconds per call; samples batches of reps calls. */
static double median_time(enum variant v, op_kernel_fn fn, const void *in, void *inout,
                          int count, MPI_Datatype type, MPI_Op op, long reps, int samples)
{
    double *t = malloc((size_t)samples * sizeof *t), med;
    for (int s = 0; s < samples; s++) {
        double t0 = now();
        run_batch(v, fn, in, inout, count, type, op, reps);
        t[s] = (now() - t0) / (double)reps;
    }
    qsort(t, (size_t)samples, sizeof *t, cmp_double);
    med = t[samples / 2];
    free(t);
    return med;
}

/* Inputs that stay finite and normal under repeated application: ones
 * (neutral for PROD, growing by 1 per SUM), small integers elsewhere. */
static void fill(unsigned char *buf, size_t bytes, MPI_Op op, MPI_Datatype type)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    memset(buf, 0, bytes);
    for (size_t off = 0; off + (size_t)extent <= bytes; off += (size_t)extent) {
        if (type == MPI_FLOAT || type == MPI_REAL)
            *(float *)(buf + off) = op == MPI_PROD ? 1.0f : (float)(off % 7);
        else if (type == MPI_DOUBLE || type == MPI_DOUBLE_INT)
            *(double *)(buf + off) = op == MPI_PROD ? 1.0 : (double)(off % 7);
        else if (type == MPI_LONG_DOUBLE)
            *(long double *)(buf + off) = op == MPI_PROD ? 1.0L : (long double)(off % 7);
        else
            buf[off] = (unsigned char)(op == MPI_PROD ? 1 : off % 3);
    }
}

static void bench_one(int o, int t, size_t bytes, int samples)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(types[t].type, &lb, &extent);
    int count = (int)(bytes / (size_t)extent) ? (int)(bytes / (size_t)extent) : 1;
    size_t span = (size_t)count * (size_t)extent;
    op_kernel_fn fn = op_kernel_find(ops[o].op, types[t].type);
    unsigned char *in = aligned_alloc(64, span + 64), *inout = aligned_alloc(64, span + 64);
    fill(in, span, ops[o].op, types[t].type);
    fill(inout, span, ops[o].op, types[t].type);
    /* Warm up (the first call fills the (op, type) cache), then size the
     * batches from 100 calls. */
    run_batch(BUF_REDUCE, fn, in, inout, count, types[t].type, ops[o].op, 10);
    run_batch(VENDOR, fn, in, inout, count, types[t].type, ops[o].op, 10);
    double one = now();
    run_batch(BUF_REDUCE, fn, in, inout, count, types[t].type, ops[o].op, 100);
    one = (now() - one) / 100;
    long reps = one > 0 ? (long)(50e-6 / one) : 100000;
    reps = reps < 1 ? 1 : reps > 100000 ? 100000 : reps;
    double k = median_time(KERNEL, fn, in, inout, count, types[t].type, ops[o].op, reps, samples);
    double b = median_time(BUF_REDUCE, fn, in, inout, count, types[t].type, ops[o].op, reps,
                           samples);
    double v = median_time(VENDOR, fn, in, inout, count, types[t].type, ops[o].op, reps,
                           samples);
    printf("%-6s %-14s %8zu %12.1f %12.1f %12.1f %8.2f\n", ops[o].name, types[t].name, span,
           k * 1e9, b * 1e9, v * 1e9, v / b);
    free(in);
    free(inout);
}

/* Median ns per call of the cached (op, type) lookups of every call. */
static void lookup_costs(int samples)
{
    double *t = malloc((size_t)samples * sizeof *t), med[2];
    volatile uintptr_t sink = 0;
    const long reps = 100000;
    for (int which = 0; which < 2; which++) {
        for (int s = 0; s < samples; s++) {
            double t0 = now();
            for (long r = 0; r < reps; r++)
                sink += which ? (uintptr_t)op_check(MPI_SUM, MPI_DOUBLE)
                              : (uintptr_t)op_entry_get(MPI_SUM, MPI_DOUBLE);
            t[s] = (now() - t0) / (double)reps;
        }
        qsort(t, (size_t)samples, sizeof *t, cmp_double);
        med[which] = t[samples / 2] * 1e9;
    }
    printf("# per call, cached: op_entry_get(SUM, double) %.1f ns, op_check(SUM, double) %.1f ns\n",
           med[0], med[1]);
    free(t);
}

static void parse_sizes(const char *list, struct options *opt)
{
    char *end;
    opt->nsizes = 0;
    for (const char *p = list; *p && opt->nsizes < 16; p = *end ? end + 1 : end) {
        opt->sizes[opt->nsizes] = strtoull(p, &end, 10);
        opt->nsizes += opt->sizes[opt->nsizes] > 0;
        if (end == p)
            break;
    }
}

static void parse(int argc, char **argv, struct options *opt)
{
    snprintf(opt->ops, sizeof opt->ops, "SUM,MAX");
    snprintf(opt->types, sizeof opt->types, "int,double,float,char,int8");
    parse_sizes("8,4096,1048576", opt);
    opt->samples = 31;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-o"))
            snprintf(opt->ops, sizeof opt->ops, "%s", argv[i + 1]);
        else if (!strcmp(argv[i], "-t"))
            snprintf(opt->types, sizeof opt->types, "%s", argv[i + 1]);
        else if (!strcmp(argv[i], "-s"))
            parse_sizes(argv[i + 1], opt);
        else if (!strcmp(argv[i], "-n"))
            opt->samples = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 31;
    }
}

int main(int argc, char **argv)
{
    struct options opt;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    parse(argc, argv, &opt);
    if (rank == 0) {
        printf("# opbench: median ns per call over %d samples; ratio = vendor / buf_reduce\n",
               opt.samples);
        lookup_costs(opt.samples);
        printf("%-6s %-14s %8s %12s %12s %12s %8s\n", "op", "type", "bytes", "kernel",
               "buf_reduce", "Reduce_local", "ratio");
        for (int o = 0; o < NOPS; o++)
            for (int t = 0; t < NTYPES; t++)
                for (int s = 0; s < opt.nsizes; s++)
                    if (listed(opt.ops, ops[o].name) && listed(opt.types, types[t].name) &&
                        op_kernel_find(ops[o].op, types[t].type))
                        bench_one(o, t, opt.sizes[s], opt.samples);
    }
    MPI_Finalize();
    return 0;
}
