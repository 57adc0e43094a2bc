#!/bin/bash
# collshim_run.sh - collshim-run as `make install` puts it into a prefix:
# real launches under this flavour's launcher of an unmodified C program
# (rank_report) and, on Open MPI, of an mpi4py script (named on the command
# line, and run through its #! line), each rank reporting that it runs this
# flavour's collshim with the COLLSHIM_* variables it was given; a profiler
# preloaded before collshim stays in front; the launcher itself gets
# neither LD_PRELOAD nor the COLLSHIM_* variables nor a child process;
# --dry-run in the syntax of each launcher (srun included) and of launchers
# found through links and copies; every refusal, with nothing run. With
# the other flavour's build side by side (../build-<other>), its programs
# are detected and run too.
# shellcheck source=tests/mpi/launch.sh
. "$TOP_SRCDIR/tests/mpi/launch.sh"
# shellcheck source=tests/launch/install.sh
. "$TOP_SRCDIR/tests/launch/install.sh"
# A launch of 2 or 3 ranks of rank_report takes about a second; 120 s
# allows for a machine loaded many times over.
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset_collshim_variables
unset LD_PRELOAD

other=mpich other_cc=mpicc.mpich other_launcher=mpiexec.mpich
[ "$FLAVOUR" = mpich ] && other=openmpi other_cc=mpicc.openmpi other_launcher=mpirun.openmpi
flavour_name() { if [ "$1" = openmpi ]; then echo "Open MPI"; else echo MPICH; fi; }
# The launcher of a flavour (this one's: make check's) and its option for
# the number of ranks.
launch_words() {
    local launcher=$2
    if [ "$1" = openmpi ]; then echo "${launcher:-mpirun.openmpi} --oversubscribe --bind-to none -np"
    else echo "${launcher:-mpiexec.mpich} -n"; fi
}
read -r -a launch <<<"$(launch_words "$FLAVOUR" "$MPIRUN")"
program=$TOP_BUILDDIR/tests/launch/rank_report
script=$TOP_SRCDIR/tests/launch/rank_report.py
marker='a,b=c d'

# --- install --------------------------------------------------------------
prefix=$tmp/prefix
run=$prefix/bin/collshim-run
library=$prefix/lib/collshim/$FLAVOUR/libcollshim.so
install_build "$TOP_BUILDDIR" "$prefix" "$tmp/install.log"
expect "make install prefix=DIR succeeds" test $? -eq 0 || { tail -20 "$tmp/install.log"; finish collshim_run; exit; }
expect "collshim-run is installed in bin/" test -x "$run"
expect "the library is installed in lib/collshim/$FLAVOUR/" test -f "$library"
expect "collbench and colltune are installed in libexec/collshim/$FLAVOUR/" \
    test -x "$prefix/libexec/collshim/$FLAVOUR/collbench" -a -x "$prefix/libexec/collshim/$FLAVOUR/colltune"
expect "no flavour's program is installed in bin/" \
    test ! -e "$prefix/bin/collbench" -a ! -e "$prefix/bin/colltune"

# --- helpers --------------------------------------------------------------
# collshim-run ARGS: stdout in $tmp/out, stderr in $tmp/err, status in $status.
collshim_run() {
    rm -f "$tmp/launched.args" "$tmp/launched.env" "$tmp/launched.children"
    timeout "$LAUNCH_TIMEOUT" "$run" "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
}

# Every rank of NP says TEXT (rank_report's line).
ranks_say() {
    local np=$1 text=$2 rank
    for ((rank = 0; rank < np; rank++)); do
        grep "^rank $rank of $np: " "$tmp/out" | grep -qF -- "$text" ||
            { echo "     rank $rank of $np does not say: $text"; return 1; }
    done
}

