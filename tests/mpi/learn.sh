#!/bin/bash
# learn.sh - COLLSHIM_LEARN (doc/learning.md), np 2 and 3 (SMPI: np 16):
#  - slowed candidates (COLLSHIM_TEST_DELAY on the built-in choices) are
#    tried and never settled on, also with blocking calls on schedules;
#  - a candidate fast while explored and slow afterwards (a delay from its
#    9th run) loses the confirmation: learning ends on the vendor;
#  - with COLLSHIM_LEARN_CHARGE=last_entry a rank late at every call does
#    not hide a slower vendor;
#  - windowed algorithms are tried with 2 and 4 requests in flight where
#    that is fewer than the peers;
#  - the learned table round-trips: written at MPI_Finalize with its
#    provenance header, loaded by COLLSHIM_TUNING_FILE, every call runs the
#    learnt algorithm from the first (with and without COLLSHIM_LEARN);
#  - tables of np 2 and np 3 concatenated serve both sizes;
#  - COLLSHIM_REPORT has the learning rows;
#  - a rank that cannot allocate learning's state (COLLSHIM_TEST_NOMEM)
#    makes every rank run the tables: no hang, right results.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
prog="$TOP_BUILDDIR/tests/mpi/learn"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
slow=allreduce:recursive_doubling,bcast:binomial
# 30 ms: beyond what a loaded machine's scheduling adds to the vendor's calls
delay=allreduce:recursive_doubling:30000,bcast:binomial:30000

run() { # label np env... -- args
    local label=$1 np=$2; shift 2
    mpi_run "$np" "$@" >"$dir/log" 2>&1
    echo "== $label"
    grep -E '^(ok|FAIL)' "$dir/log"
    grep -q 'learn: ' "$dir/log" || { FAILED=$((FAILED + 1)); echo "FAIL $label: did not finish"; tail -5 "$dir/log"; }
    count_results "$dir/log"
    if grep -E 'collshim: .*(ignored|does not parse|cannot write)' "$dir/log"; then
        FAILED=$((FAILED + 1)); echo "FAIL $label: collshim complained"
    fi
}

has_header() { grep -q '^# date: ' "$1" && grep -q '^# mpi: ' "$1" && grep -q "^# np: $2\$" "$1" && grep -q '^# hosts: ' "$1" && grep -q '^# charge: own ' "$1" && grep -q '^# command: .*learn .*write' "$1"; }
has_rule() { grep -Eq "^$2 +np=$3 .*8-16 +@" "$1" && { [ -z "$4" ] || ! grep -Eq "^$2 +np=$3 .*8-16 +@$4( |\$)" "$1"; }; }

nps=${LEARN_NPS:-2 3} # LEARN_NPS=2: a quicker run while developing
# SMPI (doc/scale.md): np 16 on hosts of 4 ranks, learning on simulated
# times; COLLSHIM_TEST_DELAY busy-waits in real time, which the simulated
# clock does not see, so the slowed-candidate runs are the other flavours'.
[ "$FLAVOUR" = smpi ] && { nps=${LEARN_NPS:-16}; export SMPI_PPN=4; slow= delay=; }
for np in $nps; do
    if [ -n "$slow" ]; then
        run "slowed candidates, np $np" $np COLLSHIM_LEARN=1 COLLSHIM_TEST_DELAY=$delay -- \
            "$prog" slow ${slow//,/ }
        run "slowed candidates on schedules, np $np" $np COLLSHIM_LEARN=1 \
            COLLSHIM_TEST_DELAY=$delay COLLSHIM_SCHEDULE_BLOCKING=1 -- "$prog" slow ${slow//,/ }
        run "fast while explored, slow once chosen, np $np" $np COLLSHIM_LEARN=1 \
            COLLSHIM_TEST_DELAY=allreduce:*:20000,allreduce:linear:100000@8 -- "$prog" confirm linear
        # 150 ms late, the vendor 6 ms slower: each rank's own time (the
        # default charge) reads 156 against 150 ms, a tie within the 5%
        # margin, and this fails; from the last entry 6 ms against the
        # native algorithms' microseconds (with 2 ms, a CI run on a loaded
        # machine saw MPICH's native calls take as long and kept the
        # vendor). np 2: MPICH's busy-polling ranks on 2 cores would make
        # the native calls milliseconds at np 3.
        [ "$np" = 2 ] && run "last_entry: a rank 150 ms late at every call, the vendor 6 ms slower, np $np" \
            $np COLLSHIM_LEARN=1 COLLSHIM_LEARN_CHARGE=last_entry COLLSHIM_TEST_DELAY=allreduce:vendor:6000 \
            -- "$prog" late 150
    fi
    t="$dir/np$np.table"
    run "learn and write, np $np" $np COLLSHIM_LEARN=1 COLLSHIM_LEARN_OUT="$t" \
        COLLSHIM_TEST_DELAY=$delay COLLSHIM_REPORT="$dir/report$np.txt" -- "$prog" write
    expect "np $np: the table has the provenance header" has_header "$t" $np
    expect "np $np: allreduce rule at 8 B${slow:+, not the slowed one}" has_rule "$t" allreduce $np \
        "${slow:+recursive_doubling}"
    expect "np $np: bcast rule at 8 B${slow:+, not the slowed one}" has_rule "$t" bcast $np \
        "${slow:+binomial}"
    expect "np $np: the report has the learning rows" \
        grep -Eq '^  allreduce +'$np' .* 8-16 ' "$dir/report$np.txt"
    run "reload, np $np" $np COLLSHIM_TUNING_FILE="$t" -- "$prog" read "$t"
    run "reload while learning, np $np" $np COLLSHIM_LEARN=1 COLLSHIM_TUNING_FILE="$t" -- \
        "$prog" read "$t"
done
# Windows are candidates where they are fewer than the peers: at np 4 (3
# peers) the scattered alltoall is tried with 2 requests in flight besides
# its default 8, not with 4 (all 3 at once, as the default).
run "alltoall windows, np 4" 4 COLLSHIM_LEARN=1 COLLSHIM_REPORT="$dir/a2a.txt" -- "$prog" alltoall
tried_windows() { grep -Eq '^  alltoall +4 .*scattered:outstanding=2' "$1" && ! grep -q 'outstanding=4' "$1"; }
expect "np 4: learning tried the scattered alltoall with 2 requests in flight, not 4" tried_windows "$dir/a2a.txt"
# One rank cannot allocate learning's state (COLLSHIM_TEST_NOMEM): all
# ranks must run the tables together (a rank running another algorithm in
# the same call hangs or corrupts), finish with right results, and learn
# nothing. 120 s: a hang is a failure, not a 15-minute wait.
no_rules() { [ -f "$1" ] && ! grep -Eq '^(allreduce|bcast) ' "$1"; }
np=${nps##* }
for what in ctx class; do
    t="$dir/nomem-$what.table"
    MPI_TIMEOUT=120 run "no memory for a $what on rank 1, np $np" $np COLLSHIM_LEARN=1 \
        COLLSHIM_LEARN_OUT="$t" COLLSHIM_TEST_NOMEM=$what@1 -- "$prog" write
    expect "no memory for a $what on rank 1: nothing learnt" no_rules "$t"
done
cat "$dir"/np*.table >"$dir/both.table"
for np in $nps; do
    run "concatenated tables of np ${nps// / and }, at np $np" $np COLLSHIM_TUNING_FILE="$dir/both.table" \
        -- "$prog" read "$dir/both.table"
done
finish learn
