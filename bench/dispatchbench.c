/* dispatchbench.c - the dispatch overhead figure of results/learning.md: an
 * unmodified MPI program (run it under LD_PRELOAD) timing loops of N
 * MPI_Allreduce of 8 bytes, median of R loops, after a warm-up of W calls
 * (which lets COLLSHIM_LEARN settle). Prints the median time per call and
 * the algorithm that ran last (collshim_last_algorithm, if collshim is
 * loaded).
 *   dispatchbench [N (20000)] [R (7)] [W (2000)] */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000, reps = argc > 2 ? atoi(argv[2]) : 7;
    int warm = argc > 3 ? atoi(argv[3]) : 2000, rank, np;
    long long in = 1, out = 0;
    double t[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    for (int i = 0; i < warm; i++)
        MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++)
            MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        t[r] = (MPI_Wtime() - t0) / n;
        MPI_Allreduce(MPI_IN_PLACE, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    const char *(*last)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "collshim_last_algorithm");
    if (rank == 0)
        printf("dispatchbench: np %d, %d x allreduce 8 B, median of %d: %.3f us per call "
               "(min %.3f, max %.3f); last algorithm: %s; result %s\n",
               np, n, reps, t[reps / 2] * 1e6, t[0] * 1e6, t[reps - 1] * 1e6,
               last ? last() : "(no collshim)", out == np ? "ok" : "WRONG");
    MPI_Finalize();
    return out != np;
}
