// The process graphs of MPI's topology calls, for libmapsim-reorder.so: task t is rank t of the
// communicator the call creates. A Cartesian grid becomes mapsim's mesh/torus (mesh:X x Y with MPI's
// last dimension as x, so task ids equal MPI's row-major ranks); graph and distributed graph edges
// become undirected volumes as trace:PATH builds them.
#pragma once
#include <vector>

#include "mappers/process_graph.h"

namespace mapsim::reorder {

// dims and periods as MPI_Cart_create takes them (dims[0] slowest). All periodic: a torus; none: a
// mesh; mixed: a mesh whose periodic dimensions also have their wrap-around edges; above 3
// dimensions a plain graph of the same edges. Every edge has volume 1.
ProcessGraph cartesian_graph(const std::vector<int>& dims, const std::vector<int>& periods);

struct DirectedEdge {
  int from, to;
  double weight;  // 1 where the call gives no weights
};

// The pair {a, b} gets volume (sum of the weights of a->b and b->a) / 2 each way, so that a graph
// listing every edge both ways with weight w has volume w per pair; self-loops are dropped (they
// cross no link). Edges in (a, b) order. Throws mapsim::Error on a task id outside 0..tasks-1.
ProcessGraph edge_graph(int tasks, const std::vector<DirectedEdge>& edges);

// MPI_Graph_create's index/edges arrays (node i's neighbours are edges[index[i-1] .. index[i]-1])
// as directed edges of weight 1.
std::vector<DirectedEdge> graph_create_edges(int nodes, const int* index, const int* edges);

}  // namespace mapsim::reorder