# A real launch of NP ranks: each runs FLAVOUR's collshim, which ran the
# algorithm COLLSHIM_TUNE forces, with the marker and LD_PRELOAD it was given.
check_launch() {
    local label=$1 np=$2 flavour=$3 preload=$4
    expect "$label: exits 0" test "$status" -eq 0 || { cat "$tmp/out" "$tmp/err"; return; }
    expect "$label: every rank runs collshim's $flavour build, and COLLSHIM_TUNE reached it" \
        ranks_say "$np" "collshim=$flavour allreduce=reduce_bcast sum=right"
    expect "$label: every rank got COLLSHIM_RUN_TEST='$marker'" ranks_say "$np" "COLLSHIM_RUN_TEST=[$marker]"
    expect "$label: every rank's LD_PRELOAD is $preload" ranks_say "$np" "LD_PRELOAD=[$preload]"
}

# A refusal: status 2, MESSAGE on stderr, nothing launched.
check_refusal() {
    local label=$1 message=$2
    expect "refuses $label: exit status 2 (it is $status)" test "$status" -eq 2
    expect "refuses $label: says so" grep -qF -- "$message" "$tmp/err" ||
        { echo "     stderr: $(cat "$tmp/err")"; echo "     wanted: $message"; }
    expect "refuses $label: runs nothing" test ! -e "$tmp/launched.args" -a ! -s "$tmp/out"
}

# The dry run's command is exactly WANT, and it has nothing to say.
check_dry_run() {
    local label=$1 want=$2
    expect "--dry-run $label: $want" test "$status" -eq 0 -a ! -s "$tmp/err" -a "$(cat "$tmp/out")" = "$want" ||
        echo "     got: $(cat "$tmp/out" "$tmp/err")"
}

# Launchers that record their arguments, their environment and the
# children collshim-run left them, and run nothing (fake_launcher.c), named
# as each MPI names its own.
mkdir -p "$tmp/fake"
gcc -DRECORD_DIR="\"$tmp\"" -o "$tmp/fake/orterun" "$TOP_SRCDIR/tests/launch/fake_launcher.c" ||
    { FAILED=$((FAILED + 1)); echo "FAIL building fake_launcher.c"; finish collshim_run; exit; }
cp "$tmp/fake/orterun" "$tmp/fake/mpiexec.hydra"
cp "$tmp/fake/orterun" "$tmp/fake/srun"
fake_launcher=$tmp/fake/orterun fake_other=$tmp/fake/mpiexec.hydra
[ "$FLAVOUR" = mpich ] && fake_launcher=$tmp/fake/mpiexec.hydra fake_other=$tmp/fake/orterun

# The other flavour's rank_report, if its compiler is here.
other_program=""
if command -v "$other_cc" >/dev/null &&
    "$other_cc" -o "$tmp/rank_report_$other" "$TOP_SRCDIR/tests/launch/rank_report.c" -ldl; then
    other_program=$tmp/rank_report_$other
else
    echo "skip the other MPI's program: $other_cc not found"
fi

# --- real launches ----------------------------------------------------------
echo "== $FLAVOUR: the installed collshim-run, ${launch[0]}"
COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker collshim_run "${launch[@]}" 3 "$program"
check_launch "C program, 3 ranks" 3 "$FLAVOUR" "$library"

# A PMPI profiler preloaded before collshim keeps seeing the calls first.
if "$MPICC" -shared -fPIC -o "$tmp/libfront_profiler.so" "$TOP_SRCDIR/tests/launch/front_profiler.c"; then
    LD_PRELOAD=$tmp/libfront_profiler.so COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker \
        collshim_run "${launch[@]}" 2 "$program"
    check_launch "under a profiler" 2 "$FLAVOUR" "$tmp/libfront_profiler.so:$library"
    expect "under a profiler: the profiler saw every rank's MPI_Allreduce" \
        test "$(grep -c '^front_profiler: rank [01] saw MPI_Allreduce' "$tmp/out")" -eq 2
else
    FAILED=$((FAILED + 1)); echo "FAIL building front_profiler.c"
fi

# mpi4py: Debian's is built for Open MPI; /usr/bin/python3 is Debian's.
python=/usr/bin/python3
if ! "$python" -c 'import mpi4py' 2>/dev/null; then
    echo "skip mpi4py: $python has no mpi4py (python3-mpi4py, built for Open MPI)"
