/* shim.h - the layer between the MPI entry points and the algorithms:
 * vendor forwarding, configuration, per-communicator context, dispatch. */
#ifndef COLLSHIM_SHIM_H
#define COLLSHIM_SHIM_H

#include "../algorithms/coll.h"
#include "../tuning/tuning.h"

/* ---- vendor.c: the MPI library's own entry points, via RTLD_NEXT ---- */
struct vendor_table {
    int (*barrier)(MPI_Comm);
    int (*bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
    int (*gather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
    int (*gatherv)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                   MPI_Datatype, int, MPI_Comm);
    int (*scatter)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
    int (*scatterv)(const void *, const int *, const int *, MPI_Datatype, void *, int,
                    MPI_Datatype, int, MPI_Comm);
    int (*allgather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
    int (*allgatherv)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                      MPI_Datatype, MPI_Comm);
    int (*alltoall)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
    int (*alltoallv)(const void *, const int *, const int *, MPI_Datatype, void *,
                     const int *, const int *, MPI_Datatype, MPI_Comm);
    int (*alltoallw)(const void *, const int *, const int *, const MPI_Datatype *, void *,
                     const int *, const int *, const MPI_Datatype *, MPI_Comm);
    int (*reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
    int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*reduce_scatter)(const void *, void *, const int *, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*reduce_scatter_block)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*scan)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*exscan)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*init)(int *, char ***);
    int (*init_thread)(int *, char ***, int, int *);
    int (*get_library_version)(char *, int *);
};
extern struct vendor_table vendor;
/* Resolve every vendor entry point once (thread-safe); 0 or -1. */
int vendor_resolve(void);

/* ---- config.c: environment, tables, listing ---- */
struct shim_config {
    int disabled;          /* COLLSHIM_DISABLE=1 */
    int verbose;           /* COLLSHIM_VERBOSE=1 */
    int list;              /* COLLSHIM_LIST=1 */
    const char *report;    /* COLLSHIM_REPORT: NULL, "1" or a path */
    struct tune_table tune_env, tune_file, tune_builtin;
    const struct tune_table *tables[3]; /* precedence order; NULL = ignored */
};
extern struct shim_config shim_cfg;
/* Read the environment and parse the tables; rank 0 of MPI_COMM_WORLD
 * prints errors and the listing. Called once after MPI_Init. */
void config_load(int world_rank);
void config_free(void);
/* Replace the COLLSHIM_TUNE slot at run time (collshim_tune()). */
int config_set_tune(const char *rules, char *err, size_t errlen);

/* ---- context.c: how a user communicator maps onto the shim's one
 * private communicator (see context.c) ---- */
struct comm_ctx {
    int rank, size;
    int is_inter;
    int id;                /* tag id on the shadow; -1: forwarded to the vendor */
    int tag;               /* id * CTX_TAG_SPAN: the first tag of this communicator */
    int *peers;            /* world rank of each rank; NULL: MPI_COMM_WORLD's numbering */
    const char *forwarded; /* why the vendor runs this communicator's calls, or NULL */
};
/* The context of comm, created at its first collective (collective over
 * comm: every rank must call it at the same collective). */
int ctx_get(MPI_Comm comm, struct comm_ctx **ctx);
/* The context of comm if it has one yet, else *ctx = NULL (local). */
int ctx_find(MPI_Comm comm, struct comm_ctx **ctx);
/* Create the keyval and, when called from MPI_Init (collective_ok), the
 * shadow communicator. */
int ctx_init(int collective_ok);
void ctx_finalize(void); /* free MPI_COMM_WORLD's context, the keyval, the shadow */
MPI_Comm ctx_shadow(void); /* the shim's own communicator, or MPI_COMM_NULL */
extern int ctx_live;     /* contexts alive now */

/* ---- init.c: lifecycle ---- */
/* 1 once MPI is up and the shim configured; configures lazily. */
int shim_ready(void);
extern int shim_bypass; /* collshim_bypass(): forward everything for now */

/* ---- dispatch.c ---- */
/* Run one collective call: validate, select, run, report errors. */
int shim_collective(struct coll_args *a, MPI_Comm comm);
/* Calls of each registry row (by index) in this process. */
extern unsigned long long dispatch_calls[];
extern int dispatch_last_alg;

/* ---- validate.c ---- */
/* Local checks before any communication; may replace a type the vendor
 * would let through uncommitted by a committed duplicate, and run aliased
 * buffers the vendor accepts as the in-place call they describe. */
int validate_args(struct coll_args *a);

/* ---- types.c ---- */
int type_is_named(MPI_Datatype type);
/* MPI_SUCCESS when *type may be used (see types.c), else MPI_ERR_TYPE. */
int type_check(MPI_Datatype *type, int vendor_checks);
void types_finalize(void);
/* The selection bytes of a call (README, "message size"). */
uint64_t key_bytes(const struct coll_args *a);
int key_count(const struct coll_args *a);

/* ---- report.c ---- */
void report_record(const struct coll_args *a, int alg, double seconds);
void report_write(void);
extern int report_enabled;

#endif
