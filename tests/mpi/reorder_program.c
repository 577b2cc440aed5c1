/* The test program of tests/mpi_reorder_test.sh (libmapsim-reorder.so). With reorder = argv[1]
   (0 or 1) it creates, on MPI_COMM_WORLD, a Cartesian grid (MPI_Dims_create of 2 dimensions, not
   periodic), a periodic 1-D grid of n - 1 ranks, a weighted distributed graph (MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create)
   and an unweighted MPI_Graph_create graph. The graphs: vertex v talks to v + 1 and v - 1 (weight 1)
   and to v + n/2 (weight 10), mod n. World rank 0 prints "CALL WORLD_RANK NEW_RANK" for every process;
   every process checks the topology queries, MPI_Cart_shift and MPI_Neighbor_alltoall on the
   communicator it got. Exit 1 when a check fails. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;
static int n = 0, world = 0;

static void check(int ok, const char* what, int rank) {
  if (!ok) {
    fprintf(stderr, "FAIL (world rank %d, new rank %d): %s\n", world, rank, what);
    ++failures;
  }
}

/* Vertex v's neighbours, in the order every call lists them, and their weights. */
static void neighbours(int v, int out[3], int weight[3]) {
  out[0] = (v + 1) % n, weight[0] = 1;
  out[1] = (v - 1 + n) % n, weight[1] = 1;
  out[2] = (v + n / 2) % n, weight[2] = 10;
}

/* Every process's new rank, printed by world rank 0. */
static void report(const char* call, MPI_Comm comm) {
  int rank = -1;
  if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
  int* all = malloc(sizeof(int) * n);
  MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (world == 0)
    for (int w = 0; w < n; ++w) printf("%s %d %d\n", call, w, all[w]);
  free(all);
}

/* MPI_Neighbor_alltoall sends me*1000 + destination to each destination: what arrives from source s
   must be s*1000 + me (-1 stays where the source is MPI_PROC_NULL). */
static void exchange(MPI_Comm comm, int me, int count, const int* sources, const int* destinations, const char* what) {
  int send[8], received[8];
  for (int k = 0; k < count; ++k) {
    send[k] = me * 1000 + destinations[k];
    received[k] = -1;
  }
  MPI_Neighbor_alltoall(send, 1, MPI_INT, received, 1, MPI_INT, comm);
  for (int k = 0; k < count; ++k)
    check(received[k] == (sources[k] == MPI_PROC_NULL ? -1 : sources[k] * 1000 + me), what, me);
}

static void cartesian(int reorder) {
  int dims[2] = {0, 0}, periods[2] = {0, 0};
  MPI_Dims_create(n, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &cart);
  report("cart", cart);
  int me, topology, got_dims[2], got_periods[2], coords[2];
  MPI_Comm_rank(cart, &me);
  MPI_Topo_test(cart, &topology);
  check(topology == MPI_CART, "cart: MPI_Topo_test is MPI_CART", me);
  MPI_Cart_get(cart, 2, got_dims, got_periods, coords);
  check(got_dims[0] == dims[0] && got_dims[1] == dims[1], "cart: MPI_Cart_get dims", me);
  check(coords[0] == me / dims[1] && coords[1] == me % dims[1], "cart: coordinates are row-major in the new rank", me);
  int list[4];  /* a Cartesian topology's neighbours: per dimension, the - then the + neighbour */
  for (int d = 0; d < 2; ++d) {
    int source, destination;
    MPI_Cart_shift(cart, d, 1, &source, &destination);
    const int stride = d == 0 ? dims[1] : 1;
    list[2 * d] = coords[d] > 0 ? me - stride : MPI_PROC_NULL;
    list[2 * d + 1] = coords[d] + 1 < dims[d] ? me + stride : MPI_PROC_NULL;
    check(source == list[2 * d] && destination == list[2 * d + 1], "cart: MPI_Cart_shift", me);
  }
  exchange(cart, me, 4, list, list, "cart: MPI_Neighbor_alltoall");
  MPI_Comm_free(&cart);
}