elif [ "$FLAVOUR" = openmpi ]; then
    mkdir -p "$tmp/pybin"
    ln -s "$python" "$tmp/pybin/python3" # what `#!/usr/bin/env python3` runs
    cp "$script" "$tmp/env_line.py"
    sed "1s|.*|#!$python|" "$script" >"$tmp/path_line.py"
    chmod +x "$tmp/env_line.py" "$tmp/path_line.py"
    COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker \
        collshim_run "${launch[@]}" 2 "$python" "$script"
    check_launch "python3 script.py" 2 openmpi "$library"
    PATH=$tmp/pybin:$PATH COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker \
        collshim_run "${launch[@]}" 2 "$tmp/env_line.py"
    check_launch "a script of #!/usr/bin/env python3" 2 openmpi "$library"
    COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker \
        collshim_run "${launch[@]}" 2 "$tmp/path_line.py"
    check_launch "a script of #!$python" 2 openmpi "$library"
else
    collshim_run "$fake_launcher" -n 2 "$python" "$script"
    check_refusal "mpi4py (Open MPI's) under MPICH's launcher" \
        "is MPICH's launcher, but $python's mpi4py ("
fi

# --- the launcher gets neither LD_PRELOAD nor the COLLSHIM_* variables -------
COLLSHIM_RUN_TEST=$marker COLLSHIM_VERBOSE=1 collshim_run "$fake_launcher" -n 2 "$program"
expect "the launcher's environment has no LD_PRELOAD" \
    test -e "$tmp/launched.env" -a -z "$(grep '^LD_PRELOAD=' "$tmp/launched.env" 2>/dev/null)"
expect "the launcher's environment has no COLLSHIM_* variable" \
    test -e "$tmp/launched.env" -a -z "$(grep '^COLLSHIM_' "$tmp/launched.env" 2>/dev/null)"
expect "the launcher inherits no child of collshim-run's (Hydra takes one for a rank)" \
    test -e "$tmp/launched.children" -a ! -s "$tmp/launched.children" ||
    echo "     children: $(cat "$tmp/launched.children")"
# srun takes a value with a comma from its own environment, by name.
COLLSHIM_RUN_TEST=$marker COLLSHIM_VERBOSE=1 collshim_run "$tmp/fake/srun" -n 2 "$program"
expect "srun: its arguments pass LD_PRELOAD, the comma's variable by name, the other with its value" \
    test "$(head -1 "$tmp/launched.args" 2>/dev/null)" = \
    "--export=ALL,LD_PRELOAD=$library,COLLSHIM_RUN_TEST,COLLSHIM_VERBOSE=1"
expect "srun: its environment keeps the variable passed by name, and only it" \
    test "$(grep '^COLLSHIM_\|^LD_PRELOAD=' "$tmp/launched.env" 2>/dev/null)" = "COLLSHIM_RUN_TEST=$marker"

# --- --dry-run: each launcher's syntax -------------------------------------
fake_libraries=$tmp/libraries
mkdir -p "$fake_libraries/openmpi" "$fake_libraries/mpich"
touch "$fake_libraries/openmpi/libcollshim.so" "$fake_libraries/mpich/libcollshim.so"
export COLLSHIM_LIBDIR=$fake_libraries
openmpi_library=$fake_libraries/openmpi/libcollshim.so mpich_library=$fake_libraries/mpich/libcollshim.so
# A dynamic program linking no MPI, for --flavour.
no_mpi=$(type -P true)

COLLSHIM_RUN_TEST=$marker COLLSHIM_VERBOSE=1 collshim_run --dry-run --flavour openmpi mpirun.openmpi \
    --mca btl self,vader -x FOO=1 -H localhost --map-by core -gmca a b -np 2 "$no_mpi" -np 5 --mca x
