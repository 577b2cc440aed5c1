/* An MPI program for the tracer's test: point-to-point (blocking, nonblocking, sendrecv, any-source
 * receive), collectives on MPI_COMM_WORLD, and a sub-communicator (point-to-point and collectives translated to
 * world ranks; its collective is reported as not recordable). Its expected traffic, per rank r of
 * N: 1000 B to r+1 (ring, tag 1), 2000 B to r-1 and r+1 (isend, tag 2), 3000 B to r^1 (sendrecv,
 * tag 3), 4000 B from every odd rank to rank 0 (any-source recv, tag 4), 5000 B to the next rank of
 * the same parity within the sub-communicator (tag 5); and the completion calls and send modes
 * below (tags 6-10). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* buf = calloc(1, 1 << 20);
  char* other = calloc(1, 1 << 20);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  if (rank == 0) {
    MPI_Send(buf, 1000, MPI_BYTE, next, 1, MPI_COMM_WORLD);
    MPI_Recv(other, 1000, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(other, 1000, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 1000, MPI_BYTE, next, 1, MPI_COMM_WORLD);
  }

  MPI_Request requests[4];
  MPI_Irecv(other, 500, MPI_INT, prev, 2, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(other + 2000, 500, MPI_INT, next, 2, MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(buf, 500, MPI_INT, next, 2, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(buf, 500, MPI_INT, prev, 2, MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);

  MPI_Sendrecv(buf, 375, MPI_DOUBLE, rank ^ 1, 3, other, 375, MPI_DOUBLE, rank ^ 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  if (rank == 0) {
    for (int i = 1; i < size; i += 2) MPI_Recv(other, 4000, MPI_BYTE, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank % 2 == 1) {
    MPI_Send(buf, 4000, MPI_BYTE, 0, 4, MPI_COMM_WORLD);
  }

  MPI_Bcast(buf, 100, MPI_BYTE, 0, MPI_COMM_WORLD);
  double value = rank, sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Alltoall(buf, 10, MPI_BYTE, other, 10, MPI_BYTE, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  /* v-collectives: rank r and rank i exchange r + i + 1 bytes; rank i contributes i + 1 bytes */
  int pair[64], own[64], displs[64];
  for (int i = 0; i < size; ++i) pair[i] = rank + i + 1, own[i] = i + 1, displs[i] = 64 * i;
  MPI_Alltoallv(buf, pair, displs, MPI_BYTE, other, pair, displs, MPI_BYTE, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, rank + 1, MPI_BYTE, other, own, displs, MPI_BYTE, MPI_COMM_WORLD);
  MPI_Gatherv(buf, rank + 1, MPI_BYTE, other, own, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(buf, own, displs, MPI_BYTE, other, rank + 1, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Reduce_scatter(buf, other, own, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  MPI_Scan(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  MPI_Comm parity;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
  int prank, psize;
  MPI_Comm_rank(parity, &prank);
  MPI_Comm_size(parity, &psize);
  MPI_Request r2[2];
  MPI_Irecv(other, 5000, MPI_BYTE, (prank + psize - 1) % psize, 5, parity, &r2[0]);
  MPI_Isend(buf, 5000, MPI_BYTE, (prank + 1) % psize, 5, parity, &r2[1]);
  MPI_Waitall(2, r2, MPI_STATUSES_IGNORE);
  /* Collectives on a sub-communicator: written as the messages of mapsim's algorithms in world ranks
   * (barrier: dissemination, 0 bytes to prank + 1 and + 2; allreduce of 800 B: recursive doubling,
   * prank ^ 1 then prank ^ 2). */
  MPI_Barrier(parity);
  MPI_Allreduce(buf, other, 800, MPI_BYTE, MPI_BOR, parity);
  MPI_Comm_free(&parity);

  /* Completion calls, each to r+1: 600 B (tag 6) by Waitany then Waitsome, 700 B (tag 7) by Testany
   * then Testall, 800 B (tag 8) by Testsome; send modes: Issend 900 B to r+1 (tag 9),
   * Sendrecv_replace 1000 B with r^1 (tag 10); Reduce_scatter_block. Not recordable, counted: a
   * persistent pair (tag 11, Startall), an Ibcast; their waits are requests the tracer did not make. */
  MPI_Request q[2];
  int index, flag, done, indices[2];
  MPI_Irecv(other, 600, MPI_BYTE, prev, 6, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, 600, MPI_BYTE, next, 6, MPI_COMM_WORLD, &q[1]);
  MPI_Waitany(2, q, &index, MPI_STATUS_IGNORE);
  MPI_Waitsome(2, q, &done, indices, MPI_STATUSES_IGNORE);
  MPI_Irecv(other, 700, MPI_BYTE, prev, 7, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, 700, MPI_BYTE, next, 7, MPI_COMM_WORLD, &q[1]);
  for (flag = 0; !flag;) MPI_Testany(2, q, &index, &flag, MPI_STATUS_IGNORE);
  for (flag = 0; !flag;) MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
  MPI_Irecv(other, 800, MPI_BYTE, prev, 8, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, 800, MPI_BYTE, next, 8, MPI_COMM_WORLD, &q[1]);
  for (int left = 2; left > 0;) {
    MPI_Testsome(2, q, &done, indices, MPI_STATUSES_IGNORE);
    if (done != MPI_UNDEFINED) left -= done;
  }
  MPI_Issend(buf, 900, MPI_BYTE, next, 9, MPI_COMM_WORLD, &q[0]);
  MPI_Recv(other, 900, MPI_BYTE, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(buf, 1000, MPI_BYTE, rank ^ 1, 10, rank ^ 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Reduce_scatter_block(buf, other, 8, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  MPI_Request persistent[2];
  MPI_Send_init(buf, 1100, MPI_BYTE, next, 11, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(other, 1100, MPI_BYTE, prev, 11, MPI_COMM_WORLD, &persistent[1]);
  MPI_Startall(2, persistent);
  MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  MPI_Ibcast(buf, 10, MPI_BYTE, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  /* An irecv from MPI_ANY_SOURCE (1200 B from r-1, tag 12), completed with MPI_STATUS_IGNORE: recorded
   * as a recv from the rank that sent, where the wait returns. */
  MPI_Irecv(other, 1200, MPI_BYTE, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &q[0]);
  MPI_Send(buf, 1200, MPI_BYTE, next, 12, MPI_COMM_WORLD);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  /* One-sided: counted in skipped.txt, not recorded. */
  MPI_Win win;
  MPI_Win_create(other, 100, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(buf, 10, MPI_BYTE, next, 0, 10, MPI_BYTE, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  /* MPI_PROC_NULL moves nothing: none of these is written, and their waits are not unknown requests. */
  MPI_Send(buf, 100, MPI_BYTE, MPI_PROC_NULL, 13, MPI_COMM_WORLD);
  MPI_Recv(other, 100, MPI_BYTE, MPI_PROC_NULL, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Irecv(other, 100, MPI_BYTE, MPI_PROC_NULL, 13, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, 100, MPI_BYTE, MPI_PROC_NULL, 13, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(buf, 100, MPI_BYTE, MPI_PROC_NULL, 13, other, 100, MPI_BYTE, MPI_PROC_NULL, 13, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);

  free(buf);
  free(other);
  MPI_Finalize();
  return 0;
}
