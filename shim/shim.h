/* shim.h - the layer between the MPI entry points and the algorithms:
 * vendor forwarding, configuration, per-communicator context, dispatch. */
#ifndef COLLSHIM_SHIM_H
#define COLLSHIM_SHIM_H

#include "algorithms/coll.h"
#include "engine/tls.h"
#include "select/select.h"
#include "shim/collectives.h"
#include "shim/settings.h"

#include <stdio.h>

/* ---- vendor.c: the MPI library's own entry points, via RTLD_NEXT ---- */
/* Per collective and form: bcast, i_bcast, bcast_init, and in the
 * large-count form bcast_c, i_bcast_c, bcast_init_c. */
#define VENDOR_COLL_FIELDS(F, Name, name, params, init, vargs)                     \
    int (*SHIM_NAME(name, F)) params;                                               \
    int (*SHIM_NAME(i_##name, F))(SHIM_UNPAREN params, MPI_Request *);              \
    int (*SHIM_NAME(name##_init, F))(SHIM_UNPAREN params, MPI_Info, MPI_Request *);
#define VENDOR_FORM_FIELDS(F) SHIM_COLLECTIVE_LIST(VENDOR_COLL_FIELDS, F)
struct vendor_table {
    SHIM_FORMS(VENDOR_FORM_FIELDS)
    int (*init)(int *, char ***);
    int (*init_thread)(int *, char ***, int, int *);
    int (*get_library_version)(char *, int *);
    /* completion calls, which the shim intercepts (requests.c) */
    int (*wait)(MPI_Request *, MPI_Status *);
    int (*waitall)(int, MPI_Request *, MPI_Status *);
    int (*waitany)(int, MPI_Request *, int *, MPI_Status *);
    int (*waitsome)(int, MPI_Request *, int *, int *, MPI_Status *);
    int (*test)(MPI_Request *, int *, MPI_Status *);
    int (*testall)(int, MPI_Request *, int *, MPI_Status *);
    int (*testany)(int, MPI_Request *, int *, int *, MPI_Status *);
    int (*testsome)(int, MPI_Request *, int *, int *, MPI_Status *);
    int (*request_get_status)(MPI_Request, int *, MPI_Status *);
    int (*start)(MPI_Request *);
    int (*startall)(int, MPI_Request *);
    int (*request_free)(MPI_Request *);
    int (*cancel)(MPI_Request *);
    /* blocking point-to-point, intercepted to make progress (requests.c) */
    int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    int (*ssend)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
    int (*sendrecv)(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int,
                    int, MPI_Comm, MPI_Status *);
    int (*probe)(int, int, MPI_Comm, MPI_Status *);
    int (*finalize)(void); /* SMPI builds intercept it (init.c) */
};
extern struct vendor_table vendor;
/* The vendor's blocking collective for a call (the "vendor" rows of the
 * registry); its errors came through the communicator's handler already. */
int vendor_run(const struct coll_args *a);
/* The vendor's nonblocking / persistent collective for a call. */
int vendor_start(const struct coll_args *a, MPI_Request *req);
int vendor_init(const struct coll_args *a, MPI_Info info, MPI_Request *req);
/* 1 when the library has a persistent form of this call's collective, in
 * its form (SMPI 3.32 has none; Open MPI 4 its MPIX_<Coll>_init; MPICH 4
 * MPI_<Coll>_init and MPI_<Coll>_init_c). */
int vendor_has_init(const struct coll_args *a);
/* Resolve every vendor entry point once (thread-safe); 0 or -1. */
int vendor_resolve(void);

/* ---- config.c: the settings handed to the layers below ---- */
/* Read the environment and hand the tables to the selection; rank 0 of
 * MPI_COMM_WORLD prints errors and the listing. Called once after MPI_Init. */
void config_load(int world_rank);
void config_free(void);

/* ---- tags: a communicator owns on the shadow: [tag, tag + CTX_TAG_SPAN).
 * Blocking collectives use tag + coll id; a persistent collective gets a
 * tag of the second range when it is initialised (the n-th init on the
 * communicator, the same on every rank since inits are collective); each
 * nonblocking call the next tag of the third range, in call order. A tag
 * comes back after CTX_TAG_PERSISTENT resp. CTX_TAG_NONBLOCKING more.
 * context.c hands out the ids, dispatch.c and nbc.c the tags. ---- */
#define CTX_TAG_SPAN 16384
#define CTX_TAG_BLOCKING 32
#define CTX_TAG_PERSISTENT 8192
#define CTX_TAG_NONBLOCKING (CTX_TAG_SPAN - CTX_TAG_BLOCKING - CTX_TAG_PERSISTENT)

/* ---- context.c: how a user communicator maps onto the shim's one
 * private communicator (see context.c) ---- */
struct comm_ctx {
    int rank, size;
    int is_inter;
    int id;                /* tag id on the shadow; -1: forwarded to the vendor */
    int tag;               /* id * CTX_TAG_SPAN: the first tag of this communicator */
    int *peers;            /* world rank of each rank; NULL: MPI_COMM_WORLD's numbering;
                              intercommunicator: of each remote rank (never NULL) */
    int remote_size;       /* intercommunicator: size of the remote group */
    int *local_peers;      /* intercommunicator: world rank of each local rank */
    const char *forwarded; /* why the vendor runs this communicator's calls, or NULL */
    unsigned long long serial; /* never reused: names the context in caches */
    unsigned long long nb_calls; /* nonblocking calls so far: the next one's tag */
    unsigned long long persistent_inits; /* persistent inits so far: the next one's tag */
    struct node_layout *layout; /* its ranks on the nodes, made at its first native call */
    struct learn_ctx *learn;    /* COLLSHIM_LEARN's state (learn.c), made at its first call */
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

/* ---- clock_sync.c: a common clock for measurements (collshim_clock_offset,
 * learning's COLLSHIM_LEARN_CHARGE=last_entry) ---- */
/* This rank's PMPI_Wtime minus that of rank 0 of a's communicator, from the
 * fastest of 8 ping-pongs on a's comm and tag. Collective over it. */
int clock_offset_of(const struct coll_args *a, double *offset);

/* ---- layout.c: the node of each world rank, and communicators' layouts ---- */
/* In MPI_Init (collective over the world): learn every world rank's node. */
int layout_init(int world_rank, int world_size);
void layout_finalize(void);
/* a->layout and a->shape for a call on ctx (the layout made once, cached). */
void layout_attach(struct coll_args *a, struct comm_ctx *ctx);
/* MPI_COMM_WORLD's shape when np is its size: 1, else 0. */
int layout_world_shape(int np, struct node_shape *shape);
/* The job's ranks per core on its most loaded node, rounded up (1: not
 * oversubscribed). */
int layout_ranks_per_core(void);
/* MPI_COMM_WORLD's layout as world rank `rank` sees it, before its context
 * exists (the machine model's measurement); free() it. NULL without one. */
struct node_layout *layout_world_build(int rank, int size);

/* ---- machine.c: the machine model ---- */
/* Collective over the world, in MPI_Init after the layout: read or measure
 * the model and hand it to the selection. */
int machine_init(int world_rank, int world_size);
/* Its line in COLLSHIM_REPORT. */
void machine_report(FILE *f);
/* The model as `name value` pairs and its origin, into buf: 0, or -1 if none. */
int machine_describe(char *buf, size_t len);
/* A model file (COLLSHIM_MACHINE's format) into m, which the caller
 * zeroes first (a field the file leaves out stays 0): 0, or -1 with why
 * (len bytes; empty on entry). Local: for tools too (collmodel). */
struct machine_model;
int machine_file_read(const char *path, struct machine_model *m, char *why, size_t len);

/* ---- init.c: lifecycle ---- */
/* 1 once MPI is up and the shim configured; configures lazily. */
int shim_ready(void);
extern int shim_bypass; /* collshim_bypass(): forward everything for now */

/* ---- dispatch.c, requests.c: what the algorithm layer is handed
 * (coll_args.env): the step runner of composed algorithms (the
 * selection's, select/step.c), the transport ---- */
extern const struct coll_env shim_env;
extern const struct transport shim_transport;

/* ---- dispatch.c ---- */
/* Run one collective call: validate, select, run, report errors. */
int shim_collective(struct coll_args *a, MPI_Comm comm);
/* The nonblocking and persistent forms: the same checks and tables, then
 * a schedule (nbc.c) or the vendor's own nonblocking/persistent call. */
enum nbc_kind { NBC_NONBLOCKING, NBC_PERSISTENT };
int shim_icollective(struct coll_args *a, MPI_Comm comm, enum nbc_kind kind, MPI_Info info,
                     MPI_Request *req);
/* Run registry row alg for a blocking call (counted, reported); the
 * vendor's errors come back negated: its collective raised them already. */
int dispatch_run(struct coll_args *a, int alg);

/* ---- errors.c ---- */
/* Raise err on the caller's communicator (its error handler); returns err. */
int shim_raise(const struct coll_args *a, int err);

/* ---- validate.c ---- */
/* Local checks before any communication; may replace a type the vendor
 * would let through uncommitted by a committed duplicate, and run aliased
 * buffers the vendor accepts as the in-place call they describe. */
int validate_args(struct coll_args *a);
/* The same on an intercommunicator (a->remote_size > 0; validate_inter.c). */
int validate_inter_args(struct coll_args *a);

/* ---- types.c ---- */
int type_is_named(MPI_Datatype type);
/* MPI_SUCCESS when *type may be used (see types.c), else MPI_ERR_TYPE. */
int type_check(MPI_Datatype *type, int vendor_checks);
void types_finalize(void);

/* ---- nbc.c: nonblocking and persistent collectives on schedules ---- */
struct nbc_request;
/* Build the schedule of algorithm alg for the call and hand the user a
 * request: started (nonblocking) or inactive (persistent). */
int nbc_begin(const struct coll_args *a, struct comm_ctx *ctx, int alg, enum nbc_kind kind,
              MPI_Request *req);
/* Advance every active schedule once (any thread; never blocks). */
void nbc_progress(void);
/* Schedules in flight (cheap check for the completion calls). */
extern int nbc_active;
/* Threads inside a blocking completion call that progresses schedules:
 * the progress thread stands aside while there are any. */
extern int nbc_waiters;
extern int nbc_thread_running; /* COLLSHIM_PROGRESS_THREAD's thread was started */
/* The persistent collective behind a user request, or NULL. */
struct nbc_request *nbc_persistent_find(MPI_Request req);
int nbc_persistent_start(struct nbc_request *r);
int nbc_persistent_free(struct nbc_request *r, MPI_Request *req);
/* A vendor persistent request whose starts count as runs of row alg. */
int nbc_vendor_persistent(const struct coll_args *a, int alg, MPI_Info info, MPI_Request *req);
/* Where the library has no working persistent form: a persistent request
 * whose every start runs the vendor's nonblocking collective (counted as
 * row alg); ctx is NULL for a communicator collshim has no context for. */
int nbc_vendor_scheduled(const struct coll_args *a, struct comm_ctx *ctx, int alg,
                         MPI_Request *req);
int nbc_persistent_is_vendor(const struct nbc_request *r);
extern int nbc_persistent_count;
void nbc_finalize(void);

/* ---- test_delay.c: COLLSHIM_TEST_DELAY (settings.c) ---- */
void test_delay_configure(const char *spec, int world_rank);
/* Before registry row alg runs a blocking call: its delay, if any. */
void test_delay(int alg);
extern int test_delay_on;

/* ---- report.c ---- */
void report_record(const struct coll_args *a, int alg, double seconds);
void report_write(void);
extern int report_enabled;

#endif