check_dry_run "Open MPI" "mpirun.openmpi -x LD_PRELOAD=$openmpi_library -x 'COLLSHIM_RUN_TEST=$marker' \
-x COLLSHIM_VERBOSE=1 --mca btl self,vader -x FOO=1 -H localhost --map-by core -gmca a b -np 2 $no_mpi -np 5 --mca x"
COLLSHIM_RUN_TEST=$marker COLLSHIM_VERBOSE=1 collshim_run --dry-run --flavour mpich mpiexec.mpich \
    -genv A B -genv C=D -env E F -hosts localhost -ppn 2 -n 2 "$no_mpi" -n 3
check_dry_run "MPICH (Hydra)" "mpiexec.mpich -genv LD_PRELOAD $mpich_library -genv COLLSHIM_RUN_TEST \
'$marker' -genv COLLSHIM_VERBOSE 1 -genv A B -genv C=D -env E F -hosts localhost -ppn 2 -n 2 $no_mpi -n 3"
COLLSHIM_RUN_TEST=$marker COLLSHIM_VERBOSE=1 collshim_run --dry-run --flavour mpich srun \
    -n 2 -N1 --mpi=pmi2 -p debug --ntasks-per-node 2 "$no_mpi" -p x
check_dry_run "srun" "srun --export=ALL,LD_PRELOAD=$mpich_library,COLLSHIM_RUN_TEST,COLLSHIM_VERBOSE=1 \
-n 2 -N1 --mpi=pmi2 -p debug --ntasks-per-node 2 $no_mpi -p x"
COLLSHIM_VERBOSE=1 collshim_run --dry-run --flavour openmpi srun --export=NONE -n 2 "$no_mpi"
check_dry_run "srun --export=NONE" "srun --export=LD_PRELOAD=$openmpi_library,COLLSHIM_VERBOSE=1 -n 2 $no_mpi"
COLLSHIM_VERBOSE=1 collshim_run --dry-run --flavour openmpi srun --export ALL,FOO=1 -n 2 "$no_mpi"
check_dry_run "srun --export LIST" \
    "srun --export=ALL,FOO=1,LD_PRELOAD=$openmpi_library,COLLSHIM_VERBOSE=1 -n 2 $no_mpi"
collshim_run --dry-run --flavour openmpi srun -n 2 -- "$no_mpi" -n 3
check_dry_run "srun -- PROGRAM" "srun --export=ALL,LD_PRELOAD=$openmpi_library -n 2 -- $no_mpi -n 3"
# This flavour's syntax, for LD_PRELOAD=VALUE.
preload_words() {
    if [ "$FLAVOUR" = openmpi ]; then echo "-x LD_PRELOAD=$1"; else echo "-genv LD_PRELOAD $1"; fi
}
COLLSHIM_TUNE=$'allreduce @ring\nbcast @binomial' collshim_run --dry-run "${launch[0]}" -n 2 "$program"
if [ "$FLAVOUR" = openmpi ]; then tune_words="-x \$'COLLSHIM_TUNE=allreduce @ring\\nbcast @binomial'"
else tune_words="-genv COLLSHIM_TUNE \$'allreduce @ring\\nbcast @binomial'"; fi
check_dry_run "a value of two lines" \
    "${launch[0]} $(preload_words "$fake_libraries/$FLAVOUR/libcollshim.so") $tune_words -n 2 $program"

# A profiler in LD_PRELOAD stays in front, and the program's MPI is told
# from its own libraries, not from the profiler's.
if [ -f "$tmp/libfront_profiler.so" ]; then
    LD_PRELOAD=$tmp/libfront_profiler.so collshim_run --dry-run "$fake_launcher" -n 2 "$program"
    check_dry_run "a profiler in LD_PRELOAD stays in front" "$fake_launcher \
$(preload_words "$tmp/libfront_profiler.so:$fake_libraries/$FLAVOUR/libcollshim.so") -n 2 $program"
    expect "--dry-run runs nothing" test ! -e "$tmp/launched.args"
    LD_PRELOAD=$tmp/libfront_profiler.so collshim_run --dry-run "$fake_launcher" -n 2 "$no_mpi"
    expect "a program of no MPI under a $FLAVOUR profiler in LD_PRELOAD has no MPI" \
        grep -qF "no MPI among the dependencies of $no_mpi" "$tmp/err"
    if [ -n "$other_program" ]; then
        LD_PRELOAD=$tmp/libfront_profiler.so collshim_run --dry-run "$fake_other" -n 2 "$other_program"
        expect "a $other program under a $FLAVOUR profiler in LD_PRELOAD is $other's" \
            grep -qF "$fake_libraries/$other/libcollshim.so" "$tmp/out"
    fi
