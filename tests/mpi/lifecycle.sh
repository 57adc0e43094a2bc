#!/bin/bash
# lifecycle.sh - 10,000 cycles of split / collective / free leave nothing.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
mpi_run 2 -- "$TOP_BUILDDIR/tests/mpi/lifecycle" 10000 >"$log" 2>&1
grep -E '^(ok|FAIL|  )' "$log"
grep -q 'lifecycle: ' "$log" || { FAILED=$((FAILED + 1)); cat "$log"; }
count_results "$log"
rm -f "$log"
finish lifecycle
