/* context.c - per-communicator context: a private shadow communicator for
 * all shim traffic, so a user's wildcard receive never matches a shim
 * message. Created lazily at the first collective on a communicator with
 * PMPI_Comm_split(comm, 0, rank) (a dup would run the user's attribute copy
 * callbacks), cached under a keyval whose delete callback frees it. */
#include "shim.h"

#include <stdlib.h>

static int ctx_keyval = MPI_KEYVAL_INVALID;
int ctx_live;

static int ctx_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    struct comm_ctx *ctx = value;
    (void)comm; (void)keyval; (void)extra;
    if (ctx->shadow != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->shadow);
    free(ctx);
    __atomic_fetch_sub(&ctx_live, 1, __ATOMIC_RELAXED);
    return MPI_SUCCESS;
}

int ctx_init(void)
{
    return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ctx_delete, &ctx_keyval, NULL);
}

static int ctx_create(MPI_Comm comm, struct comm_ctx **out)
{
    struct comm_ctx *ctx = calloc(1, sizeof *ctx);
    int err;
    if (!ctx)
        return MPI_ERR_NO_MEM;
    ctx->shadow = MPI_COMM_NULL;
    PMPI_Comm_test_inter(comm, &ctx->is_inter);
    PMPI_Comm_rank(comm, &ctx->rank);
    PMPI_Comm_size(comm, &ctx->size);
    if (!ctx->is_inter) {
        err = PMPI_Comm_split(comm, 0, ctx->rank, &ctx->shadow);
        if (!err)
            err = PMPI_Comm_set_errhandler(ctx->shadow, MPI_ERRORS_RETURN);
        if (err) {
            free(ctx);
            return err;
        }
    }
    if ((err = PMPI_Comm_set_attr(comm, ctx_keyval, ctx))) {
        if (ctx->shadow != MPI_COMM_NULL)
            PMPI_Comm_free(&ctx->shadow);
        free(ctx);
        return err;
    }
    __atomic_fetch_add(&ctx_live, 1, __ATOMIC_RELAXED);
    *out = ctx;
    return MPI_SUCCESS;
}

int ctx_get(MPI_Comm comm, struct comm_ctx **ctx)
{
    int found = 0, err;
    if ((err = PMPI_Comm_get_attr(comm, ctx_keyval, ctx, &found)))
        return err;
    return found ? MPI_SUCCESS : ctx_create(comm, ctx);
}

/* At MPI_Finalize: MPI_COMM_WORLD is never freed by the user, so its
 * context goes here; then the keyval. */
void ctx_finalize(void)
{
    void *ctx;
    int found = 0;
    if (ctx_keyval == MPI_KEYVAL_INVALID)
        return;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, ctx_keyval, &ctx, &found);
    if (found)
        PMPI_Comm_delete_attr(MPI_COMM_WORLD, ctx_keyval);
    PMPI_Comm_free_keyval(&ctx_keyval);
}
