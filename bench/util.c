/* util.c - barriers, statistics, random order, byte sizes (util.h). */
#include "bench/util.h"
#include "collshim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int bench_vendor_barrier(MPI_Comm comm)
{
    int err;
    collshim_bypass(1);
    err = MPI_Barrier(comm);
    collshim_bypass(0);
    return err;
}

int bench_quiet_barrier(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0, err = MPI_Ibarrier(comm, &req);
    struct timespec nap = {0, 200000};
    while (!err && !done) {
        err = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            nanosleep(&nap, NULL);
    }
    return err;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sort(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmp_double); }

double bench_percentile(const double *sorted, int n, double q)
{
    if (n <= 0)
        return 0;
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

uint64_t bench_rand(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

void bench_shuffle(int *order, int n, uint64_t *state)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(bench_rand(state) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

long long bench_parse_bytes(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0)
        return -1;
    switch (*end) {
    case 'k': case 'K': v <<= 10, end++; break;
    case 'm': case 'M': v <<= 20, end++; break;
    case 'g': case 'G': v <<= 30, end++; break;
    default: break;
    }
    return *end ? -1 : v;
}

void bench_format_bytes(uint64_t b, char *buf, size_t len)
{
    if (b >= (1ull << 30) && b % (1ull << 30) == 0)
        snprintf(buf, len, "%llug", (unsigned long long)(b >> 30));
    else if (b >= (1ull << 20) && b % (1ull << 20) == 0)
        snprintf(buf, len, "%llum", (unsigned long long)(b >> 20));
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%lluk", (unsigned long long)(b >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)b);
}

void bench_text_put(struct bench_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *grown = realloc(t->s, cap);
        if (!grown)
            return;
        t->s = grown;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}
