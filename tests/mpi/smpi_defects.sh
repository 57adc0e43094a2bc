#!/bin/bash
# smpi_defects.sh - the reproducers of SimGrid SMPI 3.32's defects
# (tests/smpi-defects/, doc/scale.md "What SMPI 3.32 gets wrong by itself")
# are right MPI programs: under this flavour's MPI, without collshim, each
# gives the outcome the standard asks for, so that what one shows under
# smpirun is SMPI's. MPICH busy-polls: np <= 3 there.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
dir=$TOP_BUILDDIR/tests/smpi-defects
big=4; [ "$FLAVOUR" = mpich ] && big=3
log=$(mktemp)
# case: NP | the outcome a correct MPI prints (grep -E) | program and arguments
while IFS='|' read -r np want run; do
    mpi_run "$np" -- $dir/$run </dev/null >"$log" 2>&1
    expect "$run at np $np: $want" grep -qE -- "$want" "$log" || tail -5 "$log"
done <<CASES
2|success, size 2|finalize_self_attr
$big|one result on every rank.*right|iallreduce
3|every rank left after the last entry|ibarrier
$big|ranks, 3 ints per peer: done|mesh_precision 3
2|second 100000 ints.*in order|order long
2|starting 1000: in order|order short
1|count 0: index -?[0-9]+ \(right\)|waitany_empty
CASES
rm -f "$log"
finish smpi_defects
