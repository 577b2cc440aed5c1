// Exact-size partitions of a task subset by communication volume (METIS_PartGraphRecursive, then a
// repair that moves best-gain tasks from overfull parts): the step of `multisection` at each level of
// the machine, and of the ranks' way down a node's insides to its cores (mappers/core_placement.h).
#pragma once
#include <cstdint>
#include <vector>

#include "mappers/process_graph.h"

namespace mapsim {

class TaskPartitioner {
 public:
  TaskPartitioner(const ProcessGraph& graph, uint64_t seed);
  // Part of each of `tasks` (same order); part p gets exactly sizes[p] of them. `cuts` METIS partitions
  // are tried, the smallest cut kept.
  std::vector<int> split(const std::vector<int>& tasks, const std::vector<int>& sizes, int cuts);

 private:
  const ProcessGraph& graph_;
  uint64_t seed_;
  double top_ = 0;
  std::vector<int> local_;  // index of a task in the current subset, -1 outside
};

}  // namespace mapsim
