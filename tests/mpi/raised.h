/* raised.h - count the errors raised on MPI_COMM_WORLD's and
 * MPI_COMM_SELF's error handlers (where errors of calls without a
 * communicator go). A program's default handler is fatal, so a test that
 * sets MPI_ERRORS_RETURN would hide such an error; counting shows it even
 * when the call itself returns success. */
#ifndef COLLSHIM_RAISED_H
#define COLLSHIM_RAISED_H

/* Install the counting handler on world and self (after MPI_Init). */
void raised_count_start(void);
/* Errors raised so far, and the class of the last one. */
int raised_count(void);
int raised_last_class(void);

#endif
