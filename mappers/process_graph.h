// ProcessGraph: the process (virtual) topology of a parallel program -- tasks and the
// communication volume between them, as undirected weighted edges (each counted once, as in
// moh2001's weighted cardinality and Kramer & Muhlenbein's Gamma_C).
// Specs: mesh:16x16, torus:8x8 (and 3-D, as MPI_Cart_create), ring:64, bintree:levels=7,
// hypercube:dim=7, random:tasks=128,edges=448,seed=1, rgg:tasks=N, delaunay:tasks=N, graph:PATH,
// pattern:mesh:16x16,distant=0.1,seed=1. Every spec takes volume=BYTES (default 1) per edge.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "support/registry.h"

namespace mapsim {

struct ProcessEdge {
  int a, b;       // a < b
  double volume;  // sent each way (bytes or messages)
  bool distant = false;  // a random distant partner of a pattern (not a neighbour)
};

class ProcessGraph {
 public:
  std::string family;       // mesh, torus, ring, bintree, hypercube, random, rgg, delaunay, graph, pattern
  std::vector<int> dims;    // mesh/torus extents (x fastest); task id = x + X*(y + Y*z)
  bool periodic = false;    // the grid wraps around (torus, ring)

  explicit ProcessGraph(int tasks = 0) : tasks_(tasks) {}
  // Adds edge {a, b}: the two tasks exchange `volume` each way. Callers add each pair once.
  void add_edge(int a, int b, double volume, bool distant = false);

  int num_tasks() const { return tasks_; }
  const std::vector<ProcessEdge>& edges() const { return edges_; }
  double total_volume() const;

  // Compressed adjacency, built on first use.
  struct Neighbour {
    int task;
    double volume;
  };
  const std::vector<Neighbour>& neighbours(int task) const;

 private:
  int tasks_;
  std::vector<ProcessEdge> edges_;
  mutable std::vector<std::vector<Neighbour>> adjacency_;
};

// Process topologies register themselves in process_registry() (mesh, torus, ring, hypercube,
// bintree, random, pattern, graph:PATH; sim/ adds trace:PATH).
using ProcessRegistry = Registry<std::function<ProcessGraph(Spec&)>>;
ProcessRegistry& process_registry();
ProcessGraph make_process_graph(const std::string& spec);

// Writes `graph` in METIS format (1-based neighbour lists; an edge's volumes summed; weights written
// unless every volume is 1), which graph:PATH.graph, METIS, KaHIP and Scotch's converters read.
void write_metis_graph(const ProcessGraph& graph, std::ostream& out);

}  // namespace mapsim
