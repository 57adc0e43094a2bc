#!/bin/bash
. "$TOP_SRCDIR/tests/mpi/launch.sh"
finish lifecycle
