/* errors.c - invalid arguments return MPI error codes through the
 * communicator's error handler (called exactly once), never a crash, a
 * hang or wrong data; in the large-count forms (MPI_Allreduce_c, ...) too,
 * where the MPI has them. Ends with "errors: N passed, N failed". */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "collshim.h"
#include "tests/mpi/expect.h"

static int handler_calls, handler_code;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

/* The call returned an error of class want, and the handler saw it once. */
static void expect_error(int rank, int rc, int want, const char *what)
{
    char line[160];
    snprintf(line, sizeof line, "%s -> error class %d, handler called once", what, want);
    expect(rank, rc != MPI_SUCCESS && error_class(rc) == want && handler_calls == 1 &&
                 handler_code == rc, line);
    handler_calls = 0;
}

/* Intercommunicators (the world in two halves): a root that is neither
 * MPI_ROOT, MPI_PROC_NULL nor a remote rank, and MPI_IN_PLACE, with the
 * vendor's class (validate_inter.c says where the two MPIs differ). */
static void inter_errors(int rank, int size, MPI_Errhandler eh)
{
    MPI_Comm half, inter;
    int in[8] = {0}, out[8] = {0}, g = rank >= size / 2, mpich;
    mpich = !strcmp(collshim_flavour(), "mpich");
    MPI_Comm_split(MPI_COMM_WORLD, g, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, g ? 0 : size / 2, 5, &inter);
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(inter, eh);
    expect_error(rank, MPI_Bcast(in, 1, MPI_INT, 99, inter), MPI_ERR_ROOT,
                 "intercomm bcast root = 99 (no such remote rank)");
    expect_error(rank, MPI_Reduce(in, out, 1, MPI_INT, MPI_SUM, -7, inter), MPI_ERR_ROOT,
                 "intercomm reduce root = -7");
    expect_error(rank, MPI_Allreduce(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, inter),
                 MPI_ERR_BUFFER, "intercomm allreduce MPI_IN_PLACE");
    expect_error(rank, MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, out, 1, MPI_INT, inter),
                 mpich ? MPI_ERR_BUFFER : MPI_ERR_ARG, "intercomm alltoall MPI_IN_PLACE");
    expect_error(rank, MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, out, 1, MPI_INT, inter),
                 mpich ? MPI_ERR_BUFFER : MPI_ERR_ARG, "intercomm allgather MPI_IN_PLACE");
    expect_error(rank, MPI_Reduce_scatter_block(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, inter),
                 mpich ? MPI_ERR_BUFFER : MPI_ERR_ARG,
                 "intercomm reduce_scatter_block MPI_IN_PLACE");
    int v = rank + 1, sum = 0, q, rc;
    MPI_Comm_remote_size(inter, &q);
    rc = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter);
    int want = g ? size / 2 * (size / 2 + 1) / 2 : size * (size + 1) / 2 - (size / 2) * (size / 2 + 1) / 2;
    expect(rank, rc == MPI_SUCCESS && sum == want && handler_calls == 0,
           "a valid intercomm allreduce afterwards gives the other group's sum");
    MPI_Comm_free(&inter);
}

#ifdef HAVE_MPI_ALLREDUCE_C
/* The large-count forms: negative MPI_Counts, within and beyond an int's
 * range, and NULL count arrays, on every rank. MPICH 4.0.2 itself returns
 * MPI_ERR_COUNT for the negative counts of its data movements, and crashes
 * on those of its blocking reductions and on NULL count arrays (in the
 * classic forms too): collshim returns MPI_ERR_COUNT for all of them
 * (badargs.c compares the cases the vendor survives with the vendor). */
static void large_count_errors(int rank, int size)
{
    const MPI_Count beyond_int = -((MPI_Count)1 << 40);
    int in[4] = {1, 2, 3, 4}, out[64] = {0};
    MPI_Count counts[64];
    MPI_Aint displs[64];
    for (int i = 0; i < size && i < 64; i++)
        counts[i] = 1, displs[i] = i;
    expect_error(rank, MPI_Allreduce_c(in, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Allreduce_c count -1");
    expect_error(rank, MPI_Allreduce_c(in, out, beyond_int, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Allreduce_c count -2^40");
    expect_error(rank, MPI_Scan_c(in, out, beyond_int, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Scan_c count -2^40");
    expect_error(rank, MPI_Bcast_c(in, beyond_int, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "MPI_Bcast_c count -2^40");
    expect_error(rank, MPI_Allgather_c(in, 1, MPI_INT, out, beyond_int, MPI_INT, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Allgather_c recvcount -2^40");
    expect_error(rank, MPI_Allgatherv_c(in, 1, MPI_INT, out, NULL, displs, MPI_INT,
                                        MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Allgatherv_c recvcounts NULL");
    expect_error(rank, MPI_Alltoallv_c(in, NULL, displs, MPI_INT, out, counts, displs, MPI_INT,
                                       MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Alltoallv_c sendcounts NULL");
    expect_error(rank, MPI_Reduce_scatter_c(in, out, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Reduce_scatter_c recvcounts NULL");
    counts[size - 1] = beyond_int;
    expect_error(rank, MPI_Reduce_scatter_c(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "MPI_Reduce_scatter_c a recvcount -2^40");
    /* more than INT_MAX elements from NULL: the count is not cut to an int */
    expect_error(rank, MPI_Bcast_c(NULL, ((MPI_Count)1 << 32) + 1, MPI_BYTE, 0, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "MPI_Bcast_c of 2^32 + 1 bytes from NULL");
    MPI_Request req;
    expect_error(rank, MPI_Iallreduce_c(in, out, beyond_int, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        &req),
                 MPI_ERR_COUNT, "MPI_Iallreduce_c count -2^40");
}
#endif

int main(int argc, char **argv)
{
    int rank, size, in[4] = {1, 2, 3, 4}, out[4] = {0};
    MPI_Errhandler eh;
    MPI_Datatype vec;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    expect_error(rank, MPI_Allreduce(in, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "allreduce count -1");
    expect_error(rank, MPI_Reduce(in, out, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD),
                 MPI_ERR_ROOT, "reduce root = size");
    expect_error(rank, MPI_Bcast(in, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "bcast MPI_DATATYPE_NULL");
    expect_error(rank, MPI_Allreduce(in, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
                 MPI_ERR_OP, "allreduce MPI_OP_NULL");
    expect_error(rank, MPI_Allreduce(in, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "allreduce recvbuf MPI_IN_PLACE");
    expect_error(rank, MPI_Allreduce(in, in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "allreduce aliased buffers (both MPIs refuse 2 elements)");
    expect_error(rank, MPI_Allreduce(in, out, 1, vec, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
                 "allreduce MPI_SUM on a derived type");
    expect_error(rank, MPI_Allgather(in, -2, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "allgather sendcount -2");
    expect_error(rank, MPI_Gather(in, 1, MPI_INT, out, 1, MPI_INT, -1, MPI_COMM_WORLD),
                 MPI_ERR_ROOT, "gather root -1");

    inter_errors(rank, size, eh);
#ifdef HAVE_MPI_ALLREDUCE_C
    large_count_errors(rank, size);
#else
    if (rank == 0)
        printf("skip the large-count forms (MPI_Allreduce_c, ...): this MPI has none\n");
#endif

    /* After all that, a valid call still works and gives the right sum. */
    int v = rank + 1, sum = 0;
    int rc = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect(rank, rc == MPI_SUCCESS && sum == size * (size + 1) / 2 && handler_calls == 0,
           "a valid allreduce afterwards succeeds with the right result");

    MPI_Type_free(&vec);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return expect_finish(rank, "errors");
}
