#!/usr/bin/env python3
"""rank_report.py - rank_report.c for mpi4py: one line per rank with the
collshim build loaded into it, the algorithm its allreduce ran,
COLLSHIM_RUN_TEST and LD_PRELOAD (tests/launch/collshim_run.sh)."""
import ctypes
import os
from array import array

from mpi4py import MPI


def call_text(library, symbol):
    if not hasattr(library, symbol):
        return "absent"
    function = getattr(library, symbol)
    function.restype = ctypes.c_char_p
    return function().decode()


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    total = array("i", [0])
    comm.Allreduce([array("i", [rank]), MPI.INT], [total, MPI.INT], op=MPI.SUM)
    process = ctypes.CDLL(None)
    line = (f"rank {rank} of {size}: collshim={call_text(process, 'collshim_flavour')} "
            f"allreduce={call_text(process, 'collshim_last_algorithm')} "
            f"sum={'right' if total[0] == size * (size - 1) // 2 else 'wrong'} "
            f"COLLSHIM_RUN_TEST=[{os.environ.get('COLLSHIM_RUN_TEST', '(unset)')}] "
            f"LD_PRELOAD=[{os.environ.get('LD_PRELOAD', '(unset)')}]\n")
    # One write: print's text and newline can reach the launcher apart,
    # and another rank's line between them.
    os.write(1, line.encode())


main()
