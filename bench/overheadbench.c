/* overheadbench - the CPU time an MPI library spends per message on the
 * sending and on the receiving side (LogP's o), the figures SMPI's platform
 * files need as smpi/os (MPI_Send), smpi/ois (MPI_Isend) and smpi/or
 * (MPI_Recv): without them a simulated root posting p-1 sends pays nothing
 * for them and the linear algorithms win every small message
 * (doc/scale.md, "Per-message overheads").
 *
 *   mpirun -np 2 overheadbench [-n messages] [-r repetitions]
 *
 * For each size (8 B to 4 KiB, below the eager limits: Open MPI's vader
 * sends 4 KiB eagerly), the median over
 * the repetitions of:
 *   isend  rank 0's time per MPI_Isend, N in a row, the receives posted
 *   send   rank 0's time per MPI_Send (eager), N in a row, receives posted
 *   recv   rank 1's time per MPI_Recv of a message that has already arrived
 * and a least-squares line base + per_byte * size through each, printed in
 * SMPI's factor syntax (size:base:per_byte). Needs exactly 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { KINDS = 3, MAX_SIZES = 8, MAX_REPS = 64 };
static const char *const kind_names[KINDS] = {"isend", "send", "recv"};
static const int sizes[MAX_SIZES] = {8, 64, 256, 512, 1024, 2048, 3072, 4096};

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void pause_ms(int ms)
{
    struct timespec delay = {0, ms * 1000000L};
    nanosleep(&delay, NULL);
}

/* Completes reqs[0..n-1] one by one: the same as MPI_Waitall here (none is
 * timed), and gcc 12 does not take MPICH's MPI_STATUSES_IGNORE for an
 * empty status array (-Wstringop-overflow). */
static void wait_each(int n, MPI_Request *reqs)
{
    for (int i = 0; i < n; i++)
        MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
}

/* One repetition of one kind at one size; returns rank 0's (isend, send)
 * or rank 1's (recv) seconds per message, 0 on the other rank. */
static double measure(int kind, int size, int n, char *buf, MPI_Request *reqs)
{
    int rank;
    double t = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1 && kind != 2)
        for (int i = 0; i < n; i++) MPI_Irecv(buf + (size_t)i * size, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &reqs[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            if (kind == 0) MPI_Isend(buf + (size_t)i * size, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &reqs[i]);
            else MPI_Send(buf + (size_t)i * size, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        }
        if (kind != 2) t = (MPI_Wtime() - t0) / n;
        if (kind == 0) wait_each(n, reqs);
    } else if (kind == 2) {
        pause_ms(20); /* every message has arrived */
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) MPI_Recv(buf + (size_t)i * size, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t = (MPI_Wtime() - t0) / n;
    } else {
        wait_each(n, reqs);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* Least squares y = a + b x over the sizes. */
static void fit_line(const double *y, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < MAX_SIZES; i++) {
        sx += sizes[i], sy += y[i], sxx += (double)sizes[i] * sizes[i], sxy += sizes[i] * y[i];
    }
    *b = (MAX_SIZES * sxy - sx * sy) / (MAX_SIZES * sxx - sx * sx);
    *a = (sy - *b * sx) / MAX_SIZES;
}

int main(int argc, char **argv)
{
    int n = 1000, reps = 15, rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) reps = atoi(argv[i + 1]);
    }
    if (np != 2 || n < 1 || reps < 1 || reps > MAX_REPS) {
        if (rank == 0) fprintf(stderr, "overheadbench: needs 2 ranks, -n >= 1, 1 <= -r <= %d\n", MAX_REPS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *buf = calloc((size_t)n, sizes[MAX_SIZES - 1]);
    MPI_Request *reqs = malloc(sizeof *reqs * n);
    double median[KINDS][MAX_SIZES], samples[MAX_REPS];
    for (int k = 0; k < KINDS; k++)
        for (int s = 0; s < MAX_SIZES; s++) {
            for (int r = 0; r < reps; r++) samples[r] = measure(k, sizes[s], n, buf, reqs);
            qsort(samples, reps, sizeof *samples, compare_doubles);
            median[k][s] = samples[reps / 2];
        }
    int owner[KINDS] = {0, 0, 1};
    for (int k = 0; k < KINDS; k++) {
        if (owner[k] != 0) {
            if (rank == owner[k]) MPI_Send(median[k], MAX_SIZES, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
            if (rank == 0) MPI_Recv(median[k], MAX_SIZES, MPI_DOUBLE, owner[k], 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (rank == 0) {
        printf("# overheadbench: %d messages x %d repetitions, medians in us\nsize", n, reps);
        for (int k = 0; k < KINDS; k++) printf(" %8s", kind_names[k]);
        printf("\n");
        for (int s = 0; s < MAX_SIZES; s++) {
            printf("%d", sizes[s]);
            for (int k = 0; k < KINDS; k++) printf(" %8.3f", median[k][s] * 1e6);
            printf("\n");
        }
        for (int k = 0; k < KINDS; k++) {
            double a, b;
            fit_line(median[k], &a, &b);
            printf("# smpi/%s: 0:%.3g:%.3g\n", k == 0 ? "ois" : k == 1 ? "os" : "or", a, b);
        }
    }
    free(buf);
    free(reqs);
    MPI_Finalize();
    return 0;
}
