// best: mapsim's own mapper. It builds several placements -- the exact embedding of a process grid
// into a regular network when one exists (Gray-code blocks on a hypercube, scaled blocks on a
// mesh/torus of the same dimension), binary (BM), adjacency (AM, 2-D grids), scotch, metis, switch,
// greedy and multisection -- refines each with local search on the network's routed cost
// (refine_placement: zero-load latency, 0 on one node, so ranks that talk share nodes when slots
// allow; eq. 3 on SUPRENUM; where one of its passes would scan more than kMaxRefineScan slots, the
// QAP swaps of swap_search instead), and keeps the cheapest (ties: the earlier candidate). With one slot per node on a
// homogeneous network the cost orders placements as the weighted cardinality does, so it is never
// worse than any of those mappers. Cost: the sum of theirs plus the refinement passes.
#pragma once
#include <optional>

#include "mappers/mapper.h"

namespace mapsim {

class BestMapper : public Mapper {
 public:
  std::string name() const override { return "best"; }
  Placement map(const MappingProblem& problem) const override;
};

// Switch of each task for a grid process topology on a hypercube, mesh or torus network (whole
// network allocated), or nothing when the shapes do not fit.
std::optional<std::vector<int>> regular_embedding(const MappingProblem& problem);

}  // namespace mapsim
