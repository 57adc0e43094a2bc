/* fuzz_vendor.c - the calls the MPI library itself gets wrong, found by
 * collfuzz and checked by hand (doc/testing.md has each one's smallest
 * reproduction): no case draws them, since there is no reference there. */
#include "tests/fuzz/fuzz.h"
#include "collshim.h"

#include <string.h>

int vendor_is_openmpi(void)
{
    static int openmpi = -1;
    if (openmpi < 0)
        openmpi = !strcmp(collshim_flavour(), "openmpi");
    return openmpi;
}

/* On a one-process communicator Open MPI 4.1.4's alltoallw (coll/self)
 * puts a block at a nonzero byte displacement in the wrong place, past the
 * buffer, and MPICH 4.0.2's allgatherv ignores the receive displacement
 * (2 shorts at displacement 2 land at 0): there the blocks stay at 0. */
int vendor_misplaces(const struct fcase *c, const struct fcomm *fc)
{
    int coll = vendor_is_openmpi() ? F_ALLTOALLW : F_ALLGATHERV;
    return c->coll == coll && !fc->inter && fc->size == 1;
}

/* Open MPI 4.1.4's intercommunicator reduce refuses MPI_BOTTOM as the
 * senders' buffer (MPI_ERR_ARG there, and the root waits for ever). */
int vendor_refuses_bottom(const struct fcase *c, const struct fcomm *fc, int is_send)
{
    return vendor_is_openmpi() && c->coll == F_REDUCE && fc->inter && is_send;
}

/* Open MPI 4.1.4's reductions are wrong or crash on MPI_BOTTOM with a type
 * of absolute addresses: reduce in place at root 1 of 2, one double, gives
 * the root's own value (seed 33585512974 case 10159); allreduce in place of
 * 850 doubles crashes in its convertor, and persistent reduce of 33
 * doubles at np 3. There reductions use no absolute types (regress.c
 * checks collshim's on values computed from the inputs). */
int vendor_crashes_on_bottom(const struct fcase *c)
{
    return vendor_is_openmpi() && c->coll >= F_REDUCE;
}

/* Open MPI 4.1.4's intercommunicator scatterv and gatherv (coll/inter)
 * count the remote side's data in the root's type and read it in the
 * other group's: MPI_ERR_TRUNCATE, or a hang, wherever the two types
 * differ in size. Its allgatherv (coll/tuned) picks its algorithm from
 * sum(recvcounts) times the size of the send type, which differ between
 * ranks whose types hold different numbers of elements: ranks run
 * different algorithms and hang (seed 1 case 185 at np 3). MPICH 4.0.2's
 * alltoall(v,w) in place fails with MPI_ERR_TRUNCATE (or hangs) where two
 * ranks' receive types for each other differ (3 of contiguous(2) against
 * 6 of MPI_SHORT_INT: seed 1 case 177 at np 2), and its intercommunicator
 * scatter hangs like Open MPI's scatterv (the root's 412 of contiguous(3)
 * doubles against 1236 doubles, 2 receivers: seed 1 case 118 at np 3).
 * There every block is of the base type itself. */
int vendor_needs_base_types(int coll, int inter, int in_place)
{
    int alltoall = coll == F_ALLTOALL || coll == F_ALLTOALLV || coll == F_ALLTOALLW;
    int rooted = coll == F_SCATTER || coll == F_SCATTERV || coll == F_GATHER || coll == F_GATHERV;
    if (!vendor_is_openmpi())
        return (alltoall && in_place) || (inter && rooted);
    return coll == F_ALLGATHERV || (inter && (coll == F_SCATTERV || coll == F_GATHERV));
}

/* MPICH 4.0.2's allgatherv hangs, blocking or not and with collshim
 * disabled, where the ranks receive in types of different sizes and the
 * call is long enough for its ring: that ring cuts each block into pieces
 * of 32 KiB counted in the receiver's own type (MPIR_CVAR_ALLGATHERV_
 * PIPELINE_MSG_SIZE), so two ranks cut the same block differently and
 * their messages do not match. 3 ranks, 3903 vectors of 2 long doubles
 * against 7806 long doubles on the third rank: a hang; the same in
 * doubles, 62 KB, which its Bruck algorithm carries: none (collfuzz seed
 * 12 case 685, seed 15 case 1092, seed 1795918665 case 801). There every
 * rank of a group receives in one type. */
int vendor_needs_one_receive_type(int coll) { return !vendor_is_openmpi() && coll == F_ALLGATHERV; }

/* Open MPI 4.1.4 decides by counts, not bytes, whether a message flows:
 * its reduce root waits for ranks that send nothing when the datatype has
 * no data and the count is not 0 (a hang; the same for gatherv, which is
 * why a type of no data never gets a count in the data movement cases).
 * MPICH 4.0.2's exscan hangs alike (seed 1 case 8380 at np 2), and its
 * reductions refuse two NULL buffers of such a type as aliased. Reductions
 * with such a type have count 0. */
