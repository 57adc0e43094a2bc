#!/bin/bash
# opcheck.sh - predefined ops on named types through every reduction
# (tests/mpi/opcheck.c): refused pairs get the vendor's class on every rank
# without hanging, accepted pairs give values computed from the inputs. A
# hang is a failure: the run is cut at MPI_TIMEOUT seconds.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
MPI_TIMEOUT=${OPCHECK_TIMEOUT:-300}
log=$(mktemp)
for np in ${OPCHECK_SIZES:-2 3}; do
    echo "== np=$np"
    mpi_run "$np" -- "$TOP_BUILDDIR/tests/mpi/opcheck" ${OPCHECK_PARTS:-} >"$log" 2>&1
    grep -E '^(ok|FAIL|  rank)' "$log" | grep -vE '^ok' | head -40
    grep -q 'opcheck: .* passed' "$log" ||
        { FAILED=$((FAILED + 1)); echo "FAIL np=$np: opcheck did not finish (hang or abort)"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish opcheck
