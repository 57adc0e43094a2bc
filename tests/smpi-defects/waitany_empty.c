/* waitany_empty.c - SimGrid SMPI 3.32's MPI_Waitany with count 0 returns
 * MPI_SUCCESS without setting *index; MPI 3.1 section 3.7.5 says a list
 * with no active handle (length zero included) returns index =
 * MPI_UNDEFINED (PMPI_Waitany in src/smpi/bindings/smpi_pmpi_request.cpp:
 * "if (count <= 0) return MPI_SUCCESS;"). A loop "while Waitany gives an
 * index" then spins on garbage. No collshim here: plain MPI, any MPI.
 *
 *   smpicc -o waitany_empty waitany_empty.c
 *   smpirun -np 1 -platform P.xml -hostfile H ./waitany_empty
 *     -> "count 0: index left at -7 (MPI_UNDEFINED is -333): wrong"
 *   Open MPI 4.1.4, MPICH 4.0.2: "... index MPI_UNDEFINED: right". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Request none[1] = {MPI_REQUEST_NULL};
    int nulls = -7, empty = -7;
    MPI_Init(&argc, &argv);
    MPI_Waitany(1, none, &nulls, MPI_STATUS_IGNORE);
    MPI_Waitany(0, none, &empty, MPI_STATUS_IGNORE);
    printf("waitany_empty: one null request: index %d (%s); count 0: index %d (%s); "
           "MPI_UNDEFINED is %d\n", nulls, nulls == MPI_UNDEFINED ? "right" : "wrong", empty,
           empty == MPI_UNDEFINED ? "right" : "wrong", MPI_UNDEFINED);
    MPI_Finalize();
    return 0;
}