int vendor_needs_empty_count(enum kind kind) { return kind_elements(kind) == 0; }

/* Open MPI 4.1.4's persistent alltoall(v,w) in place (MPIX_Alltoallv_init,
 * libnbc) leaves the communicator unusable: a later nonblocking collective
 * on it hangs (collfuzz seed 1, cases 3845 to 3868 at np 2, with collshim
 * disabled). No persistent alltoall is in place there. */
int vendor_breaks_persistent_in_place(const struct fcase *c)
{
    return vendor_is_openmpi() && c->form == FORM_PERSISTENT &&
           (c->coll == F_ALLTOALL || c->coll == F_ALLTOALLV || c->coll == F_ALLTOALLW);
}

/* The vendor's own nonblocking and persistent collectives are run only
 * where they hold: not Open MPI 4.1.4's (libnbc), which hang or crash on
 * some of the derived types drawn here (an allgatherv of struct and
 * indexed types on MPI_BOTTOM at np 3: collfuzz seed 1 case 185 with
 * collshim disabled). MPICH 4.0.2's persistent collectives give wrong
 * data (its intercommunicator MPI_Bcast_init; its gather, scatter and
 * allgather, doc/design-notes.md), and so does its intercommunicator
 * MPI_Ibcast wherever the receivers' type is not contiguous (every
 * element wrong: 10 doubles sent as MPI_DOUBLE, received as a vector of
 * stride 2, np 3; collfuzz seed 12309914912 case 642 with collshim
 * disabled). There collshim's "vendor" is run only in the forms that
 * hold. */
int vendor_form_unsafe(const struct fcase *c, const struct fcomm *fc, const char *alg)
{
    int form = vendor_is_openmpi() ? c->form != FORM_BLOCKING
                                   : c->form == FORM_PERSISTENT ||
                                         (c->form == FORM_NONBLOCKING && fc->inter &&
                                          c->coll == F_BCAST);
    return form && !strcmp(alg, "vendor");
}

/* MPICH 4.0.2's MPI_MIN and MPI_MAX compare every unsigned type as signed:
 * the minimum of 0xf0000000u and 16u comes out 0xf0000000 (and the same
 * for MPI_UNSIGNED_CHAR up to MPI_UINT64_T). There unsigned values stay
 * below half their range. */
int vendor_orders_unsigned_as_signed(void) { return !vendor_is_openmpi(); }

/* MPICH 4.0.2's reduce_scatter and reduce_scatter_block with a
 * non-commutative op corrupt the heap when the datatype is not contiguous
 * (munmap_chunk(): invalid pointer; 8 of an MPI_UNSIGNED resized to extent
 * 12, np 2; the results before that are wrong), and its reduce crashes on a
 * type whose data lies before its lower bound (1325 of an MPI_UNSIGNED
 * resized to lower bound 8, in place at root 1 of 2: seed 1 case 16276).
 * Open MPI 4.1.4's allreduce frees an invalid pointer (abort) on a type of
 * negative lower bound (705 of a vector of stride -2, in place, np 2: seed
 * 9151595156 case 210460). There the type is the base type. */
int vendor_needs_contiguous_reduction(const struct fcase *c)
{
    int scatter = c->coll == F_REDUCE_SCATTER || c->coll == F_REDUCE_SCATTER_BLOCK;
    if (vendor_is_openmpi())
        return c->dkind == KIND_NEG_STRIDE || c->dkind == KIND_RESIZED_NEG;
    return (!c->op.commutative && scatter) || c->dkind == KIND_RESIZED_POS;
}

/* MPICH 4.0.2 and the pair types: a message of more than about 16 KiB
 * sent as bytes and received as MPI_SHORT_INT or MPI_DOUBLE_INT (or a type
 * made of them) fails with MPI_ERR_TRUNCATE, in its own collectives too
 * (scatter, gather, allgather, alltoallv with derived types of them), and
 * its reduce of 166 MPI_LONG_DOUBLE_INT with MPI_MINLOC, in place at root
 * 1 of 2, crashes. There pair types appear only in MINLOC and MAXLOC
 * reductions, and never MPI_LONG_DOUBLE_INT. */
int vendor_mishandles_pairs(void) { return !vendor_is_openmpi(); }

/* MPICH 4.0.2's reduce in place at a root other than 0 crashes from about
 * 600 elements on (1325 MPI_UNSIGNED with MPI_SUM at root 1 of 2, whatever
 * the other ranks' receive buffers): there reduce is in place at root 0
 * only. */
int vendor_breaks_in_place_reduce(int root) { return !vendor_is_openmpi() && root != 0; }
