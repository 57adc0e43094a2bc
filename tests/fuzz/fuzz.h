/* fuzz.h - collfuzz, the differential fuzzer: seeded random calls of every
 * collective in every form, run once through the MPI library (the
 * reference) and once through each of collshim's algorithms, on buffers
 * whose every byte (guards, gaps of derived types, the parts a call leaves
 * alone) must come out identical. doc/testing.md describes it.
 *
 * A case is drawn from (seed, case number) alone: every member of the
 * communicator draws the same description, so a case is reproduced by its
 * number without running the ones before it. */
#ifndef COLLFUZZ_H
#define COLLFUZZ_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_PROCS 16 /* processes of one communicator, both groups */
#define FUZZ_MAX_ELEMS 4  /* base elements of one type instance */

/* ---- random numbers (splitmix64): the same sequence on every rank ---- */
struct rng {
    uint64_t state;
};
static inline uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline int rng_below(struct rng *r, int n)
{
    return n > 0 ? (int)(rng_next(r) % (uint64_t)n) : 0;
}
static inline int rng_chance(struct rng *r, int percent) { return rng_below(r, 100) < percent; }
static inline struct rng rng_for(uint64_t seed, uint64_t a, uint64_t b)
{
    struct rng r = {seed ^ (a * 0xd1342543de82ef95ull) ^ (b * 0x2545f4914f6cdd1dull)};
    rng_next(&r);
    return r;
}

/* ---- datatypes (fuzz_types.c) ---- */

/* The shapes a type is built in from a base type of extent e. */
enum kind {
    KIND_BASE,        /* the base type itself */
    KIND_DUP,         /* MPI_Type_dup of it: the same map, not a named type */
    KIND_CONTIGUOUS,  /* 3 in a row */
    KIND_VECTOR,      /* 2 blocks of 1, stride 3: gaps */
    KIND_INDEXED,     /* blocks of 2 at 3e and of 1 at 0: out of order */
    KIND_NEG_STRIDE,  /* 2 blocks of 1, stride -2: lower bound -2e */
    KIND_STRUCT,      /* struct of the base at 2e and at 0 */
    KIND_RESIZED_NEG, /* lower bound -e, extent 3e */
    KIND_RESIZED_POS, /* lower bound 2e, extent e: data before the lower bound */
    KIND_ZERO,        /* no data at all: contiguous(0) */
    KIND_COUNT
};
int kind_elements(enum kind k); /* base elements per instance */
const char *kind_name(enum kind k);

struct ftype {
    MPI_Datatype type;
    MPI_Datatype base;
    enum kind kind;
    int absolute;                 /* displacements are absolute addresses */
    int k;                        /* base elements per instance */
    MPI_Aint off[FUZZ_MAX_ELEMS]; /* byte offset of each, in type-map order */
    MPI_Aint lb, extent, true_lb, true_extent;
};
/* Build kind of base; 0, or an MPI error. */
int ftype_make(struct ftype *t, enum kind kind, MPI_Datatype base);
/* The same type map displaced to the absolute address of buf, for MPI_BOTTOM. */
int ftype_absolute(struct ftype *t, const struct ftype *of, void *buf);
void ftype_free(struct ftype *t);
/* The type of a handle made by ftype_make/absolute, or NULL (user ops). */
const struct ftype *ftype_find(MPI_Datatype type);
MPI_Aint base_extent(MPI_Datatype base);
const char *base_name(MPI_Datatype base);

/* ---- operations ---- */
enum value_kind {
    VALUES_ANY,
    VALUES_SUM,
    VALUES_PROD,
    VALUES_LOGICAL,
    VALUES_PAIR,
    VALUES_NO_TOP_BIT /* any, but unsigned ones below half their range */
};
struct op_choice {
    MPI_Op op;
    const char *name;
    int user; /* a user op (may take derived types) */
    int commutative;
    enum value_kind values;
};
/* Draw an op and a base type that the MPI standard allows together. */
void op_draw(struct rng *r, struct op_choice *op, MPI_Datatype *base);
/* Draw a base type for data movement. */
MPI_Datatype base_draw(struct rng *r);
int ops_init(void);
void ops_free(void);
/* mask[i] = 1 for the bytes of one element of base that carry no data
 * (long double's last 6, the gaps of pair types): the MPI libraries copy
 * them or not depending on the path, so they are not compared. */
void base_padding(MPI_Datatype base, unsigned char *mask);
/* Write one base element of value-class values at p (padding zeroed). */
void value_write(void *p, MPI_Datatype base, enum value_kind values, struct rng *r);

/* ---- one case (fuzz_plan.c) ---- */
enum form { FORM_BLOCKING, FORM_NONBLOCKING, FORM_PERSISTENT, FORM_COUNT };
const char *form_name(enum form f);

/* One block of a side: count instances of a type of this kind. Where the
 * blocks go in the buffer is this rank's own choice (prepare): only kinds
 * and counts must match between ranks. */
struct block {
    enum kind kind;
    int count;
};
enum layout {
    LAYOUT_ONE,    /* one block at the buffer */
    LAYOUT_BLOCKS, /* equal blocks one after the other (gather, alltoall, ...) */
    LAYOUT_V,      /* blocks at displacements in units of the extent */
    LAYOUT_W       /* blocks of their own kinds at displacements in bytes */
};
/* The send or the receive side of one rank. */
struct side {
    int used;           /* significant here: it has a buffer */
    int undefined_from; /* instances of block 0 from here on are no result
                           (in place reduce_scatter past the own block,
                           exscan at rank 0): the vendor may write them,
                           collshim may too where the vendor does; 0 in a
                           side that is all results stands for "none" */
    int has_undefined;
    enum layout layout;
    int nblocks;
    struct block b[FUZZ_MAX_PROCS];
};

