// Switch-based mapping, SM (moh2001 section 4.1). Switches in order of decreasing switch size
// (allocated slots on the switch; ties: lower id) each take the next block of tasks in buddy
// order: the order in which recursive halving of the process mesh (longest dimension first, the
// buddy heuristic of Li & Cheng) lists the tasks, so every aligned power-of-two run of the order
// is a compact sub-mesh. Graphs without grid coordinates use task order. O(T log T).
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class SwitchMapper : public Mapper {
 public:
  std::string name() const override { return "switch"; }
  Placement map(const MappingProblem& problem) const override;
  bool uses_seed() const override { return false; }
};

// Tasks of a grid with extents `dims` (x fastest) in buddy order.
std::vector<int> buddy_order(const std::vector<int>& dims);

}  // namespace mapsim
