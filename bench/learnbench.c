/* learnbench.c - the evidence program of COLLSHIM_LEARN (results/learning.md):
 * an unmodified MPI program (not linked to collshim; run it under
 * LD_PRELOAD) whose time steps call allreduce, bcast, alltoall,
 * reduce_scatter_block and allgather at every power-of-two size from 4 B to
 * 1 MiB, like an application's. It prints the wall time of the loop, the
 * slowest rank's, per repetition and their median, and checks the results
 * of the last step against values computed from the inputs.
 *
 *   learnbench [-s STEPS] [-m LO:HI] [-r REPS]
 *     -s  time steps (default 20: 5 x 19 x 20 = 1900 calls)
 *     -m  sizes, bytes, powers of two from LO to HI (default 4:1m)
 *     -r  repetitions of the loop in one run (default 1)
 * Sizes are the selection sizes of collshim's tuning tables (README):
 * the vector of allreduce and bcast, the whole result of allgather and
 * reduce_scatter_block, p blocks of alltoall. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZES = 40 };

struct plan {
    int steps, reps, nsizes;
    long sizes[MAX_SIZES];
};

static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'k' || *end == 'K')
        v <<= 10;
    else if (*end == 'm' || *end == 'M')
        v <<= 20;
    return v;
}

static int parse_args(int argc, char **argv, struct plan *p)
{
    long lo = 4, hi = 1 << 20;
    p->steps = 20;
    p->reps = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-s"))
            p->steps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r"))
            p->reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m") && strchr(argv[i + 1], ':')) {
            lo = parse_size(argv[i + 1]);
            hi = parse_size(strchr(argv[i + 1], ':') + 1);
        } else
            return -1;
    }
    p->nsizes = 0;
    for (long s = lo; s > 0 && s <= hi && p->nsizes < MAX_SIZES; s *= 2)
        p->sizes[p->nsizes++] = s;
    return p->steps > 0 && p->reps > 0 && p->nsizes > 0 ? 0 : -1;
}

struct bufs {
    int *send, *recv;
};

/* One time step: every collective at every size; ints throughout, at
 * least one per block. */
static void time_step(const struct plan *p, struct bufs *b, int rank, int np, int step)
{
    for (int i = 0; i < p->nsizes; i++) {
        int n = (int)(p->sizes[i] / 4), blk = n / np > 0 ? n / np : 1;
        for (int j = 0; j < n || j < blk * np; j++)
            b->send[j] = rank + j + step;
        MPI_Allreduce(b->send, b->recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            memcpy(b->recv, b->send, (size_t)n * sizeof(int));
        MPI_Bcast(b->recv, n, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Alltoall(b->send, blk, MPI_INT, b->recv, blk, MPI_INT, MPI_COMM_WORLD);
        MPI_Reduce_scatter_block(b->send, b->recv, blk, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allgather(b->send, blk, MPI_INT, b->recv, blk, MPI_INT, MPI_COMM_WORLD);
    }
}

/* The last size's allgather and a fresh allreduce, checked from the inputs. */
static int check(const struct plan *p, struct bufs *b, int rank, int np, int step)
{
    int n = (int)(p->sizes[p->nsizes - 1] / 4), blk = n / np > 0 ? n / np : 1, bad = 0;
    for (int r = 0; r < np; r++)
        for (int j = 0; j < blk; j++)
            bad |= b->recv[r * blk + j] != r + j + step;
    MPI_Allreduce(b->send, b->recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        bad |= b->recv[j] != np * (np - 1) / 2 + np * (j + step);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return bad;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    struct plan p;
    int rank, np, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (parse_args(argc, argv, &p)) {
        if (rank == 0)
            fprintf(stderr, "usage: learnbench [-s STEPS] [-m LO:HI] [-r REPS]\n");
        MPI_Finalize();
        return 2;
    }
    size_t words = (size_t)(p.sizes[p.nsizes - 1] / 4) + (size_t)np;
    struct bufs b = {calloc(words, sizeof(int)), calloc(words, sizeof(int))};
    double *wall = calloc((size_t)p.reps, sizeof *wall);
    for (int r = 0; r < p.reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int s = 0; s < p.steps; s++)
            time_step(&p, &b, rank, np, s);
        wall[r] = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &wall[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        bad |= check(&p, &b, rank, np, p.steps - 1);
        if (rank == 0)
            printf("learnbench: rep %d wall_s %.6f\n", r, wall[r]);
    }
    qsort(wall, (size_t)p.reps, sizeof *wall, cmp_double);
    if (rank == 0)
        printf("learnbench: np %d steps %d sizes %ld-%ld calls %d reps %d median_wall_s %.6f "
               "results %s\n",
               np, p.steps, p.sizes[0], p.sizes[p.nsizes - 1], 5 * p.nsizes * p.steps, p.reps,
               wall[p.reps / 2], bad ? "WRONG" : "ok");
    free(b.send);
    free(b.recv);
    free(wall);
    MPI_Finalize();
    return bad;
}
