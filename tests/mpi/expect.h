/* expect.h - the one-line checks of the behaviour tests (isolation,
 * lifecycle, errors): every rank judges, the job agrees through the vendor,
 * rank 0 prints "ok"/"FAIL" and the totals line. */
#ifndef COLLSHIM_EXPECT_H
#define COLLSHIM_EXPECT_H

/* Record one check; ok is this rank's verdict, all ranks must call it. */
void expect(int rank, int ok, const char *what);
/* Rank 0 prints "NAME: N passed, N failed"; returns the exit status. */
int expect_finish(int rank, const char *name);

#endif
