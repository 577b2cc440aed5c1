! The tracer's Fortran test: rank 0 sends 10 integers to rank 1 (tag 7), then an allreduce.
program p
  use mpi
  integer :: ierr, rank, buf(10)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) call MPI_Send(buf, 10, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
  if (rank == 1) call MPI_Recv(buf, 10, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, buf, 10, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program
