! The tracer's Fortran test: rank 0 sends 10 integers to rank 1 (tag 7), then an allreduce; 5 integers
! to rank 1 received from MPI_ANY_SOURCE (tag 8), and 3 back to rank 0 by an irecv from MPI_ANY_SOURCE
! completed with MPI_STATUS_IGNORE (tag 9).
program p
  use mpi
  integer :: ierr, rank, buf(10), request, status(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) call MPI_Send(buf, 10, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
  if (rank == 1) call MPI_Recv(buf, 10, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, buf, 10, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Send(buf, 5, MPI_INTEGER, 1, 8, MPI_COMM_WORLD, ierr)
    call MPI_Irecv(buf, 3, MPI_INTEGER, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, request, ierr)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  else if (rank == 1) then
    call MPI_Recv(buf, 5, MPI_INTEGER, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(buf, 3, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program
