// The process graph in the compressed-sparse-row form of the partitioning libraries (Scotch's
// SCOTCH_Num, METIS's idx_t): each edge listed from both ends, volumes scaled to integers 1..1000.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "mappers/process_graph.h"

namespace mapsim {

template <typename Index>
struct ProcessCsr {
  std::vector<Index> start{0}, adjacent, weight;
};

template <typename Index>
ProcessCsr<Index> process_csr(const ProcessGraph& graph) {
  double top = 0;
  for (const ProcessEdge& e : graph.edges()) top = std::max(top, e.volume);
  ProcessCsr<Index> csr;
  for (int t = 0; t < graph.num_tasks(); ++t) {
    for (const ProcessGraph::Neighbour& n : graph.neighbours(t)) {
      csr.adjacent.push_back(static_cast<Index>(n.task));
      csr.weight.push_back(static_cast<Index>(std::max(1L, std::lround(n.volume / top * 1000))));
    }
    csr.start.push_back(static_cast<Index>(csr.adjacent.size()));
  }
  return csr;
}

}  // namespace mapsim
