/* tls.h - SHIM_TLS, the storage class of collshim's thread-local variables.
 * In the preloaded library they use the initial-exec model (one load to
 * reach them on the hot path). Under SimGrid's SMPI, collshim is linked
 * into the program, which smpirun dlopens once per simulated rank, and
 * the static TLS block has no room for hundreds of initial-exec copies
 * ("cannot allocate memory in static TLS block"): the general model there. */
#ifndef COLLSHIM_TLS_H
#define COLLSHIM_TLS_H

#include "config.h"

#ifdef COLLSHIM_SMPI
#define SHIM_TLS __thread
#else
#define SHIM_TLS __thread __attribute__((tls_model("initial-exec")))
#endif

#endif
