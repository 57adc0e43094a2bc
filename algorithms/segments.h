/* segments.h - the segment size of each segmented algorithm when its rule
 * gives no seg=, in one place: the algorithms read it, and so do the tools
 * that write a table in another library's terms (bench/export_openmpi.c). */
#ifndef COLLSHIM_SEGMENTS_H
#define COLLSHIM_SEGMENTS_H

#define SEG_DEFAULT_BCAST_PIPELINE (64 * 1024)
#define SEG_DEFAULT_BCAST_BINARY_PIPELINE (64 * 1024)
#define SEG_DEFAULT_REDUCE_PIPELINE (32 * 1024)
#define SEG_DEFAULT_REDUCE_BINARY_PIPELINE (32 * 1024)
/* the rings of allreduce, reduce_scatter and reduce_scatter_block */
#define SEG_DEFAULT_RING (64 * 1024)
/* the segmented chains of scan and exscan */
#define SEG_DEFAULT_PREFIX (64 * 1024)

#endif
