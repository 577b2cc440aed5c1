// Simulated annealing on the weighted cardinality (routed hops), the strongest hypercube embedding
// heuristic of antonio1994's comparison. A move swaps the contents of two random slots (a task
// and a task, or a task and a free slot); its cost change is computed in O(degree). Start: random
// placement; initial temperature accepts ~80 % of uphill moves; geometric cooling by 0.95 with
// `moves` x T moves per temperature (default 200); stops when a temperature accepts < 0.1 %.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class AnnealingMapper : public Mapper {
 public:
  explicit AnnealingMapper(int moves_per_task = 200) : moves_per_task_(moves_per_task) {}
  std::string name() const override { return "annealing"; }
  Placement map(const MappingProblem& problem) const override;

 private:
  int moves_per_task_;
};

}  // namespace mapsim
