! fortran_nbc_f08.f90 - unmodified Fortran 2008 program (use mpi_f08) using
! only nonblocking collectives; run under LD_PRELOAD, it checks its own
! MPI_IALLREDUCE (small and large) and MPI_IBCAST results, completed with
! MPI_WAITALL and MPI_WAIT.
program fortran_nbc_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, i, bad, total
  type(MPI_Request) :: reqs(2), req
  double precision, asynchronous :: x(100), s(100), y(2000), t(2000)
  integer, asynchronous :: b(300)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  do i = 1, 100
    x(i) = rank + i
  end do
  do i = 1, 2000
    y(i) = 2 * rank + i
  end do
  b = -1
  if (rank == 0) then
    do i = 1, 300
      b(i) = 7 * i
    end do
  end if
  call MPI_Iallreduce(x, s, 100, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, reqs(1))
  call MPI_Ibcast(b, 300, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2))
  call MPI_Iallreduce(y, t, 2000, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  bad = 0
  do i = 1, 100
    if (s(i) /= nprocs * (nprocs - 1) / 2.0d0 + nprocs * i) bad = bad + 1
  end do
  do i = 1, 2000
    if (t(i) /= nprocs * (nprocs - 1) + dble(nprocs) * i) bad = bad + 1
  end do
  do i = 1, 300
    if (b(i) /= 7 * i) bad = bad + 1
  end do
  call MPI_Iallreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'fortran_nbc_f08: ok (np=', nprocs, ')'
    else
      print '(a,i0,a)', 'fortran_nbc_f08: WRONG RESULTS (', total, ' elements)'
    end if
  end if
  call MPI_Finalize()
end program fortran_nbc_f08
