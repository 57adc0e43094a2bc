/* scratch.h - memory for the temporaries of collective calls (buffers,
 * request and displacement arrays), reused from call to call.
 *
 * Every collective call is a hot path, and a program repeats its calls:
 * a block given back with scratch_put is kept by the thread (up to
 * SCRATCH_PER_CLASS blocks of each size class, SCRATCH_KEEP bytes in all)
 * and handed out again by scratch_get. A program that repeats its calls
 * therefore allocates on the first call of each shape and never after.
 * Blocks may be put back by another thread than the one that got them (a
 * schedule finished by the progress thread). */
#ifndef COLLSHIM_SCRATCH_H
#define COLLSHIM_SCRATCH_H

#include <stddef.h>

/* Blocks of one size live at once in one call: a reduction tree's root
 * holds a segment buffer per child and slot (2 x 10 at 1024 ranks). */
enum { SCRATCH_PER_CLASS = 32 };
/* Bytes a thread keeps at most; a block that would pass it is freed (a
 * program whose temporaries exceed it allocates per call, as the vendor's
 * algorithms do at those sizes). */
#define SCRATCH_KEEP ((size_t)64 << 20)

/* n bytes (at least 1), aligned as malloc's; NULL when out of memory. */
void *scratch_get(size_t n);
/* n zeroed bytes. */
void *scratch_get_zeroed(size_t n);
/* Give back a block of scratch_get (NULL is ignored). */
void scratch_put(void *p);
/* Free the calling thread's kept blocks (at MPI_Finalize, thread exit). */
void scratch_release(void);

#endif