fi

# --- the launcher's MPI, through links, copies and what it says of itself ---
mkdir -p "$tmp/links" "$tmp/copies"
# Open MPI's under the name mpiexec, MPICH's under mpirun: a link to it, and
# a copy (Open MPI's links its runtime; Hydra says what it is).
for mpi in openmpi mpich; do
    if [ "$mpi" = openmpi ]; then launcher=mpirun.openmpi generic=mpiexec syntax="-x LD_PRELOAD="
    else launcher=mpiexec.mpich generic=mpirun syntax="-genv LD_PRELOAD "; fi
    mpi_program=$program
    [ "$mpi" = "$FLAVOUR" ] || mpi_program=$other_program
    if ! command -v "$launcher" >/dev/null || [ -z "$mpi_program" ]; then
        echo "skip $(flavour_name "$mpi")'s launcher by other names: needs $launcher and a program"
        continue
    fi
    ln -sfn "$(command -v "$launcher")" "$tmp/links/$generic"
    cp "$(readlink -f "$(command -v "$launcher")")" "$tmp/copies/$generic"
    for how in links copies; do
        collshim_run --dry-run "$tmp/$how/$generic" -n 2 "$mpi_program"
        expect "a $generic that is $(flavour_name "$mpi")'s (through $how) gets $syntax" \
            grep -qF -- "$tmp/$how/$generic $syntax$fake_libraries/$mpi/" "$tmp/out"
    done
done
# Links named mpirun to launchers known by their names alone (the fakes,
# whose libraries and --version say nothing).
for mpi in openmpi mpich; do
    if [ "$mpi" = openmpi ]; then target=orterun syntax="-x LD_PRELOAD="; else target=mpiexec.hydra syntax="-genv LD_PRELOAD "; fi
    mpi_program=$program
    [ "$mpi" = "$FLAVOUR" ] || mpi_program=$other_program
    [ -n "$mpi_program" ] || continue
    ln -sfn "$tmp/fake/$target" "$tmp/links/mpirun"
    collshim_run --dry-run "$tmp/links/mpirun" -n 2 "$mpi_program"
    expect "a link named mpirun to $target is $(flavour_name "$mpi")'s" \
        grep -qF -- "$tmp/links/mpirun $syntax$fake_libraries/$mpi/" "$tmp/out"
done
ln -sfn "$no_mpi" "$tmp/links/mpiexec"
collshim_run --dry-run "$tmp/links/mpiexec" -n 2 "$program"
check_refusal "a launcher of no known MPI" \
    "cannot tell which MPI launcher '$tmp/links/mpiexec' ($(readlink -f "$no_mpi")) belongs to; name it with --flavour"

# --- refusals -----------------------------------------------------------------
printf 'int main(void) { return 0; }\n' >"$tmp/static.c"
if gcc -static -o "$tmp/static" "$tmp/static.c" 2>/dev/null; then
    collshim_run "$fake_launcher" -n 2 "$tmp/static"
    check_refusal "a static program" "$tmp/static is statically linked: LD_PRELOAD cannot load collshim into it"
else
    echo "skip the static program: gcc -static fails (no static libc)"
fi
mkdir -p "$tmp/empty"
COLLSHIM_LIBDIR=$tmp/empty collshim_run "$fake_launcher" -n 2 "$program"
check_refusal "an MPI with no build" \
    "no collshim build for $(flavour_name "$FLAVOUR"): $tmp/empty/$FLAVOUR/libcollshim.so does not exist"
