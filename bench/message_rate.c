/* Message-rate benchmark for the tracer's overhead: rank 0 and 1 exchange N 8-byte messages
 * (ping-pong); prints microseconds per round trip. Compare a plain run with one under
 * LD_PRELOAD=build/libmapsim-trace.so (bench/tracer_overhead.sh does both). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = argc > 1 ? atoi(argv[1]) : 100000;
  char buf[8] = {0};
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) printf("%.3f us per round trip\n", 1e6 * elapsed / rounds);
  MPI_Finalize();
  return 0;
}
