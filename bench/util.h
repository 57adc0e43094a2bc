/* util.h - small pieces the benchmarks share: barriers that belong to no
 * arm, percentiles, a random generator that is the same on every rank, a
 * growing text and byte sizes. */
#ifndef COLLBENCH_UTIL_H
#define COLLBENCH_UTIL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* The MPI library's own barrier (the shim bypassed): the fence before each
 * timed call, owned by no arm. */
int bench_vendor_barrier(MPI_Comm comm);
/* A barrier that sleeps while it waits (MPI_Ibarrier, MPI_Test, 200 us
 * naps), for ranks with nothing to do while others measure: busy-polling
 * idle ranks would steal the cores of the measured ones. */
int bench_quiet_barrier(MPI_Comm comm);

/* Percentile q in [0,1] of n sorted values, linearly interpolated. */
double bench_percentile(const double *sorted, int n, double q);
/* Sort n doubles ascending. */
void bench_sort(double *v, int n);

/* xorshift64*: the same seed gives the same sequence on every rank. */
uint64_t bench_rand(uint64_t *state);
/* Shuffle order[0..n-1] (Fisher-Yates) with the generator. */
void bench_shuffle(int *order, int n, uint64_t *state);

/* A growing text (provenance, tables); bench_text_put appends printf-style
 * and leaves the text as it was if memory runs out. */
struct bench_text {
    char *s;
    size_t len, cap;
};
void bench_text_put(struct bench_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse "64", "4k", "1m", "2g" (powers of 1024) into bytes; -1 if invalid. */
long long bench_parse_bytes(const char *s);
/* Format bytes the way bench_parse_bytes reads them ("64k"). */
void bench_format_bytes(uint64_t bytes, char *buf, size_t len);

#endif
