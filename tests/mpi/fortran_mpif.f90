! fortran_mpif.f90 - unmodified Fortran program using mpif.h; run under
! LD_PRELOAD, it checks its own allreduce and bcast results.
program fortran_mpif
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, i, bad
  double precision :: x(100), s(100)
  integer :: b(8)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do i = 1, 100
    x(i) = rank + i
  end do
  call MPI_Allreduce(x, s, 100, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  bad = 0
  do i = 1, 100
    if (s(i) /= nprocs * (nprocs - 1) / 2.0d0 + nprocs * i) bad = bad + 1
  end do
  b = -1
  if (rank == 0) b = 7
  call MPI_Bcast(b, 8, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (any(b /= 7)) bad = bad + 1
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (bad == 0) then
      print '(a,i0,a)', 'fortran_mpif: ok (np=', nprocs, ')'
    else
      print '(a)', 'fortran_mpif: WRONG RESULTS'
    end if
  end if
  call MPI_Finalize(ierr)
end program fortran_mpif
