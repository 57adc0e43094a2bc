/* errors.c - an error of a collective, raised once on the caller's
 * communicator: its error handler, or under a fatal one an abort whose
 * message names the collective the user called. */
#include "shim/shim.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Under a fatal error handler, the vendor's abort message would name
 * MPI_Comm_call_errhandler: name the collective the user called, then abort
 * as the handler would. */
static int handler_is_fatal(MPI_Comm comm)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int fatal;
    if (PMPI_Comm_get_errhandler(comm, &eh))
        return 0;
    fatal = eh == MPI_ERRORS_ARE_FATAL;
#ifdef MPI_ERRORS_ABORT
    fatal |= eh == MPI_ERRORS_ABORT;
#endif
    PMPI_Errhandler_free(&eh);
    return fatal;
}

static const char *class_name(int cls)
{
    switch (cls) {
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
    default: return "MPI error";
    }
}

static void abort_naming_call(const struct coll_args *a, int err)
{
    char comm_name[MPI_MAX_OBJECT_NAME] = "", msg[MPI_MAX_ERROR_STRING] = "";
    const char *coll = coll_name(a->coll);
    int len = 0, cls = MPI_ERR_OTHER;
    PMPI_Comm_get_name(a->user_comm, comm_name, &len);
    PMPI_Error_string(err, msg, &len);
    PMPI_Error_class(err, &cls);
    fprintf(stderr, "collshim: error in MPI_%c%s%s on communicator %s, rank %d: %s%s%s\n"
                    "collshim: its error handler is MPI_ERRORS_ARE_FATAL: aborting the job\n",
            coll[0] - 'a' + 'A', coll + 1, a->large_count ? "_c" : "",
            comm_name[0] ? comm_name : "(unnamed)", a->rank,
            strncmp(msg, "MPI_ERR", 7) ? class_name(cls) : "", strncmp(msg, "MPI_ERR", 7) ? ": " : "",
            msg);
    /* The launcher stops forwarding output once a rank aborts: MPICH's
     * hydra lost this message in about one run of three when the other
     * rank aborted first. Give it 200 ms to pass the line on. */
    fflush(stderr);
    struct timespec pass_on = {0, 200000000}; /* a variable: SMPI makes nanosleep a macro */
    nanosleep(&pass_on, NULL);
    PMPI_Abort(a->user_comm, cls ? cls : 1);
}

/* Raise err once, on the caller's communicator. */
int shim_raise(const struct coll_args *a, int err)
{
    if (err == MPI_SUCCESS)
        return err;
    if (handler_is_fatal(a->user_comm))
        abort_naming_call(a, err);
    PMPI_Comm_call_errhandler(a->user_comm, err);
    return err;
}
