/* order_probe.c - which order an MPI library's reduction added in, as a
 * fingerprint, so that a test can tell two algorithms apart without
 * collshim (tests/export/export.sh).
 *
 *   order_probe allreduce|reduce_scatter_block COUNT...
 *
 * COUNT is the floats each rank contributes (reduce_scatter_block: per
 * rank's block).
 * Every rank contributes floats of widely spread magnitudes and signs;
 * float addition is not associative, so the bits of the sum depend on the
 * order the algorithm combines the ranks' vectors in. Rank 0 prints one
 * line per count: "COUNT FINGERPRINT" (a hash of its result's bits). */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float contribution(int rank, int i)
{
    unsigned h = (unsigned)rank * 2654435761u ^ (unsigned)i * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    float mantissa = 1.0f + (float)(h % 1000) / 1000.0f;
    return (h & 1 ? -1.0f : 1.0f) * ldexpf(mantissa, (int)(h >> 8) % 24 - 12);
}

static uint64_t fingerprint(const float *v, int n)
{
    uint64_t hash = 1469598103934665603ull;
    for (int i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        hash = (hash ^ bits) * 1099511628211ull;
    }
    return hash;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int scatter = argc > 1 && !strcmp(argv[1], "reduce_scatter_block");
    for (int a = 2; a < argc; a++) {
        int n = atoi(argv[a]), total = scatter ? n * size : n;
        float *in = malloc(sizeof(float) * (size_t)total), *out = malloc(sizeof(float) * (size_t)n);
        for (int i = 0; i < total; i++)
            in[i] = contribution(rank, i);
        if (scatter)
            MPI_Reduce_scatter_block(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%d %016llx\n", n, (unsigned long long)fingerprint(out, n));
        free(in);
        free(out);
    }
    MPI_Finalize();
    return 0;
}