/* The communicator a case runs on, as this rank sees it. */
struct fcomm {
    MPI_Comm comm;
    const char *name;
    int inter;
    int rank, size;  /* in the local group */
    int remote_size; /* intercommunicator */
    int group;       /* intercommunicator: 0 or 1, the same numbering in both */
    int world_rank;
};

struct fcase {
    uint64_t seed;
    long number;
    int coll; /* index into fuzz_colls */
    enum form form;
    int in_place;
    int root_group, root; /* rooted: the root's group (inter) and rank */
    struct op_choice op;
    MPI_Datatype base;
    struct side send, recv; /* this rank's */
    /* scalar arguments of this rank */
    int count;                   /* reductions, bcast */
    enum kind dkind;             /* reductions' datatype, bcast's */
    int rcounts[FUZZ_MAX_PROCS]; /* reduce_scatter's recvcounts */
    char what[160];              /* one line: collective, form, comm, sizes */
};

/* Draw case number of seed on fc; every member draws the same. form >= 0
 * replaces the case's own form. */
void plan_case(struct fcase *c, const struct fcomm *fc, uint64_t seed, long number, int form);

/* ---- what the vendor gets wrong (fuzz_vendor.c): never drawn ---- */
int vendor_is_openmpi(void);
int vendor_misplaces(const struct fcase *c, const struct fcomm *fc);
int vendor_refuses_bottom(const struct fcase *c, const struct fcomm *fc, int is_send);
int vendor_crashes_on_bottom(const struct fcase *c);
int vendor_needs_base_types(int coll, int inter, int in_place);
int vendor_needs_one_receive_type(int coll);
int vendor_needs_empty_count(enum kind kind);
int vendor_breaks_persistent_in_place(const struct fcase *c);
int vendor_form_unsafe(const struct fcase *c, const struct fcomm *fc, const char *alg);
int vendor_orders_unsigned_as_signed(void);
int vendor_needs_contiguous_reduction(const struct fcase *c);
int vendor_mishandles_pairs(void);
int vendor_breaks_in_place_reduce(int root);

/* ---- the collectives ---- */
enum fuzz_coll {
    F_BARRIER,
    F_BCAST,
    F_GATHER,
    F_GATHERV,
    F_SCATTER,
    F_SCATTERV,
    F_ALLGATHER,
    F_ALLGATHERV,
    F_ALLTOALL,
    F_ALLTOALLV,
    F_ALLTOALLW,
    F_REDUCE,
    F_ALLREDUCE,
    F_REDUCE_SCATTER,
    F_REDUCE_SCATTER_BLOCK,
    F_SCAN,
    F_EXSCAN,
    F_COLL_COUNT
};
extern const char *const fuzz_coll_names[F_COLL_COUNT];

/* ---- buffers and the call (fuzz_call.c) ---- */
struct region {
    unsigned char *mem; /* the allocation: guard, data span, guard */
    size_t len;
    char *ptr; /* the buffer pointer an MPI call takes */
    unsigned char *initial, *expected;
    unsigned char *undefined; /* per byte: 1 where a difference is allowed if
                                 the vendor changed the byte too, 2 where it
                                 is allowed anyway (padding in an element) */
};
#define FUZZ_GUARD 64

struct prepared { /* a case made concrete on this rank */
    struct region send, recv;
    struct ftype stype[FUZZ_MAX_PROCS], rtype[FUZZ_MAX_PROCS]; /* per block (w) or [0] */
    struct ftype sabs[FUZZ_MAX_PROCS], rabs[FUZZ_MAX_PROCS];
    struct ftype dtype, dabs;
    int nstypes, nrtypes;
    /* call arguments */
    const void *sendbuf;
    void *recvbuf;
    int scount, rcount;
    MPI_Datatype sdt, rdt;
    int scounts[FUZZ_MAX_PROCS], sdispls[FUZZ_MAX_PROCS];
    int rcounts[FUZZ_MAX_PROCS], rdispls[FUZZ_MAX_PROCS];
    MPI_Datatype sdts[FUZZ_MAX_PROCS], rdts[FUZZ_MAX_PROCS];
    int root;
    MPI_Datatype dt; /* reductions */
};
int prepare(struct prepared *p, const struct fcase *c, const struct fcomm *fc);
void release_prepared(struct prepared *p);
/* Put every buffer back to its initial bytes. */
void restore(struct prepared *p);
/* Run the call in form f; after(arg) after each completion (persistent:
 * runs starts, buffers restored in between). */
int run_call(const struct fcase *c, const struct fcomm *fc, struct prepared *p, enum form f,
             int (*after)(void *), void *arg, int runs);
/* 1 when a byte of either region differs from expected: which region,
 * where in it, its offset from the buffer pointer and the two values. */
int compare(const struct prepared *p, const char **which, const char **where, long *offset,
            int *expected, int *got);
void keep_expected(struct prepared *p);
/* --show: this rank's arguments on stderr. */
void show_arguments(const struct fcase *c, const struct fcomm *fc, const struct prepared *p);

#endif
