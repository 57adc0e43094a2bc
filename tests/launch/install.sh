# shellcheck shell=bash
# install.sh - sourced by the tests of tests/launch/ (bash): `make install`
# of a build directory into a prefix of the test's own, the way a user
# installs it.
#   install_build BUILDDIR PREFIX LOG
install_build() {
    # The make running the tests hands down its job server and variables
    # (TESTS=...): this install is a make of its own.
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$1" install prefix="$2" >"$3" 2>&1
}

# Unset every COLLSHIM_* variable of the environment: the tests say which
# ones the ranks get.
unset_collshim_variables() {
    local name
    while read -r name; do unset "$name"; done < <(compgen -e | grep '^COLLSHIM_')
}
