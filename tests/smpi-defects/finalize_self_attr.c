/* finalize_self_attr.c - SimGrid SMPI 3.32 runs MPI_COMM_SELF's attribute
 * delete callbacks after it has freed MPI_COMM_WORLD. MPI 3.1 section
 * 8.7.1: MPI_Finalize first acts as if MPI_Comm_free(MPI_COMM_SELF) were
 * called, so such a callback may still use MPI. No collshim here: plain
 * MPI, any MPI. The callback's MPI_Comm_size uses MPI_ERRORS_RETURN.
 *
 *   smpicc -o finalize_self_attr finalize_self_attr.c
 *   smpirun -np 2 -platform P.xml -hostfile H ./finalize_self_attr
 *     -> "... MPI_Comm_size(MPI_COMM_WORLD) in the callback: error, size -1"
 *        (SMPI also logs MPI_ERR_OTHER)
 *   Open MPI 4.1.4, MPICH 4.0.2: "... success, size 2". */
#include <mpi.h>
#include <stdio.h>

static int on_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    int size = -1, err;
    (void)comm; (void)keyval; (void)value; (void)extra;
    err = MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("finalize_self_attr: MPI_Comm_size(MPI_COMM_WORLD) in the callback: %s, size %d\n",
           err == MPI_SUCCESS ? "success" : "error", size);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int keyval, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &keyval, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    }
    MPI_Finalize();
    return 0;
}
