/* Mini-app traced by bench/mapping_advice.sh: Jacobi iterations of the 7-point Laplacian on a 3-D grid
 * split over a non-periodic Cartesian communicator (MPI_Dims_create), one N^3 block of doubles per rank
 * (N = argv[1], default 32). Each iteration exchanges the six faces with MPI_Irecv/MPI_Isend/MPI_Waitall
 * (a face is N*N doubles; ranks on the domain's boundary have fewer neighbours), updates the block and
 * MPI_Allreduce's the squared update norm. Iterations = argv[2] (default 5). Rank 0 prints the grid and
 * the final norm.
 *   mpicc -O2 -o halo_app bench/halo_app.c && mpirun -np 128 ./halo_app 32 5 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDX(i, j, k) (((size_t)(i) * (n + 2) + (j)) * (n + 2) + (k))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 32, iterations = argc > 2 ? atoi(argv[2]) : 5;
  int size, rank, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  size_t cells = (size_t)(n + 2) * (n + 2) * (n + 2), face = (size_t)n * n;
  double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
  double *sendbuf = malloc(6 * face * sizeof *sendbuf), *recvbuf = malloc(6 * face * sizeof *recvbuf);
  if (!u || !v || !sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 1; i <= n; i++)  /* a smooth initial field that differs between blocks */
    for (int j = 1; j <= n; j++)
      for (int k = 1; k <= n; k++)
        u[IDX(i, j, k)] = (double)((coords[0] * n + i) % 7 + (coords[1] * n + j) % 5 + (coords[2] * n + k) % 3);
  double norm = 0;
  for (int it = 0; it < iterations; it++) {
    MPI_Request req[12];
    int nreq = 0;
    for (int d = 0; d < 3; d++)
      for (int side = 0; side < 2; side++) {  /* side 0: the low face (plane 1), side 1: the high face (plane n) */
        int src, dst, f = 2 * d + side;
        MPI_Cart_shift(cart, d, side ? 1 : -1, &src, &dst);
        if (dst == MPI_PROC_NULL) continue;
        int plane = side ? n : 1;
        double *s = sendbuf + f * face, *r = recvbuf + f * face;
        size_t m = 0;
        for (int a = 1; a <= n; a++)
          for (int b = 1; b <= n; b++)
            s[m++] = d == 0 ? u[IDX(plane, a, b)] : d == 1 ? u[IDX(a, plane, b)] : u[IDX(a, b, plane)];
        MPI_Irecv(r, (int)face, MPI_DOUBLE, dst, 100 + f, cart, &req[nreq++]);
        MPI_Isend(s, (int)face, MPI_DOUBLE, dst, 100 + (f ^ 1), cart, &req[nreq++]);
      }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < 3; d++)  /* unpack the received faces into the ghost planes */
      for (int side = 0; side < 2; side++) {
        int src, dst, f = 2 * d + side;
        MPI_Cart_shift(cart, d, side ? 1 : -1, &src, &dst);
        if (dst == MPI_PROC_NULL) continue;
        int ghost = side ? n + 1 : 0;
        double *r = recvbuf + f * face;
        size_t m = 0;
        for (int a = 1; a <= n; a++)
          for (int b = 1; b <= n; b++) {
            if (d == 0) u[IDX(ghost, a, b)] = r[m++];
            else if (d == 1) u[IDX(a, ghost, b)] = r[m++];
            else u[IDX(a, b, ghost)] = r[m++];
          }
      }
    double local = 0;
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        for (int k = 1; k <= n; k++) {
          double x = (u[IDX(i - 1, j, k)] + u[IDX(i + 1, j, k)] + u[IDX(i, j - 1, k)] + u[IDX(i, j + 1, k)] +
                      u[IDX(i, j, k - 1)] + u[IDX(i, j, k + 1)]) / 6.0;
          local += (x - u[IDX(i, j, k)]) * (x - u[IDX(i, j, k)]);
          v[IDX(i, j, k)] = x;
        }
    double *t = u; u = v; v = t;
    MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("halo_app: %d ranks (%dx%dx%d), %d^3 per rank, %d iterations, update norm^2 %.6e\n",
                        size, dims[0], dims[1], dims[2], n, iterations, norm);
  free(u); free(v); free(sendbuf); free(recvbuf);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
