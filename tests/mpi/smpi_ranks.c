/* smpi_ranks.c - under SimGrid's SMPI every simulated rank runs in one
 * process, so collshim's state (tuning tables, context table, counters) is
 * per rank only if SMPI privatizes it (doc/scale.md). Each rank loads its
 * own tuning rule with collshim_tune(): ranks r % 3 == 0, 1, 2 force a
 * different allreduce, and each third runs allreduce on its own
 * communicator (MPI_Comm_split by r % 3). If the tables were shared, the
 * last rank's collshim_tune() would force one algorithm on every rank and
 * the counters would count every rank's calls. Also checked: the result,
 * that each rank ran exactly its own algorithm its own number of times,
 * and that MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and collshim's node
 * layout group the ranks of a simulated host (MPI_Get_processor_name).
 * Also runs (trivially) under the other MPIs. */
#include "collshim.h"
#include "tests/mpi/expect.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define CALLS 5

static const char *const forced[3] = {"recursive_doubling", "ring", "rabenseifner"};

/* Allreduce CALLS times on the third of the world ranks r % 3 == third;
 * 1 if every result is the sum over its members, computed here. */
static int run_allreduces(MPI_Comm comm, int world_rank, int world_size, int third)
{
    int n, ok = 1;
    MPI_Comm_size(comm, &n);
    long long members_sum = 0;
    for (int r = third; r < world_size; r += 3)
        members_sum += r * 1000LL;
    for (int i = 0; i < CALLS; i++) {
        long long in[64], out[64];
        for (int j = 0; j < 64; j++)
            in[j] = world_rank * 1000LL + j + i;
        MPI_Allreduce(in, out, 64, MPI_LONG_LONG, MPI_SUM, comm);
        for (int j = 0; j < 64; j++)
            ok &= out[j] == members_sum + (long long)n * (j + i);
    }
    return ok;
}

/* Number of ranks of comm that share this rank's processor (host) name. */
static int ranks_on_my_host(MPI_Comm comm)
{
    char mine[MPI_MAX_PROCESSOR_NAME] = "", all[64][MPI_MAX_PROCESSOR_NAME];
    int len, n, same = 0;
    MPI_Comm_size(comm, &n);
    if (n > 64)
        return -1;
    MPI_Get_processor_name(mine, &len);
    MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, comm);
    for (int i = 0; i < n; i++)
        same += !strcmp(all[i], mine);
    return same;
}

int main(int argc, char **argv)
{
    int rank, size, third, ok;
    char err[256] = "", rule[128];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    third = rank % 3;

    snprintf(rule, sizeof rule, "allreduce @%s", forced[third]);
    expect(rank, collshim_tune(rule, err, sizeof err) == MPI_SUCCESS, "collshim_tune per rank");

    long long before[3];
    for (int a = 0; a < 3; a++)
        before[a] = collshim_algorithm_calls("allreduce", forced[a]);
    MPI_Comm group;
    MPI_Comm_split(MPI_COMM_WORLD, third, rank, &group);
    expect(rank, run_allreduces(group, rank, size, third), "allreduce results on each third");
    ok = 1;
    for (int a = 0; a < 3; a++) {
        long long ran = collshim_algorithm_calls("allreduce", forced[a]) - before[a];
        ok &= ran == (a == third ? CALLS : 0);
        if (ran != (a == third ? CALLS : 0))
            printf("rank %d (rule @%s): allreduce @%s ran %lld times\n", rank, forced[third],
                   forced[a], ran);
    }
    expect(rank, ok, "each rank ran its own rule's algorithm, its own number of times");
    MPI_Comm_free(&group);

    MPI_Comm shared;
    int shared_size, on_host = ranks_on_my_host(MPI_COMM_WORLD), nodes = 0, ppn = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    MPI_Comm_size(shared, &shared_size);
    expect(rank, on_host < 0 || shared_size == on_host,
           "MPI_COMM_TYPE_SHARED groups the ranks of a host");
    MPI_Comm_free(&shared);
    expect(rank, collshim_node_shape(MPI_COMM_WORLD, &nodes, &ppn, NULL, NULL) == 0 &&
                     (on_host < 0 || ppn >= on_host),
           "collshim's node layout sees the hosts");
    if (rank == 0)
        printf("smpi_ranks np=%d: %d nodes, at most %d ranks per node\n", size, nodes, ppn);
    int status = expect_finish(rank, "smpi_ranks");
    MPI_Finalize();
    return status;
}
