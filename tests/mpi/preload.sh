#!/bin/bash
# preload.sh - unmodified binaries under LD_PRELOAD: a C program and Fortran
# programs (mpif.h, use mpi, use mpi_f08) built with the vendor's wrappers
# and not linked to collshim run the shim's algorithms (shown by the
# verbose line) with right results; so do Fortran programs that use only
# nonblocking collectives (MPI_IALLREDUCE, MPI_IBCAST with MPI_WAIT and
# MPI_WAITALL): every verbose line about allreduce or bcast comes from a
# nonblocking call there. A build for the other MPI stops at MPI_Init with
# one line saying which MPI it was built for.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
dir="$TOP_BUILDDIR/tests/mpi"
log=$(mktemp)
pre="LD_PRELOAD=$LIBCOLLSHIM"
tune="COLLSHIM_TUNE=allreduce @recursive_doubling"
nbc_tune="COLLSHIM_TUNE=allreduce 0-1024 @recursive_doubling; allreduce 1024-inf @ring; bcast @pipeline seg=256"

# The `use mpi` program of an mpif.h one: the module instead of the include.
use_mpi_variant() {
    local from=$1 to=$2
    sed -e "/^  include 'mpif.h'$/d" -e "s/^program $from\$/&\n  use mpi/" \
        -e "s/$from/$to/g" -e 's/using mpif.h/using the mpi module/' "$TOP_SRCDIR/tests/mpi/$from.f90" \
        >"$dir/$to.f90"
}

# The Fortran programs, built here with the vendor's wrapper.
progs=(plain_c)
if command -v "$MPIFORT" >/dev/null; then
    use_mpi_variant fortran_mpif fortran_use_mpi
    use_mpi_variant fortran_nbc_mpif fortran_nbc_use_mpi
    for f in fortran_mpif fortran_use_mpi fortran_f08 fortran_nbc_mpif fortran_nbc_use_mpi \
        fortran_nbc_f08; do
        src="$TOP_SRCDIR/tests/mpi/$f.f90"
        [ -f "$src" ] || src="$dir/$f.f90"
        # gfortran >= 10 rejects mpif.h's untyped buffers without this flag.
        flags=(); [ "${f%_mpif}" != "$f" ] && flags=(-fallow-argument-mismatch)
        if (cd "$dir" && "$MPIFORT" "${flags[@]}" -o "$f" "$src" 2>"$log.build"); then progs+=("$f")
        else FAILED=$((FAILED + 1)); echo "FAIL building $f"; cat "$log.build"; fi
    done
else
    echo "skip Fortran: $MPIFORT not found"
fi

for p in "${progs[@]}"; do
    expect "$p is not linked to collshim" bash -c "! ldd '$dir/$p' 2>/dev/null | grep -q collshim"
    for np in 2 3; do
        if [ "${p#fortran_nbc_}" = "$p" ]; then
            mpi_run "$np" "$pre" "COLLSHIM_VERBOSE=1" "$tune" -- "$dir/$p" >"$log" 2>&1
            expect "$p np=$np under LD_PRELOAD: right results" grep -q "$p: ok (np=$np)" "$log"
            expect "$p np=$np under LD_PRELOAD: the shim's allreduce ran" \
                grep -q "collshim: allreduce np=$np bytes=.* -> recursive_doubling" "$log"
            continue
        fi
        mpi_run "$np" "$pre" "COLLSHIM_VERBOSE=1" "$nbc_tune" -- "$dir/$p" >"$log" 2>&1
        expect "$p np=$np under LD_PRELOAD: right results" grep -q "$p: ok (np=$np)" "$log"
        for alg in recursive_doubling ring; do
            expect "$p np=$np under LD_PRELOAD: the shim's nonblocking allreduce ran $alg" \
                grep -Eq "collshim: i?allreduce np=$np bytes=.* -> $alg" "$log"
        done
        expect "$p np=$np under LD_PRELOAD: the shim's nonblocking bcast ran pipeline" \
            grep -Eq "collshim: i?bcast np=$np bytes=.* -> pipeline" "$log"
    done
done

