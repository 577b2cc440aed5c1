// multisection: hierarchical multisection (Schulz & Traff SEA 2017; von Kirchbach, Schulz & Traff
// JEA 2020). The allocated slots form a hierarchy derived from the network's routed cost: a set of
// switches splits into the groups that are closer to each other than the set's largest distance
// (racks, then switches, on trees and fat trees), or, where that does not split it (irregular
// networks), into two halves around its two farthest switches; a switch splits into its nodes. A
// dragonfly splits by its groups first (its global links hide them from the costs). The task graph is partitioned along that hierarchy, each level by METIS into parts of
// exactly the children's slot counts, and the placement is then improved by QAP swaps in the
// communication neighbourhood (swap_search, depth 2). METIS keeps its best of `cuts` partitions per
// split, `top_cuts` at the top split (the widest distance); the cheapest of `trials` runs (seeds
// seed, seed + 1, ...) is kept.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class MultisectionMapper : public Mapper {
 public:
  MultisectionMapper(int depth, bool pull, int cuts, int top_cuts, int trials)
      : depth_(depth), pull_(pull), cuts_(cuts), top_cuts_(top_cuts), trials_(trials) {}
  std::string name() const override { return "multisection"; }
  Placement map(const MappingProblem& problem) const override;

 private:
  int depth_;   // of the swap neighbourhood; 0: no local search
  bool pull_;     // swaps with the tasks of the node each task sends most to, too
  int cuts_;      // METIS partitions tried per split
  int top_cuts_;  // ... at the top split, whose cut costs the most
  int trials_;  // whole runs with successive seeds, the cheapest kept
};

}  // namespace mapsim
