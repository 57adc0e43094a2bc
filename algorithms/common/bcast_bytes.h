/* bcast_bytes.h - the broadcast message as n contiguous bytes, and the
 * byte-level moves the scatter/allgather and pipelined broadcasts share.
 *
 * Type maps may differ between ranks (the root sends one vector of 10 ints,
 * the others receive 10 MPI_INT), but the packed bytes are the same on
 * every rank, so every byte-level algorithm splits blocks and segments of
 * the packed message, never of a local count. A contiguous buffer is used
 * in place (at buf + true_lb); any other is packed at the root and
 * unpacked at the others at the end. */
#ifndef COLLSHIM_BCAST_BYTES_H
#define COLLSHIM_BCAST_BYTES_H

#include "algorithms/coll.h"

struct bcast_bytes {
    char *p;     /* the n bytes: inside the user's buffer, or copy */
    size_t n;    /* count * type size, identical on every rank */
    void *copy;  /* malloc'd packed copy for a non-contiguous buffer */
};

/* View a->recvbuf (a->count of a->datatype) as bytes; packs at the root.
 * Any size: byte counts and offsets are size_t, messages go through
 * p2p_bytes.h. */
int bcast_bytes_open(struct bcast_bytes *b, const struct coll_args *a);
/* Unpack at the non-roots when err is MPI_SUCCESS, free; returns err or
 * the unpacking error. */
int bcast_bytes_close(struct bcast_bytes *b, int err, const struct coll_args *a);

/* Byte range of blocks [first, end) when n bytes are split into p blocks
 * (block i belongs to relative rank i). */
char *bcast_bytes_blocks(const struct bcast_bytes *b, int p, int first, int end, size_t *len);

/* Binomial scatter from the root: relative rank rel ends up holding the
 * blocks of its subtree [rel, bcast_pattern_subtree_end(rel, p)). */
int bcast_bytes_scatter(const struct bcast_bytes *b, const struct coll_args *a);

/* Segmented forwarding down any tree: receive each seg-byte segment from
 * parent (absolute rank, -1 at the root) and send it on to the nkids
 * children, with the next segment's receive posted before forwarding:
 * BCAST_BYTES_SLOTS receive posted at once. */
#define BCAST_BYTES_MAX_KIDS 8
#define BCAST_BYTES_SLOTS 1
int bcast_bytes_forward(const struct bcast_bytes *b, size_t seg, int parent,
                        const int *kids, int nkids, const struct coll_args *a);

#endif
