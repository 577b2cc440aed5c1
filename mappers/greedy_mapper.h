// Greedy mapper of OMARS (antonio1994 section 3.2.4, after Bollinger & Midkiff): the next task is
// the unmapped one with the most already-mapped neighbours (ties: lowest id); it takes the next
// free slot in processor order -- Gray-code order on a hypercube, elsewhere switches in BFS order
// from the switch of the first allocated node, slots switch by switch. O(E log E).
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class GreedyMapper : public Mapper {
 public:
  std::string name() const override { return "greedy"; }
  Placement map(const MappingProblem& problem) const override;
  bool uses_seed() const override { return false; }
};

// The problem's slots in the greedy processor order.
std::vector<int> locality_slot_order(const MappingProblem& problem);

}  // namespace mapsim
