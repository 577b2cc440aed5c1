// Kramer & Muhlenbein's partition strategies (1989, section 6), for a job that is first split
// with an optimal-as-possible partitioning (GraphPartitioner) and whose parts are then placed at
// random:
//   part   one part per allowed node (sizes proportional to its slots), parts on random nodes
//   parts  one part per switch ("cluster"), parts on random switches; inside a switch the part is
//          partitioned again over its nodes (all nodes of a switch are equally close)
// O(E log T) for the partitioning.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class PartMapper : public Mapper {
 public:
  explicit PartMapper(bool per_switch) : per_switch_(per_switch) {}
  std::string name() const override { return per_switch_ ? "parts" : "part"; }
  Placement map(const MappingProblem& problem) const override;

 private:
  bool per_switch_;
};

// `total` split into parts proportional to `capacities` (each part at most its capacity).
std::vector<int> proportional_sizes(int total, const std::vector<int>& capacities);

}  // namespace mapsim
