#!/bin/bash
# preload.sh - unmodified binaries under LD_PRELOAD: a C program and Fortran
# programs (mpif.h, use mpi, use mpi_f08) built with the vendor's wrappers
# and not linked to collshim run the shim's algorithms (shown by the
# verbose line) with right results; a build for the other MPI stops at
# MPI_Init with one line saying which MPI it was built for.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
dir="$TOP_BUILDDIR/tests/mpi"
log=$(mktemp)
pre="LD_PRELOAD=$LIBCOLLSHIM"
tune="COLLSHIM_TUNE=allreduce @recursive_doubling"

# The Fortran programs, built here with the vendor's wrapper; the `use mpi`
# one is the mpif.h one with the module instead of the include.
progs=(plain_c)
if command -v "$MPIFORT" >/dev/null; then
    sed -e "/^  include 'mpif.h'$/d" -e 's/^program fortran_mpif$/&\n  use mpi/' \
        -e 's/fortran_mpif/fortran_use_mpi/g' -e 's/using mpif.h/using the mpi module/' "$TOP_SRCDIR/tests/mpi/fortran_mpif.f90" \
        >"$dir/fortran_use_mpi.f90"
    for f in fortran_mpif fortran_use_mpi fortran_f08; do
        src="$TOP_SRCDIR/tests/mpi/$f.f90"
        [ -f "$src" ] || src="$dir/$f.f90"
        # gfortran >= 10 rejects mpif.h's untyped buffers without this flag.
        flags=(); [ "$f" = fortran_mpif ] && flags=(-fallow-argument-mismatch)
        if (cd "$dir" && "$MPIFORT" "${flags[@]}" -o "$f" "$src" 2>"$log.build"); then progs+=("$f")
        else FAILED=$((FAILED + 1)); echo "FAIL building $f"; cat "$log.build"; fi
    done
else
    echo "skip Fortran: $MPIFORT not found"
fi

for p in "${progs[@]}"; do
    expect "$p is not linked to collshim" bash -c "! ldd '$dir/$p' 2>/dev/null | grep -q collshim"
    for np in 2 3; do
        mpi_run "$np" "$pre" "COLLSHIM_VERBOSE=1" "$tune" -- "$dir/$p" >"$log" 2>&1
        expect "$p np=$np under LD_PRELOAD: right results" grep -q "$p: ok (np=$np)" "$log"
        expect "$p np=$np under LD_PRELOAD: the shim's allreduce ran" \
            grep -q "collshim: allreduce np=$np bytes=.* -> recursive_doubling" "$log"
    done
done

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
