/* raised.c - see raised.h. */
#include "tests/mpi/raised.h"

#include <mpi.h>

static int raised, last_class;

static void count_raised(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    raised++;
    MPI_Error_class(*code, &last_class);
}

void raised_count_start(void)
{
    MPI_Errhandler counting;
    MPI_Comm_create_errhandler(count_raised, &counting);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, counting);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, counting);
    MPI_Errhandler_free(&counting);
}

int raised_count(void) { return raised; }
int raised_last_class(void) { return last_class; }
