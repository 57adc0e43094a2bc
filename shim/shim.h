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

/* ---- context.c: one shadow communicator per user communicator ---- */
struct comm_ctx {
    MPI_Comm shadow;
    int rank, size;
    int is_inter;
};
int ctx_get(MPI_Comm comm, struct comm_ctx **ctx);
int ctx_init(void);      /* create the keyval */
void ctx_finalize(void); /* free MPI_COMM_WORLD's context and the keyval */
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
int validate_args(const struct coll_args *a);
/* The selection bytes of a call (README, "message size"). */
uint64_t key_bytes(const struct coll_args *a);
int key_count(const struct coll_args *a);

/* ---- report.c ---- */
void report_record(const struct coll_args *a, int alg, double seconds);
void report_write(void);
extern int report_enabled;

#endif
