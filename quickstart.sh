#!/bin/bash
# quickstart.sh - on a fresh Debian 12 machine: install what collshim needs,
# build it for Open MPI, for MPICH and for SimGrid's simulated MPI, SMPI
# (build-openmpi/, build-mpich/, build-smpi/; doc/scale.md), and run
# a short demo: an unmodified MPI program under LD_PRELOAD that shows which
# of the shim's algorithms ran and checks its own results.
#   ./quickstart.sh            install (needs root or sudo), build, demo
#   ./quickstart.sh --no-install
set -euo pipefail
cd "$(dirname "$0")"
PACKAGES="build-essential autoconf automake libtool pkg-config check gfortran
 openmpi-bin libopenmpi-dev mpich libmpich-dev libsimgrid-dev gnuplot-nox
 python3-mpi4py python3-numpy"
# The module files' test needs a module command: Environment Modules,
# unless Lmod is there (Debian installs one or the other).
dpkg -s lmod >/dev/null 2>&1 || PACKAGES="$PACKAGES environment-modules"

install_packages() {
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "== installing Debian packages"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
}

# Each flavour installs into install/ (both share it: collshim-run, the
# module files, libcollshim.so under install/lib/collshim/<flavour>/).
build_flavour() {
    local flavour=$1
    echo "== building for $flavour in build-$flavour/"
    mkdir -p "build-$flavour"
    (cd "build-$flavour" &&
        { [ -f Makefile ] || ../configure -q --with-mpi="$flavour" --prefix="$PWD/../install"; } &&
        make -j"$(nproc)" -s >/dev/null && make -j"$(nproc)" -s check TESTS= >/dev/null &&
        { [ "$flavour" = smpi ] || make -s install >/dev/null; })
}

# The demo: an unmodified program, started through collshim-run, which
# finds the program's MPI and preloads that flavour's build into its ranks.
demo() {
    local flavour=$1 np=$2 program
    program="build-$flavour/tests/mpi/plain_c"
    echo "== demo: unmodified program, $np ranks, $flavour: install/bin/collshim-run"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    if [ "$flavour" = openmpi ]; then
        COLLSHIM_VERBOSE=1 install/bin/collshim-run mpirun.openmpi --oversubscribe -np "$np" "$program"
    else
        COLLSHIM_VERBOSE=1 install/bin/collshim-run mpiexec.mpich -n "$np" "$program"
    fi
}

[ "${1:-}" = --no-install ] || install_packages
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
build_flavour openmpi
build_flavour mpich
build_flavour smpi
demo openmpi 4
demo mpich 2
echo "== done. Tests: make -C build-openmpi check && make -C build-mpich check && make -C build-smpi check"