/* A periodic 1-D grid of n - 1 ranks: the last world rank is left out (MPI_COMM_NULL). */
static void ring(int reorder) {
  int dims[1] = {n - 1}, periods[1] = {1};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, reorder, &cart);
  report("ring", cart);
  check((cart == MPI_COMM_NULL) == (world == n - 1), "ring: only the last world rank is left out", -1);
  if (cart == MPI_COMM_NULL) return;
  int me, source, destination;
  MPI_Comm_rank(cart, &me);
  MPI_Cart_shift(cart, 0, 1, &source, &destination);
  check(source == (me + n - 2) % (n - 1) && destination == (me + 1) % (n - 1), "ring: MPI_Cart_shift wraps around", me);
  const int list[2] = {source, destination};
  exchange(cart, me, 2, list, list, "ring: MPI_Neighbor_alltoall");
  MPI_Comm_free(&cart);
}

static void check_dist_graph(MPI_Comm graph, int ordered, const char* call) {
  int me, topology, in, out, weighted;
  MPI_Comm_rank(graph, &me);
  MPI_Topo_test(graph, &topology);
  check(topology == MPI_DIST_GRAPH, "dist graph: MPI_Topo_test is MPI_DIST_GRAPH", me);
  MPI_Dist_graph_neighbors_count(graph, &in, &out, &weighted);
  check(in == 3 && out == 3 && weighted, "dist graph: 3 weighted in- and out-neighbours", me);
  int sources[3], source_weights[3], destinations[3], destination_weights[3], expected[3], weights[3];
  MPI_Dist_graph_neighbors(graph, 3, sources, source_weights, 3, destinations, destination_weights);
  neighbours(me, expected, weights);
  for (int k = 0; k < 3; ++k) {
    int found_in = 0, found_out = 0;  /* MPI_Dist_graph_create orders neighbours as it likes */
    for (int j = 0; j < 3; ++j) {
      found_in += sources[j] == expected[k] && source_weights[j] == weights[k];
      found_out += destinations[j] == expected[k] && destination_weights[j] == weights[k];
    }
    check(found_in == 1 && found_out == 1, "dist graph: the neighbours of the vertex the new rank plays", me);
    if (ordered) check(sources[k] == expected[k] && destinations[k] == expected[k], "dist graph: neighbours in the order given", me);
  }
  exchange(graph, me, 3, sources, destinations, call);
}

static void distributed(int reorder) {
  int list[3], weights[3];
  neighbours(world, list, weights);
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, list, weights, 3, list, weights, MPI_INFO_NULL, reorder, &graph);
  report("dist_adjacent", graph);
  check_dist_graph(graph, 1, "dist_graph_create_adjacent: MPI_Neighbor_alltoall");
  MPI_Comm_free(&graph);
  /* The same graph, each process giving its own out-edges. */
  int degree = 3;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &world, &degree, list, weights, MPI_INFO_NULL, reorder, &graph);
  report("dist_general", graph);
  check_dist_graph(graph, 0, "dist_graph_create: MPI_Neighbor_alltoall");
  MPI_Comm_free(&graph);
}

static void general_graph(int reorder) {
  int* index = malloc(sizeof(int) * n);
  int* edges = malloc(sizeof(int) * 3 * n);
  int weights[3];
  for (int v = 0; v < n; ++v) {
    neighbours(v, &edges[3 * v], weights);
    index[v] = 3 * (v + 1);
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, reorder, &graph);
  report("graph", graph);
  int me, topology, count, got[3];
  MPI_Comm_rank(graph, &me);
  MPI_Topo_test(graph, &topology);
  check(topology == MPI_GRAPH, "graph: MPI_Topo_test is MPI_GRAPH", me);
  MPI_Graph_neighbors_count(graph, me, &count);
  MPI_Graph_neighbors(graph, me, 3, got);
  check(count == 3 && got[0] == edges[3 * me] && got[1] == edges[3 * me + 1] && got[2] == edges[3 * me + 2],
        "graph: MPI_Graph_neighbors of the new rank", me);
  exchange(graph, me, 3, got, got, "graph: MPI_Neighbor_alltoall");
  MPI_Comm_free(&graph);
  free(index);
  free(edges);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  const int reorder = argc > 1 ? atoi(argv[1]) : 1;
  cartesian(reorder);
  ring(reorder);
  distributed(reorder);
  general_graph(reorder);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world == 0) printf("failed checks %d\n", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