collshim_run aprun -n 2 "$program"
check_refusal "an unknown launcher" "unknown launcher 'aprun'; collshim-run knows mpirun, mpiexec, orterun"
collshim_run "$fake_launcher" -n 2 "$tmp/no-such-program"
check_refusal "a program that is not there" "program '$tmp/no-such-program' not found: no such file"
collshim_run "$fake_launcher" -n 2 no-such-program-on-path
check_refusal "a program not on PATH" "program 'no-such-program-on-path' not found on PATH"
collshim_run "$fake_launcher" -n 2 "$no_mpi"
check_refusal "a program of no MPI" "no MPI among the dependencies of $no_mpi: ldd lists neither"
collshim_run "$fake_launcher" -n 2
check_refusal "no program" "no program among the arguments of $fake_launcher: -n 2"
collshim_run "$fake_other" -n 2 "$program"
check_refusal "this MPI's program under the other MPI's launcher" \
    "$fake_other is $(flavour_name "$other")'s launcher, but $program is for $(flavour_name "$FLAVOUR")"
if [ -n "$other_program" ]; then
    collshim_run "$fake_launcher" -n 2 "$other_program"
    check_refusal "the other MPI's program under this MPI's launcher" \
        "$fake_launcher is $(flavour_name "$FLAVOUR")'s launcher, but $other_program is for $(flavour_name "$other")"
fi
collshim_run --flavour "$other" "$fake_launcher" -n 2 "$program"
check_refusal "--flavour of the other MPI under this MPI's launcher" \
    "$fake_launcher is $(flavour_name "$FLAVOUR")'s launcher, but --flavour $other is for $(flavour_name "$other")"
collshim_run --flavour smpi "$fake_launcher" -n 2 "$program"
check_refusal "--flavour smpi" "--flavour smpi: SimGrid's SMPI ignores LD_PRELOAD"
LD_PRELOAD=$library collshim_run "$fake_launcher" -n 2 "$program"
check_refusal "a libcollshim.so already in LD_PRELOAD" "LD_PRELOAD already holds a libcollshim.so"
if ! command -v srun >/dev/null; then
    collshim_run srun -n 2 "$program"
    check_refusal "srun where there is none (without --dry-run)" "launcher 'srun' not found"
fi
if "$python" -c 'import mpi4py' 2>/dev/null; then
    # A Python without its site packages: no mpi4py.
    printf '#!/bin/sh\nexec %q -S "$@"\n' "$python" >"$tmp/pybin-bare"
    mkdir -p "$tmp/bare" && mv "$tmp/pybin-bare" "$tmp/bare/python3" && chmod +x "$tmp/bare/python3"
    collshim_run "$fake_launcher" -n 2 "$tmp/bare/python3" "$script"
    check_refusal "a Python without mpi4py" "$tmp/bare/python3 finds no mpi4py"
fi

# --- the other flavour's build, side by side ---------------------------------
other_build=${OTHER_BUILDDIR:-$(dirname "$TOP_BUILDDIR")/build-$other}
if [ -n "$other_program" ] && [ -f "$other_build/.libs/libcollshim.so" ] && command -v "$other_launcher" >/dev/null; then
    echo "== $other: its build in $other_build"
    mkdir -p "$tmp/builds"
    ln -s "$TOP_BUILDDIR/.libs" "$tmp/builds/$FLAVOUR"
    ln -s "$other_build/.libs" "$tmp/builds/$other"
    read -r -a other_launch <<<"$(launch_words "$other")"
    COLLSHIM_LIBDIR=$tmp/builds COLLSHIM_TUNE='allreduce @reduce_bcast' COLLSHIM_RUN_TEST=$marker \
        collshim_run "${other_launch[@]}" 2 "$other_program"
    check_launch "the $other program, COLLSHIM_LIBDIR holding both builds" 2 "$other" \
        "$tmp/builds/$other/libcollshim.so"
else
    echo "skip the other flavour's launch: needs $other_cc, $other_launcher and $other_build/.libs/libcollshim.so"
fi
finish collshim_run
