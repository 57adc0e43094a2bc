#!/bin/bash
# modulefile.sh - the module file of this flavour, installed with collshim
# into a prefix of the test's own and loaded by the machine's `module`
# command (Environment Modules or Lmod) in a bash of its own: collshim-run,
# collbench, colltune, colltune-export, collmodel, collbench-plot and collshim-report-plot on PATH,
# COLLSHIM_PRELOAD and PKG_CONFIG_PATH set, collshim-run finding this build;
# unloaded, all of it gone. With the other flavour's build side by side
# (../build-<other>), both install into the one prefix: each module gives
# its own collbench, and the two are never on PATH together.
# shellcheck source=tests/mpi/launch.sh
. "$TOP_SRCDIR/tests/mpi/launch.sh"
# shellcheck source=tests/launch/install.sh
. "$TOP_SRCDIR/tests/launch/install.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset_collshim_variables

# The module command's bash start-up file: MODULES_INIT, else where
# Debian's environment-modules and lmod put theirs.
module_init=""
for init in ${MODULES_INIT:-} /usr/share/modules/init/bash /usr/share/lmod/lmod/init/bash \
    ${MODULESHOME:+"$MODULESHOME/init/bash"}; do
    [ -f "$init" ] && { module_init=$init; break; }
done
if [ -z "$module_init" ]; then
    echo "skip: no module command (apt-get install environment-modules or lmod, or set MODULES_INIT to its init/bash)"
    finish modulefile
    exit 0
fi
echo "== module command: $module_init"

prefix=$tmp/prefix
flavours=("$FLAVOUR")
install_build "$TOP_BUILDDIR" "$prefix" "$tmp/install.log"
expect "make install prefix=DIR succeeds" test $? -eq 0 || { tail -20 "$tmp/install.log"; finish modulefile; exit; }
other=mpich
[ "$FLAVOUR" = mpich ] && other=openmpi
other_build=${OTHER_BUILDDIR:-$(dirname "$TOP_BUILDDIR")/build-$other}
if [ -f "$other_build/.libs/libcollshim.so" ]; then
    install_build "$other_build" "$prefix" "$tmp/install-other.log"
    expect "the $other build installs into the same prefix" test $? -eq 0 || tail -20 "$tmp/install-other.log"
    flavours+=("$other")
else
    echo "skip the $other module: no build in $other_build"
fi
expect "a module file per flavour in share/collshim/modulefiles/collshim/" \
    test "$(cd "$prefix/share/collshim/modulefiles/collshim" && echo *)" = "$(printf '%s\n' "${flavours[@]}" | sort | xargs)"

# Runs COMMANDS in a bash with the module command and the prefix's module
# files, from an environment of nothing else; the output in $tmp/out.
module_shell() {
    env -i HOME="$HOME" PATH=/usr/bin:/bin LANG=C bash --noprofile --norc -c \
        ". '$module_init' && module use '$prefix/share/collshim/modulefiles' && $1" >"$tmp/out" 2>&1
}

for flavour in "${flavours[@]}"; do
    bin=$prefix/libexec/collshim/$flavour
    library=$prefix/lib/collshim/$flavour/libcollshim.so
    if [ "$flavour" = openmpi ]; then launcher="mpirun.openmpi -np" preload="-x LD_PRELOAD=$library"
    else launcher="mpiexec.mpich -n" preload="-genv LD_PRELOAD $library"; fi
    module_shell "module load collshim/$flavour &&
        command -v collshim-run collbench colltune colltune-export collmodel collbench-plot collshim-report-plot &&
        collshim-report-plot -h > /dev/null && echo the report plot runs &&
        echo COLLSHIM_PRELOAD=\$COLLSHIM_PRELOAD && echo PKG_CONFIG_PATH=\$PKG_CONFIG_PATH &&
        collshim-run --dry-run --flavour $flavour $launcher 2 /bin/true && module unload collshim/$flavour &&
        echo unloaded && { command -v collbench collshim-run; echo COLLSHIM_PRELOAD=\${COLLSHIM_PRELOAD-unset}; }"
    expect "collshim/$flavour: loads" grep -q "^$bin/collbench$" "$tmp/out" || cat "$tmp/out"
    expect "collshim/$flavour: collshim-run on PATH" grep -Fxq "$prefix/bin/collshim-run" "$tmp/out"
    expect "collshim/$flavour: collbench-plot on PATH" grep -Fxq "$prefix/bin/collbench-plot" "$tmp/out"
    expect "collshim/$flavour: collshim-report-plot on PATH, with what it sources" \
        grep -Fxq "the report plot runs" "$tmp/out"
    expect "collshim/$flavour: this flavour's colltune on PATH" grep -Fxq "$bin/colltune" "$tmp/out"
    expect "collshim/$flavour: this flavour's colltune-export on PATH" \
        grep -Fxq "$bin/colltune-export" "$tmp/out"
    expect "collshim/$flavour: this flavour's collmodel on PATH" grep -Fxq "$bin/collmodel" "$tmp/out"
    expect "collshim/$flavour: COLLSHIM_PRELOAD is the library" grep -Fxq "COLLSHIM_PRELOAD=$library" "$tmp/out"
    expect "collshim/$flavour: PKG_CONFIG_PATH has the prefix's" \
        grep -q "^PKG_CONFIG_PATH=$prefix/lib/pkgconfig" "$tmp/out"
    expect "collshim/$flavour: collshim-run finds the build of the prefix" \
        grep -Fxq "${launcher% *} $preload ${launcher#* } 2 /bin/true" "$tmp/out"
    expect "collshim/$flavour: unloaded, nothing of it is left" \
        test "$(sed -n '/^unloaded$/,$p' "$tmp/out" | grep -cF "$prefix")" -eq 0 -a \
        "$(tail -1 "$tmp/out")" = COLLSHIM_PRELOAD=unset
    module_shell "module whatis collshim/$flavour"
    expect "collshim/$flavour: module whatis says what it is" \
        grep -q "MPI collectives preloaded under unmodified $([ "$flavour" = openmpi ] && echo "Open MPI" || echo MPICH) programs" "$tmp/out"
done

if [ "${#flavours[@]}" -eq 2 ]; then
    expect "each flavour has its own collbench" \
        test -n "$(env -u LD_PRELOAD ldd "$prefix/libexec/collshim/openmpi/collbench" | grep libmpi.so.40)" -a \
        -n "$(env -u LD_PRELOAD ldd "$prefix/libexec/collshim/mpich/collbench" | grep libmpich.so.12)"
    module_shell "module load collshim/$FLAVOUR; module load collshim/$other; echo \"PATH=\$PATH\""
    expect "loading both: never both flavours' programs on PATH" \
        test "$(grep '^PATH=' "$tmp/out" | grep -c "libexec/collshim/$FLAVOUR.*libexec/collshim/$other\|libexec/collshim/$other.*libexec/collshim/$FLAVOUR")" -eq 0 -a \
        -n "$(grep '^PATH=' "$tmp/out")"
fi
finish modulefile