# Oversubscription: with COLLSHIM_CORES=1 two ranks share one core, and
# the rules for ranks_per_core=2-inf choose; with the machine's cores (2 or
# more here) they do not. The report says which.
rpc_tune="COLLSHIM_TUNE=allreduce ranks_per_core=2-inf @linear; allreduce @recursive_doubling"
machine_cores=machine
[ "$(nproc)" -ge 2 ] || { machine_cores=; echo "skip the machine's cores: fewer than 2 here"; }
for cores in 1 $machine_cores; do
    vars=("$pre" COLLSHIM_VERBOSE=1 "$rpc_tune" COLLSHIM_REPORT="$dir/report-$cores.txt")
    [ "$cores" = 1 ] && vars+=(COLLSHIM_CORES=1)
    mpi_run 2 "${vars[@]}" -- "$dir/plain_c" >"$log" 2>&1
    expect "cores=$cores: right results" grep -q "plain_c: ok (np=2)" "$log"
    if [ "$cores" = 1 ]; then
        expect "cores=1: the job is oversubscribed and its rule chose linear" \
            grep -q "collshim: allreduce np=2 bytes=.* oversubscribed -> linear" "$log"
        expect "cores=1: the report says 2 ranks per core" \
            grep -q "^# ranks per core on the most loaded node: 2 (oversubscribed" "$dir/report-$cores.txt"
    else
        expect "the machine's cores: not oversubscribed, the next rule chose" \
            grep -q "collshim: allreduce np=2 bytes=.* ppn=2 -> recursive_doubling" "$log"
        expect "the machine's cores: the report says 1 rank per core" \
            grep -q "^# ranks per core on the most loaded node: 1$" "$dir/report-$cores.txt"
    fi
done

# A step of a composed algorithm runs on the same cores: @node's reduce
# inside a node of an oversubscribed job is chosen by the ranks_per_core
# rule too (4 ranks, 2 nodes of 2, COLLSHIM_CORES=1).
step_tune="COLLSHIM_TUNE=allreduce nodes=2-inf @node; reduce ranks_per_core=2-inf @linear; reduce @binomial"
mpi_run 4 "$pre" COLLSHIM_VERBOSE=1 COLLSHIM_NODES=block:2 COLLSHIM_CORES=1 "$step_tune" -- \
    "$dir/plain_c" >"$log" 2>&1
expect "np=4, 2 nodes, cores=1: right results" grep -q "plain_c: ok (np=4)" "$log"
expect "np=4, 2 nodes, cores=1: the allreduce ran @node" \
    grep -q "collshim: allreduce np=4 bytes=.* oversubscribed -> node" "$log"
expect "np=4, 2 nodes, cores=1: @node's reduce in the node is oversubscribed and its rule chose linear" \
    grep -q "collshim: reduce np=2 bytes=.* nodes=1 ppn=2 oversubscribed -> linear" "$log"

# The other MPI's build of the same C program, under this build of collshim.
if [ "$FLAVOUR" = openmpi ]; then other_cc=mpicc.mpich other_run=(mpiexec.mpich -n 2 -genv LD_PRELOAD "$LIBCOLLSHIM")
else other_cc=mpicc.openmpi other_run=(mpirun.openmpi --oversubscribe -np 2 -x LD_PRELOAD="$LIBCOLLSHIM"); fi
if command -v "$other_cc" >/dev/null && "$other_cc" -o "$dir/plain_c_other" "$TOP_SRCDIR/tests/mpi/plain_c.c"; then
    want="Open MPI"; [ "$FLAVOUR" = mpich ] && want=MPICH
    timeout 120 "${other_run[@]}" "$dir/plain_c_other" >"$log" 2>&1
    rc=$?
    expect "under the other MPI: stops (exit $rc) at MPI_Init" test "$rc" -ne 0 -a "$rc" -ne 124
    expect "under the other MPI: one line says which MPI it was built for" \
        grep -q "collshim: this libcollshim.so was built for $want, but the program runs under" "$log"
    grep -m1 "collshim:" "$log"
else
    echo "skip other-MPI check: $other_cc not found"
fi
rm -f "$log" "$log.build"
finish preload
